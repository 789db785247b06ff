// Cheating Moth, companion mode, on the phone: the cards are on the real table; the phone calls the
// Mosquito / Beetle race the moment you put one down, slaps in races, undoes a wrong Beetle win,
// takes your penalty points at the round's end (M17) and explains the card just played (quick rules).
// Formats: game/games/cheating_moth/companion_views.md. Races (M14–M16): the press fires on pointer-down,
// stamped with the phone's own clock (the table maps it with its clock sync, docs/protocol.md).
import { h, voteGrid } from "../dom.js";
import { measure, num, t, tn, typedNumber } from "../i18n.js";
import { phoneNow } from "../net.js";
import { seatToken } from "../symbols.js";
import { card as section, numberInput, seatChip, seatNameNode } from "../ui.js";
import { boardNotice, hasType, isLegal, lobbySeat, nameList, padCells, padHead } from "./common.js";

/** @typedef {import("./common.js").GameContext} GameContext */

/** Quick rules: each card kind (and the moves the program referees) with its rule id. */
/** @type {ReadonlyArray<readonly [string, string]>} */
const QUICK_RULES = Object.freeze([
  ["mosquito", "M14"], ["beetle", "M15"], ["ant", "M12"], ["spider", "M13"], ["moth", "M7"],
  ["cheat", "M8"], ["guard", "M10"], ["points", "M17"],
]);

/** This phone's press in the current race: sent, then the table's verdict (press_result).
 *  @type {{race: number | null, verdict: string | null}} */
let racePress = { race: null, verdict: null };
/** @type {(() => void) | null} */
let raceRerender = null;
/** A local "are you sure" for the round's end: the round it was asked in, and when (a second tap
 *  within ``CONFIRM_ARM_MS`` is the same hurried double tap, not a yes). @type {{round: number, at: number} | null} */
let confirmOut = null;
export const CONFIRM_ARM_MS = 700;
/** A points form's own error (checked before sending): which form, in which round, what.
 *  @type {{form: string, round: number, key: string | null}} */
let pointsError = { form: "", round: 0, key: null };
/** What was typed in each points form ("form@round" -> text): a redraw (an error, a refusal) keeps it. @type {Map<string, string>} */
const pointsTyped = new Map();
/** Editing our own entry of this round. @type {number | null} */
let editing = null;
/** The host's fix form: the pad entry picked ("seat:round"), kept across redraws. @type {string | null} */
let fixPick = null;

/** @param {any} msg */
function onMessage(msg) {
  if (msg.kind !== "press_result" || msg.race !== racePress.race) return;
  // clamped: the table counted it when it arrived, not at the (earlier) time this phone's clock said (M16)
  racePress = { race: msg.race, verdict: msg.verdict === "accepted" && msg.clamped === true ? "clamped" : msg.verdict };
  if (raceRerender) raceRerender();
}

/** @param {GameContext} ctx @param {number} s */
function nameText(ctx, s) {
  const seat = lobbySeat(ctx, s);
  return seat.name && seat.name.trim() ? seat.name : t(`colour.${seat.colour_name}`);
}
/** @param {GameContext} ctx @param {number} seat */
const name = (ctx, seat) => seatNameNode(lobbySeat(ctx, seat));
/** @param {GameContext} ctx @param {number} seat */
const chip = (ctx, seat) => seatChip(lobbySeat(ctx, seat), { you: seat === ctx.seat });
/** @param {string} id */
const rule = (id) => h("span", { class: "rule", text: t("common.rule", { id }) });

/** @param {GameContext} ctx */
function statusBar(ctx) {
  const v = ctx.view;
  const title = v.phase === "game_over" ? t("moth.phase.game_over") // the final card names the winner
    : v.phase === "scoring" ? t("mothc.phase.scoring")
      : v.race ? t(`mothc.phase.${v.phase}`)
        : v.turn === ctx.seat ? t("moth.your_turn") : t("moth.turn_of", { name: nameText(ctx, v.turn) });
  return h("div", { class: "status-bar" },
    h("div", { class: "status-text" },
      h("div", { class: "status-where", text: t("moth.round_of", { n: v.round, total: v.rounds }) }),
      h("h1", { class: "status-title", "data-testid": "status", text: title })),
    ctx.timer);
}

