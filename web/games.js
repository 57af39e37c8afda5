// The one place that lists the games this page can draw: a table's `kind` → the game's module.
//
// A game's module holds everything of that game: `title`, the sentences of its events
// (`describe`), its players' facts (`playerFacts`), the middle of the table and its moves
// (`render`), the round in words (`roundText`) and the round's results (`results`). Every other
// module finds it here by kind and names no game; a kind without a module gets the plain table
// (its players, its status, its events by type).

import * as cheat from "./cheat.js";
import * as thirtyOne from "./thirty_one.js";

const GAMES = new Map([
  ["cheat", cheat],
  ["thirty_one", thirtyOne],
]);

/** The module of a game `kind`, or null when this page has none for it. */
export function gameOf(kind) {
  return GAMES.get(kind) ?? null;
}

/** The titles of the games this page can draw, in the registry's order. */
export const titles = [...GAMES.values()].map((game) => game.title);
