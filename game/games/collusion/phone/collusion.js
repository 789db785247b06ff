// Collusion on the phone: the secret vote (targets + Ambush, changeable until the reveal, lock),
// the Ambush victim choice, the Final Showdown, your own gold, and every reveal explained in words.
// View, action and event formats: game/games/collusion/views.md. The companion variant
// (collusion_companion.js) reuses the panels exported here: its view has this shape during play.
import { h, voteGrid } from "../dom.js";
import { num, t, tn } from "../i18n.js";
import { botMark, seatName, seatChip, seatNameNode, card } from "../ui.js";
import { seatToken } from "../symbols.js";
import { icon } from "../icons.js";
import { secret } from "../secret.js";
import { bigButton, hasType, isLegal, lobbySeat } from "./common.js";

/** @typedef {import("./common.js").GameContext} GameContext */

const PUBLISHED_MIN_SEATS = 6; // C5: the boxed game is for 6–12 players
const SHOWDOWN_CHOICES = Object.freeze(["split", "steal", "take_one"]);

// Which reveal the player last opened or closed, so a re-render keeps their choice.
/** @type {Map<string, boolean>} */
const detailsOpen = new Map();

// --------------------------------------------------------------------------------- helpers
/** @param {GameContext} ctx @param {number} seat */
export const chip = (ctx, seat) => seatChip(lobbySeat(ctx, seat), { you: seat === ctx.seat });
/** @param {GameContext} ctx @param {number} seat */
export const name = (ctx, seat) => seatNameNode(lobbySeat(ctx, seat));
/** @param {string} id */
export const rule = (id) => h("span", { class: "rule", title: t("common.rule_hint"), text: t("common.rule", { id }) });

/** @param {GameContext} ctx @param {number[]} seats */
export function names(ctx, seats) {
  /** @type {Array<Node | string>} */
  const out = [];
  seats.forEach((s, i) => {
    if (i > 0) out.push(i === seats.length - 1 ? t("common.and") : t("common.comma"));
    out.push(name(ctx, s));
  });
  return h("span", { class: "names" }, ...out);
}

/** @param {any} v @returns {number[]} living players of this round */
function living(v) {
  return v.seats.filter((/** @type {any} */ s) => s.in_round && s.alive).map((/** @type {any} */ s) => s.seat);
}

/** Round / vote line with the live countdown. @param {GameContext} ctx @param {string} title */
export function statusBar(ctx, title) {
  const v = ctx.view;
  // At the end the title says "Game over" and the winner card below names the winner.
  const where = v.phase === "game_over" ? null : t("collusion.round_vote", { round: v.round, vote: v.vote });
  return h("div", { class: "status-bar" },
    h("div", { class: "status-text" }, where ? h("div", { class: "status-where", text: where }) : null,
      h("h1", { class: "status-title", "data-testid": "status", text: title })),
    ctx.timer);
}

// --------------------------------------------------------------------------------- gold
/** Own bars with their values and the total: the one secret on this phone, face down until you look. @param {any} v */
export function goldPanel(v) {
  return secret("collusion-gold", { title: t("collusion.your_gold"), testid: "gold", body: () => goldValues(v) });
}

/** @param {any} v */
function goldValues(v) {
  const me = v.me;
  const bars = me.gold.length === 0
    ? h("p", { class: "muted", text: t("collusion.no_gold") })
    : h("div", { class: "bars", "data-testid": "my-gold" }, ...me.gold.map((/** @type {number} */ g) =>
      h("span", { class: `bar bar-${g}`, "aria-label": t("collusion.bar_worth", { n: g }) }, h("span", { class: "bar-value", text: num(g) }))));
  const pct = Math.min(100, Math.round((100 * me.total) / Math.max(1, v.target_score)));
  return [
    bars,
    h("div", { class: "total-row" },
      h("span", { class: "total-label", text: t("collusion.total") }),
      h("strong", { class: "total", "data-testid": "my-total", text: num(me.total) }),
      h("span", { class: "muted", text: t("collusion.of_target", { n: v.target_score }) })),
    h("div", { class: "progress", role: "progressbar", "aria-valuemin": "0", "aria-valuemax": String(v.target_score), "aria-valuenow": String(me.total) },
      h("span", { style: { width: `${pct}%` } })),
    h("p", { class: "secret-note" }, icon("lock", 14), t("collusion.gold_secret"))];
}

