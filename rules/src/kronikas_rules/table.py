"""A table played in-process: the rules as a bot writer simulates them (README, "A table").

The service drives every game through the same `Engine` (`games()`): it decides a command into
events, evolves the table's state by them, and serves each seat its view and its events redacted
for it. `Table` does the same in memory, with no clock, no store and no network: seats are
numbered from 0, every player joins at once, the match starts at once, and a command that the
rules refuse raises the same `Refusal` (its `code`) the service answers with, changing nothing.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from kronikas_rules.common import CapReached, Randomness, Start
from kronikas_rules.engine import Rules, View
from kronikas_rules.games import games
from kronikas_rules.randomness import SecureRandomness, SeededRandomness
from kronikas_rules.seating import Join


class Table:
    """One table of `kind` with `players` seats, dealt from `seed` (None: a secure shuffle).

    `options` are the game's table options (a mapping or the game's options struct; unset ones
    keep their defaults); `house` are the seats the house plays, as a host's house players;
    `randomness`, when given, deals instead of `seed` (a search's own deals, OpenSpiel's chance
    nodes): every shuffle and the first dealer come from it.
    """

    def __init__(
        self,
        kind: str,
        players: int = 2,
        *,
        options: Mapping[str, Any] | msgspec.Struct | None = None,
        seed: int | None = None,
        house: Iterable[int] = (),
        names: Sequence[str] | None = None,
        game_id: str = "local",
        randomness: Randomness | None = None,
    ) -> None:
        self.engine: Rules = games()[kind]
        self.kind, self.game_id, self.seed = kind, game_id, seed
        given = (
            msgspec.to_builtins(options)
            if isinstance(options, msgspec.Struct)
            else dict(options or {})
        )
        self.options = msgspec.convert(given, self.engine.options)
        self.engine.validate_options(self.options)
        if randomness is None:
            randomness = SecureRandomness() if seed is None else SeededRandomness(seed)
        self.random: Randomness = randomness
        # Deals that do not come from the secure source are marked as a seeded table's are.
        seeded = not isinstance(randomness, SecureRandomness)
        self.state: object = self.engine.initial_state(self.options, seeded)
        self.events: list[msgspec.Struct] = []
        self._round: list[msgspec.Struct] = []
        self._apply(self.engine.created(self.options, seeded))
        houses = set(house)
        for seat in range(players):
            name = names[seat] if names else f"Player {seat + 1}"
            join = Join(player_id=f"p{seat}", name=name, house=seat in houses)
            self._apply(self.engine.decide(self.state, join, None, self.random))
        self._apply(self.engine.decide(self.state, Start(), None, self.random))

    @property
    def version(self) -> int:
        """How many events the table's log holds: a view's `version`."""
        return len(self.events)

    @property
    def finished(self) -> bool:
        """Whether the match is over."""
        return self.engine.is_terminal(self.state)

    def places(self) -> list[float]:
        """Each seat's place in the finished match (1 the best; seats tied share the average of
        the places they span), as the game states it (`Engine.places`). ValueError while the
        match is not over."""
        if not self.finished:
            raise ValueError("the match is not over: a table is placed once it is finished")
        return self.engine.places(self.events)

    def copy(self) -> Table:
        """An independent copy of the table, to play on from here (a search's branch): the
        rules' states and events never change once made, so only the logs are copied."""
        copied = copy.copy(self)
        copied.events, copied._round = list(self.events), list(self._round)
        return copied

    def command(self, data: Mapping[str, Any]) -> msgspec.Struct:
        """A command of this game from its wire form (a mapping with its `type` tag)."""
        for cls in self.engine.commands:
            if cls.__struct_config__.tag == data.get("type"):
                return msgspec.convert(dict(data), cls)
        raise ValueError(f"{self.kind} has no command {data.get('type')!r}")

    def play(self, seat: int, command: msgspec.Struct | Mapping[str, Any]) -> list[msgspec.Struct]:
        """Decide `seat`'s command and fold its events in; the events, unredacted. A refused
        command raises the rules' `Refusal` (its `code` as the service answers) and changes
        nothing."""
        if not isinstance(command, msgspec.Struct):
            command = self.command(command)
        by_house = seat in self.engine.house_seats(self.state)
        events = self.engine.decide(self.state, command, seat, self.random, by_house=by_house)
        self._apply(events)
        return events

    def view(self, seat: int | None) -> View:
        """The view of `seat` (None: a spectator), as the service serves it."""
        return self.engine.view(self.state, seat, self.game_id, self.version)

    def legal(self, seat: int) -> list[str]:
        """The command types `seat` may send now."""
        return self.engine.legal(self.state, seat)

    def legal_moves(self, seat: int) -> list[msgspec.Struct]:
        """Every command `seat` may send now."""
        return self.engine.legal_moves(self.state, seat)

    def events_for(self, seat: int | None, after: int = 0) -> list[msgspec.Struct]:
        """The events after version `after`, as `seat`'s events page holds them (redacted)."""
        return [self.engine.redact(event, seat) for event in self.events[after:]]

    @property
    def waiting_for(self) -> int | None:
        """The seat the table waits for (its turn), if any."""
        return self.engine.waiting_for(self.state)

    def to_act(self) -> frozenset[int]:
        """The seats that may send a command now: the one the table waits for, and those that
        may answer the last play out of turn."""
        waiting = self.waiting_for
        answering = self.engine.may_answer(self.state)
        return answering | ({waiting} if waiting is not None else frozenset())

    def house(self, seat: int, rng: random.Random | None = None) -> msgspec.Struct | None:
        """The house's command for `seat` now (None: it would not act), decided from what that
        seat has seen alone (its view and its round's events, redacted for it), as the service's
        house decides for a seat it plays; for any other seat, from that seat's own view."""
        by_house = seat in self.engine.house_seats(self.state)
        chooser = rng if rng is not None else random.Random()
        state, version = self.state, self.version
        return self.engine.house(state, seat, self.game_id, version, self._round, chooser, by_house)

    def _apply(self, events: Sequence[msgspec.Struct]) -> None:
        engine = self.engine
        for event in events:
            self.state = engine.evolve(self.state, event)
            if isinstance(event, engine.deal_event):
                self._round.clear()
            self._round.append(event)
            self.events.append(event)
        if len(self.events) >= engine.event_cap and not engine.is_terminal(self.state):
            self._apply(engine.decide(self.state, CapReached(), None, self.random))
