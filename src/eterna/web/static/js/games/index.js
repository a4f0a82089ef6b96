// The game renderers by game id.
import * as eternity from "./eternity.js";
import * as eternitium from "./eternitium.js";
import * as vale from "./vale.js";

export const GAMES = { eternity, eternitium, vale };

export async function gameModule(id) {
  const mod = GAMES[id];
  if (!mod) throw new Error(`unknown game ${id}`);
  await mod.load();
  return mod;
}
