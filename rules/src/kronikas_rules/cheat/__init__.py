"""Cheat (seeds 000/001, docs/rules.md): the rules engine as a Decider.

The contract is docs/engines.md; this package offers it as module-level names, gathered here from
`options`, `commands`, `events`, `states`, `legal`, `decide`, `evolve`, `facts` (a seat's count
of each rank, as its view says) and `view`. The life of a table:

1. `created(options, seeded)` gives the first event of every game (`CheatGameCreated`); the
   application appends it itself when the table is created. `initial_state(options, seeded)` is the
   empty lobby before it; evolving `CheatGameCreated` assigns its options and `seeded`, so a stored
   log folds to the same state from any `initial_state`.
2. `seating.Join` → `PlayerJoined`; `common.Start` (the application checks the host) → a deal.
3. The wire commands `Play`, `Call` and `Accept`, until the last round ends with `CheatMatchEnded`.
   A round is in phases, as Thirty-One's: `ToPlay` (the player on turn plays) and `Window` (a play
   lies open: any other seat may call it, the next player plays on or accepts); `RoundOver`
   between rounds, inside one decision, and `Finished` at the end.
4. At any time until the match is over: `Leave` and `Back` (wire commands of both games) and the
   application's `seating.TimeOut` → `PlayerLeft`, `SeatBack`, `SeatAway`; these and the join are
   the seating decider's, which the builder composes into every game (`seating`). The
   house plays a house player's seat, a left one and an away one through the same `decide`
   (`by_house=True`); `waiting_for`, `house_seats`, `seat_of` and `may_call` tell the application
   whose clock runs and which seats the house plays.

Decisions this package makes where the rules leave a detail open (each also noted where it acts,
and listed in docs/rules.md):

- Five or more players need two decks: this is enforced at join time through `max_players` (a fifth
  join at a one-deck table is refused as full) and checked again at the start.
- Calling one's own play is `illegal_move`, as docs/api.md lists it, although the player who just
  played may do nothing else (any other command from them is `not_your_turn`).
- On an honest call of a play that emptied its player's hand, the caller takes the pile first, then
  the round ends: places count the caller's cards with the pile.
- A penalty for an uncalled `XP` is its own event (`penalty_taken`), placed before the cards of the
  play that closed the window; `accept` is its own event (`play_accepted`) too.
- Hands are kept sorted (rank 7…A, then suit H B L A, Chroniclers last) so views are stable.
- The last call's turned-up cards stay in the table view (`last_call`) until the next call or deal.
- A round that ends on `accept` leaves its last play on the pile: the view keeps it as
  `last_play` (docs/api.md: null only once the pile is taken), with the window closed.
- A round allows `max_plays` plays (a table stored before the option has no limit: its options
  keep `max_plays` unset). After the last allowed one, its window is settled as a going-out
  play's; a round that ends so, with nobody finished, says `reason: "max_plays"` and names the
  first seat placed 1st as its `winner`, since the API fixes `winner` as a seat.
- The clock runs for the player on turn; during the challenge window that is the next player
  (`waiting_for`), who plays or accepts. Calling is never on a clock.
- Each card in play is one position of the deal's shuffled deck. With two decks a code is at two
  positions: a play puts down the copy at the lowest position its player holds, so the opening a
  call shows names the very copy that was played.
- A penalty's event opens the Pale Chronicler to everyone (the rules announce it) and the whole
  pile to its taker only; a view opens the viewer's hand and the last call's turned-up cards, which
  it shows.
"""

from __future__ import annotations

from kronikas_rules.cheat.commands import COMMANDS, Accept, Call, Command, Play
from kronikas_rules.cheat.decide import created, places_of, points_of
from kronikas_rules.cheat.engine import ENGINE
from kronikas_rules.cheat.events import (
    CheatCalled,
    CheatCardsPlayed,
    CheatGameCreated,
    CheatMatchEnded,
    CheatPenaltyTaken,
    CheatPileTaken,
    CheatPlayAccepted,
    CheatRoundDealt,
    CheatRoundEnded,
    Event,
)
from kronikas_rules.cheat.facts import CheatMyHand, rank_counts
from kronikas_rules.cheat.options import (
    KIND,
    MIN_PLAYERS,
    CheatOptions,
    CheatTableOptions,
    max_players,
)
from kronikas_rules.cheat.seats import may_call, waiting_for
from kronikas_rules.cheat.states import (
    FIRST_RANK,
    CheatCallResult,
    CheatPenalty,
    CheatRoundResult,
    Deal,
    Finished,
    InRound,
    Lobby,
    Match,
    PileTop,
    RoundOver,
    State,
    ToPlay,
    Window,
    initial_state,
    sort_cards,
)
from kronikas_rules.cheat.view import (
    CheatGameView,
    CheatLastPlay,
    CheatPlayerView,
    CheatTableView,
    redact,
)
from kronikas_rules.common import EventOutOfPlace
from kronikas_rules.engine import Status
from kronikas_rules.seating import Back, Leave, PlayerLeft, SeatAway, SeatBack, TimeOut

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
    "FIRST_RANK",
    "KIND",
    "MIN_PLAYERS",
    "Accept",
    "Back",
    "Call",
    "CheatCallResult",
    "CheatCalled",
    "CheatCardsPlayed",
    "CheatGameCreated",
    "CheatGameView",
    "CheatLastPlay",
    "CheatMatchEnded",
    "CheatMyHand",
    "CheatOptions",
    "CheatPenalty",
    "CheatPenaltyTaken",
    "CheatPileTaken",
    "CheatPlayAccepted",
    "CheatPlayerView",
    "CheatRoundDealt",
    "CheatRoundEnded",
    "CheatRoundResult",
    "CheatTableOptions",
    "CheatTableView",
    "Command",
    "Deal",
    "Event",
    "EventOutOfPlace",
    "Finished",
    "InRound",
    "Leave",
    "Lobby",
    "Match",
    "PileTop",
    "Play",
    "PlayerLeft",
    "RoundOver",
    "SeatAway",
    "SeatBack",
    "State",
    "Status",
    "TimeOut",
    "ToPlay",
    "Window",
    "created",
    "decide",
    "evolve",
    "house_seats",
    "initial_state",
    "is_terminal",
    "legal",
    "legal_moves",
    "max_players",
    "may_call",
    "places_of",
    "points_of",
    "rank_counts",
    "redact",
    "seat_of",
    "sort_cards",
    "view",
    "waiting_for",
]
