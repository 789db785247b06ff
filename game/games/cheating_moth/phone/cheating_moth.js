// Cheating Moth on the phone: your hand (play, draw, give), the cheat gesture (hold a card until
// it slips away; letting go early cancels), the guard's accusations, and what just happened.
// Formats: game/games/cheating_moth/views.md. Races (M14–M16): a big button that fires on pointer-down,
// stamped with the phone's own clock (the table maps it with its clock sync, docs/protocol.md).
import { h, voteGrid } from "../dom.js";
import { measure, num, t, tn } from "../i18n.js";
import { icon } from "../icons.js";
import { phoneNow } from "../net.js";
import { secret } from "../secret.js";
import { seatToken } from "../symbols.js";
import { botMark, card as section, seatName, seatChip, seatNameNode } from "../ui.js";
import { boardNotice, hasType, isLegal, lobbySeat, nameList } from "./common.js";

/** @typedef {import("./common.js").GameContext} GameContext */
/** @typedef {{id: number, kind: string, number: number}} Card */

const FINISH_MARGIN_MS = 150; // hold a little past cheat_ms: the clock-sync error may shorten the mapped hold

/** A card picked to give, before choosing to whom; it counts only while giving it is legal (a card
 *  given earlier in the round is gone, so a later give starts again from the card). @type {number | null} */
let giveDraft = null;
/** @type {ReturnType<typeof setTimeout> | null} */
let holdTimer = null;

/** This phone's press in the current race: sent, then the table's verdict (press_result).
 *  @type {{race: number | null, verdict: string | null}} */
let racePress = { race: null, verdict: null };
/** @type {(() => void) | null} re-render on a verdict */
let raceRerender = null;

/** The table's verdict on our press (the app hands over the messages it does not handle). @param {any} msg */
function onMessage(msg) {
  if (msg.kind !== "press_result" || msg.race !== racePress.race) return;
  // clamped: the table counted it when it arrived, not at the (earlier) time this phone's clock said (M16)
  racePress = { race: msg.race, verdict: msg.verdict === "accepted" && msg.clamped === true ? "clamped" : msg.verdict };
  if (raceRerender) raceRerender();
}

/** Press now: stamp first (pointer-down), then buzz and send. @param {GameContext} ctx @param {PointerEvent} e */
function pressRace(ctx, e) {
  const stamp = phoneNow();
  e.preventDefault();
  const v = ctx.view;
  const cards = v.me?.race_cards ?? [];
  if (!v.race || (racePress.race === v.race.id && racePress.verdict !== "false_start")) return;
  if (!ctx.send("press", { race: v.race.id, t: stamp, card: v.race.kind === "beetle" ? cards[0] ?? null : null })) return;
  if ("vibrate" in navigator) navigator.vibrate(40);
  racePress = { race: v.race.id, verdict: "sent" };
  ctx.rerender();
}

/** The race button while a race runs, or this phone's feedback. @param {GameContext} ctx */
function racePanel(ctx) {
  const v = ctx.view;
  raceRerender = ctx.rerender;
  if (!v.race || ctx.seat === null) return null;
  const beetle = v.race.kind === "beetle";
  const canRace = beetle ? (v.me?.race_cards ?? []).length > 0 : v.race.eligible.includes(ctx.seat);
  if (!canRace) return section(null, h("p", { class: "muted", text: t(beetle ? "moth.race_no_card" : "moth.race_watch") }));
  const mine = racePress.race === v.race.id ? racePress.verdict : null;
  const feedback = mine && mine !== "sent" ? h("p", { class: mine === "accepted" ? "lead" : "notice", "data-testid": "race-verdict", text: t(`moth.press.${mine}`) }) : null;
  const done = mine !== null && mine !== "false_start";
  return h("section", { class: "card race-card" },
    h("button", {
      class: "btn btn-primary btn-big race-button", type: "button", "data-testid": "race-press", disabled: done,
      onpointerdown: (/** @type {PointerEvent} */ e) => pressRace(ctx, e),
      text: done ? t("moth.press.sent") : t(beetle ? "moth.race_button" : "moth.slap_button"),
    }), feedback);
}

