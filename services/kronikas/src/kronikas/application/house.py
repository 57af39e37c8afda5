"""The house at the table: whose clock runs and when it runs out, and the house's moves.

The house plays the seats of house players, of players who left after the start and of players
whose clock ran out (away). It acts at once, in the request that made it its turn; it only waits
(through a deadline, as the clocks do) while a person may still answer the play it would bury
(`Rules.may_answer`), for as long as the engine says (`Timing.pause_seconds`).

At a table where the house plays every seat, nobody is waiting for its moves: they are paid for
with tokens of the table's host bucket (`host_bucket`), taken by the clocks before they act, so
such a table plays itself no faster than one token may move. A request never pays for them: the
house then moves only through the table's deadline, which is due at once.

Every decision's events are checked against the table's cap of events (`Rules.event_cap`): the
decision that reaches it is followed by the match's end, by the engine's `decide` of `CapReached`.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Sequence

import msgspec

from kronikas.application.tables import Fold, follow_round
from kronikas.application.wire import ms_of, utc_text
from kronikas_rules.common import CapReached, DomainError, Randomness
from kronikas_rules.engine import Rules

log = logging.getLogger("kronikas.house")

HOUSE_MOVES = 100
"""The most house moves one request makes; the rest follow at once through a deadline."""


def host_bucket(game_id: str) -> str:
    """The rate bucket that pays for the house's moves at a table where it plays every seat."""
    return f"host:{game_id}"


def house_alone(rules: Rules, state: object) -> bool:
    """The house plays every seat: no person is seated to wait for its moves (house players,
    players who left, players away). Not before the start or after the end: it has no moves."""
    house = rules.house_seats(state)
    return bool(house) and len(house) == rules.standing(state).players


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def _pausing(rules: Rules, state: object, house: frozenset[int]) -> bool:
    """A person may still answer the last play, which the house's next move would bury."""
    return bool(rules.may_answer(state) - house)


def deadline_ms(rules: Rules, state: object, at: str) -> int | None:
    """When the table's next deadline falls, from its state and its latest event's time `at`:
    the clock of the person it waits for, the house's pause, or now when the house owes a move
    (a request made its bounded number of moves and left the rest). None: nothing will fall due.
    """
    if not at or rules.is_terminal(state):
        return None
    waiting = rules.waiting_for(state)
    if waiting is None:
        return None
    timing = rules.timing(state)
    house = rules.house_seats(state)
    if waiting in house:
        if _pausing(rules, state, house):
            return ms_of(at) + timing.pause_seconds * 1000
        return ms_of(at)
    if timing.turn_seconds is None:
        return None
    return ms_of(at) + timing.turn_seconds * 1000


def next_deadline(rules: Rules, state: object, at: str) -> tuple[int | None, str | None]:
    """When the table's next deadline falls (`deadline_ms`), and the view's `deadline`, that
    time as text: when the clock of the seat the table waits for runs out; for the house's
    pause, when the house plays."""
    due = deadline_ms(rules, state, at)
    return due, None if due is None else utc_text(due)


