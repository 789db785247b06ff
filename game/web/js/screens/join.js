// Joining: the short typed code (/join), and picking a name (remembered on this phone).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { seatToken } from "../symbols.js";

export const NAME_KEY = "tabletop.name";
export const SEAT_KEY = "tabletop.seat";
const CODE_LETTERS = "ACDEFHJKMNPRTWXY";
const CODE_ALPHABET = /[^ACDEFHJKMNPRTWXY]/g;
const CODE_LENGTH = 4;
const NAME_MAX = 24;
// What the big screen's Noto fonts draw; the table refuses other characters in names the same
// way (game/session/names.py DRAWABLE_RANGES): an emoji would become "?" on the TV.
/** @type {ReadonlyArray<readonly [number, number]>} */
const DRAWABLE = [[0x20, 0x7e], [0xa0, 0x24f], [0x300, 0x36f], [0x370, 0x3e1], [0x3f0, 0x4ff], [0x600, 0x6ff],
  [0x750, 0x77f], [0xe00, 0xe7f], [0x1e00, 0x1eff], [0x2010, 0x2027], [0x2030, 0x205e], [0x20a0, 0x20b8],
  [0x20ba, 0x20c0], [0xfb50, 0xfdff], [0xfe70, 0xfefe]];
const DRAWABLE_FORMAT = new Set(["\u200c", "\u200e", "\u200f"]); // ZWNJ (Persian), LRM, RLM
const REFUSED = /[\p{So}\p{Cn}\p{Co}\p{Cs}\p{Cc}\p{Cf}]/u;
// The rest of the name rules, as the table applies them (game/session/names.py; the table decides).
const ZWNJ = "\u200c";
const CGJ = "\u034f"; // the combining grapheme joiner: a mark with no ink
/** @type {ReadonlyArray<readonly [number, number]>} */
const ARABIC = [[0x600, 0x6ff], [0x750, 0x77f], [0xfb50, 0xfdff], [0xfe70, 0xfefe]];
const MAX_MARKS = 2; // combining marks on one character (Thai: a vowel and a tone mark)
const MARK = /\p{M}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** A letter of the Arabic script (Persian), where a ZWNJ means something. @param {string} ch */
function arabicLetter(ch) {
  const cp = ch ? /** @type {number} */ (ch.codePointAt(0)) : -1;
  return /\p{L}/u.test(ch) && ARABIC.some(([low, high]) => cp >= low && cp <= high);
}

/** The invisible characters that mean nothing where they are left out (names.py ``tidy``). @param {string} text */
function tidy(text) {
  const chars = Array.from(text);
  /** @type {string[]} */
  const out = [];
  let base = "";
  chars.forEach((ch, i) => {
    if (ch === CGJ) return;
    if (DRAWABLE_FORMAT.has(ch)) {
      if (ch === ZWNJ && out[out.length - 1] !== ZWNJ && arabicLetter(base) && arabicLetter(chars[i + 1] ?? "")) out.push(ch);
      return;
    }
    if (!MARK.test(ch)) base = ch;
    out.push(ch);
  });
  return out.join("");
}

/** Every mark sits on a character, at most MAX_MARKS on each (names.py ``marks_fit``). @param {string} text */
function marksFit(text) {
  /** @type {number | null} */
  let marks = null;
  for (const ch of text.normalize("NFD")) {
    if (DRAWABLE_FORMAT.has(ch)) continue;
    if (MARK.test(ch)) {
      if (marks === null || marks >= MAX_MARKS) return false;
      marks += 1;
    } else {
      marks = /\s/u.test(ch) ? null : 0;
    }
  }
  return true;
}

/** What a name looks like on the screen, to tell names apart (names.py ``name_key``). @param {string} name */
function nameKey(name) {
  return name.normalize("NFKC").replace(/[\u200c\u200e\u200f\u034f]/gu, "").replace(/\s+/gu, " ").trim();
}

/**
 * Why the table would refuse ``name`` (already cleaned), as a message key and its fields; null: it
 * takes it. ``taken``: the other seats' names; ``typed``: what was typed (only invisible characters
 * and spaces: "needs a letter", not "type a name").
 * @param {string} name @param {string[]} taken @param {string} [typed]
 * @returns {{key: string, fields?: Record<string, string>} | null}
 */
export function nameProblem(name, taken, typed = name) {
  if (!name) return { key: typed.trim() ? "name.blank" : "name.empty" };
  const bad = undrawable(name);
  if (bad) return { key: "name.undrawable", fields: { chars: bad } };
  if (!LETTER_OR_DIGIT.test(name)) return { key: "name.blank" };
  if (!marksFit(name)) return { key: "name.marks" };
  const key = nameKey(name);
  if (taken.some((other) => other && nameKey(other) === key)) return { key: "name.taken", fields: { name } };
  return null;
}

