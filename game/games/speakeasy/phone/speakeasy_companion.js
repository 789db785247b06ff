// Speakeasy, companion mode, on the phone: the people (and maybe the identity cards and the fingers)
// are real. The phone holds your identity when the program dealt it (face down, tap to peek), lets the
// host pick the subject (S6), points for you when pointing is on the phones (S7, secret until all
// have pointed), or lets the clue's host tap who pointed at whom (with undo); the subject reveals
// their identity with one tap (S8); the score pad follows S8–S13 with every correction shown; quick
// rules say what just happened. The host console gets the referee's taps.
// Formats: game/games/speakeasy/companion_views.md.
import { h } from "../dom.js";
import { num, t, tn, typedNumber } from "../i18n.js";
import { clueText } from "./clues.js";
import { icon } from "../icons.js";
import { card, numberInput } from "../ui.js";
import { bigButton, hasType, isLegal, lobbySeat, padCells } from "./common.js";
import { chip, identityCard, name, names, nameText, rule, seatGrid } from "./speakeasy.js";

/** @typedef {import("./common.js").GameContext} GameContext */

const QUICK_RULES = Object.freeze(["S5", "S6", "S7", "S8", "S9", "S10", "S12", "S13"]);

/** The pad correction form's problem. @type {string | null} */
let padError = null;
/** The host's correction form: the player picked and what is typed, kept across redraws.
 *  @type {{seat: number | null, clue: string, points: string}} */
let padPick = { seat: null, clue: "", points: "" };

/** @param {GameContext} ctx */
function statusBar(ctx) {
  const v = ctx.view;
  return h("div", { class: "status-bar" },
    h("div", { class: "status-text" },
      h("div", { class: "status-where", text: t("sec.clue_of", { n: v.clue.number, total: v.clue.total }) }),
      // at the end the winner card below names the winner: the title says "Game over"
      h("h1", { class: "status-title", "data-testid": "status", text: v.phase === "game_over" ? t("speakeasy.finished") : t(`sec.title.${v.phase}`) })),
    ctx.timer);
}

/** The clue as the big screen shows it, or the instruction to read the real top card. @param {GameContext} ctx */
function clueCard(ctx) {
  const v = ctx.view;
  if (v.phase === "game_over" || v.phase === "final_identities") return null;
  return h("section", { class: "card clue-card" },
    h("p", { class: "muted small" }, ...tn("sec.host_is", { host: name(ctx, v.host) }), " ", rule("S5")),
    h("p", { class: "clue-text", dir: "auto", "data-testid": "clue", text: clueText(v.settings ?? {}, v.clue, ctx.rerender) ?? t("sec.top_card") }));
}

/** Own identity: dealt to this phone (face down), or a real card the program does not know. @param {GameContext} ctx */
function identity(ctx) {
  const v = ctx.view;
  if (ctx.seat === null || v.phase === "game_over") return null;
  if (v.settings.identities === "phones") return identityCard(ctx);
  return card(t("speakeasy.you_are"), h("p", { class: "muted", "data-testid": "real-identity", text: t("sec.real_identity") }));
}

/** Whom the clue describes: the host picks (S6). @param {GameContext} ctx */
function choosing(ctx) {
  const v = ctx.view;
  if (!v.me?.is_host) return card(null, h("p", { class: "lead" }, ...tn("speakeasy.wait_host", { host: name(ctx, v.host) })));
  return h("div", { class: "vote-panel" }, h("p", { class: "lead" }, t("speakeasy.choose_hint"), " ", rule("S6")),
    seatGrid(ctx, v.pointers, v.me.subject, (s) => ({ type: "choose_subject", subject: s })));
}

/** @param {GameContext} ctx */
function pointing(ctx) {
  const v = ctx.view;
  const count = h("p", { class: "muted center small", text: t("speakeasy.pointed_count", { n: v.pointed.length, total: v.pointers.length }) });
  if (!v.me || v.me.is_host) return card(null, h("p", { class: "lead", text: t("sec.others_point") }), count);
  return h("div", { class: "vote-panel" },
    h("p", { class: "lead" }, v.me.pointed_at === null ? t("speakeasy.point_hint") : t("speakeasy.point_change"), " ", rule("S7")),
    seatGrid(ctx, v.pointers, v.me.pointed_at, (s) => ({ type: "point", target: s })),
    h("p", { class: "secret-note" }, icon("lock", 14), t("sec.point_secret")), count);
}