// --------------------------------------------------------------------------------- vote
/** @param {GameContext} ctx */
function votePanel(ctx) {
  const v = ctx.view;
  const me = v.me;
  const current = me.card;
  const locked = !!me.locked;
  const options = me.vote_options.map((/** @type {number} */ s) => {
    const action = { type: "vote", target: s };
    const selected = current?.card === "target" && current.target === s;
    return h("button", {
      class: `vote-card${selected ? " selected" : ""}${locked && !selected ? " dim" : ""}`, type: "button",
      "aria-pressed": String(selected), "data-testid": `vote-${s}`, style: { "--seat": lobbySeat(ctx, s).colour },
      disabled: ctx.pending || (!selected && !isLegal(ctx.legal, action)),
      onclick: () => { if (!selected) ctx.act(action); },
    }, seatToken(lobbySeat(ctx, s).symbol, lobbySeat(ctx, s).colour, 38), h("span", { class: "vote-name" }, h("span", { class: "vote-label" }, h("bdi", { text: nameText(ctx, s) }), botMark(lobbySeat(ctx, s)))),
    selected ? h("span", { class: "check", "aria-hidden": "true" }, icon("check", 18)) : null);
  });
  const ambushSelected = current?.card === "ambush";
  const ambush = me.can_ambush || ambushSelected ? h("button", {
    class: `vote-card ambush${ambushSelected ? " selected" : ""}${locked && !ambushSelected ? " dim" : ""}`, type: "button",
    "aria-pressed": String(ambushSelected), "data-testid": "vote-ambush",
    disabled: ctx.pending || (!ambushSelected && !isLegal(ctx.legal, { type: "ambush" })),
    onclick: () => { if (!ambushSelected) ctx.act({ type: "ambush" }); },
  }, h("span", { class: "ambush-icon", "aria-hidden": "true" }, icon("shield", 22)),
  h("span", { class: "vote-name" }, h("strong", { text: t("collusion.ambush") }), h("small", { text: t("collusion.ambush_hint") })),
  ambushSelected ? h("span", { class: "check", "aria-hidden": "true" }, icon("check", 18)) : null) : null;
  return h("div", { class: "vote-panel" },
    h("p", { class: "lead", text: current ? t("collusion.vote_change_hint") : t("collusion.vote_hint") }),
    voteGrid(...options, ambush),
    lockRow(ctx, locked, !!current, "collusion.locked_vote"),
    lockedCount(ctx));
}

/** @param {GameContext} ctx @param {number} s */
export function nameText(ctx, s) {
  return seatName(lobbySeat(ctx, s));
}

/** Lock in / locked in + change. @param {GameContext} ctx @param {boolean} locked @param {boolean} chosen @param {string} lockedKey */
function lockRow(ctx, locked, chosen, lockedKey) {
  if (locked) {
    return h("div", { class: "locked-box", "data-testid": "locked" },
      h("div", { class: "locked-title" }, icon("lock", 24), t(lockedKey)),
      h("p", { class: "muted", text: t("collusion.locked_hint") }),
      hasType(ctx.legal, "unlock") ? bigButton(t("collusion.unlock"), () => ctx.act({ type: "unlock" }), { tone: "ghost", disabled: ctx.pending, testid: "unlock" }) : null);
  }
  if (!chosen) return h("p", { class: "muted center", text: t("collusion.pick_first") });
  return bigButton(t("collusion.lock"), () => ctx.act({ type: "lock" }), { disabled: ctx.pending || !hasType(ctx.legal, "lock"), testid: "lock" });
}

/** "4 of 6 have locked in". @param {GameContext} ctx */
function lockedCount(ctx) {
  const v = ctx.view;
  const players = v.phase === "showdown" && v.showdown ? v.showdown.seats : living(v);
  const locked = v.phase === "showdown" && v.showdown ? v.showdown.locked.filter(Boolean).length
    : v.seats.filter((/** @type {any} */ s) => players.includes(s.seat) && s.locked).length;
  return h("p", { class: "muted center small", text: t("collusion.locked_count", { n: locked, total: players.length }) });
}

// --------------------------------------------------------------------------------- ambush choice
/** @type {{key: string, victim: number} | null} */
let ambushDraft = null;