/** The latest race's order with reaction times, margins and the error bound (M16). @param {GameContext} ctx */
function raceTimes(ctx) {
  const r = ctx.view.last_race;
  if (!r || ctx.view.race || !r.order.length) return null;
  const err = Math.max(0, ...r.error_ms);
  return h("ol", { class: "plain-list table-list", "data-testid": "race-times" },
    ...r.order.map((/** @type {number} */ s, /** @type {number} */ i) => h("li", { class: "table-row" }, chip(ctx, s),
      h("span", { class: "row-state", text: t("moth.race_ms", { ms: measure(r.times_ms[i]) }) }),
      h("strong", { class: "row-bars", text: i === 0 ? "" : t("moth.race_margin", { ms: measure(r.margins_ms[i]) }) }))),
    h("li", { class: "muted small", text: t("moth.race_error", { ms: measure(err) }) }),
    drawnLine(r));
}

/** A place too close to call, decided by a draw (game/rules/race.py): said exactly. @param {any} r */
function drawnLine(r) {
  return r.within_ms > 0 ? h("li", { class: "notice", "data-testid": "race-drawn", text: t("moth.race_drawn", { ms: measure(r.within_ms) }) }) : null;
}

/** @param {GameContext} ctx @param {number} seat */
const name = (ctx, seat) => seatNameNode(lobbySeat(ctx, seat));
/** @param {GameContext} ctx @param {number} seat */
const chip = (ctx, seat) => seatChip(lobbySeat(ctx, seat), { you: seat === ctx.seat });
/** @param {string} id */
const rule = (id) => h("span", { class: "rule", text: t("common.rule", { id }) });

/** One card face. @param {Card} c @param {Record<string, any>} [attrs] */
function cardFace(c, attrs = {}) {
  return h(attrs.onclick || attrs.onpointerdown ? "button" : "div", {
    type: attrs.onclick || attrs.onpointerdown ? "button" : undefined, ...attrs,
    class: `moth-card kind-${c.kind} ${attrs.class ?? ""}`, "aria-label": t("moth.card_label", { kind: t(`moth.kind.${c.kind}`), n: c.number }),
  }, h("span", { class: "moth-number", text: num(c.number) }), h("span", { class: "moth-kind", text: t(`moth.kind.${c.kind}`) }));
}

/** @param {GameContext} ctx */
function statusBar(ctx) {
  const v = ctx.view;
  // At the end the winner card below names the winner: the title says the game is over (not
  // "And the winner is…", which would stand above "You lost" and the card).
  const title = v.phase === "game_over" ? t("moth.phase.game_over")
    : v.turn === ctx.seat ? (v.phase === "play" ? t("moth.your_turn") : t(`moth.phase.${v.phase}`))
      : v.turn !== null && v.turn !== undefined ? t("moth.turn_of", { name: nameText(ctx, v.turn) }) : t(`moth.phase.${v.phase}`);
  return h("div", { class: "status-bar" },
    h("div", { class: "status-text" }, h("div", { class: "status-where", text: t("moth.round_of", { n: v.round, total: v.rounds }) }),
      h("h1", { class: "status-title", "data-testid": "status", text: title })),
    ctx.timer);
}

/** @param {GameContext} ctx @param {number} s */
function nameText(ctx, s) {
  return seatName(lobbySeat(ctx, s));
}

/** The discard pile's top card and the piles' sizes. @param {GameContext} ctx */
function pileCard(ctx) {
  const v = ctx.view;
  return h("section", { class: "card pile" },
    v.top ? cardFace(v.top, { class: "top-card" }) : null,
    h("div", { class: "pile-text" },
      h("p", { class: "muted small", text: t("moth.pile", { discard: v.discard_size, draw: v.draw_size }) }),
      h("p", null, ...tn("moth.guard_is", { name: name(ctx, v.guard) }))));
}

