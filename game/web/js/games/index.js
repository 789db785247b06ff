// Each game's phone screens are their own module. The table names the one to load (every `state`
// carries `phone`, the game's catalog path under /static/js/, game/catalog.py), so a new game or
// variant brings its module and one catalog line; nothing here names a game.
import generic from "./generic.js";

/** A phone path the table may name: a module file directly under games/ (never elsewhere). */
const MODULE_PATH = /^games\/[a-z0-9_]+\.js$/;

/** @type {Map<string, import("./common.js").GameModule>} */
const loaded = new Map();

/**
 * The game module at `path` ("games/collusion.js"), cached; the generic screens (every legal action
 * as a button) when the path is missing, not a module path, or the module does not load.
 * @param {unknown} path @returns {Promise<import("./common.js").GameModule>}
 */
export async function loadGame(path) {
  if (typeof path !== "string" || !MODULE_PATH.test(path)) return generic;
  const hit = loaded.get(path);
  if (hit) return hit;
  let module = generic;
  try {
    module = (await import(`../${path}`)).default ?? generic;
  } catch (err) {
    console.warn(`the phone module ${path} did not load; showing the generic screens`, err);
  }
  loaded.set(path, module);
  return module;
}