/** Whose turn and who holds the guard bug. @param {GameContext} ctx */
function tableCard(ctx) {
  const v = ctx.view;
  return h("section", { class: "card" },
    h("p", null, ...tn("moth.guard_is", { name: name(ctx, v.guard) }), " ", rule("M18")),
    v.phase === "play" ? h("p", { class: "muted small" }, ...tn("mothc.turn_is", { name: name(ctx, v.turn) }), " ", rule("M4")) : null);
}

/** @param {GameContext} ctx @param {PointerEvent} e */
function pressRace(ctx, e) {
  const stamp = phoneNow();
  e.preventDefault();
  const v = ctx.view;
  if (!v.race || (racePress.race === v.race.id && racePress.verdict !== "false_start")) return;
  if (!ctx.send("press", { race: v.race.id, t: stamp })) return;
  if ("vibrate" in navigator) navigator.vibrate(40);
  racePress = { race: v.race.id, verdict: "sent" };
  ctx.rerender();
}

/** The slap / race button while a race runs. @param {GameContext} ctx */
function racePanel(ctx) {
  const v = ctx.view;
  raceRerender = ctx.rerender;
  if (!v.race || ctx.seat === null) return null;
  const mosquito = v.race.kind === "mosquito";
  if (!v.race.eligible.includes(ctx.seat)) return section(null, h("p", { class: "lead", text: t("mothc.race_watch") }), rule(v.race.rule));
  const mine = racePress.race === v.race.id ? racePress.verdict : null;
  const feedback = mine && mine !== "sent" ? h("p", { class: mine === "accepted" ? "lead" : "notice", "data-testid": "race-verdict", text: t(`moth.press.${mine}`) }) : null;
  const done = mine !== null && mine !== "false_start";
  return h("section", { class: "card race-card" },
    h("p", { class: "lead" }, ...tn(mosquito ? "mothc.race.mosquito" : "mothc.race.beetle", { name: name(ctx, v.race.caller) }), " ", rule(v.race.rule)),
    h("button", {
      class: "btn btn-primary btn-big race-button", type: "button", "data-testid": "race-press", disabled: done,
      onpointerdown: (/** @type {PointerEvent} */ e) => pressRace(ctx, e),
      text: done ? t("moth.press.sent") : t(mosquito ? "moth.slap_button" : "moth.race_button"),
    }), feedback);
}

/** The turn's player: call a race the moment the card is down, or pass the turn on. @param {GameContext} ctx */
function turnPanel(ctx) {
  const v = ctx.view;
  if (!v.me?.my_turn || !hasType(ctx.legal, "call")) return null;
  const call = (/** @type {string} */ kind) => h("button", {
    class: `btn btn-primary btn-big call-button call-${kind}`, type: "button", "data-testid": `call-${kind}`, disabled: ctx.pending,
    onpointerdown: (/** @type {PointerEvent} */ e) => { e.preventDefault(); ctx.act({ type: "call", kind }); },
  }, t(`mothc.call.${kind}`));
  return section(t("moth.your_turn"),
    h("p", { class: "muted small", text: t("mothc.call_hint") }),
    h("div", { class: "stack" }, call("mosquito"), call("beetle"),
      h("button", { class: "btn btn-ghost btn-big", type: "button", "data-testid": "end-turn", disabled: ctx.pending,
        onclick: () => ctx.act({ type: "end_turn" }), text: t("mothc.end_turn") })));
}

