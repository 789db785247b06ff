// Small inline SVG icons (no emoji: not every phone or headless browser has an emoji font).
import { svg } from "./dom.js";

/** Path data in a 24×24 box, drawn with currentColor; its keys are the names icon() takes. */
const PATHS = {
  lock: "M7 10V7a5 5 0 0 1 10 0v3h1a1 1 0 0 1 1 1v9a1 1 0 0 1-1 1H6a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1h1Zm2 0h6V7a3 3 0 0 0-6 0v3Zm3 3.5a1.5 1.5 0 0 0-1 2.6V18h2v-1.9a1.5 1.5 0 0 0-1-2.6Z",
  check: "M9.5 16.2 5.3 12l-1.4 1.4 5.6 5.6L20.1 8.4 18.7 7Z",
  shield: "M12 2 4 5v6c0 5.2 3.4 9.6 8 11 4.6-1.4 8-5.8 8-11V5l-8-3Zm0 2.2 6 2.2V11c0 4-2.5 7.6-6 8.9V4.2Z",
  skull: "M12 2C7 2 3 5.6 3 10.2c0 2.6 1.3 4.9 3.3 6.4V20a1 1 0 0 0 1 1h2v-2h1.4v2h2.6v-2h1.4v2h2a1 1 0 0 0 1-1v-3.4c2-1.5 3.3-3.8 3.3-6.4C21 5.6 17 2 12 2Zm-3.5 7.5a2 2 0 1 1 0 4 2 2 0 0 1 0-4Zm7 0a2 2 0 1 1 0 4 2 2 0 0 1 0-4Z",
  tv: "M3 5h18a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1h-7v2h3v2H7v-2h3v-2H3a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Zm1 2v9h16V7H4Z",
  eye: "M12 5C6.5 5 2.3 8.6 1 12c1.3 3.4 5.5 7 11 7s9.7-3.6 11-7c-1.3-3.4-5.5-7-11-7Zm0 2.2c4 0 7.2 2.4 8.6 4.8-1.4 2.4-4.6 4.8-8.6 4.8S4.8 14.4 3.4 12C4.8 9.6 8 7.2 12 7.2ZM12 8.5a3.5 3.5 0 1 0 0 7 3.5 3.5 0 0 0 0-7Z",
  eyeOff: "M3.3 2 2 3.3l3.1 3.1C3.2 7.8 1.8 9.8 1 12c1.3 3.4 5.5 7 11 7 2 0 3.8-.5 5.3-1.2l3.4 3.4 1.3-1.3L3.3 2Zm6.3 9 3.4 3.4a2.3 2.3 0 0 1-3.4-3.4ZM12 5c-1.3 0-2.5.2-3.6.6l1.8 1.8c.6-.1 1.2-.2 1.8-.2 4 0 7.2 2.4 8.6 4.8-.6 1-1.4 2-2.4 2.8l1.6 1.6c1.5-1.2 2.6-2.8 3.2-4.4-1.3-3.4-5.5-7-11-7Z",
  bot: "M11 1.5h2V5h4a3 3 0 0 1 3 3v8a3 3 0 0 1-3 3H7a3 3 0 0 1-3-3V8a3 3 0 0 1 3-3h4V1.5ZM9 9.5a1.75 1.75 0 1 0 0 3.5 1.75 1.75 0 0 0 0-3.5Zm6 0a1.75 1.75 0 1 0 0 3.5 1.75 1.75 0 0 0 0-3.5ZM9 15v1.5h6V15H9ZM1 10h2v5H1v-5Zm20 0h2v5h-2v-5Z",
  trophy: "M7 3h10v2h3v3a4 4 0 0 1-4 4h-.3A5 5 0 0 1 13 14.9V17h3v2H8v-2h3v-2.1A5 5 0 0 1 8.3 12H8a4 4 0 0 1-4-4V5h3V3Zm10 4v3a2 2 0 0 0 1-1.7V7h-1ZM6 7v1.3A2 2 0 0 0 7 10V7H6Zm-1 14h14v2H5v-2Z",
};

/** @param {keyof typeof PATHS} name @param {number} [size] */
export function icon(name, size = 20) {
  return svg("svg", { viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true", class: `icon icon-${name}` },
    svg("path", { d: PATHS[name], fill: "currentColor", "fill-rule": "evenodd" }));
}