/** Fingers: tap who points at whom (the clue's host, or the console host); every tap can be undone. @param {GameContext} ctx @param {any[]} fingers @param {(a: any) => void} act */
function recorder(ctx, fingers, act) {
  const v = ctx.view;
  const rows = v.pointers.map((/** @type {number} */ s) => {
    const done = !v.recorded.missing.includes(s);
    const targets = [...v.pointers, null].map((/** @type {number | null} */ target) => {
      const chosen = done && fingers[s] === target;
      return h("button", {
        class: `btn ${chosen ? "btn-primary" : "btn-ghost"} btn-small`, type: "button", "aria-pressed": String(chosen),
        "data-testid": `finger-${s}-${target === null ? "none" : target}`, disabled: ctx.pending || chosen,
        onclick: () => act({ type: "record_point", seat: s, target }),
      }, target === null ? t("sec.nobody") : target === s ? t("sec.self") : chip(ctx, target));
    });
    return h("li", { class: "finger-row" }, h("p", null, ...tn("sec.points_at", { who: name(ctx, s) })), h("div", { class: "finger-targets" }, ...targets));
  });
  return card(t("sec.record_title"),
    h("p", { class: "muted small" }, t("sec.record_hint"), " ", rule("S7")),
    h("ul", { class: "plain-list" }, ...rows),
    v.recorded.can_undo ? bigButton(t("sec.undo_tap"), () => act({ type: "undo_point" }), { tone: "ghost", testid: "undo-finger" }) : null,
    v.recorded.missing.length ? h("p", { class: "muted small", text: t("sec.missing", { n: v.recorded.missing.length }) })
      : bigButton(t("sec.fingers_done"), () => act({ type: "pointing_done" }), { testid: "fingers-done", disabled: ctx.pending }));
}

/** One tap: the subject (S8) or, at the end, an unrevealed player (S12) turns their identity over. @param {GameContext} ctx @param {number | null} seat @param {(a: any) => void} act */
function revealButtons(ctx, seat, act) {
  const v = ctx.view;
  // The host acting for a player says whose card it is ("Sara turned over…"), never "my" / "I".
  const who = seat === null || seat === undefined ? null : { name: nameText(lobbySeat(ctx, seat)) };
  if (v.settings.identities === "phones") {
    return [bigButton(who ? t("sec.host_reveal", who) : t("sec.reveal_mine"), () => act({ type: "reveal_identity", identity: null, seat }), { testid: `reveal-${seat ?? "me"}`, disabled: ctx.pending })];
  }
  return ["informant", "citizen"].map((id) => bigButton(who ? t(`sec.host_turned.${id}`, who) : t(`sec.turned.${id}`), () => act({ type: "reveal_identity", identity: id, seat }),
    { tone: id === "informant" ? "danger" : "primary", testid: `turned-${id}-${seat ?? "me"}`, disabled: ctx.pending }));
}

/** @param {GameContext} ctx */
function identityAsked(ctx) {
  const v = ctx.view;
  const ruleId = v.phase === "identity" ? "S8" : "S12";
  if (v.me?.must_reveal) {
    return card(t("sec.your_turn_reveal"), h("p", { class: "lead" }, t(v.phase === "identity" ? "sec.found_you" : "sec.end_reveal"), " ", rule(ruleId)),
      h("div", { class: "stack" }, ...revealButtons(ctx, null, (a) => ctx.act(a))));
  }
  return card(null, h("p", { class: "lead" }, ...tn("sec.waiting_reveal", { names: names(ctx, v.identity_asked) }), " ", rule(ruleId)));
}

/** The last clue in words, with its rule. @param {GameContext} ctx */
function lastClue(ctx) {
  const r = ctx.view.last;
  if (!r) return null;
  const arrows = r.pointing.map((/** @type {number | null} */ target, /** @type {number} */ s) =>
    s === r.host ? null : h("li", null, ...tn(target === null ? "speakeasy.pointed_nobody" : "speakeasy.pointed_at", { who: name(ctx, s), target: target === null ? "" : name(ctx, target) })));
  const outcome = r.outcome === "nobody"
    ? h("p", null, ...tn("speakeasy.nobody_found", { host: name(ctx, r.host) }), " ", rule("S9"))
    : h("p", null, ...tn(`speakeasy.outcome.${r.outcome}`, { subject: name(ctx, r.subject), names: names(ctx, r.correct) }), " ", rule("S8"));
  return card(t("speakeasy.last_clue", { n: r.number }), h("div", { class: "explain", "data-testid": "reveal" },
    h("p", null, ...tn("speakeasy.subject_was", { host: name(ctx, r.host), subject: name(ctx, r.subject) })),
    h("ul", { class: "plain-list votes" }, ...arrows.filter(Boolean)), outcome));
}