/** The latest race: order, reaction times, margins; undo a wrong Beetle win. @param {GameContext} ctx */
function lastRace(ctx) {
  const v = ctx.view;
  const r = v.last_race;
  if (!r || v.race || v.phase === "scoring") return null;
  const key = r.kind === "mosquito" ? "mothc.slowest" : r.winner !== null ? "mothc.winner"
    : r.undone.length ? "mothc.none_fit" : "moth.race_nobody";
  const who = r.kind === "mosquito" ? r.loser : r.winner;
  const rows = r.order.map((/** @type {number} */ s, /** @type {number} */ i) => h("li", { class: "table-row" }, chip(ctx, s),
    h("span", { class: "row-state", text: r.undone.includes(s) ? `${t("moth.race_ms", { ms: measure(r.times_ms[i]) })} | ${t("mothc.didnt_fit")}`
      : t("moth.race_ms", { ms: measure(r.times_ms[i]) }) }),
    h("strong", { class: "row-bars", text: i === 0 ? "" : t("moth.race_margin", { ms: measure(r.margins_ms[i - 1]) }) })));
  const err = Math.max(0, ...r.error_ms);
  const undo = isLegal(ctx.legal, { type: "wrong_win" })
    ? h("button", { class: "btn btn-danger btn-big", type: "button", "data-testid": "wrong-win", disabled: ctx.pending,
      onclick: () => ctx.act({ type: "wrong_win" }), text: t("mothc.wrong_win") }) : null;
  const give = r.kind === "mosquito" && who !== null
    ? h("p", { class: "notice" }, ...tn(who === ctx.seat ? "mothc.you_receive" : "mothc.give_one", { name: name(ctx, who) }), " ", rule("M14")) : null;
  return section(null,
    h("p", { class: "lead", "data-testid": "race-result" }, ...tn(key, { name: who === null ? "" : name(ctx, who) }), " ", rule(r.rule)),
    give,
    r.order.length ? h("ol", { class: "plain-list table-list", "data-testid": "race-times" }, ...rows,
      h("li", { class: "muted small", text: t("moth.race_error", { ms: measure(err) }) })) : null,
    r.within_ms > 0 ? h("p", { class: "notice", "data-testid": "race-drawn", text: t("moth.race_drawn", { ms: measure(r.within_ms) }) }) : null,
    undo);
}

/** The guard caught a cheater (M10) / I have no cards left (M17). @param {GameContext} ctx */
function tablePanel(ctx) {
  const v = ctx.view;
  if (v.phase !== "play" || ctx.seat === null) return null;
  const passes = ctx.legal.filter((a) => a.type === "pass_guard");
  // folded away: handing the guard bug on is rare, and a stray tap must not do it
  const guard = passes.length ? h("details", { "data-testid": "pass-guard" }, h("summary", { text: t("mothc.pass_guard_hint") }),
    voteGrid(...passes.map((a) => {
      const seat = lobbySeat(ctx, a.to);
      return h("button", { class: "vote-card", type: "button", "data-testid": `pass-guard-${a.to}`, style: { "--seat": seat.colour }, disabled: ctx.pending,
        onclick: () => ctx.act(a) }, seatToken(seat.symbol, seat.colour, 30), h("span", { class: "vote-name" }, h("bdi", { text: nameText(ctx, a.to) })));
    }))) : null;
  const asking = confirmOut !== null && confirmOut.round === v.round;
  const waiting = asking && confirmOut !== null ? CONFIRM_ARM_MS - (performance.now() - confirmOut.at) : 0;
  if (waiting > 0) setTimeout(ctx.rerender, waiting); // the confirmation takes a tap once it has been read
  const out = h("button", {
    class: `btn ${asking ? "btn-danger" : "btn-ghost"} btn-big`, type: "button", "data-testid": "round-over",
    disabled: ctx.pending || waiting > 0,
    onclick: () => {
      if (!asking) { confirmOut = { round: v.round, at: performance.now() }; ctx.rerender(); return; }
      if (confirmOut !== null && performance.now() - confirmOut.at < CONFIRM_ARM_MS) return;
      confirmOut = null;
      ctx.act({ type: "round_over", out: ctx.seat });
    },
    text: asking ? t("mothc.out_confirm") : t("mothc.out"),
  });
  return section(null, guard, out);
}

/** Check typed points before sending (the table checks again). @param {string} text @param {number} high */
export function pointsProblem(text, high) {
  const digits = typedNumber(text);
  if (digits === "") return "mothc.points_error.empty";
  if (!/^[-+]?\d+$/.test(digits)) return "mothc.points_error.not_a_number";
  const n = Number(digits);
  if (n < 0) return "mothc.points_error.negative";
  if (n > high) return "mothc.points_error.out_of_range";
  return null;
}

/**
 * A points field with its own check (the table checks again and says so if it refuses).
 * @param {GameContext} ctx @param {string} form a name for this form (one page may hold several)
 * @param {(points: number) => any} action @param {string} label
 */