class Decision:
    """One request's events, and the house's moves that follow them, folded as they come."""

    def __init__(
        self,
        rules: Rules,
        game_id: str,
        version: int,
        state: object,
        round_events: Sequence[msgspec.Struct],
        random_of: Randomness,
        seed: int | None,
        alone: int = 0,
        random_seats: tuple[int, ...] = (),
    ) -> None:
        self.rules = rules
        self.random_seats = random_seats
        """Seats played by the uniform random policy (the arena's `Random` entrant)."""
        self.alone = alone
        """How many moves the house may still make where it plays every seat (`house_alone`):
        the tokens taken for them; none by default, as a request does not pay for them."""
        self.game_id = game_id
        self.version = version
        self.state = state
        self.events: list[msgspec.Struct] = []
        self._round = list(round_events)
        self._rng = random_of
        self._seed = seed

    @classmethod
    def on(cls, table: Fold, random_of: Randomness, alone: int = 0) -> Decision:
        """A turn from `table` as this process holds it."""
        return cls(
            table.engine,
            table.game_id,
            table.version,
            table.state,
            table.round,
            random_of,
            table.seed,
            alone,
            table.arena.random if table.arena is not None else (),
        )

    def add(self, events: Sequence[msgspec.Struct]) -> None:
        """Fold a decision's `events` in; when they take the log to its cap of events, the
        match's end follows them."""
        self._fold(events)
        rules = self.rules
        if self.version + len(self.events) >= rules.event_cap and not rules.is_terminal(self.state):
            self._fold(rules.decide(self.state, CapReached(), None, self._rng))

    def _fold(self, events: Sequence[msgspec.Struct]) -> None:
        for event in events:
            self.state = self.rules.evolve(self.state, event)
            follow_round(self._round, event, self.rules.deal_event)
            self.events.append(event)

    def _house_random(self, seat: int) -> random.Random:
        # Seeded tables stay reproducible: the house draws from the table's seed.
        version = self.version + len(self.events)
        if self._seed is None:
            return random.Random(random.SystemRandom().getrandbits(64))
        return random.Random(f"kronikas:{self._seed}:house:{version}:{seat}")

    def _ask(self, seat: int) -> msgspec.Struct | None:
        version = self.version + len(self.events)
        rng = self._house_random(seat)
        if seat in self.random_seats:
            # Uniform over the seat's legal moves; out of turn, letting the play be is one more.
            moves: list[msgspec.Struct | None] = [
                *self.rules.legal_moves(self.state, seat, by_house=True)
            ]
            if self.rules.waiting_for(self.state) != seat:
                moves.append(None)
            return rng.choice(moves) if moves else None
        try:
            return self.rules.house(self.state, seat, self.game_id, version, self._round, rng)
        except Exception:  # a fault of the strategy must not stall the table: no opinion then
            log.exception("the house's strategy failed", extra={"game_id": self.game_id})
            return None

    def _play(self, seat: int, command: msgspec.Struct) -> bool:
        try:
            events = self.rules.decide(self.state, command, seat, self._rng, by_house=True)
        except DomainError:
            return False  # a strategy's mistake must not stop the table: the clock will act
        self.add(events)
        return True

    def play_on(self, calls: bool = True, owes: bool = False) -> None:
        """The house's moves after the turn's events, when it is then to act (`play_house`);
        `owes`: it acts though the decision made none (a deadline fell due: it moves now)."""
        if (self.events or owes) and self.rules.house_seats(self.state):
            self.play_house(calls, paused=owes)

    def play_house(self, calls: bool = True, paused: bool = False) -> int:
        """The house's moves from here, up to `HOUSE_MOVES`: its answers to the last play at once
        (when `calls`, an older name for them), then the moves of the seats it plays while the
        table waits for one of them and no person may still answer (`paused`: the house has
        waited its pause for the play on the table, or a person's clock ran out: it moves now).
        Where it plays every seat, each move spends one of `alone`, and it stops when none is
        left. Returns how many it made."""
        made = 0
        rules = self.rules
        while made < HOUSE_MOVES and not rules.is_terminal(self.state):
            house = rules.house_seats(self.state)
            if not house:
                break
            alone = len(house) == rules.standing(self.state).players
            if alone:
                if self.alone <= 0:
                    break  # unpaid: the table's deadline, due at once, pays for it
                self.alone -= 1
            waiting = rules.waiting_for(self.state)
            if calls and self._answer(house - {waiting} if waiting is not None else house):
                made += 1
                continue
            calls = True
            if waiting is None or waiting not in house:
                break
            if not paused and _pausing(rules, self.state, house):
                # The house waits its pause before it buries the play, but decides at once
                # whether to answer it itself.
                if self._answer(frozenset({waiting}), only_answers=True):
                    made += 1
                    continue
                break
            paused = False
            command = self._ask(waiting)
            if command is None or not self._play(waiting, command):
                # A strategy that has no answer must not stall the table: its first legal move.
                moves = rules.legal_moves(self.state, waiting, by_house=True)
                if not moves or not self._play(waiting, moves[0]):
                    break
            made += 1
        return made

    def _answer(self, seats: frozenset[int], only_answers: bool = False) -> bool:
        """The first of `seats` that may answer the last play out of turn and decides to: its
        answer (`Rules.answers`). (A seat the table waits for may answer with its move instead:
        with `only_answers` that waits.)"""
        answers = self.rules.answers
        for seat in sorted(seats & self.rules.may_answer(self.state)):
            command = self._ask(seat)
            if command is None or (only_answers and not isinstance(command, answers)):
                continue
            if self._play(seat, command):
                return True
        return False
