// Compile-time proof (tsc --noEmit, tests/typescript/test_types.py): a `switch` on an event's
// `type` narrows `data` to that event's fields, for every event type, and the `never` in the
// default fails the build when the service adds an event type this file does not name.
// A second switch does the same for views (on `kind`) and commands (on `type`).

import type { Command, GameEvent, GameView } from "../src/index.js";

function unreachable(value: never): never {
  throw new Error(`not handled: ${JSON.stringify(value)}`);
}

export function describe(event: GameEvent): string {
  switch (event.type) {
    case "cheat.game_created":
      return `cheat opened, ${event.data.options.max_play} cards a play at most`;
    case "cheat.player_joined":
      return `${event.data.name} sits at ${event.data.seat}`;
    case "cheat.round_dealt":
      return `round ${event.data.round}, commitment ${event.data.commitment}, first rank ${event.data.rank}`;
    case "cheat.cards_played":
      return `${event.data.count} × ${event.data.rank}, next ${event.data.next_rank}`;
    case "cheat.cheat_called":
      return `${event.data.caller} calls: ${event.data.honest ? "honest" : "a cheat"}, ${event.data.taker} takes`;
    case "cheat.pile_taken":
      return `${event.data.seat} takes ${event.data.count}`;
    case "cheat.penalty_taken":
      return `${event.data.seat} takes a penalty of ${event.data.count}`;
    case "cheat.play_accepted":
      return `accepted by ${event.data.player}`;
    case "cheat.round_ended":
      return `round won by ${event.data.winner}, totals ${event.data.totals.join(",")}`;
    case "cheat.deck_revealed":
    case "thirty_one.deck_revealed":
      return `deck of round ${event.data.round}: ${event.data.deck?.length ?? "hidden"} cards, salt ${event.data.salt}`;
    case "cheat.deals_opened":
      return `${event.data.openings.length} cards opened, first at ${event.data.openings[0]?.position}`;
    case "cheat.match_ended":
      return `won by ${event.data.winners.join(",")} with ${event.data.points.join(",")}${event.final ? "" : "?"}`;
    case "cheat.player_left":
    case "thirty_one.player_left":
      return `${event.data.player_id} left${event.data.started ? " the match" : ""}`;
    case "cheat.seat_away":
    case "thirty_one.seat_away":
      return `${event.data.seat} is away`;
    case "cheat.seat_back":
    case "thirty_one.seat_back":
      return `${event.data.seat} is back`;
    case "cheat.deals_opened":
    case "thirty_one.deals_opened":
      return `every deal opened: ${event.data.openings.length} positions`;
    case "thirty_one.game_created":
      return `thirty-one opened, ${event.data.options.lives} lives`;
    case "thirty_one.player_joined":
      return `${event.data.name}${event.data.house ? " (house)" : ""} sits at ${event.data.seat}`;
    case "thirty_one.round_dealt":
      return `round ${event.data.round}: table ${event.data.table.join(" ")}, dealer ${event.data.dealer}`;
    case "thirty_one.hand_kept":
      return `${event.data.seat} keeps`;
    case "thirty_one.hand_exchanged":
      return `${event.data.seat} exchanges, table ${event.data.table.join(" ")}`;
    case "thirty_one.card_swapped":
      return `${event.data.seat} gives ${event.data.give}, takes ${event.data.take}`;
    case "thirty_one.hands_swapped":
      return `${event.data.seat} swaps all, table ${event.data.table.join(" ")}`;
    case "thirty_one.passed":
      return `${event.data.seat} passes`;
    case "thirty_one.hand_shown":
      return `${event.data.seat} shows ${event.data.hand.join(" ")}`;
    case "thirty_one.round_ended":
      return `lost a life: ${event.data.lost_life.join(",")}; out: ${event.data.out.join(",")}`;
    case "thirty_one.match_ended":
      return `won by ${event.data.winners.join(",")}`;
    default:
      return unreachable(event);
  }
}

export function headline(view: GameView): string {
  switch (view.kind) {
    case "cheat":
      return `pile ${view.cheat?.pile_size ?? 0}, points ${view.players.map((p) => p.points).join(",")}`;
    case "thirty_one":
      return `table ${view.thirty_one?.table.join(" ") ?? "-"}, lives ${view.players.map((p) => p.lives).join(",")}`;
    default:
      return unreachable(view);
  }
}

export function words(command: Command): string {
  switch (command.type) {
    case "play":
      return `play ${command.cards.join(" ")}`;
    case "swap":
      return `give ${command.give}, take ${command.take}`;
    case "call":
    case "accept":
    case "leave":
    case "back":
    case "keep":
    case "exchange":
    case "swap_all":
    case "pass":
    case "show":
      return command.type;
    default:
      return unreachable(command);
  }
}

// And what does not compile: a field of another event, a command without its cards.
export function wrong(event: GameEvent, command: Command): void {
  if (event.type === "cheat.cards_played") {
    // @ts-expect-error a Thirty-One swap's field, not on a Cheat play
    void event.data.give;
  }
  // @ts-expect-error `play` needs its cards
  const bad: Command = { type: "play" };
  void bad;
  void command;
}
