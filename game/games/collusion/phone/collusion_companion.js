// Collusion, companion mode, on the phone: the talk (and maybe the gold) is on the real table; the
// phone is the vote card, the Ambush, the showdown pick — the table-mode panels of collusion.js, as
// the view has the table view's shape during play. With real gold it also asks, after each round,
// whether your bars reached the target (C17, secret), takes your total when everyone counts
// (secret until all are in), shows the revealed totals and every correction on the score pad, and
// explains what just happened with its rule id. The host console gets the referee's taps.
// Formats: game/games/collusion/companion_views.md.
import { h } from "../dom.js";
import { num, t, tn, typedNumber } from "../i18n.js";
import { card, numberInput } from "../ui.js";
import { icon } from "../icons.js";
import { bigButton, hasType, isLegal, padCells, padHead } from "./common.js";
import {
  chip, finalPanel, goldPanel, happenings, name, nameText, names, phaseTitle, rule, seatBody, statusBar, tableCard,
} from "./collusion.js";

/** @typedef {import("./common.js").GameContext} GameContext */

const PLAY = new Set(["vote", "ambush_choice", "showdown"]);
/** The rules a player looks up most, in the order a round meets them. */
const QUICK_RULES = Object.freeze(["C7", "C8", "C9", "C10", "C13", "C14", "C15", "C16", "C17", "C18", "C20"]);

/** The total being typed and its problem, per count (kept across redraws). @type {{count: number, key: string | null}} */
let totalError = { count: 0, key: null };
/** What was typed in each total form ("id@count" -> text): a redraw (an error, a refusal) keeps it. @type {Map<string, string>} */
const totalTyped = new Map();
/** Changing our own secret total before the reveal. @type {number | null} the count */
let changing = null;

// --------------------------------------------------------------------------------- helpers
/** @param {GameContext} ctx */
const comp = (ctx) => ctx.view.companion;

/** What is wrong with a typed total (the table checks again), or null. @param {string} text @param {readonly [number, number]} range */
export function totalProblem(text, range) {
  const d = typedNumber(text);
  if (d === "") return "collc.total_error.empty";
  if (!/^[-+]?\d+$/.test(d)) return "collc.total_error.not_a_number";
  const n = Number(d);
  if (n < 0) return "collc.total_error.negative";
  if (n < range[0] || n > range[1]) return "collc.total_error.out_of_range";
  return null;
}

/** Round line, the phase title and the live countdown, in the phases play does not cover. @param {GameContext} ctx @param {string} title */
function companionBar(ctx, title) {
  return h("div", { class: "status-bar" },
    h("div", { class: "status-text" },
      h("div", { class: "status-where", text: t(`collc.gold.${comp(ctx).gold}`) }),
      h("h1", { class: "status-title", "data-testid": "status", text: title })),
    ctx.timer);
}

// --------------------------------------------------------------------------------- gold
/** Digital: your bars with values (face down until you look). Physical: the program knows the count only. @param {GameContext} ctx */
function goldCard(ctx) {
  const v = ctx.view;
  if (comp(ctx).gold === "digital") return goldPanel(v);
  return card(t("collusion.your_gold"),
    h("p", { class: "lead", "data-testid": "real-bars" }, ...tn("collc.real_bars", { n: num(v.me.bars) })),
    h("p", { class: "muted small", text: t("collc.real_bars_hint", { n: v.target_score }) }));
}