/** @param {GameContext} ctx */
function handPanel(ctx) {
  const v = ctx.view;
  const you = v.me;
  if (!you) return null;
  const gift = pickedGift(ctx);
  const giving = you.give_to.length > 0;
  const cheating = you.cheat !== null;
  const cards = you.hand.map((/** @type {Card} */ c) => {
    const play = { type: "play", card: c.id };
    const canPlay = isLegal(ctx.legal, play);
    const canGive = giving && ctx.legal.some((a) => a.type === "give" && a.card === c.id);
    const canCheat = isLegal(ctx.legal, { type: "cheat_start", card: c.id, t_ms: 0 });
    const cls = [canPlay ? "playable" : "", canGive ? "givable" : "", gift === c.id ? "selected" : "",
      you.cheat?.card === c.id ? "cheating" : ""].join(" ");
    return cardFace(c, {
      class: cls, "data-testid": `card-${c.id}`, disabled: ctx.pending || !(canPlay || canGive || canCheat),
      onclick: () => {
        if (canPlay) ctx.act(play);
        else if (canGive) pickGift(ctx, c.id);
      },
      onpointerdown: canCheat && !canPlay && !canGive ? (/** @type {PointerEvent} */ e) => dragToSleeve(ctx, c.id, e) : undefined,
    });
  });
  // While a cheat is held the hint stays the cheat's: a line that vanished or grew above the sleeve
  // would slide the sleeve out from under the finger and cancel the cheat it is holding.
  const cheatHint = t("moth.cheat_hint", { s: Math.round(v.settings.cheat_ms / 100) / 10 });
  const hint = cheating ? cheatHint : giving ? t("moth.give_hint") : hasType(ctx.legal, "play") ? t("moth.play_hint")
    : you.can_cheat ? cheatHint : you.is_guard ? t("moth.guard_hint") : "";
  // Face down until the player looks; the cover says when the hand is needed (a turn, a give).
  const hand = secret("moth-hand", {
    title: t("moth.your_hand", { n: you.hand.length }), testid: "hand-card", className: "hand",
    hint: giving ? t("moth.give_hint") : hasType(ctx.legal, "play") ? t("moth.your_turn") : null,
    body: () => [
      hint ? h("p", { class: "muted small", text: hint }) : null,
      h("div", { class: "moth-hand", "data-testid": "hand" }, ...cards),
      you.can_cheat || cheating ? h("div", { class: `sleeve${cheating ? " active" : ""}`, "data-testid": "sleeve", text: t("moth.sleeve") }) : null,
      cheating ? h("div", { class: "cheat-progress", "data-testid": "cheating" },
        h("span", { style: { animationDuration: `${v.settings.cheat_ms}ms` } }), t("moth.cheating")) : null,
      giving && gift !== null ? giveTargets(ctx, gift) : null,
      h("p", { class: "secret-note" }, icon("lock", 14), t("moth.hand_secret"))],
  });
  const draw = isLegal(ctx.legal, { type: "draw" })
    ? h("button", { class: "btn btn-ghost btn-big", type: "button", "data-testid": "draw", disabled: ctx.pending, onclick: () => ctx.act({ type: "draw" }), text: t("moth.draw") })
    : null;
  return [hand, draw];
}

/** The card picked to give, if giving it is legal now. @param {GameContext} ctx */
function pickedGift(ctx) {
  const id = giveDraft;
  return id !== null && ctx.legal.some((a) => a.type === "give" && a.card === id) ? id : null;
}

/** @param {GameContext} ctx @param {number} cardId */
function pickGift(ctx, cardId) {
  const you = ctx.view.me;
  if (you.give_to.length === 1) give(ctx, cardId, you.give_to[0]);
  else {
    giveDraft = cardId;
    ctx.rerender();
  }
}

/** @param {GameContext} ctx @param {number} cardId @param {number} to */
function give(ctx, cardId, to) {
  giveDraft = null;
  ctx.act({ type: "give", card: cardId, to });
}