/** @param {GameContext} ctx */
function ambushPanel(ctx) {
  const v = ctx.view;
  const prompt = v.me.ambush_prompt;
  if (!prompt) {
    return card(null, h("p", { class: "lead" }, ...tn("collusion.waiting_ambush", { names: names(ctx, v.ambush_pending) })));
  }
  const key = `${v.round}:${v.vote}`;
  if (ambushDraft && ambushDraft.key !== key) ambushDraft = null;
  const buttons = prompt.candidates.map((/** @type {number} */ s) => {
    const selected = ambushDraft?.victim === s;
    return h("button", {
      class: `vote-card${selected ? " selected" : ""}`, type: "button", "aria-pressed": String(selected), "data-testid": `victim-${s}`,
      style: { "--seat": lobbySeat(ctx, s).colour }, disabled: ctx.pending || !isLegal(ctx.legal, { type: "ambush_pick", victim: s }),
      onclick: () => { ambushDraft = { key, victim: s }; ctx.rerender(); },
    }, seatToken(lobbySeat(ctx, s).symbol, lobbySeat(ctx, s).colour, 38), h("span", { class: "vote-name" }, h("span", { class: "vote-label" }, h("bdi", { text: nameText(ctx, s) }), botMark(lobbySeat(ctx, s)))));
  });
  const victim = ambushDraft?.victim;
  return h("div", { class: "vote-panel ambush-panel" },
    h("p", { class: "lead", text: t("collusion.ambush_prompt") }),
    voteGrid(...buttons),
    victim === undefined ? h("p", { class: "muted center", text: t("collusion.ambush_pick_first") })
      : bigButton(t("collusion.ambush_confirm", { name: nameText(ctx, victim) }), () => ctx.act({ type: "ambush_pick", victim }),
        { tone: "danger", disabled: ctx.pending, testid: "ambush-confirm" }));
}

// --------------------------------------------------------------------------------- showdown
/** @param {GameContext} ctx */
function showdownPanel(ctx) {
  const v = ctx.view;
  const sd = v.showdown;
  const mine = sd.seats.indexOf(ctx.seat);
  if (mine < 0) {
    return card(null,
      h("p", { class: "lead" }, ...tn("collusion.showdown_between", { a: name(ctx, sd.seats[0]), b: name(ctx, sd.seats[1]) })),
      showdownProgress(ctx));
  }
  const other = sd.seats[1 - mine];
  const choice = v.me.showdown_choice;
  const locked = !!sd.locked[mine];
  const cards = SHOWDOWN_CHOICES.map((c) => {
    const selected = choice === c;
    return h("button", {
      class: `showdown-card sd-${c}${selected ? " selected" : ""}${locked && !selected ? " dim" : ""}`, type: "button",
      "aria-pressed": String(selected), "data-testid": `showdown-${c}`,
      disabled: ctx.pending || (!selected && !isLegal(ctx.legal, { type: "showdown", choice: c })),
      onclick: () => { if (!selected) ctx.act({ type: "showdown", choice: c }); },
    }, h("strong", { class: "sd-name", text: t(`collusion.choice.${c}`) }), h("small", { text: t(`collusion.choice_hint.${c}`) }),
    selected ? h("span", { class: "check", "aria-hidden": "true" }, icon("check", 18)) : null);
  });
  return h("div", { class: "vote-panel" },
    h("p", { class: "lead" }, ...tn("collusion.showdown_you", { other: name(ctx, other), n: sd.pot })),
    h("div", { class: "showdown-grid" }, ...cards),
    lockRow(ctx, locked, choice !== null, "collusion.locked_choice"),
    showdownProgress(ctx));
}

/** @param {GameContext} ctx */
function showdownProgress(ctx) {
  const sd = ctx.view.showdown;
  return h("ul", { class: "plain-list" }, ...sd.seats.map((/** @type {number} */ s, /** @type {number} */ i) =>
    h("li", null, chip(ctx, s), " ", h("span", { class: "muted", text: sd.locked[i] ? t("collusion.state_locked") : sd.picked[i] ? t("collusion.state_picked") : t("collusion.state_thinking") }))));
}