// --------------------------------------------------------------------------------- the check (C17)
/** @param {GameContext} ctx */
function checkPanel(ctx) {
  const v = ctx.view;
  const answered = comp(ctx).check?.answered ?? [];
  const tally = h("p", { class: "muted center small", "data-testid": "check-count", text: t("collc.check_count", { n: answered.length, m: v.seats.length }) });
  if (ctx.seat === null) return card(null, h("p", { class: "lead", text: t("collc.check_public", { n: v.target_score }) }), tally);
  const mine = v.me.reached;
  const choice = (/** @type {boolean} */ reached, /** @type {string} */ key, /** @type {string} */ tone) => {
    const selected = mine === reached;
    return h("button", {
      class: `btn btn-${selected ? tone : "ghost"} btn-big${selected ? " selected" : ""}`, type: "button", "aria-pressed": String(selected),
      "data-testid": reached ? "reached-yes" : "reached-no",
      disabled: ctx.pending || (!selected && !isLegal(ctx.legal, { type: "reached", reached, seat: null })),
      onclick: () => { if (!selected) ctx.act({ type: "reached", reached, seat: null }); },
    }, selected ? icon("check", 20) : null, t(key, { n: v.target_score }));
  };
  return card(t("collc.check_title"),
    h("p", { class: "lead" }, t("collc.check_ask", { n: v.target_score }), " ", rule("C17")),
    h("div", { class: "stack" }, choice(true, "collc.reached_yes", "primary"), choice(false, "collc.reached_no", "primary")),
    h("p", { class: "secret-note" }, icon("lock", 14), t("collc.check_secret")),
    tally);
}

// --------------------------------------------------------------------------------- the count
/** @param {GameContext} ctx @param {(points: number) => void} send @param {readonly [number, number]} range @param {string} label @param {string} id @param {string} [button] */
function totalForm(ctx, send, range, label, id, button = t("collc.total_send")) {
  const count = comp(ctx).count;
  if (totalError.count !== count.number) totalError = { count: count.number, key: null };
  const typedKey = `${id}@${count.number}`;
  const input = numberInput(`${id}-input`, { id, oninput: () => { totalTyped.set(typedKey, input.value); } });
  input.value = totalTyped.get(typedKey) ?? "";
  return h("form", {
    class: "join-form", onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const problem = totalProblem(input.value, range);
      totalError = { count: count.number, key: problem };
      if (problem) { ctx.rerender(); return; }
      changing = null;
      send(Number(typedNumber(input.value)));
    },
  },
  h("label", { for: id, class: "label", text: label }), input,
  h("p", { class: "form-error", role: "alert", "data-testid": `${id}-error`, text: totalError.key ? t(totalError.key, { lo: num(range[0]), hi: num(range[1]) }) : "" }),
  h("button", { class: "btn btn-primary btn-big", type: "submit", "data-testid": `${id}-go`, disabled: ctx.pending, text: button }));
}

/** @param {GameContext} ctx */
function countWhy(ctx) {
  const count = comp(ctx).count;
  if (count.reason === "deck_empty") return h("p", null, t("collc.count_dry"), " ", rule("C20"));
  if (count.number > 1 && count.seats.length < ctx.view.seats.length) {
    return h("p", null, ...tn("collc.count_tie", { names: names(ctx, count.seats) }), " ", rule("C18"));
  }
  return h("p", null, t("collc.count_target", { n: ctx.view.target_score }), " ", rule("C18"));
}

/** @param {GameContext} ctx */
function countPanel(ctx) {
  const v = ctx.view;
  const count = comp(ctx).count;
  const tally = h("p", { class: "muted center small", "data-testid": "count-tally", text: t("collc.count_tally", { n: count.entered.length, m: count.seats.length }) });
  if (ctx.seat === null || !count.seats.includes(ctx.seat)) return card(t("collc.count_title"), countWhy(ctx), tally);
  const me = v.me;
  let body;
  if ((me.entry === null || changing === count.number) && me.total_range[1] === 0) {
    // No bars: the only total is 0, one tap sends it (nobody types a 0).
    body = bigButton(t("collc.total_none"), () => { changing = null; ctx.act({ type: "enter_total", points: 0, seat: null }); },
      { testid: "total-none", disabled: ctx.pending });
  } else if (me.entry === null || changing === count.number) {
    body = totalForm(ctx, (points) => ctx.act({ type: "enter_total", points, seat: null }), me.total_range,
      t("collc.total_label", { bars: num(me.bars), lo: num(me.total_range[0]), hi: num(me.total_range[1]) }), "total");
  } else {
    body = h("div", { class: "stack" },
      h("p", { class: "lead", "data-testid": "my-entry", text: t("collc.total_in", { n: num(me.entry) }) }),
      h("button", { class: "btn btn-ghost", type: "button", "data-testid": "total-change", onclick: () => { changing = count.number; ctx.rerender(); }, text: t("collc.total_change") }));
  }
  return card(t("collc.count_title"), countWhy(ctx), body, h("p", { class: "secret-note" }, icon("lock", 14), t("collc.count_secret")), tally);
}

