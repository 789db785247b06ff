// Each game's phone screens are their own module; this loads the one a table plays.
import generic from "./generic.js";

/** Games with their own phone module (file name = engine name). */
const MODULES = Object.freeze({
  collusion: () => import("./collusion.js"),
  speakeasy: () => import("./speakeasy.js"),
  cheating_moth: () => import("./cheating_moth.js"),
});

/** @type {Map<string, import("./common.js").GameModule>} */
const loaded = new Map();

/** @param {string} game @returns {Promise<import("./common.js").GameModule>} */
export async function loadGame(game) {
  const hit = loaded.get(game);
  if (hit) return hit;
  const load = Object.hasOwn(MODULES, game) ? MODULES[/** @type {keyof typeof MODULES} */ (game)] : null;
  const module = load ? (await load()).default : generic;
  loaded.set(game, module);
  return module;
}