/** The score pad: a cell per clue, the total, every correction. @param {GameContext} ctx */
function padCard(ctx) {
  const v = ctx.view;
  const pad = v.pad;
  const order = [...v.seats].sort((/** @type {any} */ a, /** @type {any} */ b) => b.score - a.score || a.seat - b.seat);
  const rows = order.map((/** @type {any} */ s) => h("li", { class: `table-row${v.winners.includes(s.seat) ? " winner" : ""}`, "data-testid": `pad-${s.seat}` },
    chip(ctx, s.seat),
    padCells(pad.rows[s.seat]),
    h("span", { class: "row-state", text: s.identity ? t(`speakeasy.identity.${s.identity}`) : "" }),
    h("strong", { class: "row-bars", text: num(s.score) })));
  const where = (/** @type {number} */ row) => (row > v.clue.total ? t("sec.pad_bonus") : t("sec.pad_clue", { n: num(row) }));
  const trace = pad.trace.map((/** @type {any} */ c) => h("li", { class: "muted small" }, ...tn(c.kind === "undo" ? "sec.trace_undo" : "sec.trace_host",
    { name: name(ctx, c.seat), where: where(c.round), old: c.old === null ? "–" : num(c.old), new: c.new === null ? "–" : num(c.new) })));
  return card(t("sec.pad_title"), h("ul", { class: "plain-list table-list", "data-testid": "pad" }, ...rows),
    trace.length ? h("ul", { class: "plain-list", "data-testid": "pad-trace" }, ...trace) : null);
}

/** @param {GameContext} ctx */
function quickRules(ctx) {
  const notes = ctx.view.notes ?? [];
  const lines = notes.map((/** @type {any} */ n) => h("li", null,
    ...tn(`sec.note.${n.key}`, { names: names(ctx, n.seats), n: n.value === null ? "" : num(n.value) }), " ", rule(n.rule)));
  return card(t("sec.quick_rules"),
    lines.length ? h("ul", { class: "plain-list", "data-testid": "quick-rule" }, ...lines) : null,
    h("details", null, h("summary", { text: t("sec.all_rules") }),
      h("ul", { class: "plain-list" }, ...QUICK_RULES.map((id) => h("li", null, rule(id), " ", t(`sec.rule.${id}`))))));
}

/** @param {GameContext} ctx */
function finalCard(ctx) {
  const v = ctx.view;
  const won = ctx.seat !== null && v.winners.includes(ctx.seat);
  return h("div", null,
    ctx.seat === null ? null : h("div", { class: `result-banner ${won ? "win" : "lose"}`, "data-testid": "result" }, won ? icon("trophy", 36) : null, won ? t("common.you_won") : t("common.you_lost")),
    card(t("common.winners"), h("p", { class: "lead" }, ...tn(v.winners.length > 1 ? "common.winners_shared" : "common.winner_is", { names: names(ctx, v.winners) }), " ", rule("S13")),
      h("p", { class: "muted small", text: t(`sec.tie.${v.tie_break}`) })));
}

/** @param {GameContext} ctx */
function action(ctx) {
  const v = ctx.view;
  if (v.phase === "choosing") return choosing(ctx);
  if (v.phase === "countdown") return card(null, h("p", { class: "lead countdown", "data-testid": "countdown", text: t("sec.countdown") }));
  if (v.phase === "pointing") return pointing(ctx);
  if (v.phase === "recording") {
    return v.me?.is_host ? recorder(ctx, v.me.fingers, (a) => ctx.act(a))
      : card(null, h("p", { class: "lead" }, ...tn("sec.keep_pointing", { host: name(ctx, v.host) }), " ", rule("S7")));
  }
  if (v.phase === "identity" || v.phase === "final_identities") return identityAsked(ctx);
  if (v.phase === "reveal" && isLegal(ctx.legal, { type: "continue" })) {
    return bigButton(t(v.clue.number >= v.clue.total ? "speakeasy.continue_last" : "speakeasy.continue"), () => ctx.act({ type: "continue" }), { testid: "continue", disabled: ctx.pending });
  }
  if (v.phase === "game_over") return finalCard(ctx);
  return null;
}

// --------------------------------------------------------------------------------- host (referee)
/** A typed whole number (Persian and Thai digits too), else NaN. @param {string} text */
function wholeNumber(text) {
  const typed = typedNumber(text);
  return /^[-+]?\d+$/.test(typed) ? Number(typed) : Number.NaN;
}