// --------------------------------------------------------------------------------- score pad
/** The pad: each count's totals (revealed ones only) and every correction. @param {GameContext} ctx */
function padCard(ctx) {
  const pad = comp(ctx).pad;
  if (!pad.rounds) return null;
  const seats = ctx.view.seats.map((/** @type {any} */ s) => s.seat).filter((/** @type {number} */ s) => pad.rows[s].some((/** @type {any} */ p) => p !== null));
  const rows = seats.map((/** @type {number} */ s) => h("li", { class: "table-row", "data-testid": `pad-${s}` }, chip(ctx, s),
    padCells(pad.rows[s])));
  const trace = pad.trace.map((/** @type {any} */ c) => h("li", { class: "muted small" }, ...tn(
    c.kind === "undo" ? "collc.trace_undo" : c.by === null ? "collc.trace_host" : "collc.trace_self",
    { name: name(ctx, c.seat), count: num(c.round), old: c.old === null ? "–" : num(c.old), new: c.new === null ? "–" : num(c.new) })));
  return card(t("collc.pad_title"),
    h("ul", { class: "plain-list table-list", "data-testid": "pad" }, padHead(Math.max(0, ...seats.map((/** @type {number} */ s) => pad.rows[s].length))), ...rows),
    trace.length ? h("ul", { class: "plain-list", "data-testid": "pad-trace" }, ...trace) : null);
}

/** The revealed totals; a counted player may still correct their own (the pad keeps the trace). @param {GameContext} ctx */
function reviewPanel(ctx) {
  const v = ctx.view;
  const count = comp(ctx).count;
  const mine = ctx.seat !== null && count.seats.includes(ctx.seat);
  let fix = null;
  if (mine && changing === count.number) {
    fix = totalForm(ctx, (points) => ctx.act({ type: "enter_total", points, seat: null }), v.me.total_range ?? [0, 400],
      t("collc.total_fix"), "total");
  } else if (mine) {
    fix = h("button", { class: "btn btn-ghost", type: "button", "data-testid": "total-fix", onclick: () => { changing = count.number; ctx.rerender(); }, text: t("collc.total_fix") });
  }
  return card(t("collc.review_title"), h("p", null, t("collc.review_hint", { n: v.target_score }), " ", rule("C18")), fix);
}

// --------------------------------------------------------------------------------- quick rules
/** What just happened, with its rule id, and every rule at a tap. @param {GameContext} ctx */
function quickRules(ctx) {
  const notes = comp(ctx).notes ?? [];
  const lines = notes.map((/** @type {any} */ n) => h("li", { class: "lead-small" },
    ...tn(`collc.note.${n.key}`, { names: names(ctx, n.seats), n: n.value === null ? "" : num(n.value) }), " ", rule(n.rule)));
  return card(t("collc.quick_rules"),
    lines.length ? h("ul", { class: "plain-list", "data-testid": "quick-rule" }, ...lines) : null,
    h("details", null, h("summary", { text: t("collc.all_rules") }),
      h("ul", { class: "plain-list" }, ...QUICK_RULES.map((id) => h("li", null, rule(id), " ", t(`collc.rule.${id}`))))));
}

