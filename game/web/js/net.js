// The phone's one WebSocket: hello on every (re)connect, heartbeat + clock sync pings, automatic
// reconnect with back-off (also on visibilitychange and online), and the close codes that must
// NOT reconnect (taken over, bad token, kicked, gallery full). See docs/protocol.md.

export const PROTOCOL_VERSION = 1;

/** The phone's own clock in ms (sub-ms, monotonic within the page): what clock sync maps and what
 *  race presses and timed gestures are stamped with (docs/protocol.md, "Clock sync"). */
export function phoneNow() {
  return performance.timeOrigin + performance.now();
}

/** Connection states the app shows. */
export const Status = Object.freeze({
  CONNECTING: "connecting",
  ONLINE: "online",
  OFFLINE: "offline", // lost; reconnecting by itself
  TAKEN_OVER: "taken_over", // 4001: another device opened this seat
  REJECTED: "rejected", // 4003: unknown token / bad PIN
  KICKED: "kicked", // 4004: the host freed this seat
  NEW_GROUP: "new_group", // 4005: kiosk: the table was handed to the next group
  GALLERY_FULL: "gallery_full", // 4009: too many spectators; the page offers "try again"
});
/** @typedef {typeof Status[keyof typeof Status]} ConnStatus */

const CLOSE_TAKEN_OVER = 4001;
const CLOSE_REJECTED = 4003;
const CLOSE_KICKED = 4004;
const CLOSE_NEW_GROUP = 4005;
const CLOSE_GALLERY_FULL = 4009;
const CLOSE_HEARTBEAT = 4000; // ours: the server stopped answering pings
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 5000;
const MISSED_PONGS_OFFLINE = 2;
const CLOCK_SAMPLES = 8;
const WAKE_PONG_MS = 3000; // after the screen comes back, a pong must arrive this soon or we reconnect

/**
 * @typedef {{ kind: string, [field: string]: any }} Message
 * Events dispatched (CustomEvent, detail = message): "message" for every server message,
 * "status" (detail = {status, code?}) when the connection state changes.
 */
export class Connection extends EventTarget {
  /** @param {() => Record<string, any>} helloFields fields of the hello sent on every connect */
  constructor(helloFields) {
    super();
    this.helloFields = helloFields;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {ConnStatus} */
    this.status = Status.CONNECTING;
    this.attempt = 0;
    this.heartbeatMs = 5000;
    this.missedPongs = 0;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.retryTimer = null;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.pingTimer = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.wakeTimer = null;
    /** @type {{ rtt: number, offset: number }[]} */
    this.clockSamples = [];
    this.stopped = false;
    this.everOnline = false;
    this.onVisible = () => {
      if (document.visibilityState === "visible") this.wake();
    };
    this.onOnline = () => this.wake();
    this.onOffline = () => this.drop("offline");
  }