function pointsForm(ctx, form, action, label) {
  const v = ctx.view;
  const high = v.settings.max_points;
  const mine = pointsError.form === form && pointsError.round === v.round ? pointsError.key : null;
  const id = `points-${form}`;
  const typedKey = `${form}@${v.round}`;
  const input = numberInput(`${id}-input`, { id, oninput: () => { pointsTyped.set(typedKey, input.value); } });
  input.value = pointsTyped.get(typedKey) ?? "";
  return h("form", {
    class: "join-form points-form", onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const problem = pointsProblem(input.value, high);
      pointsError = { form, round: v.round, key: problem };
      input.blur(); // the page redraws a field only once it is left
      if (problem) { ctx.rerender(); return; }
      editing = null;
      const sent = action(Number(typedNumber(input.value)));
      pointsTyped.delete(typedKey); // sent: a second tap has nothing to send again
      ctx.act(sent);
    },
  },
  h("label", { for: id, class: "label", text: label }), input,
  h("p", { class: "form-error", role: "alert", "data-testid": `${id}-error`, text: mine ? t(mine, { max: high }) : "" }),
  h("button", { class: "btn btn-primary", type: "submit", "data-testid": `${id}-go`, disabled: ctx.pending, text: t("mothc.points_send") }));
}

/** Round end: enter (or correct) your penalty points (M17). @param {GameContext} ctx */
function scoringPanel(ctx) {
  const v = ctx.view;
  if (v.phase !== "scoring" || ctx.seat === null) return null;
  const me = v.me;
  const waiting = v.waiting_for.map((/** @type {number} */ s) => nameText(ctx, s)).join(t("common.comma"));
  const next = isLegal(ctx.legal, { type: "next_round" })
    ? h("button", { class: "btn btn-primary btn-big", type: "button", "data-testid": "next-round", disabled: ctx.pending,
      onclick: () => ctx.act({ type: "next_round" }), text: v.round >= v.rounds ? t("mothc.finish") : t("mothc.next_round") }) : null;
  let body;
  if (me.must_enter) body = pointsForm(ctx, "mine", (points) => ({ type: "enter_points", seat: ctx.seat, points }), t("mothc.points_label"));
  else if (editing === v.round) body = pointsForm(ctx, "mine", (points) => ({ type: "edit_points", seat: ctx.seat, round: v.round, points }), t("mothc.points_fix"));
  else {
    body = h("div", { class: "stack" }, h("p", { class: "lead", "data-testid": "my-points", text: t("mothc.points_in", { n: num(me.points) }) }),
      hasType(ctx.legal, "edit_points") && v.out !== ctx.seat ? h("button", { class: "btn btn-ghost", type: "button", "data-testid": "points-edit",
        onclick: () => { editing = v.round; ctx.rerender(); }, text: t("mothc.points_edit") }) : null);
  }
  return section(t("mothc.scoring_title"), h("p", { class: "muted small" }, ...tn("mothc.out_was", { name: name(ctx, v.out) }), " ", rule("M17")),
    h("p", { class: "muted small", text: t("mothc.points_hint") }), body,
    waiting ? h("p", { class: "muted small", text: t("mothc.waiting_for", { names: waiting }) }) : null, next);
}

/** The score pad: rounds, totals, every correction. @param {GameContext} ctx */
function padCard(ctx) {
  const v = ctx.view;
  const pad = v.pad;
  const order = [...Array(v.n).keys()].sort((a, b) => pad.totals[a] - pad.totals[b] || a - b);
  const rows = order.map((s) => h("li", { class: "table-row" }, chip(ctx, s),
    padCells(pad.rows[s]),
    h("strong", { class: "row-bars", text: num(pad.totals[s]) })));
  const trace = pad.trace.map((/** @type {any} */ c) => h("li", { class: "muted small" }, ...tn(c.kind === "undo" ? "mothc.trace_undo" : "mothc.trace_edit", {
    name: name(ctx, c.seat), round: num(c.round), old: c.old === null ? "–" : num(c.old), new: c.new === null ? "–" : num(c.new),
    by: c.by === null ? t("mothc.by_host") : nameText(ctx, c.by),
  })));
  const rounds = Math.max(0, ...pad.rows.map((/** @type {any[]} */ r) => r.length));
  return section(t("moth.scores"), h("ul", { class: "plain-list table-list", "data-testid": "pad" }, padHead(rounds, t("pad.total")), ...rows),
    trace.length ? h("ul", { class: "plain-list", "data-testid": "pad-trace" }, ...trace) : null,
    h("p", { class: "muted small" }, t("moth.lowest_wins"), " ", rule("M19")));
}

