// The TV is telling what just happened (a reveal and its deaths, a race's verdict, the winner): every
// phone waits for it rather than spoil it, and shows the news once the TV has. Format:
// docs/protocol.md, "look".
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { icon } from "../icons.js";

/**
 * "Look at the screen", with this seat's next step if it has one waiting.
 * @param {boolean} yourMove the seat has a move to make once the TV has told it @returns {Node}
 */
export function lookCard(yourMove) {
  return h("section", { class: "card look-card", role: "status", "aria-live": "polite", "data-testid": "look" },
    h("div", { class: "look-icon", "aria-hidden": "true" }, icon("tv", 56)),
    h("h2", { class: "look-title", text: t("look.title") }),
    h("p", { class: "muted", text: t("look.body") }),
    yourMove && h("p", { class: "lead", "data-testid": "look-next", text: t("look.next") }));
}