  start() {
    this.stopped = false;
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onOnline);
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("pageshow", this.onVisible);
    this.connect();
  }

  /** Stop for good (a terminal close code, or leaving). */
  stop() {
    this.stopped = true;
    this.clearTimers();
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("pageshow", this.onVisible);
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState <= WebSocket.OPEN) ws.close(1000, "bye");
  }

  /** Reconnect after a terminal close (the "use this phone" button). */
  restart() {
    this.stop();
    this.attempt = 0;
    this.setStatus(Status.CONNECTING);
    this.start();
  }

  /** The page became visible or the network came back: check now instead of waiting. */
  wake() {
    if (this.stopped) return;
    this.clockSamples = []; // the phone may have slept: its clock samples are stale
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      // The socket may have died silently while the screen was off: check it now.
      this.missedPongs = 0;
      this.ping();
      if (this.wakeTimer) clearTimeout(this.wakeTimer);
      this.wakeTimer = setTimeout(() => {
        this.wakeTimer = null;
        if (this.missedPongs > 0) this.drop("no pong after wake");
      }, WAKE_PONG_MS);
      return;
    }
    if (this.ws && this.ws.readyState === WebSocket.CONNECTING) return;
    this.attempt = 0;
    this.connectSoon(0);
  }

  connect() {
    if (this.stopped) return;
    this.clearTimers();
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    let ws;
    try {
      ws = new WebSocket(`${scheme}://${location.host}/ws`);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => this.onOpen(ws));
    ws.addEventListener("message", (ev) => this.onMessage(ws, ev));
    ws.addEventListener("close", (ev) => this.onClose(ws, ev));
  }

  /** @param {WebSocket} ws */
  onOpen(ws) {
    if (ws !== this.ws) return;
    this.missedPongs = 0;
    this.rawSend({ kind: "hello", ...this.helloFields() });
    this.pingTimer = setInterval(() => this.heartbeat(), this.heartbeatMs);
  }

  /** @param {WebSocket} ws @param {MessageEvent} ev */
  onMessage(ws, ev) {
    if (ws !== this.ws || typeof ev.data !== "string") return;
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return; // not ours to crash on: ignore a frame we cannot read
    }
    if (!msg || typeof msg !== "object" || typeof msg.kind !== "string") return;
    if (msg.kind === "welcome") this.onWelcome(msg);
    if (msg.kind === "pong") this.onPong(msg);
    if (msg.kind === "sync" && Number.isInteger(msg.s)) this.rawSend({ kind: "sync_reply", s: msg.s, t: phoneNow() });
    this.dispatchEvent(new CustomEvent("message", { detail: msg }));
  }

  /** @param {Message} msg */
  onWelcome(msg) {
    this.attempt = 0;
    this.everOnline = true;
    this.clockSamples = [];
    if (Number.isInteger(msg.heartbeat_ms) && msg.heartbeat_ms >= 1000 && msg.heartbeat_ms !== this.heartbeatMs) {
      this.heartbeatMs = msg.heartbeat_ms;
      if (this.pingTimer) clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.heartbeat(), this.heartbeatMs);
    }
    this.setStatus(Status.ONLINE);
    this.ping();
  }

  /** @param {Message} msg */
  onPong(msg) {
    this.missedPongs = 0;
    if (this.status === Status.OFFLINE) this.setStatus(Status.ONLINE);
    const now = performance.now();
    if (typeof msg.t !== "number" || typeof msg.server_ms !== "number") return;
    const rtt = now - msg.t;
    if (rtt < 0 || rtt > 60000) return;
    this.clockSamples.push({ rtt, offset: msg.server_ms - (msg.t + rtt / 2) });
    if (this.clockSamples.length > CLOCK_SAMPLES) this.clockSamples.shift();
  }

  /** @param {WebSocket} ws @param {CloseEvent} ev */
  onClose(ws, ev) {
    if (ws !== this.ws) return;
    this.ws = null;
    this.clearTimers();
    if (this.stopped) return;
    const terminal = { [CLOSE_TAKEN_OVER]: Status.TAKEN_OVER, [CLOSE_REJECTED]: Status.REJECTED, [CLOSE_KICKED]: Status.KICKED, [CLOSE_NEW_GROUP]: Status.NEW_GROUP, [CLOSE_GALLERY_FULL]: Status.GALLERY_FULL }[ev.code];
    if (terminal) {
      this.stopped = true;
      this.setStatus(terminal, ev.code);
      return;
    }
    this.setStatus(this.everOnline ? Status.OFFLINE : Status.CONNECTING, ev.code);
    this.scheduleRetry();
  }

  heartbeat() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    if (this.missedPongs >= MISSED_PONGS_OFFLINE) {
      // Two pings unanswered: the link is dead even if the socket has not noticed. Start over.
      this.drop("no pong");
      return;
    }
    this.ping();
  }

  /** Give up on the current socket (the network went away) and reconnect with back-off. @param {string} reason */
  drop(reason) {
    if (this.stopped) return;
    const ws = this.ws;
    this.ws = null;
    this.clearTimers();
    if (ws && ws.readyState <= WebSocket.OPEN) ws.close(CLOSE_HEARTBEAT, reason);
    this.setStatus(Status.OFFLINE);
    this.scheduleRetry();
  }

  ping() {
    if (this.rawSend({ kind: "ping", t: performance.now() })) this.missedPongs += 1;
  }

  scheduleRetry() {
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.attempt);
    this.attempt += 1;
    this.connectSoon(base * (0.75 + Math.random() * 0.5));
  }

  /** @param {number} delayMs */
  connectSoon(delayMs) {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delayMs);
  }

  clearTimers() {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.retryTimer = null;
    this.pingTimer = null;
    this.wakeTimer = null;
  }

  /** @param {ConnStatus} status @param {number} [code] */
  setStatus(status, code) {
    if (status === this.status) return;
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: { status, code } }));
  }

  /** Send a client message; false when offline (the caller tells the player). @param {string} kind @param {Record<string, any>} [fields] */
  send(kind, fields = {}) {
    if (this.status !== Status.ONLINE) return false;
    return this.rawSend({ kind, ...fields });
  }

  /** @param {Record<string, any>} msg */
  rawSend(msg) {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify({ v: PROTOCOL_VERSION, ...msg }));
    return true;
  }

  /** Server clock now (ms), from the ping with the shortest round trip; null before any pong. */
  serverNow() {
    if (this.clockSamples.length === 0) return null;
    const best = this.clockSamples.reduce((a, b) => (b.rtt < a.rtt ? b : a));
    return performance.now() + best.offset;
  }
}
