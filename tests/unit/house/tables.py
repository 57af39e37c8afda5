"""Tables for the house's tests: a game driven through its `Engine` (decide, evolve, views and
the house's move), the house in some seats and random legal moves in the others, and its twin
dealt differently where one seat cannot see."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar

import msgspec

from kronikas_rules.cards import ALL_CODES, Card
from kronikas_rules.cheat.commands import Call
from kronikas_rules.common import Shuffle, Start
from kronikas_rules.engine import Engine, View
from kronikas_rules.seating import Back, Join, Leave

OptionsT = TypeVar("OptionsT", bound=msgspec.Struct)
StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT", bound=msgspec.Struct)
EventT = TypeVar("EventT", bound=msgspec.Struct)
ViewT = TypeVar("ViewT", bound=View)

HASHES = frozenset({"commitment", "path"})
"""What ties a view or an event to the whole deck: the deal's commitment and the openings'
audit paths. Hashes that hide the deck, they differ between twins dealt differently where a
seat cannot see, and the house must not read them."""


def unhashed(value: Any) -> Any:
    """A view or a history as builtins, less the hashes (`HASHES`) that hide the deck."""
    if isinstance(value, msgspec.Struct | list | tuple):
        value = msgspec.to_builtins(value)
    if isinstance(value, dict):
        return {k: unhashed(v) for k, v in value.items() if k not in HASHES}
    if isinstance(value, list):
        return [unhashed(v) for v in value]
    return value


class Decks:
    """A Randomness that deals the decks it is given by round (or shuffles one from `seed`), each
    position under the same salt in every deal, and draws the first dealer given."""

    def __init__(self, seed: int, dealer: int, decks: dict[int, list[Card]] | None = None):
        self.seed, self.dealer = seed, dealer
        self.decks: dict[int, list[Card]] = dict(decks or {})

    def shuffle(self, cards: Sequence[Card], round: int) -> Shuffle:
        """The round's deck: the one given, or one shuffled from the seed."""
        if round not in self.decks:
            deck = list(cards)
            random.Random(f"{self.seed}:{round}").shuffle(deck)
            self.decks[round] = deck
        return Shuffle.committed(self.decks[round], ["5a17" * 8] * len(self.decks[round]))

    def pick(self, n: int) -> int:
        """The first dealer given."""
        return self.dealer % n


class Table(Generic[OptionsT, StateT, CommandT, EventT, ViewT]):
    """A match on one engine, from creation, with the house seated at `house` seats."""

    def __init__(
        self,
        engine: Engine[OptionsT, StateT, CommandT, EventT, ViewT],
        options: OptionsT,
        n: int,
        house: Sequence[int],
        deals: Decks,
    ) -> None:
        self.engine, self.house, self.deals = engine, frozenset(house), deals
        self.state = engine.initial_state(options, True)
        self.events: list[EventT] = []
        self.apply(engine.created(options, True))
        for seat in range(n):
            join = Join(player_id=f"p{seat}", name=f"P{seat}", house=seat in self.house)
            self.apply(engine.decide(self.state, join, None, deals))
        self.apply(engine.decide(self.state, Start(), None, deals))

    def apply(self, events: Sequence[EventT]) -> None:
        """Fold events into the table."""
        for event in events:
            self.state = self.engine.evolve(self.state, event)
            self.events.append(event)

    def act(self, seat: int, command: CommandT) -> None:
        """Play `command` for `seat` (refused commands raise, as `decide` does)."""
        by_house = seat in self.house
        self.apply(self.engine.decide(self.state, command, seat, self.deals, by_house))

    def view(self, seat: int) -> ViewT:
        """The seat's view as the application gives it to the house."""
        version = len(self.events)
        return self.engine.view(self.state, seat, "table", version, by_house=seat in self.house)

    def history(self, seat: int) -> list[EventT]:
        """The round's events (from its deal) redacted for the seat, as the application gives
        them to the house."""
        deal = self.engine.deal_event
        start = max((i for i, e in enumerate(self.events) if isinstance(e, deal)), default=0)
        return [self.engine.redact(e, seat) for e in self.events[start:]]

    def ask(self, seat: int, rng: random.Random) -> CommandT | None:
        """The house's command for `seat` now (None when it makes none)."""
        return self.engine.house_command(self.view(seat), self.history(seat), rng)

    def deals_so_far(self) -> int:
        """How many rounds have been dealt."""
        return sum(isinstance(e, self.engine.deal_event) for e in self.events)

    def over(self) -> bool:
        """Whether the match is over."""
        return self.engine.is_terminal(self.state)

    def moves(self, seat: int) -> list[CommandT]:
        """The seat's legal moves of the game (`leave` and `back` left out)."""
        moves = self.engine.legal_moves(self.state, seat, by_house=seat in self.house)
        return [m for m in moves if not isinstance(m, Leave | Back)]

    def waiting_for(self) -> int | None:
        """The seat the table waits for, if any."""
        return self.engine.waiting_for(self.state)