/** The characters of a name the big screen cannot draw, each once. @param {string} text */
export function undrawable(text) {
  /** @type {string[]} */
  const bad = [];
  for (const ch of text) {
    if (DRAWABLE_FORMAT.has(ch)) continue;
    const cp = /** @type {number} */ (ch.codePointAt(0));
    const ok = !REFUSED.test(ch) && DRAWABLE.some(([low, high]) => cp >= low && cp <= high);
    if (!ok && !bad.includes(ch)) bad.push(ch);
  }
  return bad.join(" ");
}

/** Letters typed that no code uses (codes skip look-alikes such as O, I, S, B). @param {string} typed */
function unusedLetters(typed) {
  const bad = [...typed.toUpperCase()].filter((ch) => /[\p{L}\p{N}]/u.test(ch) && !CODE_LETTERS.includes(ch));
  return [...new Set(bad)];
}

/** The code form. @param {string | null} initialError i18n key */
export function codeForm(initialError) {
  const message = h("p", { class: "form-error", role: "alert", "data-testid": "join-message", text: initialError ? t(initialError) : "" });
  /** An error in red; "info" (a held seat: ask the host) in the neutral style. @param {string} text @param {"error" | "info"} [kind] */
  const say = (text, kind = "error") => {
    message.className = kind === "info" ? "form-info" : "form-error";
    message.setAttribute("role", kind === "info" ? "status" : "alert");
    message.textContent = text;
  };
  const input = /** @type {HTMLInputElement} */ (h("input", {
    class: "code-input", id: "code", name: "code", inputmode: "text", autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", maxlength: String(CODE_LENGTH), placeholder: "····", "aria-describedby": "code-hint", dir: "ltr",
    "data-testid": "code-input",
  }));
  const ask = h("div", { class: "stack" });
  /** @type {Set<string>} letters typed that no code uses, since the field was last empty */
  const dropped = new Set();
  input.addEventListener("input", () => {
    if (!input.value) dropped.clear(); // the player emptied the field: start over
    for (const ch of unusedLetters(input.value)) dropped.add(ch);
    input.value = input.value.toUpperCase().replace(CODE_ALPHABET, "").slice(0, CODE_LENGTH);
    // Thai or Persian letters: the keyboard is in the phone's own script, and the codes are in Latin capitals
    const foreign = [...dropped].some((ch) => /[\u0600-\u06ff\u0e00-\u0e7f]/.test(ch));
    say(!dropped.size ? "" : foreign ? t("join.latin_only") : t("join.not_used", { letters: [...dropped].join(" ") }));
    ask.replaceChildren();
  });
  const button = /** @type {HTMLButtonElement} */ (h("button", { class: "btn btn-primary btn-big", type: "submit", "data-testid": "code-go", text: t("join.go") }));
  const form = h("form", {
    class: "join-form", onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      const code = input.value;
      if (code.length !== CODE_LENGTH) {
        say(t("join.code_short"));
        input.focus();
        return;
      }
      button.disabled = true;
      const found = await lookUp(code);
      button.disabled = false;
      if (found.held && found.url) {
        // a seat someone holds: this phone can only ask the host for it
        say(t("join.held"), "info");
        ask.replaceChildren(h("a", { class: "btn btn-primary btn-big", href: found.url, "data-testid": "ask-host", text: t("join.ask_host") }));
        return;
      }
      say(found.message);
    },
  },
  h("label", { for: "code", class: "label", text: t("join.code_label") }),
  input,
  h("p", { id: "code-hint", class: "muted", text: t("join.code_hint") }),
  message,
  ask,
  button);
  const previous = localStorage.getItem(SEAT_KEY);
  const away = h("div", { class: "stack", "data-testid": "away-seats" });
  void listAway(away);
  return h("div", { class: "join" },
    h("div", { class: "brand" }, h("span", { class: "brand-bar", "aria-hidden": "true" }), h("h1", { text: t("join.title") })),
    form,
    away,
    previous ? h("a", { class: "btn btn-ghost btn-big", href: previous, "data-testid": "back-to-seat", text: t("join.back_to_seat") }) : null,
    h("a", { class: "link center", href: "/watch", text: t("join.watch") }));
}

/**
 * Ask the table for the seat link of a code: a free seat's link is opened at once; a held seat's
 * is returned with ``held`` (the phone must ask the host); else a message.
 * @param {string} code @returns {Promise<{message: string, held?: boolean, url?: string}>}
 */
