// The one place that lists the games this page can draw: a table's `kind` → the game's module.
//
// A game's module holds everything of that game: `title`, the game in a few plain sentences
// (`howTo`), its table options in a player's words (`optionWords`), the sentences of its events
// (`describe`), its players' facts (`playerFacts`), the middle of the table and its moves
// (`render`), the round in words (`roundText`), the round's results (`results`), and the cards
// its events and views show face up (`seen`, `shown`), whose openings the page checks. Every other
// module finds it here by kind and names no game; a kind without a module gets the plain table
// (its players, its status, its events by type).

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { GameView } from "../sdk/typescript/src/gen/types.gen.js" */

import * as cheat from "./cheat.js";
import * as thirtyOne from "./thirty_one.js";

/**
 * What app.js hands a game's module to draw a table (`render`, `results`).
 * @template {GameView} [V=GameView]
 * @typedef {object} TableContext
 * @property {V} view
 * @property {string[]} legal the seat's legal moves of this game (not `leave` or `back`)
 * @property {number | null} me this tab's seat
 * @property {(seat: number | null) => string} who
 * @property {(seat: number | null) => string} Who
 * @property {(seat: number | null) => string} whose
 * @property {(seat: number) => string} name
 * @property {() => HTMLElement | null} timer
 * @property {Record<string, any>} ui this table's local choices, kept across renders
 * @property {(command: import("../sdk/typescript/src/gen/types.gen.js").Command, hint?: string) => Promise<void>} send
 * @property {() => void} rerender
 * @property {(text: string) => void} message
 * @property {HTMLElement | null} [notice]
 * @property {boolean} [readOnly] a replay's past view: its cards as pictures, and no moves
 */

/**
 * A game's module.
 * @typedef {object} GameModule
 * @property {string} title
 * @property {string[]} howTo
 * @property {Record<string, {label: string, help: string, empty?: string, choices?: Record<string, string>}>} optionWords
 * @property {(type: string, d: any, w: {me: number | null, who: (seat: number | null) => string, Who: (seat: number | null) => string, cards: (codes: string[]) => string}) => string | undefined} describe
 * @property {(player: any) => string[]} playerFacts
 * @property {(ctx: TableContext<any>) => any} render
 * @property {(ctx: TableContext<any>) => any} [results]
 * @property {(view: any) => string} [roundText]
 * @property {(type: string, d: any) => string[][]} [seen] the cards an event shows face up, in groups seen together
 * @property {(view: any) => string[]} [shown] the cards a view shows face up besides the hand
 */

const GAMES = new Map(
  /** @type {[string, GameModule][]} */ ([
    ["cheat", cheat],
    ["thirty_one", thirtyOne],
  ]),
);

/**
 * The module of a game `kind`, or null when this page has none for it.
 * @param {string} kind
 * @returns {GameModule | null}
 */
export function gameOf(kind) {
  return GAMES.get(kind) ?? null;
}

/** The titles of the games this page can draw, in the registry's order. */
export const titles = [...GAMES.values()].map((game) => game.title);
