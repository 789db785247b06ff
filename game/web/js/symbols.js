// Seat symbols as inline SVG, one shape per seat (game/seating.py): colour-blind players tell
// seats apart by shape, not only by colour. All shapes live in a 0..24 box.
import { h, svg } from "./dom.js";

/** @typedef {(fill: string) => SVGElement[]} Shape */
/** @type {Readonly<Record<string, Shape>> & { circle: Shape }} circle: what an unknown symbol is drawn as */
const SHAPES = {
  circle: (f) => [svg("circle", { cx: 12, cy: 12, r: 9, fill: f })],
  square: (f) => [svg("rect", { x: 4, y: 4, width: 16, height: 16, rx: 2, fill: f })],
  triangle: (f) => [svg("path", { d: "M12 3 L21.5 20 H2.5 Z", fill: f })],
  diamond: (f) => [svg("path", { d: "M12 2 L21.5 12 L12 22 L2.5 12 Z", fill: f })],
  star: (f) => [svg("path", { d: "M12 2.5 L14.8 9 L21.8 9.3 L16.3 13.7 L18.2 20.6 L12 16.7 L5.8 20.6 L7.7 13.7 L2.2 9.3 L9.2 9 Z", fill: f })],
  hexagon: (f) => [svg("path", { d: "M12 2.5 L20.3 7.25 V16.75 L12 21.5 L3.7 16.75 V7.25 Z", fill: f })],
  cross: (f) => [svg("path", { d: "M9 3 H15 V9 H21 V15 H15 V21 H9 V15 H3 V9 H9 Z", fill: f })],
  heart: (f) => [svg("path", { d: "M12 21 C5 15.5 2.5 12.5 2.5 8.6 C2.5 5.6 4.8 3.5 7.5 3.5 C9.4 3.5 11 4.6 12 6.2 C13 4.6 14.6 3.5 16.5 3.5 C19.2 3.5 21.5 5.6 21.5 8.6 C21.5 12.5 19 15.5 12 21 Z", fill: f })],
  moon: (f) => [svg("path", { d: "M15.5 2.8 A9.5 9.5 0 1 0 21.2 15.6 A7.5 7.5 0 0 1 15.5 2.8 Z", fill: f })],
  drop: (f) => [svg("path", { d: "M12 2.5 C12 2.5 19 10.5 19 15 A7 7 0 0 1 5 15 C5 10.5 12 2.5 12 2.5 Z", fill: f })],
  bolt: (f) => [svg("path", { d: "M14 2 L4.5 13.5 H11 L9.5 22 L19.5 10 H13 Z", fill: f })],
  ring: (f) => [svg("circle", { cx: 12, cy: 12, r: 7.25, fill: "none", stroke: f, "stroke-width": 4.5 })],
};

/**
 * The seat's symbol drawn in its colour, on a dark disc so light colours (white, yellow) read too.
 * @param {string} symbol shape key
 * @param {string} colour "#rrggbb"
 * @param {number} [size] CSS pixels
 */
export function symbolSvg(symbol, colour, size = 28) {
  const draw = SHAPES[symbol] ?? SHAPES.circle;
  const root = svg("svg", { viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true", class: "symbol" }, ...draw(colour));
  return root;
}

/** A round token: symbol in colour with a ring of the same colour (used for seats everywhere).
 * @param {string} symbol @param {string} colour @param {number} [size] CSS pixels */
export function seatToken(symbol, colour, size = 40) {
  return h("span", { class: "token", style: { "--seat": colour, width: `${size}px`, height: `${size}px` } },
    symbolSvg(symbol, colour, Math.round(size * 0.62)));
}

export const SYMBOL_KEYS = Object.freeze(Object.keys(SHAPES));