/** One button per player the picked card may go to. @param {GameContext} ctx @param {number} cardId */
function giveTargets(ctx, cardId) {
  const targets = ctx.view.me.give_to.filter((/** @type {number} */ s) => isLegal(ctx.legal, { type: "give", card: cardId, to: s }));
  return h("div", { class: "stack" }, h("p", { class: "lead", text: t("moth.give_to") }),
    ...targets.map((/** @type {number} */ s) => h("button", {
      class: "btn btn-primary btn-big", type: "button", "data-testid": `give-${s}`, disabled: ctx.pending,
      onclick: () => give(ctx, cardId, s),
    }, seatToken(lobbySeat(ctx, s).symbol, lobbySeat(ctx, s).colour, 28), h("bdi", { text: nameText(ctx, s) }), botMark(lobbySeat(ctx, s)))));
}

/** Where the sleeve is on screen now, or null when it is not shown. @returns {DOMRect | null} */
function sleeveRect() {
  return document.querySelector("[data-testid=sleeve]")?.getBoundingClientRect() ?? null;
}

/** Whether the pointer is inside ``r``. @param {PointerEvent} e @param {DOMRect | null} r */
function inside(e, r) {
  return !!r && e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
}

/**
 * M8's deliberate gesture: a press on a card that cannot be played starts nothing (no tell, nothing
 * for the guard to catch); dragging it onto the sleeve starts the cheat, holding it there for
 * cheat_ms finishes it, and letting go or leaving the sleeve early cancels it.
 * @param {GameContext} ctx @param {number} cardId @param {PointerEvent} e
 */
function dragToSleeve(ctx, cardId, e) {
  e.preventDefault();
  const holdMs = ctx.view.settings.cheat_ms + FINISH_MARGIN_MS;
  // Once the cheat starts, the finger is judged against the sleeve where it was then: a notice or a
  // line appearing above it re-lays the page out, and that must not slide the sleeve away from the finger.
  /** @type {DOMRect | null} */
  let held = null;
  const cancel = () => {
    if (holdTimer) {
      clearTimeout(holdTimer);
      holdTimer = null;
      ctx.act({ type: "cheat_cancel", t_ms: Math.round(phoneNow()) });
    }
    held = null;
  };
  const move = (/** @type {PointerEvent} */ ev) => {
    const started = held !== null;
    const over = inside(ev, started ? held : sleeveRect());
    if (over && !started) {
      held = sleeveRect();
      ctx.act({ type: "cheat_start", card: cardId, t_ms: Math.round(phoneNow()) });
      if (holdTimer) clearTimeout(holdTimer);
      holdTimer = setTimeout(() => {
        holdTimer = null;
        ctx.act({ type: "cheat_finish", t_ms: Math.round(phoneNow()) });
      }, holdMs);
    } else if (!over && started) cancel();
  };
  const release = () => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", release);
    window.removeEventListener("pointercancel", release);
    cancel();
  };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", release);
  window.addEventListener("pointercancel", release);
}

/** The guard catches cheaters: one button per player, with what the table sees of them (M11): the
 *  subtle tell is only a visual hint (the player's plate trembles), the obvious one is also said. @param {GameContext} ctx */
function guardPanel(ctx) {
  const v = ctx.view;
  if (!v.me?.is_guard || !hasType(ctx.legal, "accuse")) return null;
  return section(t("moth.accuse_title"),
    h("p", { class: "muted small", text: t("moth.accuse_hint") }),
    voteGrid(...v.seats.filter((/** @type {any} */ s) => s.seat !== ctx.seat).map((/** @type {any} */ s) => {
      const seat = lobbySeat(ctx, s.seat);
      return h("button", {
        class: `vote-card${s.tell ? ` tell tell-${s.tell}` : ""}`, type: "button", "data-testid": `accuse-${s.seat}`,
        "data-tell": s.tell ?? undefined, style: { "--seat": seat.colour },
        disabled: ctx.pending || !isLegal(ctx.legal, { type: "accuse", target: s.seat, t_ms: 0 }),
        onclick: () => ctx.act({ type: "accuse", target: s.seat, t_ms: Math.round(phoneNow()) }),
      }, seatToken(seat.symbol, seat.colour, 34), h("span", { class: "vote-name" }, h("span", { class: "vote-label" }, h("bdi", { text: nameText(ctx, s.seat) }), botMark(seat)),
        s.tell === "sleeve" ? h("small", { text: t("moth.tell.sleeve") }) : null));
    })));
}