// --------------------------------------------------------------------------------- explanations
/** Every reveal in words: who voted what, who was a target, who died and by which rule. @param {GameContext} ctx @param {any} r */
function explainReveal(ctx, r) {
  const votes = r.cards.map((/** @type {string} */ c, /** @type {number} */ s) => {
    if (c === "out") return null;
    const text = c === "target" ? tn("collusion.voted_for", { who: name(ctx, s), target: name(ctx, r.voted_for[s]) })
      : c === "ambush" ? tn("collusion.played_ambush", { who: name(ctx, s) })
        : tn("collusion.no_card", { who: name(ctx, s) });
    return h("li", { class: `vote-line vote-${c}` }, ...text);
  }).filter(Boolean);
  const targetLine = r.targets.length === 0
    ? h("p", null, ...tn("collusion.no_target", {}), " ", rule("C8"))
    : h("p", null, ...tn(r.targets.length === 1 ? "collusion.target_one" : "collusion.target_many",
      { names: names(ctx, r.targets), n: r.tally[r.targets[0]] }), " ", rule("C8"));
  const picks = r.ambush_picks.map((/** @type {any} */ p) => h("p", null,
    ...tn(p.victim === null ? "collusion.ambush_nobody" : p.random ? "collusion.ambush_random" : "collusion.ambush_survived",
      { who: name(ctx, p.by), victim: p.victim === null ? "" : name(ctx, p.victim) }), " ", rule("C10")));
  const deaths = r.resolved
    ? (r.deaths.length === 0 ? [h("p", { class: "good", text: t("collusion.nobody_died") })]
      : r.deaths.map((/** @type {any} */ d) => h("p", { class: "death", "data-testid": "death" },
        h("span", { class: "skull", "aria-hidden": "true" }, icon("skull", 18)),
        ...tn(`collusion.death.${d.kind}`, { who: name(ctx, d.seat), by: d.by === null ? "" : name(ctx, d.by) }), " ", rule(d.cause))))
    : [h("p", { class: "muted", text: t("collusion.reveal_pending") })];
  return h("div", { class: "explain", "data-testid": "reveal" },
    h("ul", { class: "plain-list votes" }, ...votes), targetLine, ...picks, ...deaths);
}

/** @param {GameContext} ctx @param {any} e round end @param {any} sd last showdown (may be of an older round) */
function explainRoundEnd(ctx, e, sd) {
  const lines = [];
  if (e.outcome === "taken") lines.push(h("p", null, ...tn("collusion.pot_taken", { who: name(ctx, e.survivors[0]), n: e.bars_taken }), " ", rule("C13")));
  if (e.outcome === "stays") {
    lines.push(h("p", null, ...tn("collusion.pot_stays", {}), " ", rule("C14")));
    if (e.draws.length) lines.push(h("p", null, ...tn("collusion.draws", { names: names(ctx, e.draws) }), " ", rule("C14")));
  }
  if (e.outcome === "showdown" && sd && sd.round >= e.round && sameSeats(sd.seats, e.survivors)) lines.push(explainShowdown(ctx, sd));
  return h("div", { class: "explain", "data-testid": "round-end" }, ...lines);
}

/** @param {number[]} a @param {number[]} b */
function sameSeats(a, b) {
  return a.length === b.length && a.every((s) => b.includes(s));
}

/** @param {GameContext} ctx @param {any} sd last showdown */
function explainShowdown(ctx, sd) {
  const picks = sd.seats.map((/** @type {number} */ s, /** @type {number} */ i) => h("li", null,
    ...tn(sd.timed_out[i] ? "collusion.showdown_timed_out" : "collusion.showdown_chose",
      { who: name(ctx, s), choice: h("strong", { text: t(`collusion.choice.${sd.choices[i]}`) }), n: sd.payout[i] })));
  const extra = [];
  if (sd.draws.length) extra.push(h("p", null, ...tn("collusion.showdown_draws", { names: names(ctx, sd.draws) }), " ", rule("C15")));
  if (sd.pot_left > 0) extra.push(h("p", { class: "muted" }, ...tn("collusion.pot_left", { n: sd.pot_left })));
  return h("div", { class: "explain-showdown" }, h("ul", { class: "plain-list" }, ...picks), ...extra, h("p", null, rule("C15")));
}