// --------------------------------------------------------------------------------- host (referee)
/** The host's taps as the table: answer or enter for a player without a phone, correct, undo, confirm. @param {GameContext} ctx */
function hostPanel(ctx) {
  const v = ctx.view;
  const c = comp(ctx);
  if (v.phase === "check") {
    const answered = new Set(c.check?.answered ?? []);
    const rows = v.seats.filter((/** @type {any} */ s) => !answered.has(s.seat)).map((/** @type {any} */ s) => h("li", { class: "table-row" }, chip(ctx, s.seat),
      h("button", { class: "btn btn-ghost", type: "button", "data-testid": `host-reached-${s.seat}`, onclick: () => ctx.act({ type: "reached", reached: true, seat: s.seat }), text: t("collc.host_yes") }),
      h("button", { class: "btn btn-ghost", type: "button", "data-testid": `host-not-${s.seat}`, onclick: () => ctx.act({ type: "reached", reached: false, seat: s.seat }), text: t("collc.host_no") })));
    return rows.length ? card(t("collc.host_title"), h("p", { class: "muted small", text: t("collc.host_check_hint") }), h("ul", { class: "plain-list" }, ...rows)) : null;
  }
  if (v.phase !== "count" && v.phase !== "review") return null;
  const count = c.count;
  const open = v.phase === "count" ? count.seats.filter((/** @type {number} */ s) => !count.entered.includes(s)) : count.seats;
  const forms = open.map((/** @type {number} */ s) => h("div", { class: "host-entry" }, chip(ctx, s),
    totalForm(ctx, (points) => ctx.act({ type: "enter_total", points, seat: s }), [0, 400],
      v.phase === "count" ? t("collc.host_enter", { name: nameText(ctx, s) }) : t("collc.host_correct", { name: nameText(ctx, s) }), `host-total-${s}`,
      t("collc.host_save"))));
  const review = v.phase === "review" ? h("div", { class: "stack" },
    hasType(ctx.legal, "undo_entry") ? bigButton(t("collc.host_undo"), () => ctx.act({ type: "undo_entry" }), { tone: "ghost", testid: "host-undo" }) : null,
    bigButton(t("collc.host_confirm"), () => ctx.act({ type: "confirm_totals" }), { testid: "host-confirm", disabled: !hasType(ctx.legal, "confirm_totals") })) : null;
  return card(t("collc.host_title"), ...forms, review);
}

// --------------------------------------------------------------------------------- screens
/** @param {GameContext} ctx */
function companionBody(ctx) {
  const v = ctx.view;
  if (v.phase === "check") return [checkPanel(ctx)];
  if (v.phase === "count") return [countPanel(ctx)];
  if (v.phase === "review") return [reviewPanel(ctx), padCard(ctx)];
  return [finalPanel(ctx), padCard(ctx)];
}

/** @param {GameContext} ctx */
function title(ctx) {
  const phase = ctx.view.phase;
  if (PLAY.has(phase)) return phaseTitle(ctx);
  if (phase === "game_over") return t("collusion.game_over");
  return t(`collc.title.${phase}`);
}

/** @param {GameContext} ctx */
function renderSeat(ctx) {
  const v = ctx.view;
  const play = PLAY.has(v.phase);
  return h("div", { class: "game collusion companion" },
    play ? statusBar(ctx, title(ctx)) : companionBar(ctx, title(ctx)),
    ...(play ? seatBody(ctx) : companionBody(ctx)),
    quickRules(ctx),
    ...happenings(ctx),
    v.phase === "game_over" ? null : goldCard(ctx),
    play ? padCard(ctx) : null,
    tableCard(ctx));
}

/** Spectators: the public table. @param {GameContext} ctx @param {Node | null} [referee] */
function renderPublic(ctx, referee = null) {
  const v = ctx.view;
  const play = PLAY.has(v.phase);
  return h("div", { class: "game collusion companion public" },
    play ? statusBar(ctx, title(ctx)) : companionBar(ctx, title(ctx)),
    play ? null : companionBody(ctx)[0],
    referee,
    padCard(ctx),
    quickRules(ctx),
    ...happenings(ctx),
    tableCard(ctx));
}

/** The host console: the public table and the referee's taps (ctx.legal: what the table may do, ctx.act: do it). @param {GameContext} ctx */
function renderHost(ctx) {
  return renderPublic(ctx, hostPanel(ctx));
}

/** @type {import("./common.js").GameModule} */
export default { renderSeat, renderPublic: (ctx) => renderPublic(ctx), renderHost, buzzOn: ["reveal", "showdown_reveal", "check_started", "totals_revealed"] };