/** What just happened: the latest race and accusation, the round's end. @param {GameContext} ctx */
function happenings(ctx) {
  const v = ctx.view;
  const out = [];
  if (v.race) out.push(section(null, h("p", { class: "lead" }, ...tn(`moth.race.${v.race.kind}`, { name: name(ctx, v.race.player), n: v.race.number })), rule(v.race.kind === "mosquito" ? "M14" : "M15")));
  const a = v.last_accusation;
  if (a) out.push(h("p", { class: "notice" }, ...tn(a.caught ? "moth.caught" : "moth.not_caught", { guard: name(ctx, a.guard), target: name(ctx, a.target) }), " ", rule("M10")));
  const r = v.last_race;
  if (r && !v.race) {
    const key = r.kind === "mosquito" ? "moth.race_slowest" : r.winner === null ? "moth.race_nobody" : "moth.race_winner";
    out.push(h("p", { class: "muted" }, ...tn(key, { name: r.kind === "mosquito" ? (r.slowest === null ? "" : name(ctx, r.slowest)) : r.winner === null ? "" : name(ctx, r.winner) }), " ", rule(r.cause)));
    out.push(raceTimes(ctx));
  }
  return out;
}

/** Penalty points per player (lowest wins, M19). @param {GameContext} ctx */
function scoreCard(ctx) {
  const v = ctx.view;
  const order = [...v.seats].sort((/** @type {any} */ a, /** @type {any} */ b) => a.total - b.total || a.seat - b.seat);
  return section(t("moth.scores"), h("ul", { class: "plain-list table-list" }, ...order.map((/** @type {any} */ s) =>
    h("li", { class: `table-row${v.winners.includes(s.seat) ? " winner" : ""}` }, chip(ctx, s.seat),
      h("span", { class: "row-state", text: s.guard ? t("moth.guard") : (s.hand === "many" ? t("moth.many_cards") : t("moth.cards", { n: s.hand })) }),
      h("strong", { class: "row-bars", text: num(s.total) })))),
  h("p", { class: "muted small", text: t("moth.lowest_wins") }));
}

/** At the game's end: did this phone win, and who won (M19). @param {GameContext} ctx */
function finalBanner(ctx) {
  const v = ctx.view;
  if (v.phase !== "game_over") return null;
  const won = ctx.seat !== null && v.winners.includes(ctx.seat);
  return h("div", null,
    ctx.seat === null ? null : h("div", { class: `result-banner ${won ? "win" : "lose"}`, "data-testid": "result" }, won ? icon("trophy", 36) : null, won ? t("common.you_won") : t("common.you_lost")),
    section(t("common.winners"),
      h("p", { class: "lead", "data-testid": "winners" },
        ...tn(v.winners.length > 1 ? "common.winners_shared" : "common.winner_is", { names: nameList(ctx, v.winners) }), " ", rule("M19"))));
}

/** @param {GameContext} ctx */
function renderSeat(ctx) {
  return h("div", { class: "game cheating-moth" }, boardNotice(ctx), statusBar(ctx), finalBanner(ctx), racePanel(ctx), pileCard(ctx), ...happenings(ctx),
    handPanel(ctx), guardPanel(ctx), scoreCard(ctx));
}

/** @param {GameContext} ctx */
function renderPublic(ctx) {
  return h("div", { class: "game cheating-moth public" }, boardNotice(ctx), statusBar(ctx), finalBanner(ctx), pileCard(ctx), ...happenings(ctx), scoreCard(ctx));
}

/** @type {import("./common.js").GameModule} */
export default { renderSeat, renderPublic, onMessage };