/** The latest things that happened, newest first, as collapsible cards. @param {GameContext} ctx */
export function happenings(ctx) {
  const v = ctx.view;
  const out = [];
  const end = v.last_round_end;
  const rev = v.last_reveal;
  const fresh = hasFreshEvent(ctx);
  if (end && (v.phase === "game_over" || (end.round === v.round - 1 && v.vote <= 1))) {
    out.push(collapsible(`end:${end.round}`, t("collusion.round_result", { round: end.round }), explainRoundEnd(ctx, end, v.last_showdown), true, fresh));
  }
  if (rev && (rev.round === v.round || out.length > 0 || v.phase === "game_over")) {
    const openByDefault = v.phase !== "vote" || !v.me?.card;
    out.push(collapsible(`rev:${rev.round}:${rev.vote}`, t("collusion.reveal_title", { round: rev.round, vote: rev.vote }), explainReveal(ctx, rev), openByDefault, fresh));
  }
  return out;
}

/** @param {GameContext} ctx */
function hasFreshEvent(ctx) {
  return ctx.events.some((e) => ["reveal", "ambush_resolved", "round_ended", "showdown_reveal", "game_over"].includes(e.type));
}

/** @param {string} key @param {string} title @param {Node} body @param {boolean} openByDefault @param {boolean} flash */
function collapsible(key, title, body, openByDefault, flash) {
  const open = detailsOpen.get(key) ?? openByDefault;
  const el = h("details", { class: `card happen${flash ? " flash" : ""}`, open }, h("summary", { class: "card-title", text: title }), body);
  el.addEventListener("toggle", () => detailsOpen.set(key, /** @type {HTMLDetailsElement} */ (el).open));
  return el;
}

// --------------------------------------------------------------------------------- game over
/** @param {GameContext} ctx */
export function finalPanel(ctx) {
  const v = ctx.view;
  const f = v.final;
  const won = ctx.seat !== null && v.winners.includes(ctx.seat);
  const order = v.seats.map((/** @type {any} */ s) => s.seat)
    .sort((/** @type {number} */ a, /** @type {number} */ b) => (f?.totals[b] ?? 0) - (f?.totals[a] ?? 0) || a - b);
  const headline = ctx.seat === null ? null
    : h("div", { class: `result-banner ${won ? "win" : "lose"}`, "data-testid": "result" }, won ? icon("trophy", 36) : null, won ? t("common.you_won") : t("common.you_lost"));
  return h("div", null,
    headline,
    card(t("common.winners"),
      h("p", { class: "lead" }, ...tn(v.winners.length > 1 ? "common.winners_shared" : "common.winner_is", { names: names(ctx, v.winners) }), " ", f ? rule(f.cause) : null),
      f && f.reason === "deck_empty" ? h("p", { class: "muted", text: t("collusion.deck_empty") }) : null,
      f ? h("table", { class: "scores" },
        h("thead", null, h("tr", null, h("th", { text: t("collusion.player") }), h("th", { text: t("collusion.bars") }), h("th", { text: t("collusion.total") }))),
        h("tbody", null, ...order.map((/** @type {number} */ s) => h("tr", { class: v.winners.includes(s) ? "winner" : "" },
          h("td", null, chip(ctx, s)), h("td", { text: num(f.bars[s]) }), h("td", null, h("strong", { text: num(f.totals[s]) })))))) : null),
    h("p", { class: "muted center", text: t("collusion.next_hint") }));
}

// --------------------------------------------------------------------------------- screens
/** @param {GameContext} ctx */
export function seatBody(ctx) {
  const v = ctx.view;
  const me = v.seats[ctx.seat ?? 0];
  if (v.phase === "game_over") return [finalPanel(ctx)];
  if (!me.in_round) {
    return [card(null, h("p", { class: "lead" }, ...tn("collusion.tie_break_out", { names: names(ctx, v.tie_break) }), " ", rule("C18")))];
  }
  if (v.phase === "vote") {
    if (!me.alive) return [outCard(ctx)];
    return [votePanel(ctx)];
  }
  if (v.phase === "ambush_choice") return [ambushPanel(ctx)];
  if (v.phase === "showdown") return [showdownPanel(ctx)];
  return [];
}

