// Speakeasy on the phone: your secret identity, the host's secret subject, pointing (changeable
// until the reveal), and every reveal explained with its rule. Formats: game/games/speakeasy/views.md.
// The companion variant (speakeasy_companion.js) reuses the pieces exported here.
import { h, voteGrid } from "../dom.js";
import { num, t, tn } from "../i18n.js";
import { clueText } from "./clues.js";
import { icon } from "../icons.js";
import { secret } from "../secret.js";
import { seatToken } from "../symbols.js";
import { botMark, card, seatName, seatChip, seatNameNode } from "../ui.js";
import { isLegal, lobbySeat } from "./common.js";

/** @typedef {import("./common.js").GameContext} GameContext */
/** @typedef {import("./common.js").WireAction} WireAction */

/** @param {GameContext} ctx @param {number} seat */
export const name = (ctx, seat) => seatNameNode(lobbySeat(ctx, seat));
/** @param {GameContext} ctx @param {number} seat */
export const chip = (ctx, seat) => seatChip(lobbySeat(ctx, seat), { you: seat === ctx.seat });
/** @param {string} id */
export const rule = (id) => h("span", { class: "rule", text: t("common.rule", { id }) });

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

/** @param {GameContext} ctx */
function statusBar(ctx) {
  const v = ctx.view;
  // At the end the title says "Game over" and the winner card below names the winner.
  const over = v.phase === "game_over";
  return h("div", { class: "status-bar" },
    h("div", { class: "status-text" },
      over ? null : h("div", { class: "status-where", text: t("speakeasy.clue_of", { n: v.clue?.number ?? 0, total: v.clue?.total ?? 0 }) }),
      h("h1", { class: "status-title", "data-testid": "status", text: over ? t("speakeasy.finished") : t(`speakeasy.title.${v.phase}`) })),
    ctx.timer);
}

/** The clue, as the big screen shows it. @param {GameContext} ctx */
function clueCard(ctx) {
  const v = ctx.view;
  if (!v.clue || v.phase === "game_over") return null;
  return h("section", { class: "card clue-card" },
    h("p", { class: "muted small" }, ...tn("speakeasy.host_is", { host: name(ctx, v.host) })),
    h("p", { class: "clue-text", dir: "auto", "data-testid": "clue", text: clueText({ deck: v.deck }, v.clue, ctx.rerender) }));
}

/** Your identity: the secret this phone holds, face down until you look. @param {GameContext} ctx */
export function identityCard(ctx) {
  const me = ctx.view.me;
  if (!me) return null;
  return secret("speakeasy-identity", {
    title: t("speakeasy.you_are"), testid: "identity", className: "identity",
    body: () => [
      h("div", { class: `identity-box identity-${me.identity}` },
        h("strong", { class: "identity-name", text: t(`speakeasy.identity.${me.identity}`) }),
        h("p", { class: "small", text: t(`speakeasy.identity_hint.${me.identity}`) })),
      h("p", { class: "secret-note" }, icon("lock", 14), t("speakeasy.secret"))],
  });
}

/** A grid of seat buttons. @param {GameContext} ctx @param {number[]} seats @param {number | null} selected @param {(s: number) => WireAction} action */
export function seatGrid(ctx, seats, selected, action) {
  return voteGrid(...seats.map((s) => {
    const seat = lobbySeat(ctx, s);
    const chosen = selected === s;
    return h("button", {
      class: `vote-card${chosen ? " selected" : ""}`, type: "button", "aria-pressed": String(chosen), "data-testid": `seat-${s}`,
      style: { "--seat": seat.colour }, disabled: ctx.pending || (!chosen && !isLegal(ctx.legal, action(s))),
      onclick: () => { if (!chosen) ctx.act(action(s)); },
    }, seatToken(seat.symbol, seat.colour, 38), h("span", { class: "vote-name" }, h("span", { class: "vote-label" }, h("bdi", { text: s === ctx.seat ? `${nameText(seat)} (${t("common.you")})` : nameText(seat) }), botMark(seat))),
    chosen ? h("span", { class: "check", "aria-hidden": "true" }, icon("check", 18)) : null);
  }));
}

/** @param {import("../ui.js").LobbySeat} seat */
export function nameText(seat) {
  return seatName(seat);
}

/** @param {GameContext} ctx */
function actionPanel(ctx) {
  const v = ctx.view;
  const me = v.me;
  const others = v.seats.map((/** @type {any} */ s) => s.seat).filter((/** @type {number} */ s) => s !== v.host);
  if (v.phase === "choosing") {
    if (!me.is_host) return card(null, h("p", { class: "lead" }, ...tn("speakeasy.wait_host", { host: name(ctx, v.host) })));
    return h("div", { class: "vote-panel" }, h("p", { class: "lead", text: t("speakeasy.choose_hint") }),
      seatGrid(ctx, others, me.subject, (s) => ({ type: "choose_subject", subject: s })));
  }
  if (v.phase === "pointing") {
    if (me.is_host) {
      return card(null, h("p", { class: "lead" }, ...tn("speakeasy.you_chose", { subject: name(ctx, me.subject) })),
        h("p", { class: "muted", text: t("speakeasy.pointed_count", { n: v.pointed.length, total: v.pointers.length }) }));
    }
    return h("div", { class: "vote-panel" },
      h("p", { class: "lead", text: me.pointed_at === null ? t("speakeasy.point_hint") : t("speakeasy.point_change") }),
      seatGrid(ctx, others, me.pointed_at, (s) => ({ type: "point", target: s })),
      h("p", { class: "muted center small", text: t("speakeasy.pointed_count", { n: v.pointed.length, total: v.pointers.length }) }));
  }
  if (v.phase === "reveal" && isLegal(ctx.legal, { type: "continue" })) {
    return h("button", { class: "btn btn-primary btn-big", type: "button", "data-testid": "continue", disabled: ctx.pending, onclick: () => ctx.act({ type: "continue" }), text: t(v.clues_left > 0 ? "speakeasy.continue" : "speakeasy.continue_last") });
  }
  return null;
}