/** What the card just played does, and the rest at a tap. @param {GameContext} ctx */
function quickRules(ctx) {
  const v = ctx.view;
  const latest = v.race?.kind ?? v.last_race?.kind ?? null;
  const item = (/** @type {string} */ kind, /** @type {string} */ id) => h("li", { class: kind === latest ? "lead" : "" },
    h("strong", { text: t(`mothc.rule.${kind}.name`) }), " ", rule(id), h("br"), t(`mothc.rule.${kind}`));
  const lead = latest ? QUICK_RULES.find(([k]) => k === latest) : null;
  return section(t("mothc.quick_rules"),
    lead ? h("ul", { class: "plain-list", "data-testid": "quick-rule" }, item(lead[0], lead[1])) : null,
    h("details", null, h("summary", { text: t("mothc.all_rules") }),
      h("ul", { class: "plain-list" }, ...QUICK_RULES.filter(([k]) => k !== latest).map(([k, id]) => item(k, id)))));
}

/** @param {GameContext} ctx */
function finalCard(ctx) {
  const f = ctx.view.final;
  if (!f) return null;
  const won = ctx.seat !== null && f.places[ctx.seat] === 1;
  const winners = f.places.flatMap((/** @type {number} */ place, /** @type {number} */ s) => (place === 1 ? [s] : []));
  return h("div", null,
    ctx.seat === null ? null : h("div", { class: `result-banner ${won ? "win" : "lose"}`, "data-testid": "result" },
      won ? t("common.you_won") : t("common.you_lost")),
    section(t("common.winners"),
      h("p", { class: "lead", "data-testid": "winners" },
        ...tn(winners.length > 1 ? "common.winners_shared" : "common.winner_is", { names: nameList(ctx, winners) }), f.rule ? " " : null, f.rule ? rule(f.rule) : null)));
}

/** @param {GameContext} ctx */
function renderSeat(ctx) {
  return h("div", { class: "game cheating-moth companion" }, boardNotice(ctx), statusBar(ctx), finalCard(ctx), racePanel(ctx), turnPanel(ctx),
    lastRace(ctx), scoringPanel(ctx), tableCard(ctx), tablePanel(ctx), padCard(ctx), quickRules(ctx));
}

/** @param {GameContext} ctx */
function renderPublic(ctx) {
  return h("div", { class: "game cheating-moth companion public" }, boardNotice(ctx), statusBar(ctx), finalCard(ctx), lastRace(ctx), tableCard(ctx), padCard(ctx), quickRules(ctx));
}

// ------------------------------------------------------------------------------ the host as referee
/** The host's taps for the table (ctx.legal: the table's own actions; ctx.act: as the table). @param {GameContext} ctx */
function hostPlay(ctx) {
  const v = ctx.view;
  if (v.phase !== "play") return null;
  const button = (/** @type {any} */ action, /** @type {string} */ label, tone = "ghost") => h("button", {
    class: `btn btn-${tone}`, type: "button", disabled: ctx.pending,
    "data-testid": `host-${action.type}${[action.kind, action.out, action.to].filter((x) => x !== undefined).map((x) => `-${x}`).join("")}`,
    onclick: () => ctx.act(action),
  }, label);
  // The host acts for a player: the buttons say whose card it is ("Sara put down…"), never "I".
  const player = { name: nameText(ctx, v.turn) };
  const turn = isLegal(ctx.legal, { type: "call", kind: "mosquito" }) ? h("div", { class: "stack" },
    h("p", { class: "muted small" }, ...tn("mothc.host_for", { name: name(ctx, v.turn) })),
    button({ type: "call", kind: "mosquito" }, t("mothc.host_call.mosquito", player), "primary"),
    button({ type: "call", kind: "beetle" }, t("mothc.host_call.beetle", player), "primary"),
    button({ type: "end_turn" }, t("mothc.end_turn"))) : null;
  const outs = ctx.legal.filter((a) => a.type === "round_over").map((a) => button(a, t("mothc.host_out", { name: nameText(ctx, a.out) })));
  const guards = ctx.legal.filter((a) => a.type === "pass_guard").map((a) => button(a, t("moth.guard_is", { name: nameText(ctx, a.to) })));
  return section(t("mothc.host_title"), turn,
    guards.length ? h("details", null, h("summary", { text: t("mothc.pass_guard_hint") }), h("div", { class: "stack" }, ...guards)) : null,
    h("details", null, h("summary", { text: t("mothc.host_out_title") }), h("div", { class: "stack" }, ...outs)));
}