async function lookUp(code) {
  try {
    const res = await fetch(`/api/join/${encodeURIComponent(code)}`, { cache: "no-store" });
    if (res.status === 429) return { message: t("join.rate_limited") };
    if (!res.ok) return { message: t("join.unknown_code") };
    const body = await res.json();
    if (typeof body?.url !== "string" || !body.url.startsWith("/s/")) return { message: t("join.unknown_code") };
    if (body.held) return { message: "", held: true, url: body.url };
    location.assign(body.url);
    return { message: "" };
  } catch {
    return { message: t("join.network") };
  }
}

/**
 * "Phone died? Tap your seat": the held seats whose phone is away; a tap asks the host for it.
 * @param {HTMLElement} into
 */
async function listAway(into) {
  try {
    const res = await fetch("/api/away", { cache: "no-store" });
    const seats = res.ok ? (await res.json())?.seats : null;
    if (!Array.isArray(seats) || !seats.length) return;
    into.replaceChildren(h("p", { class: "muted", text: t("join.away_hint") }),
      ...seats.filter((s) => typeof s?.url === "string" && s.url.startsWith("/s/")).map((s) => h("a", {
        class: "btn btn-ghost seat-chip-btn", href: s.url, "data-testid": `away-${s.seat}`, style: { "--seat": s.colour },
      }, seatToken(s.symbol, s.colour, 28), " ", h("bdi", { text: s.name || t(`colour.${s.colour_name}`) }))));
  } catch {
    // the list is a shortcut: without it the code form still works
  }
}

/** A seat's public card (a claim's ``seat``): colour, symbol, and the words under them. @param {any} seat @param {string} label */
function seatCard(seat, label) {
  return h("div", { class: "me-card small", style: { "--seat": seat.colour } }, seatToken(seat.symbol, seat.colour, 64),
    h("div", { class: "me-text" }, h("div", { class: "muted", text: label }),
      h("div", { class: "me-colour", text: t("lobby.seat_colour", { colour: t(`colour.${seat.colour_name}`), symbol: t(`symbol.${seat.symbol}`) }) })));
}

/** The phone waits while the host decides whether it may take a held seat. @param {any} seat the claim's seat */
export function askingHost(seat) {
  const holder = seat.name || t(`colour.${seat.colour_name}`);
  return h("div", { class: "join", "data-testid": "asking-host" },
    seatCard(seat, t("claim.seat")),
    h("div", { class: "waiting" }, h("span", { class: "pulse", "aria-hidden": "true" }), t("claim.title")),
    h("p", { class: "lead", text: t("claim.body", { name: holder }) }));
}

/**
 * Pick a name. @param {import("../ui.js").LobbySeat} seat @param {string} current
 * @param {(name: string) => void} onName @param {(() => void) | null} onCancel
 * @param {string | null} [note] a line above the form (a bot's seat: "type your name to take over")
 * @param {string[]} [taken] the other seats' names (a name must be told apart from them)
 */
export function nameForm(seat, current, onName, onCancel, note = null, taken = []) {
  const input = /** @type {HTMLInputElement} */ (h("input", {
    class: "name-input", id: "name", name: "name", autocomplete: "nickname", dir: "auto",
    enterkeyhint: "done", placeholder: t("name.placeholder"), "data-testid": "name-input", "aria-describedby": "name-cut",
  }));
  input.value = current || localStorage.getItem(NAME_KEY) || "";
  const message = h("p", { class: "form-error", role: "alert" });
  // no maxlength (the browser would cut inside a Thai cluster or a Persian word): a longer name is
  // cut at a whole grapheme, and the phone says so while it is typed
  const cutNote = h("p", { class: "muted small", id: "name-cut", "aria-live": "polite", "data-testid": "name-cut" });
  const showCut = () => {
    const typed = input.value.replace(/\s+/g, " ").trim();
    const kept = cleanName(input.value);
    cutNote.textContent = Array.from(typed).length > NAME_MAX && kept ? t("name.cut", { n: NAME_MAX, name: kept }) : "";
  };
  input.addEventListener("input", showCut);
  queueMicrotask(showCut);
  const form = h("form", {
    class: "join-form", onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const name = cleanName(input.value);
      const problem = nameProblem(name, taken, input.value);
      if (problem) {
        message.textContent = t(problem.key, problem.fields);
        input.focus();
        return;
      }
      localStorage.setItem(NAME_KEY, name);
      onName(name);
    },
  },
  h("label", { for: "name", class: "label", text: t("name.title") }),
  input,
  cutNote,
  message,
  h("button", { class: "btn btn-primary btn-big", type: "submit", "data-testid": "name-go", text: t("name.go") }),
  onCancel ? h("button", { class: "btn btn-ghost", type: "button", onclick: onCancel, text: t("common.cancel") }) : null);
  const el = h("div", { class: "join" },
    seatCard(seat, t("lobby.you_are")),
    note ? h("p", { class: "lead", "data-testid": "claim-note", text: note }) : null,
    form);
  queueMicrotask(() => input.focus());
  return el;
}

