"""Thirty-One (docs/rules.md, seeds 002 and 003) as a Decider: commands, events, phases, views.

The package is the engine contract of docs/engines.md: every name the application, the API, the
tests and the bench use is re-exported here. The modules, in the order they build on each other:
`options`, `scoring`, `commands`, `events`, `view_types`, `states`, `legal` (the predicates
`decide` checks: what a seat may do, stated once), `facts` (what a seat's cards are worth, as
its view says), `evolve`, `decide`, `view` (`view`, `redact`), `seats` (where seating is kept),
`house` and `engine` (the game built in one value).

Decisions taken here where the rules leave a detail open (docs/rules.md lists them too):

- A round's end comes in one decision with its cause: the move, `round_ended` (scores, lives,
  who is out), then the next `round_dealt` or `match_ended` (and, with `reveal` `match_end`,
  `deals_opened`). A deal of the old scheme (stored before deals were committed card by card)
  still has `deck_revealed` after its `round_ended`.
- A card is opened (docs/api.md, "Fair deals"; `openings`) in the event where a viewer comes to
  know it, and never otherwise: a seat's hand in its copy of `round_dealt`, with the table's
  cards in everyone's; the cards put face up by `hand_exchanged`, `card_swapped` (the card
  given) and `hands_swapped`; the shower's hand in `hand_shown`, the swapper's too after a swap
  in the last circuit; in `round_ended` every hand it lists, so at three Aces the winner's only.
  A round the table's cap of events cuts short opens nothing. The view's `openings` are those
  of the round's cards it shows the viewer (its hand, the table, the shown hands).
- A swap in the last circuit is followed at once by `hand_shown` for the swapper ("whoever swaps
  shows at once"); a swap that makes three Aces is then followed by the round's end.
- With three Aces the round result holds only the winner's hand and score, even when hands were
  shown earlier in the last circuit: "the others stay hidden" is kept literally.
- A hand's cards keep their positions: a swap puts the taken card where the given one was, and
  the given card where the taken one lay on the table.
- `round_ended.lives` is every seat's lives afterwards; a player who loses a life at 0 without
  going out (everyone left would be out) stays at 0 and is listed in `lost_life`, not in `out`.
- `max_circuits` counts the turns (swap, swap_all, pass) taken since the dealer's choice; once
  `max_circuits` × the players in the round have been taken, the player on turn may only show.
- In the last circuit `legal` lists `swap` only when some one-card swap reaches 21, and
  `swap_all` only when the table scores 21 (the hand afterwards is the table).
- A wire command from a seat that does not exist, a spectator, a player who is out, or anyone
  but the player on turn is `not_your_turn`; a `join` or `start` after the match has ended is
  `game_not_open`, a wire command then is `game_over`.
- `Join`, `Leave` and `Back` (both games' wire commands) and the application's `seating.TimeOut`
  give `PlayerJoined`, `PlayerLeft`, `SeatBack` and `SeatAway`: the seating decider the builder
  composes into every game (`seating`) decides and folds them. The house plays a house
  player's seat, a left one and an away one through the same `decide` (`by_house=True`); the
  clock runs for the dealer during the dealer's choice, else for the player on turn
  (`waiting_for`). A player who is out may still leave.
"""

from kronikas_rules.common import EventOutOfPlace
from kronikas_rules.seating import Back, Leave, PlayerLeft, SeatAway, SeatBack, TimeOut
from kronikas_rules.thirty_one.commands import (
    COMMANDS,
    Command,
    CommandType,
    Exchange,
    Keep,
    Move,
    Pass,
    Show,
    Swap,
    SwapAll,
)
from kronikas_rules.thirty_one.decide import ImpossibleState, created
from kronikas_rules.thirty_one.engine import ENGINE
from kronikas_rules.thirty_one.events import (
    Event,
    ThirtyOneCardSwapped,
    ThirtyOneGameCreated,
    ThirtyOneHandExchanged,
    ThirtyOneHandKept,
    ThirtyOneHandShown,
    ThirtyOneHandsSwapped,
    ThirtyOneMatchEnded,
    ThirtyOnePassed,
    ThirtyOneRoundDealt,
    ThirtyOneRoundEnded,
)
from kronikas_rules.thirty_one.options import (
    HAND_SIZE,
    KIND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TABLE_SIZE,
    ThirtyOneOptions,
    ThirtyOneTableOptions,
    deck_of,
    max_players,
)
from kronikas_rules.thirty_one.scoring import MIN_SCORE, THREE_ACES, score, wire_score
from kronikas_rules.thirty_one.seats import waiting_for
from kronikas_rules.thirty_one.states import (
    Deal,
    DealerChoice,
    Finished,
    InRound,
    LastCircuit,
    Lobby,
    Match,
    RoundOver,
    State,
    Turns,
    deal_of,
    initial_state,
)
from kronikas_rules.thirty_one.view import redact
from kronikas_rules.thirty_one.view_types import (
    ThirtyOneGameView,
    ThirtyOneMyHand,
    ThirtyOnePlayerView,
    ThirtyOneRoundResult,
    ThirtyOneSwapChoice,
    ThirtyOneTableView,
)

decide = ENGINE.decide
evolve = ENGINE.evolve
legal = ENGINE.legal
legal_moves = ENGINE.legal_moves
is_terminal = ENGINE.is_terminal
house_seats = ENGINE.house_seats
seat_of = ENGINE.seat_of
view = ENGINE.view

__all__ = [
    "COMMANDS",
    "ENGINE",
    "HAND_SIZE",
    "KIND",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MIN_SCORE",
    "TABLE_SIZE",
    "THREE_ACES",
    "Back",
    "Command",
    "CommandType",
    "Deal",
    "DealerChoice",
    "Event",
    "EventOutOfPlace",
    "Exchange",
    "Finished",
    "ImpossibleState",
    "InRound",
    "Keep",
    "LastCircuit",
    "Leave",
    "Lobby",
    "Match",
    "Move",
    "Pass",
    "PlayerLeft",
    "RoundOver",
    "SeatAway",
    "SeatBack",
    "Show",
    "State",
    "Swap",
    "SwapAll",
    "ThirtyOneCardSwapped",
    "ThirtyOneGameCreated",
    "ThirtyOneGameView",
    "ThirtyOneHandExchanged",
    "ThirtyOneHandKept",
    "ThirtyOneHandShown",
    "ThirtyOneHandsSwapped",
    "ThirtyOneMatchEnded",
    "ThirtyOneMyHand",
    "ThirtyOneOptions",
    "ThirtyOnePassed",
    "ThirtyOnePlayerView",
    "ThirtyOneRoundDealt",
    "ThirtyOneRoundEnded",
    "ThirtyOneRoundResult",
    "ThirtyOneSwapChoice",
    "ThirtyOneTableOptions",
    "ThirtyOneTableView",
    "TimeOut",
    "Turns",
    "created",
    "deal_of",
    "decide",
    "deck_of",
    "evolve",
    "house_seats",
    "initial_state",
    "is_terminal",
    "legal",
    "legal_moves",
    "max_players",
    "redact",
    "score",
    "seat_of",
    "view",
    "waiting_for",
    "wire_score",
]
