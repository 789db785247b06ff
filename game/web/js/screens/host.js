// The host link (/host + admin PIN): game, preset, language, seats, bots, settings, start.
import { h } from "../dom.js";
import { has, num, plainNumber, t, typedNumber, LANGS } from "../i18n.js";
import { seatToken } from "../symbols.js";
import { botMark, card, numberInput, seatName } from "../ui.js";
import { gameNote, settingLabel } from "./lobby.js";
import { ownerCard } from "./owner.js";

export const PIN_KEY = "tabletop.pin";
/** The bot levels people pick, by name, and the kind each stores (game.bots.LEVEL_KIND: a test checks they agree). */
/** @type {ReadonlyArray<readonly [string, string]>} */
const BOT_LEVELS = Object.freeze([["easy", "heuristic"], ["normal", "belief"], ["hard", "search"]]);
const LEVEL_KINDS = Object.freeze(BOT_LEVELS.map(([, kind]) => kind));

/** A bot kind's name for people: its level ("hard"), else the kind's own word ("random"). @param {string} kind */
function botKindLabel(kind) {
  const level = BOT_LEVELS.find(([, k]) => k === kind);
  if (level) return t(`bot.level.${level[0]}`);
  return has(`bot.${kind}`) ? t(`bot.${kind}`) : "";
}

/** The kinds a bot menu offers: the levels, and ``current`` too when it is none of them (a tests-only kind).
 *  @param {string | null | undefined} current */
function botChoices(current) {
  return current && !LEVEL_KINDS.includes(current) ? [...LEVEL_KINDS, current] : [...LEVEL_KINDS];
}
/**
 * One editable setting as the engine declares it (lobby.settings_schema, game/rules/schema.py).
 * @typedef {{ key: string, kind: "bool" | "int" | "choice", choices: string[], min: number, max: number | null,
 *             step: number, unit: "count" | "ms" | "seat", label: string }} SettingSpec
 */

/** @typedef {(command: string, fields?: Record<string, any>) => void} HostSend */
/** @typedef {import("../ui.js").LobbySeat} LobbySeat */

/** What the host typed into a number setting that was refused, by setting, kept across redraws
 *  while the setting still has the value it had then. @type {Map<string, {text: string, error: string, was: number}>} */
const refusedSettings = new Map();

/** @param {string | null} errorKey @param {(pin: string) => void} onPin */
export function pinForm(errorKey, onPin) {
  const input = /** @type {HTMLInputElement} */ (h("input", {
    class: "code-input", id: "pin", inputmode: "numeric", autocomplete: "off", maxlength: "12", dir: "ltr", "data-testid": "pin-input",
  }));
  return h("div", { class: "join" },
    h("div", { class: "brand" }, h("span", { class: "brand-bar", "aria-hidden": "true" }), h("h1", { text: t("host.title") })),
    h("form", {
      class: "join-form", onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        const pin = input.value.trim();
        if (pin) onPin(pin);
      },
    },
    h("label", { for: "pin", class: "label", text: t("host.pin_label") }),
    input,
    h("p", { class: "form-error", role: "alert", text: errorKey ? t(errorKey) : "" }),
    h("button", { class: "btn btn-primary btn-big", type: "submit", "data-testid": "pin-go", text: t("host.enter") })));
}

/** @param {string} label @param {string[]} values @param {string} current @param {(v: string) => void} onPick @param {(v: string) => string} name */
function choice(label, values, current, onPick, name) {
  return h("div", { class: "field" },
    h("span", { class: "label", text: label }),
    h("div", { class: "segmented", role: "group", "aria-label": label }, ...values.map((v) =>
      h("button", { type: "button", class: v === current ? "selected" : "", "aria-pressed": String(v === current), onclick: () => onPick(v), text: name(v) }))));
}

/** A setting's label: its declared key, else its name. @param {string} key @param {string} [labelKey] */
function label(key, labelKey) {
  return labelKey && has(labelKey) ? t(labelKey) : settingLabel(key);
}