AnyTable = Table[Any, Any, Any, Any, Any]
"""A table of any game, for the helpers below that play either."""


def random_move(table: AnyTable, seat: int, rng: random.Random, call_rate: float = 0.25) -> Any:
    """A random legal move: a call now and then where one is allowed, else any other move."""
    moves = table.moves(seat)
    calls = [m for m in moves if isinstance(m, Call)]
    others = [m for m in moves if not isinstance(m, Call)]
    if calls and (not others or rng.random() < call_rate):
        return calls[0]
    return rng.choice(others) if others else None


def _codes(value: Any) -> set[Card]:
    """Every card code named in an event (or anything msgspec turns into builtins)."""
    if isinstance(value, str):
        return {value} if value in ALL_CODES else set()
    if isinstance(value, dict):
        return set().union(*(_codes(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(_codes(v) for v in value))
    return set()


def twin(table: AnyTable, seat: int, seed: int) -> tuple[Decks, dict[Card, Card]]:
    """Decks for a twin of `table` that deal `seat` everything it has seen alike and move every
    card of the current round it has not seen (other hands, set-aside or undealt cards) to
    another such place, at random; and the map from a card of `table` to the card in its place."""
    last = max(table.deals.decks)
    deck = table.deals.decks[last]
    seen = set().union(*(_codes(msgspec.to_builtins(e)) for e in table.history(seat)))
    hidden = [i for i, card in enumerate(deck) if card not in seen]
    moved = [deck[i] for i in hidden]
    random.Random(seed).shuffle(moved)
    other = list(deck)
    for i, card in zip(hidden, moved, strict=True):
        other[i] = card
    decks = {**table.deals.decks, last: other}
    return Decks(table.deals.seed, table.deals.dealer, decks), dict(zip(deck, other, strict=True))


Ask = Callable[[int, Any], None]


def drive(
    table: AnyTable,
    seed: int,
    steps: int,
    asked: Ask | None = None,
    script: Iterator[Any] | None = None,
) -> list[tuple[int, Any, int]]:
    """Play up to `steps` moves: every house seat that may act is asked first, in seat order,
    and its command is played when it makes one (`asked` sees each answer, None included);
    else the seat the table waits for moves at random, or as `script` says. Returns the moves
    played: seat, command, and the round they were played in."""
    rng = random.Random(seed)
    played: list[tuple[int, Any, int]] = []
    for step in range(steps):
        if table.over():
            break
        for seat in sorted(table.house):
            if not table.moves(seat):
                continue
            command = table.ask(seat, random.Random(f"{seed}:{step}:{seat}"))
            if asked is not None:
                asked(seat, command)
            if command is not None:
                played.append((seat, command, table.deals_so_far()))
                table.act(seat, command)
                break
        else:
            turn = table.waiting_for()
            if turn is None or turn in table.house:
                break  # the house declined to move when it had to: the caller asserts on that
            command = random_move(table, turn, rng) if script is None else next(script)
            played.append((turn, command, table.deals_so_far()))
            table.act(turn, command)
    return played
