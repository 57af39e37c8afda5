// Events in words, for the table's log (docs/api.md, "Events"). `names` maps a seat to a name;
// `me` is this tab's seat (or null). The sentences of the seats' events are here; a game's own
// events are told by its module (games.js), found by the kind in the event's type. An event type
// this page does not know still gets a line: its type in words.

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { GameEvent } from "../sdk/typescript/src/gen/types.gen.js" */

import { gameOf } from "./games.js";
import { cardWords, humanize, listWords } from "./ui.js";

/**
 * @param {GameEvent} event
 * @param {Record<number, string>} names
 * @param {number | null} me
 */
export function describe(event, names, me) {
  // Read by the kind after the dot, across games: `data` as a plain record here; each game's
  // module reads its own events' fields.
  const d = /** @type {Record<string, any>} */ (event.data || {});
  const who = (seat) => (seat == null ? "nobody" : seat === me ? "you" : (names[seat] ?? `seat ${seat + 1}`));
  const Who = (seat) => capital(who(seat));
  const cards = (codes) => listWords(codes.map(cardWords));
  const [game, kind = game] = event.type.split(".", 2);
  const module = gameOf(game);

  switch (kind) {
    case "game_created":
      return `The ${module?.title ?? humanize(game)} table was opened.`;
    case "player_joined":
      return `${d.name} sat down${d.house ? " (the house plays this seat)" : ""}.`;
    case "deck_revealed":
      return `The whole deck of round ${d.round} was shown, as deals were before each card had a proof of its own: the deal can be checked.`;
    case "deals_opened":
      return "The match is over and the table shows every card of every deal: each can be checked against its deal.";
    case "player_left":
      return `${Who(d.seat)} left the table${d.started ? "; the house plays that seat to the end" : ""}.`;
    case "seat_away":
      return `${Who(d.seat)} ran out of time: the house plays for ${d.seat === me ? "you" : "them"} until ${d.seat === me ? "you are" : "they are"} back.`;
    case "seat_back":
      return `${Who(d.seat)} ${d.seat === me ? "are" : "is"} back and playing again.`;
    case "match_ended": {
      const won = (d.winners || []).map(who);
      return `The match is over. ${capital(listWords(won))} ${won.length === 1 && won[0] !== "you" ? "wins" : "win"}!`;
    }
  }

  return module?.describe?.(kind, d, { me, who, Who, cards }) ?? `${humanize(kind)}.`;
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