/** One clue's result in words. @param {GameContext} ctx @param {any} r */
function explainReveal(ctx, r) {
  const lines = [];
  if (r.outcome === "skipped") {
    lines.push(h("p", null, ...tn("speakeasy.skipped", { host: name(ctx, r.host) }), " ", rule("S6")));
    return h("div", { class: "explain", "data-testid": "reveal" }, ...lines);
  }
  lines.push(h("p", null, ...tn(r.subject_by_timeout ? "speakeasy.subject_random" : "speakeasy.subject_was", { host: name(ctx, r.host), subject: name(ctx, r.subject) })));
  const pointing = r.pointing.map((/** @type {number | null} */ target, /** @type {number} */ s) =>
    s === r.host ? null : h("li", null, ...tn(target === null ? "speakeasy.pointed_nobody" : "speakeasy.pointed_at", { who: name(ctx, s), target: target === null ? "" : name(ctx, target) })));
  lines.push(h("ul", { class: "plain-list votes" }, ...pointing.filter(Boolean)));
  if (r.outcome === "nobody") lines.push(h("p", null, ...tn("speakeasy.nobody_found", { host: name(ctx, r.host) }), " ", rule("S9")));
  else lines.push(h("p", null, ...tn(`speakeasy.outcome.${r.outcome}`, { subject: name(ctx, r.subject), names: names(ctx, r.correct) }), " ", rule("S8")));
  return h("div", { class: "explain", "data-testid": "reveal" }, ...lines);
}

/** Scores and revealed identities. @param {GameContext} ctx */
function scoreCard(ctx) {
  const v = ctx.view;
  const finalIds = v.final?.identities;
  const order = [...v.seats].sort((/** @type {any} */ a, /** @type {any} */ b) => b.score - a.score || a.seat - b.seat);
  return card(t("speakeasy.scores"), h("ul", { class: "plain-list table-list" }, ...order.map((/** @type {any} */ s) => {
    const identity = finalIds ? finalIds[s.seat] : s.identity;
    return h("li", { class: `table-row${v.winners?.includes(s.seat) ? " winner" : ""}` },
      chip(ctx, s.seat),
      h("span", { class: "row-state", text: identity ? t(`speakeasy.identity.${identity}`) : "" }),
      h("strong", { class: "row-bars", text: num(s.score) }));
  })));
}

/** @param {GameContext} ctx */
function finalCard(ctx) {
  const v = ctx.view;
  const f = v.final;
  if (!f) return null;
  const won = ctx.seat !== null && f.winners.includes(ctx.seat);
  const bonuses = f.bonuses.map((/** @type {any} */ b) => h("li", null, ...tn(`speakeasy.bonus.${b.identity}`, { who: name(ctx, b.seat), n: b.points }), " ", rule(b.cause)));
  return h("div", null,
    ctx.seat === null ? null : h("div", { class: `result-banner ${won ? "win" : "lose"}`, "data-testid": "result" }, won ? icon("trophy", 36) : null, won ? t("common.you_won") : t("common.you_lost")),
    card(t("common.winners"),
      h("p", { class: "lead" }, ...tn(f.winners.length > 1 ? "common.winners_shared" : "common.winner_is", { names: names(ctx, f.winners) }), " ", rule("S13")),
      bonuses.length ? h("ul", { class: "plain-list" }, ...bonuses) : null));
}

/** @param {GameContext} ctx */
function history(ctx) {
  const v = ctx.view;
  const last = v.reveal ?? (v.history.length ? v.history[v.history.length - 1] : null);
  if (!last) return null;
  const fresh = ctx.events.some((e) => e.type === "pointing_revealed" || e.type === "clue_skipped");
  return h("section", { class: `card happen${fresh ? " flash" : ""}` },
    h("h2", { class: "card-title", text: t("speakeasy.last_clue", { n: last.number }) }), explainReveal(ctx, last));
}

/** @param {GameContext} ctx */
function renderSeat(ctx) {
  const v = ctx.view;
  return h("div", { class: "game speakeasy" },
    statusBar(ctx),
    v.phase === "game_over" ? finalCard(ctx) : null,
    clueCard(ctx),
    actionPanel(ctx),
    identityCard(ctx),
    history(ctx),
    scoreCard(ctx));
}

/** @param {GameContext} ctx */
function renderPublic(ctx) {
  const v = ctx.view;
  return h("div", { class: "game speakeasy public" },
    statusBar(ctx),
    v.phase === "game_over" ? finalCard(ctx) : null,
    clueCard(ctx),
    v.phase === "pointing" ? card(null, h("p", { class: "muted center", text: t("speakeasy.pointed_count", { n: v.pointed.length, total: v.pointers.length }) })) : null,
    history(ctx),
    scoreCard(ctx));
}

/** @type {import("./common.js").GameModule} */
export default { renderSeat, renderPublic };