/** An on/off switch. @param {string} text @param {boolean} value @param {(v: boolean) => void} onSet */
function switchField(text, value, onSet) {
  return h("label", { class: "field switch" },
    h("input", { type: "checkbox", checked: value, onchange: (/** @type {Event} */ e) => onSet(/** @type {HTMLInputElement} */ (e.target).checked) }),
    h("span", { text }));
}

/** A seat setting: one button per seat, its token and name (the TV names the same seat). @param {string} key
 *  @param {string} text @param {LobbySeat[]} seats @param {number} current @param {(v: number) => void} onPick */
function seatChoice(key, text, seats, current, onPick) {
  return h("div", { class: "field" },
    h("span", { class: "label", text }),
    h("div", { class: "segmented", role: "group", "aria-label": text }, ...seats.map((s) =>
      h("button", {
        type: "button", class: s.seat === current ? "selected seat-pick" : "seat-pick", "aria-pressed": String(s.seat === current),
        "data-testid": `setting-${key}-${s.seat}`, onclick: () => onPick(s.seat),
      }, seatToken(s.symbol, s.colour, 22), h("bdi", { text: seatName(s) })))));
}

/** An editor for one of the game's settings, as its schema declares it.
 *  @param {SettingSpec} spec @param {any} value @param {(v: any) => void} onSet @param {any[]} seats the table's seats */
function settingEditor(spec, value, onSet, seats) {
  const text = label(spec.key, spec.label);
  if (spec.unit === "seat" && typeof value === "number") return seatChoice(spec.key, text, seats, value, onSet);
  if (spec.kind === "bool" && typeof value === "boolean") return switchField(text, value, onSet);
  if (spec.kind === "int" && typeof value === "number") return numberSetting(spec.key, value, text, onSet, spec.unit === "ms");
  if (spec.kind === "choice" && typeof value === "string") {
    const options = spec.choices.includes(value) ? spec.choices : [...spec.choices, value];
    return choice(text, options, value, onSet, (v) => (has(`value.${v}`) ? t(`value.${v}`) : v));
  }
  return null;
}

/** An editor for one of the table's own settings (a switch, a number, or one of the choices the
 *  lobby lists for it, e.g. extended timers). @param {string} key @param {any} value @param {(v: any) => void} onSet
 *  @param {string[] | undefined} choices */
function tableSettingEditor(key, value, onSet, choices) {
  if (typeof value === "boolean") return switchField(settingLabel(key), value, onSet);
  if (typeof value === "number") return numberSetting(key, value, settingLabel(key), onSet, false);
  if (typeof value === "string" && choices?.includes(value)) {
    return choice(settingLabel(key), choices, value, onSet, (v) => (has(`value.${v}`) ? t(`value.${v}`) : v));
  }
  return null;
}

/**
 * What the host typed for a number setting (digits of any script the phone's keyboard writes):
 * the value to send, or the key of the message that says what is wrong with it.
 * @param {string} text @param {boolean} seconds the setting is kept in ms and typed in seconds
 * @returns {{value: number} | {error: string}}
 */
export function typedSetting(text, seconds) {
  const typed = typedNumber(text).replace(/\u066b/g, ".");
  if (/^-\d/.test(typed)) return { error: "host.setting_error.negative" };
  if (!(seconds ? /^\d+(\.\d+)?$/ : /^\d+$/).test(typed)) return { error: seconds ? "host.setting_error.seconds" : "host.setting_error.whole" };
  return { value: seconds ? Math.round(Number(typed) * 1000) : Number(typed) };
}

/** A number setting, shown and typed in the page's digits; a refused entry says why and sends nothing.
 *  @param {string} key @param {number} value @param {string} label @param {(v: number) => void} onSet
 *  @param {boolean} seconds the setting is kept in ms and typed in seconds */
function numberSetting(key, value, label, onSet, seconds) {
  const id = `setting-${key}`;
  const refused = refusedSettings.get(key);
  const kept = refused?.was === value ? refused : null;
  const input = numberInput(id, { id, value: kept?.text ?? plainNumber(seconds ? value / 1000 : value) });
  const error = h("p", { class: "form-error", role: "alert", "data-testid": `${id}-error`, text: kept ? t(kept.error) : "" });
  input.addEventListener("change", () => {
    const typed = typedSetting(input.value, seconds);
    if ("error" in typed) {
      refusedSettings.set(key, { text: input.value, error: typed.error, was: value });
      error.textContent = t(typed.error);
      return;
    }
    refusedSettings.delete(key);
    error.textContent = "";
    onSet(typed.value);
  });
  return h("div", { class: "field" },
    h("label", { for: id, class: "label", text: seconds ? `${label} (${t("common.seconds_unit")})` : label }), input, error);
}

