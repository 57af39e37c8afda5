// Events in words, for the table's log (docs/api.md, "Events"). `names` maps a seat to a name;
// `me` is this tab's seat (or null). An event type this page does not know still gets a line.

import { cardWords, listWords, plural, rankPlural } from "./ui.js";

export function describe(event, names, me) {
  const d = event.data || {};
  const who = (seat) => (seat == null ? "nobody" : seat === me ? "you" : (names[seat] ?? `seat ${seat + 1}`));
  const Who = (seat) => capital(who(seat));
  const cards = (codes) => listWords(codes.map(cardWords));
  const [game, kind] = event.type.split(".", 2);

  switch (kind) {
    case "game_created":
      return `The ${game === "cheat" ? "Cheat" : "Thirty-One"} table was opened.`;
    case "player_joined":
      return `${d.name} sat down${d.house ? " (the house plays this seat)" : ""}.`;
    case "deck_revealed":
      return `The deck of round ${d.round} was revealed: the deal can be checked.`;
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

  if (game === "cheat") {
    switch (kind) {
      case "round_dealt":
        return `Round ${d.round}: ${who(d.dealer)} dealt${d.set_aside ? `, ${plural(d.set_aside, "card")} set aside` : ""}. ${Who(d.turn)} ${d.turn === me ? "start" : "starts"} with sevens.`;
      case "cards_played":
        // The cards only for the seat that played them: what it may know, whatever a frame says.
        return `${Who(d.seat)} put down ${plural(d.count, "card")} as ${rankPlural(d.rank)}${d.cards && d.seat === me && me != null ? ` (${cards(d.cards)})` : ""}.`;
      case "cheat_called":
        return `${Who(d.caller)} called “Cheat!” on ${d.seat === me ? "your" : `${who(d.seat)}’s`} ${rankPlural(d.rank)}: ${cards(d.cards || [])} — ${d.honest ? "honest" : "a lie"}.`;
      case "pile_taken":
        return `${Who(d.seat)} took the pile (${plural(d.count, "card")}).`;
      case "penalty_taken":
        return `The Pale Chronicler went uncalled: ${who(d.seat)} took the pile (${plural(d.count, "card")}).`;
      case "play_accepted":
        return `${Who(d.seat)} let ${d.player === me ? "your" : `${who(d.player)}’s`} last play stand.`;
      case "round_ended":
        return `Round ${d.round} is over: ${who(d.winner)} went out first.`;
    }
  } else {
    switch (kind) {
      case "round_dealt":
        return `Round ${d.round}: ${who(d.dealer)} dealt; the table shows ${cards(d.table || [])}.`;
      case "hand_kept":
        return `${Who(d.seat)} kept ${d.seat === me ? "your" : "their"} hand.`;
      case "hand_exchanged":
        return `${Who(d.seat)} exchanged ${d.seat === me ? "your" : "their"} hand for the table.`;
      case "card_swapped":
        return `${Who(d.seat)} gave ${cardWords(d.give)} for ${cardWords(d.take)}.`;
      case "hands_swapped":
        return `${Who(d.seat)} swapped ${d.seat === me ? "your" : "their"} whole hand with the table.`;
      case "passed":
        return `${Who(d.seat)} passed.`;
      case "hand_shown":
        return `${Who(d.seat)} showed ${cards(d.hand || [])}.`;
      case "round_ended": {
        if (d.three_aces != null)
          return `Round ${d.round}: three Aces for ${who(d.three_aces)}! Everyone else loses a life.`;
        const lost = (d.lost_life || []).map(who);
        const out = (d.out || []).map(who);
        return `Round ${d.round} is over: ${lost.length ? `${listWords(lost)} lost a life` : "nobody lost a life"}${out.length ? `; ${listWords(out)} ${out.length === 1 && out[0] !== "you" ? "is" : "are"} out` : ""}.`;
      }
    }
  }
  return `${capital(kind.replaceAll("_", " "))}.`;
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