/** NFC, invisible characters that mean nothing dropped, control characters out, spaces collapsed,
 *  trimmed, at most 24 characters. @param {string} raw */
export function cleanName(raw) {
  const text = tidy(raw.normalize("NFC").replace(/[\u0000-\u001f\u007f-\u009f]/g, ""));
  return cutName(text.replace(/\s+/g, " ").trim()).trim();
}

/** At most NAME_MAX characters (code points, as the table counts them), cut between whole
 *  graphemes: a Thai consonant keeps its vowel and tone marks ("…พงษ์", never "…พง"). @param {string} text */
export function cutName(text) {
  let kept = "";
  let count = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)) {
    const size = Array.from(segment).length;
    if (count + size > NAME_MAX) break;
    kept += segment;
    count += size;
  }
  return kept;
}

export const CONSENT_ARM_MS = 1000; // no input on the consent screen this long after it shows
export const CONSENT_HOLD_MS = 1000; // giving the seat: press and hold this long

/**
 * The seated phone's own say, as its own screen (it replaces the game's buttons while open):
 * another phone asks for this seat. Nothing on it takes input for ``CONSENT_ARM_MS`` after it
 * shows (a finger in motion meant for the game lands on nothing; the buttons fade in when they
 * work), "Keep my seat" goes back to the game (the host still decides), and giving the seat needs a
 * press and hold of ``CONSENT_HOLD_MS`` with a visible fill — a tap never gives it.
 * @param {any} msg the ``claim`` message (state "asked") @param {(claim: number) => void} onGive
 * @param {() => void} onKeep
 */
export function consentScreen(msg, onGive, onKeep) {
  const keep = /** @type {HTMLButtonElement} */ (h("button", {
    class: "btn btn-primary btn-big", type: "button", "data-testid": "consent-keep", disabled: true, onclick: onKeep, text: t("consent.keep"),
  }));
  const give = holdButton(t("consent.give"), CONSENT_HOLD_MS, () => onGive(msg.claim));
  give.dataset.testid = "consent-give";
  const screen = h("section", { class: "join consent", role: "alertdialog", "aria-labelledby": "consent-title", "data-testid": "consent" },
    seatCard(msg.seat, t("consent.your_seat")),
    h("h1", { id: "consent-title", class: "consent-title", text: msg.name ? t("consent.named", { who: msg.name }) : t("consent.body") }),
    h("p", { class: "lead", text: t("consent.hint") }),
    h("div", { class: "stack consent-actions" },
      keep,
      give,
      h("p", { class: "muted small center", text: t("consent.hold_hint") })));
  setTimeout(() => {
    keep.disabled = false;
    give.disabled = false;
    screen.classList.add("armed");
  }, CONSENT_ARM_MS);
  return screen;
}

/**
 * A button that acts only when pressed and held for ``holdMs`` (a fill grows across it); let go
 * early and nothing happens. A click alone never acts. Starts disabled.
 * @param {string} label @param {number} holdMs @param {() => void} onDone
 */
function holdButton(label, holdMs, onDone) {
  const fill = h("span", { class: "hold-fill", "aria-hidden": "true" });
  const button = /** @type {HTMLButtonElement} */ (h("button", { class: "btn btn-ghost btn-big hold-btn", type: "button", disabled: true },
    fill, h("span", { class: "hold-label", text: label })));
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  const stop = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    button.classList.remove("holding");
    fill.style.transitionDuration = "0ms";
  };
  const start = () => {
    if (button.disabled || timer) return;
    button.classList.add("holding");
    fill.style.transitionDuration = `${holdMs}ms`;
    timer = setTimeout(() => {
      timer = null;
      button.disabled = true;
      onDone();
    }, holdMs);
  };
  button.addEventListener("pointerdown", (e) => { e.preventDefault(); start(); });
  for (const end of ["pointerup", "pointerleave", "pointercancel", "blur"]) button.addEventListener(end, stop);
  button.addEventListener("keydown", (e) => { if ((e.key === "Enter" || e.key === " ") && !e.repeat) { e.preventDefault(); start(); } });
  button.addEventListener("keyup", stop);
  button.addEventListener("contextmenu", (e) => e.preventDefault()); // a long press is not the phone's menu
  button.addEventListener("click", (e) => e.preventDefault());
  return button;
}