/** A bot's level, under its name: "bot | hard". @param {any} s */
function botKind(s) {
  const label = botKindLabel(s.bot);
  const kind = label ? `${t("common.separator")}${label}` : "";
  return h("span", { class: "seat-row-status", "data-testid": `bot-kind-${s.seat}`, text: `${t("lobby.bot")}${kind}` });
}

/** A seat's row: its name as the TV and the phones say it (a bot's is its seat colour in the
 *  table's language, with the robot mark), a bot's kind below it, its code, and what the host may do.
 *  @param {any} s @param {any} lobby @param {HostSend} send */
function seatRow(s, lobby, send) {
  const inLobby = lobby.phase === "lobby";
  const bot = s.status === "bot";
  const controls = [];
  if (inLobby && s.status !== "joined" && lobby.has_bots !== false) { // a game without bots never offers them
    const select = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": t("host.bot_for", { n: s.seat + 1 }) },
      h("option", { value: "", text: t("host.no_bot"), selected: s.status === "free" }),
      ...botChoices(s.bot).map((k) => h("option", { value: k, text: botKindLabel(k), selected: s.bot === k }))));
    select.addEventListener("change", () => send("set_bot", { seat: s.seat, kind: select.value || null }));
    controls.push(select);
  }
  // What freeing the seat does in this game: a bot plays on, or (no bots) the seat waits for a person.
  const confirmKey = lobby.has_bots === false ? "host.kick_confirm_people" : "host.kick_confirm";
  if (s.status === "joined") controls.push(h("button", { class: "btn btn-ghost btn-small", type: "button", "data-testid": `kick-${s.seat}`, onclick: () => { if (confirm(t(confirmKey, { name: seatName(s) }))) send("kick", { seat: s.seat }); }, text: t("host.kick") }));
  return h("li", { class: `seat-row status-${s.status}${s.connected ? " online" : ""}`, style: { "--seat": s.colour } },
    seatToken(s.symbol, s.colour, 30),
    h("div", { class: "seat-row-main" },
      h("span", { class: "seat-row-name" }, h("bdi", null, s.status === "free" ? t("lobby.free") : seatName(s)), botMark(s)),
      bot ? botKind(s) : null,
      // a bot's seat is taken only by a named join the host allows, never by its code
      s.code && !bot ? h("span", { class: "seat-code", dir: "ltr", text: s.code }) : null),
    ...controls);
}

/**
 * The arcade board's "press your button" wizard (lobby only; nothing without a board):
 * start it, or follow it seat by seat and stop it.
 * @param {any} lobby @param {HostSend} send
 */
function arcadeCard(lobby, send) {
  const a = lobby.arcade;
  if (!a?.present || lobby.phase !== "lobby") return null;
  if (!a.connected) return card(t("host.arcade"), h("p", { class: "muted", "data-testid": "arcade-status", text: t("host.arcade_none") }));
  if (!a.mapping_in_progress) {
    return card(t("host.arcade"),
      h("button", { class: "btn btn-ghost", type: "button", "data-testid": "arcade-map", onclick: () => send("map_buttons"), text: t("host.arcade_map") }),
      h("p", { class: "muted small", text: t("host.arcade_hint") }));
  }
  const seats = /** @type {any[]} */ (lobby.seats);
  const waiting = seats.find((s) => s.seat === a.waiting_for);
  const order = seats.map((s) => s.seat);
  const done = a.done && typeof a.done === "object"
    ? Object.entries(a.done).map(([seat, button]) => [Number(seat), Number(button)])
    : order.slice(0, Math.max(0, order.indexOf(a.waiting_for))).map((seat) => [seat, null]);
  return card(t("host.arcade"),
    waiting ? h("p", { class: "lead", "data-testid": "arcade-status" }, seatToken(waiting.symbol, waiting.colour, 30), " ",
      t("host.arcade_press", { n: waiting.seat + 1 })) : null,
    done.length ? h("ul", { class: "plain-list" }, ...done.map(([seat, button]) => h("li", {
      text: button === null ? t("host.arcade_seat_done", { n: seat + 1 }) : t("host.arcade_seat_button", { n: seat + 1, button: button + 1 }),
    }))) : null,
    h("button", { class: "btn btn-danger", type: "button", "data-testid": "arcade-stop", onclick: () => send("map_buttons", { cancel: true }), text: t("host.arcade_stop") }));
}