/** Points for the players still to enter, by the host. @param {GameContext} ctx */
function hostScoring(ctx) {
  const v = ctx.view;
  if (v.phase !== "scoring") return null;
  const forms = ctx.legal.filter((a) => a.type === "enter_points").map((a) =>
    pointsForm(ctx, `seat-${a.seat}`, (points) => ({ type: "enter_points", seat: a.seat, points }), t("mothc.host_for", { name: nameText(ctx, a.seat) })));
  const next = isLegal(ctx.legal, { type: "next_round" })
    ? h("button", { class: "btn btn-primary btn-big", type: "button", "data-testid": "host-next-round", disabled: ctx.pending,
      onclick: () => ctx.act({ type: "next_round" }), text: v.round >= v.rounds ? t("mothc.finish") : t("mothc.next_round") }) : null;
  return section(t("mothc.scoring_title"), ...forms, next);
}

/** Correct any entry on the pad, or undo the latest change: both leave a trace line. @param {GameContext} ctx */
function hostFix(ctx) {
  const edits = ctx.legal.filter((a) => a.type === "edit_points");
  const undo = isLegal(ctx.legal, { type: "undo_points" });
  if (!edits.length && !undo) return null;
  const entry = (/** @type {any} */ a) => `${a.seat}:${a.round}`;
  const select = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": t("mothc.host_fix_title"), "data-testid": "host-fix-entry" },
    ...edits.map((a, i) => h("option", { value: String(i), text: `${nameText(ctx, a.seat)} | ${t("mothc.host_round")} ${num(a.round)}` }))));
  // The entry picked stays picked across the table's redraws and after a correction (a second tap
  // must never write the typed points onto another player's entry).
  select.value = String(Math.max(0, edits.findIndex((a) => entry(a) === fixPick)));
  const first = edits[0];
  select.addEventListener("change", () => { fixPick = entry(edits[Number(select.value)] ?? first); });
  const form = first ? pointsForm(ctx, "fix", (points) => {
    const a = edits[Number(select.value)] ?? first;
    fixPick = entry(a);
    return { type: "edit_points", seat: a.seat, round: a.round, points };
  }, t("mothc.host_fix_points")) : null;
  // One column with gaps: the undo never touches the form's own button (a hurried tap lands on one)
  return section(t("mothc.host_fix_title"), h("div", { class: "stack" }, edits.length ? select : null, form,
    undo ? h("button", { class: "btn btn-danger", type: "button", "data-testid": "host-undo-points", disabled: ctx.pending,
      onclick: () => ctx.act({ type: "undo_points" }), text: t("mothc.host_undo") }) : null));
}

/** @param {GameContext} ctx */
function renderHost(ctx) {
  return h("div", { class: "game cheating-moth companion host-table" }, boardNotice(ctx), statusBar(ctx), finalCard(ctx), lastRace(ctx),
    hostAnnul(ctx), hostPlay(ctx), hostScoring(ctx), tableCard(ctx), padCard(ctx), hostFix(ctx));
}

/** One tap annuls the open or latest race, Mosquito too (traced on the pad). @param {GameContext} ctx */
function hostAnnul(ctx) {
  if (!isLegal(ctx.legal, { type: "annul_race" })) return null;
  return h("button", { class: "btn btn-danger", type: "button", "data-testid": "host-annul-race", disabled: ctx.pending,
    onclick: () => ctx.act({ type: "annul_race" }), text: t("mothc.annul") });
}

/** @type {import("./common.js").GameModule} */
export default { renderSeat, renderPublic, renderHost, onMessage };