/** @param {GameContext} ctx */
function padForm(ctx) {
  const v = ctx.view;
  // The player picked stays picked across the table's redraws and after a correction (a second tap
  // must never write the typed points onto another player); the fields are emptied once sent.
  const seatSel = /** @type {HTMLSelectElement} */ (h("select", { id: "pad-seat", "data-testid": "pad-seat" },
    ...v.seats.map((/** @type {any} */ s) => h("option", { value: String(s.seat), text: nameText(lobbySeat(ctx, s.seat)) }))));
  seatSel.value = String(padPick.seat ?? v.seats[0]?.seat ?? 0);
  seatSel.addEventListener("change", () => { padPick.seat = Number(seatSel.value); });
  const clue = numberInput("pad-clue", { id: "pad-clue", value: padPick.clue });
  const points = numberInput("pad-points", { id: "pad-points", value: padPick.points });
  clue.addEventListener("input", () => { padPick.clue = clue.value; });
  points.addEventListener("input", () => { padPick.points = points.value; });
  const field = (/** @type {string} */ id, /** @type {string} */ key, /** @type {Node} */ input) =>
    h("div", { class: "field" }, h("label", { for: id, class: "label", text: t(key) }), input);
  return h("form", {
    class: "join-form", onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const row = wholeNumber(clue.value);
      const value = wholeNumber(points.value);
      padError = Number.isInteger(row) && Number.isInteger(value) && value >= 0 ? null : "sec.pad_error";
      if (padError) { ctx.rerender(); return; }
      padPick = { seat: Number(seatSel.value), clue: "", points: "" };
      ctx.act({ type: "edit_score", seat: Number(seatSel.value), clue: row, points: value });
    },
  }, h("h3", { class: "label", text: t("sec.pad_fix") }),
  field("pad-seat", "sec.pad_seat", seatSel), field("pad-clue", "sec.pad_which", clue), field("pad-points", "sec.pad_points", points),
  h("p", { class: "form-error", role: "alert", text: padError ? t(padError) : "" }),
  h("button", { class: "btn btn-ghost", type: "submit", "data-testid": "pad-go", text: t("sec.pad_send") }));
}

/** @param {GameContext} ctx */
function hostPanel(ctx) {
  const v = ctx.view;
  if (v.phase === "game_over") return null;
  const act = (/** @type {any} */ a) => ctx.act(a);  // the host console sends it as the table
  const parts = [];
  // S6 untimed waits for the clue host; one whose phone left (a freed seat) would hold the table forever
  if (v.phase === "choosing" && !lobbySeat(ctx, v.host).connected) {
    parts.push(h("div", { class: "vote-panel", "data-testid": "pick-for-host" },
      h("p", { class: "lead" }, ...tn("sec.pick_for", { host: name(ctx, v.host) }), " ", rule("S6")),
      seatGrid(ctx, v.pointers, null, (s) => ({ type: "choose_subject", subject: s }))));
  }
  if (v.phase === "recording") parts.push(recorder(ctx, v.recorded.fingers, act));
  if (v.phase === "identity" || v.phase === "final_identities") {
    for (const s of v.identity_asked) parts.push(h("div", { class: "host-entry" }, chip(ctx, s), ...revealButtons(ctx, s, act)));
  }
  if (v.phase === "reveal") parts.push(bigButton(t(v.clue.number >= v.clue.total ? "speakeasy.continue_last" : "speakeasy.continue"), () => act({ type: "continue" }), { testid: "host-continue" }));
  parts.push(padForm(ctx));
  if (hasType(ctx.legal, "undo_score")) parts.push(bigButton(t("sec.undo_fix"), () => act({ type: "undo_score" }), { tone: "ghost", testid: "host-undo" }));
  return card(t("sec.host_title"), ...parts);
}

/** @param {GameContext} ctx */
function renderSeat(ctx) {
  return h("div", { class: "game speakeasy companion" },
    statusBar(ctx), clueCard(ctx), action(ctx), identity(ctx), quickRules(ctx),
    ctx.view.phase === "reveal" || ctx.view.phase === "choosing" ? lastClue(ctx) : null, padCard(ctx));
}

/** Spectators: the public table. @param {GameContext} ctx @param {Node | null} [referee] */
function renderPublic(ctx, referee = null) {
  const v = ctx.view;
  return h("div", { class: "game speakeasy companion public" },
    statusBar(ctx), v.phase === "game_over" ? finalCard(ctx) : null, clueCard(ctx),
    referee, quickRules(ctx), lastClue(ctx), padCard(ctx));
}

/** The host console: the public table and the referee's taps (ctx.legal: what the table may do, ctx.act: do it). @param {GameContext} ctx */
function renderHost(ctx) {
  return renderPublic(ctx, hostPanel(ctx));
}

/** @type {import("./common.js").GameModule} */
export default { renderSeat, renderPublic: (ctx) => renderPublic(ctx), renderHost, buzzOn: ["point_now", "pointing_revealed", "identity_asked"] };
