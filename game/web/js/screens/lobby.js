// The lobby as a seat sees it (and a spectator): who you are, who else is here, game and settings.
import { h } from "../dom.js";
import { has, num, t } from "../i18n.js";
import { seatToken } from "../symbols.js";
import { card, seatName } from "../ui.js";

/** @typedef {import("../ui.js").LobbySeat} LobbySeat @typedef {import("../games/common.js").GameModule} GameModule */

/** A setting's value in words: ms as seconds, booleans as on/off, keys translated, a seat setting
 *  (its schema's unit "seat") by the seat's name, never its index.
 *  @param {string} key @param {any} value @param {any} [lobby] the lobby (its seat_settings and seats) */
export function settingValue(key, value, lobby = null) {
  const isSeat = (lobby?.seat_settings ?? []).includes(key);
  const seat = isSeat ? (lobby?.seats ?? []).find((/** @type {LobbySeat} */ s) => s.seat === value) : undefined;
  if (seat) return seatName(seat);
  if (typeof value === "boolean") return value ? t("common.on") : t("common.off");
  if (typeof value === "number" && key.endsWith("_ms")) return value === 0 ? t("settings.untimed") : t("common.seconds", { n: Math.round(value / 1000) });
  if (typeof value === "number") return num(value);
  if (Array.isArray(value)) return t("settings.items", { n: value.length });
  if (typeof value === "string" && has(`value.${value}`)) return t(`value.${value}`);
  return String(value);
}

/** @param {string} key */
export function settingLabel(key) {
  return has(`settings.${key}`) ? t(`settings.${key}`) : key.replace(/_ms$/, "").replace(/_/g, " ");
}

/** Game name, preset and the settings that matter, as a definition list. @param {any} lobby */
export function gameSummary(lobby) {
  const entries = Object.entries(lobby.settings ?? {}).filter(([, v]) => v === null || typeof v !== "object");
  return card(t("lobby.game"),
    h("p", { class: "game-name" }, h("strong", { text: t(`game.${lobby.game}`) }),
      lobby.preset ? h("span", { class: "muted", text: `${t("common.separator")}${has(`preset.${lobby.preset}`) ? t(`preset.${lobby.preset}`) : lobby.preset}` }) : null),
    has(`game_blurb.${lobby.game}`) ? h("p", { class: "muted", text: t(`game_blurb.${lobby.game}`) }) : null,
    entries.length ? h("details", { class: "settings" }, h("summary", { text: t("lobby.settings") }),
      h("dl", null, ...entries.flatMap(([k, v]) => [h("dt", { text: settingLabel(k) }), h("dd", { text: settingValue(k, v, lobby) })]))) : null);
}

/** One line per offered seat. @param {LobbySeat[]} seats @param {number | null} me */
export function seatList(seats, me) {
  return h("ul", { class: "plain-list seat-list", "data-testid": "seat-list" }, ...seats.map((s) => {
    const status = s.status === "bot" ? t("lobby.bot") : s.status === "free" ? t("lobby.free")
      : s.connected ? (s.seat === me ? t("common.you") : t("lobby.here")) : t("lobby.away");
    return h("li", { class: `seat-row status-${s.status}${s.connected ? " online" : ""}`, style: { "--seat": s.colour } },
      seatToken(s.symbol, s.colour, 30),
      // the row keeps the page's direction; only the name is isolated (a Persian name in an English
      // list stays beside its token, not pushed to the far end of the row)
      h("span", { class: "seat-row-name" }, h("bdi", { text: s.status === "free" ? t(`colour.${s.colour_name}`) : seatName(s) })),
      h("span", { class: "seat-row-status", text: status }));
  }));
}

/**
 * The seat's lobby. @param {any} lobby @param {LobbySeat} mine @param {() => void} onRename
 * @param {() => void} onSkipIntro skips the how-to-play on the TV (shown while it runs)
 * @param {GameModule | null} game the game's phone module (its lobby note)
 */
export function seatLobby(lobby, mine, onRename, onSkipIntro, game) {
  const joined = lobby.seats.filter((/** @type {LobbySeat} */ s) => s.status !== "free").length;
  return h("div", { class: "lobby" },
    h("section", { class: "me-card", style: { "--seat": mine.colour }, "data-testid": "me-card" },
      seatToken(mine.symbol, mine.colour, 96),
      h("div", { class: "me-text" },
        h("div", { class: "muted", text: t("lobby.you_are") }),
        h("bdi", { class: "me-name", "data-testid": "my-name", text: seatName(mine) }),
        h("div", { class: "me-colour", text: t("lobby.seat_colour", { colour: t(`colour.${mine.colour_name}`), symbol: t(`symbol.${mine.symbol}`) }) }),
        h("button", { class: "link", type: "button", onclick: onRename, text: t("name.change") }))),
    lobby.how_to_play
      ? card(t("lobby.how_to_play"), h("button", { class: "btn btn-ghost", type: "button", "data-testid": "skip-intro", onclick: onSkipIntro, text: t("lobby.skip_intro") }))
      : h("div", { class: "waiting", "data-testid": "waiting" }, h("span", { class: "pulse", "aria-hidden": "true" }), t("lobby.waiting")),
    card(t("lobby.players", { n: joined, total: lobby.seat_count }), seatList(lobby.seats, mine.seat)),
    gameNote(lobby, game),
    gameSummary(lobby));
}

/** What the game's module says about this lobby (e.g. a table smaller than the published one), or nothing.
 *  @param {any} lobby @param {GameModule | null} game */
export function gameNote(lobby, game) {
  const note = game?.lobbyNote?.(lobby);
  return note ? h("p", { class: "notice" }, ...note) : null;
}
