// Keep the screen awake while a game runs.
// 1. The Screen Wake Lock API where the page is a secure context (https or localhost); the lock is
//    dropped by the browser when the page is hidden, so it is asked for again on visibilitychange.
// 2. Elsewhere (a LAN address over plain http is not a secure context), the documented fallback:
//    a tiny muted, looping, inline video that is playing — mobile browsers do not dim the screen
//    while a video plays. The video is drawn by the page itself (a canvas stream), nothing is
//    fetched. It can only start from a tap, so it is armed on the next pointerdown.

let wanted = false;
/** @type {WakeLockSentinel | null} */
let sentinel = null;
/** @type {HTMLVideoElement | null} */
let video = null;
let armed = false;

export function wakeLockSupported() {
  return window.isSecureContext && Boolean(navigator.wakeLock);
}

/** Ask for the screen to stay on (true) or release it (false). @param {boolean} on */
export function keepAwake(on) {
  if (on === wanted) return;
  wanted = on;
  if (on) {
    document.addEventListener("visibilitychange", reacquire);
    acquire();
  } else {
    document.removeEventListener("visibilitychange", reacquire);
    release();
  }
}

function reacquire() {
  if (document.visibilityState === "visible" && wanted) acquire();
}

async function acquire() {
  if (wakeLockSupported()) {
    if (sentinel && !sentinel.released) return;
    try {
      sentinel = await navigator.wakeLock.request("screen");
      sentinel.addEventListener("release", () => mark());
      mark();
      return;
    } catch {
      // Denied (battery saver, no user activation yet): fall back to the video below.
    }
  }
  armVideo();
}

function armVideo() {
  if (video && !video.paused) return;
  if (armed) return;
  armed = true;
  const start = () => {
    armed = false;
    document.removeEventListener("pointerdown", start, true);
    if (wanted) playVideo();
  };
  document.addEventListener("pointerdown", start, true);
}

function playVideo() {
  if (!video) video = makeVideo();
  if (!video) return;
  video.play().then(mark, () => armVideo());
}

/** Say on <body data-awake> how the screen is kept on now: "lock", "video" or "" (for checks). */
function mark() {
  const how = sentinel && !sentinel.released ? "lock" : video && !video.paused ? "video" : "";
  document.body.dataset.awake = how;
}

/** A 2×2 canvas stream in a hidden, muted, inline, looping video element. */
function makeVideo() {
  const canvas = document.createElement("canvas");
  canvas.width = 2;
  canvas.height = 2;
  if (typeof canvas.captureStream !== "function") return null;
  const ctx = canvas.getContext("2d");
  let flip = false;
  // A stream only carries frames when the canvas changes: paint now (the video starts on its
  // first frame), then repaint one pixel now and then so it keeps playing.
  const paint = () => {
    if (!ctx) return;
    flip = !flip;
    ctx.fillStyle = flip ? "#000" : "#010101";
    ctx.fillRect(0, 0, 2, 2);
  };
  paint();
  setInterval(() => { if (wanted) paint(); }, 5000);
  const el = document.createElement("video");
  el.muted = true;
  el.loop = true;
  el.playsInline = true;
  el.setAttribute("playsinline", "");
  el.setAttribute("aria-hidden", "true");
  el.className = "wake-video";
  el.srcObject = canvas.captureStream(1);
  document.body.appendChild(el);
  return el;
}

async function release() {
  const s = sentinel;
  sentinel = null;
  if (s && !s.released) await s.release().catch(() => undefined);
  if (video) video.pause();
  mark();
}