/** @param {GameContext} ctx */
function outCard(ctx) {
  const v = ctx.view;
  return card(null,
    h("p", { class: "lead", "data-testid": "out" }, t("collusion.you_are_out")),
    h("p", { class: "muted", text: t("collusion.you_are_out_hint") }),
    h("ul", { class: "plain-list" }, ...living(v).map((s) => h("li", null, chip(ctx, s), " ",
      h("span", { class: "muted", text: v.seats[s].locked ? t("collusion.state_locked") : v.seats[s].card_down ? t("collusion.state_picked") : t("collusion.state_thinking") })))));
}

/** @param {GameContext} ctx */
export function phaseTitle(ctx) {
  const v = ctx.view;
  const me = ctx.seat === null ? null : v.seats[ctx.seat];
  if (v.phase === "game_over") return t("collusion.game_over");
  if (v.phase === "ambush_choice") return v.me?.ambush_prompt ? t("collusion.title_ambush_you") : t("collusion.title_ambush");
  if (v.phase === "showdown") return t("collusion.title_showdown");
  if (me && (!me.in_round || !me.alive)) return t("collusion.title_watch");
  return v.tie_break.length ? t("collusion.title_tie_break") : t("collusion.title_vote");
}

/** @param {GameContext} ctx */
function renderSeat(ctx) {
  const v = ctx.view;
  return h("div", { class: "game collusion" },
    statusBar(ctx, phaseTitle(ctx)),
    v.tie_break.length && v.phase !== "game_over" ? h("p", { class: "notice" }, ...tn("collusion.tie_break_on", { names: names(ctx, v.tie_break) }), " ", rule("C18")) : null,
    ...seatBody(ctx),
    ...happenings(ctx),
    goldPanel(v),
    tableCard(ctx));
}

/** The public table: who is alive, bars held (counts), cards down, pot and deck. @param {GameContext} ctx */
export function tableCard(ctx) {
  const v = ctx.view;
  const rows = v.seats.map((/** @type {any} */ s) => {
    const state = v.phase === "game_over" ? "" : !s.in_round ? t("collusion.state_sitting_out") : !s.alive ? t("collusion.state_dead")
      : s.locked ? t("collusion.state_locked") : s.card_down ? t("collusion.state_picked")
        : v.phase === "vote" ? t("collusion.state_thinking") : t("collusion.state_alive");
    return h("li", { class: `table-row${s.alive && s.in_round ? "" : " dead"}`, "data-testid": `table-seat-${s.seat}` },
      chip(ctx, s.seat),
      h("span", { class: "row-state", text: state }),
      h("span", { class: "row-bars", "aria-label": t("collusion.bars_count", { n: s.bars }) }, h("span", { class: "mini-bar", "aria-hidden": "true" }), num(s.bars)));
  });
  return card(t("collusion.table"),
    h("ul", { class: "plain-list table-list" }, ...rows),
    h("p", { class: "muted small" }, t("collusion.pot_deck", { n: v.pot, deck: v.deck, target: v.target_score })));
}

/** Spectator / host: the public table, read-only. @param {GameContext} ctx */
function renderPublic(ctx) {
  const v = ctx.view;
  const body = [];
  if (v.phase === "game_over") body.push(finalPanel(ctx));
  if (v.phase === "showdown" && v.showdown) body.push(card(null, h("p", { class: "lead" }, ...tn("collusion.showdown_between", { a: name(ctx, v.showdown.seats[0]), b: name(ctx, v.showdown.seats[1]) })), showdownProgress(ctx)));
  if (v.phase === "ambush_choice") body.push(card(null, h("p", { class: "lead" }, ...tn("collusion.waiting_ambush", { names: names(ctx, v.ambush_pending) }))));
  if (v.phase === "vote") body.push(card(null, lockedCount(ctx)));
  return h("div", { class: "game collusion public" },
    statusBar(ctx, phaseTitle(ctx)),
    ...body,
    ...happenings(ctx),
    tableCard(ctx));
}

/** @type {import("./common.js").GameModule} */
/** Fewer seats than the published 6–12 players: it plays, but say so. @param {any} lobby */
function lobbyNote(lobby) {
  return lobby.seat_count < PUBLISHED_MIN_SEATS ? tn("collusion.small_table", { n: lobby.seat_count }) : null;
}

export default { renderSeat, renderPublic, lobbyNote, buzzOn: ["reveal", "showdown_reveal"] };