/**
 * Phones asking for a held seat (a dead phone's player on a new one, or a guest for a bot's seat
 * mid-game): one card per seat, its best-ranked request, and how many other phones ask for it
 * (a flood is one card, not eight). Allow moves the seat to that phone, Refuse sends it away (the
 * next one is shown). Same as Y / N on the TV.
 * @param {any[]} claims @param {LobbySeat[]} seats the lobby's seats @param {HostSend} send
 */
function claimsCard(claims, seats, send) {
  if (!claims?.length) return null;
  const holder = (/** @type {any} */ c) => seatName(seats.find((s) => s.seat === c.seat));
  return h("section", { class: "card claims", role: "alert", "data-testid": "claims" },
    h("h2", { class: "card-title", text: t("host.claims") }),
    ...claims.map((c) => h("div", { class: "claim-row", "data-testid": `claim-${c.seat}` },
      h("p", { class: "lead", text: c.name ? t("host.claim_named", { who: c.name, name: holder(c) }) : t("host.claim_phone", { name: holder(c) }) }),
      c.others > 0 ? h("p", { class: "muted", "data-testid": `claim-others-${c.seat}`, text: t("host.claim_others", { n: c.others }) }) : null,
      h("div", { class: "stack" },
        h("button", { class: "btn btn-primary", type: "button", "data-testid": `allow-${c.seat}`, onclick: () => send("claim", { id: c.id, allow: true }), text: t("host.allow") }),
        h("button", { class: "btn btn-ghost", type: "button", "data-testid": `refuse-${c.seat}`, onclick: () => send("claim", { id: c.id, allow: false }), text: t("host.refuse") })))),
    h("p", { class: "muted small", text: t("host.claim_hint") }));
}

/** The final screen's two ways on, as on the TV: each button sends once (a double tap is one choice;
 *  the next state redraws the page). @param {HostSend} send */
function finalChoices(send) {
  /** @param {string} command @param {string} key @param {string} testid @param {string} style */
  const button = (command, key, testid, style) => h("button", {
    class: `btn ${style} btn-big`, type: "button", "data-testid": testid, text: t(key),
    onclick: (/** @type {Event} */ e) => {
      const pressed = /** @type {HTMLButtonElement} */ (e.currentTarget);
      if (pressed.closest(".final-choices")?.hasAttribute("data-chosen")) return;
      pressed.closest(".final-choices")?.setAttribute("data-chosen", command);
      for (const b of pressed.closest(".final-choices")?.querySelectorAll("button") ?? []) /** @type {HTMLButtonElement} */ (b).disabled = true;
      send(command);
    },
  });
  return [h("div", { class: "stack final-choices", role: "group", "aria-label": t("host.play_again") },
    button("next", "host.play_again", "host-play-again", "btn-primary"),
    button("new_players", "host.new_players", "host-new-players", "btn-ghost"))];
}

/**
 * @param {any} state the host socket's latest state @param {HostSend} send @param {Node | null} table the public game view
 * @param {import("../games/common.js").GameModule | null} game the game's phone module (its lobby note)
 */
export function hostConsole(state, send, table, game) {
  const lobby = state.lobby;
  const inLobby = state.phase === "lobby";
  // Start does what Enter on the TV does: free seats get bots where the game has bots (said here),
  // else the page says exactly what is missing and Start waits.
  const free = lobby.free_seats ?? 0;
  const startHint = inLobby && free > 0
    ? h("p", { class: lobby.has_bots === false ? "form-error" : "muted", "data-testid": "start-hint", text: t(lobby.has_bots === false ? "host.start_people" : "host.start_bots", { n: free }) })
    : null;
  const actions = inLobby
    ? [h("button", { class: "btn btn-primary btn-big", type: "button", "data-testid": "host-start", disabled: lobby.can_start === false, onclick: () => send("start"), text: t("host.start") }),
      startHint,
      lobby.has_bots === false ? null
        : h("button", { class: "btn btn-ghost", type: "button", onclick: () => send("fill_bots", { kind: lobby.table_settings?.default_bot ?? "heuristic" }), text: t("host.fill_bots") })]
    : state.phase === "finished"
      ? finalChoices(send)
      : [h("button", { class: "btn btn-danger", type: "button", onclick: () => { if (confirm(t("host.abort_confirm"))) send("abort"); }, text: t("host.abort") })];
  const values = lobby.settings ?? {};
  const settings = (/** @type {SettingSpec[]} */ (lobby.settings_schema ?? [])).filter((spec) => Object.hasOwn(values, spec.key))
    .map((spec) => settingEditor(spec, values[spec.key], (value) => send("set_setting", { name: spec.key, value }), lobby.seats)).filter(Boolean);
  const tableSettings = Object.entries(lobby.table_settings ?? {}).filter(([k]) => k !== "default_bot" || lobby.has_bots !== false).map(([k, v]) => k === "default_bot"
    ? choice(settingLabel(k), botChoices(String(v)), String(v), (value) => send("set_setting", { name: k, value }), botKindLabel)
    : tableSettingEditor(k, v, (value) => send("set_setting", { name: k, value }), lobby.table_setting_choices?.[k])).filter(Boolean);
  return h("div", { class: "host" },
    claimsCard(lobby.claims, lobby.seats, send),
    card(null, h("div", { class: "stack" }, ...actions)),
    choice(t("host.language"), [...LANGS], lobby.language, (v) => send("set_language", { language: v }), (v) => t(`lang.${v}`)),
    inLobby && (lobby.play_modes ?? []).length > 1 ? choice(t("host.mode"), lobby.play_modes, lobby.play_mode, (v) => send("set_mode", { mode: v }), (m) => t(`mode.${m}`)) : null,
    inLobby ? choice(t("lobby.game"), lobby.games ?? [lobby.game], lobby.game, (v) => send("set_game", { game: v }), (g) => t(`game.${g}`)) : null,
    inLobby && lobby.presets?.length ? choice(t("host.preset"), lobby.presets, lobby.preset, (v) => send("set_preset", { preset: v }), (p) => (has(`preset.${p}`) ? t(`preset.${p}`) : p)) : null,
    card(t("host.seats"),
      inLobby ? h("div", { class: "stepper" },
        h("button", { class: "btn btn-ghost", type: "button", "aria-label": "−", disabled: lobby.seat_count <= lobby.min_seats, onclick: () => send("set_seats", { count: lobby.seat_count - 1 }), text: "−" }),
        h("strong", { text: num(lobby.seat_count) }),
        h("button", { class: "btn btn-ghost", type: "button", "aria-label": "+", disabled: lobby.seat_count >= lobby.max_seats, onclick: () => send("set_seats", { count: lobby.seat_count + 1 }), text: "+" })) : null,
      h("ul", { class: "plain-list seat-list" }, ...lobby.seats.map((/** @type {any} */ s) => seatRow(s, lobby, send))),
      h("p", { class: "muted small", text: t("host.codes_hint") }),
      lobby.seats.some((/** @type {any} */ s) => s.status === "joined") ? h("p", { class: "muted small", "data-testid": "kick-hint", text: t(lobby.has_bots === false ? "host.kick_hint_people" : "host.kick_hint") }) : null),
    gameNote(lobby, game),
    arcadeCard(lobby, send),
    inLobby && settings.length ? card(t("lobby.settings"), ...settings) : null,
    tableSettings.length ? card(t("host.table_settings"), ...tableSettings) : null,
    lobby.mode === "kiosk" ? ownerCard() : null,
    table);
}
