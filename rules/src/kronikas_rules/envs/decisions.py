"""The decision driver: a match of `Table` as a sequence of single decisions, one seat at a time.

A game's `Encoding` (`envs.cheat`, `envs.thirty_one`) says which decisions the table asks for
now (`Decision`: a seat and a kind), which actions each allows (`mask`), what a seat observes
(`observation`, from its `SeatInfo` alone) and which command a finished decision sends. The
`Driver` applies actions to a table and keeps, for every seat, the `Memory` of what it was
shown, folded from the events as that seat's events page holds them (redacted). The live
adapter (`envs.live`) builds the same `SeatInfo` from a service's view and events, so a
`Policy` plays offline and online alike.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

import msgspec
import numpy as np
import numpy.typing as npt

from kronikas_rules.engine import Rules, View
from kronikas_rules.places import shared_places
from kronikas_rules.table import Table

Observation = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class Decision(NamedTuple):
    """One decision the table waits for: `seat` decides, of `kind` (a game's own names)."""

    seat: int
    kind: str


class Resolved(NamedTuple):
    """What an action does to its decision: the `picks` so far when the decision goes on,
    else (`finished`) the `command` to send (None: the decision sends nothing, as a let-go)."""

    picks: tuple[str, ...]
    finished: bool
    command: msgspec.Struct | None = None


class Memory(Protocol):
    """What a seat was shown beyond its view, folded from its events (redacted for it)."""

    def see(self, event: msgspec.Struct) -> None: ...


class IllegalAction(ValueError):
    """An action the current decision's mask does not allow."""


class SeatInfo:
    """What a policy knows of its seat at one decision, read lazily: the seat's `view` (as the
    service serves it), its round's `events` as it saw them (redacted), the `memory` folded
    from them, the decision's `kind` (None: the seat decides nothing now) and the `picks` made
    so far in it. `scratch` lasts for the whole decision (the house keeps its chosen play there
    across picks; keys that start with `_` are the environment's own); `rng` is the seat's own
    randomness for policies that draw."""

    __slots__ = (
        "_events",
        "_events_of",
        "_memory",
        "_memory_of",
        "_state_of",
        "_view",
        "_view_of",
        "encoding",
        "engine",
        "kind",
        "picks",
        "rng",
        "scratch",
        "seat",
        "version",
    )

    def __init__(
        self,
        engine: Rules,
        encoding: Encoding,
        seat: int,
        kind: str | None,
        picks: tuple[str, ...],
        version: int,
        *,
        view: Callable[[], View],
        events: Callable[[], Sequence[msgspec.Struct]],
        memory: Callable[[], Any],
        rng: random.Random,
        scratch: dict[str, Any] | None = None,
        state: Callable[[], object] | None = None,
    ) -> None:
        self.engine, self.seat, self.kind, self.picks, self.version = (
            engine,
            seat,
            kind,
            picks,
            version,
        )
        self.encoding = encoding
        self._view_of, self._events_of, self._memory_of = view, events, memory
        self._state_of = state
        self._view: View | None = None
        self._events: Sequence[msgspec.Struct] | None = None
        self._memory: Any = None
        self.rng = rng
        self.scratch: dict[str, Any] = {} if scratch is None else scratch

    @property
    def view(self) -> View:
        """The seat's view, as the service serves it (made once for the whole decision: a
        Cheat play's picks share it)."""
        if self._view is None:
            kept = self.scratch.get("_view")
            self._view = kept if kept is not None else self._view_of()
            self.scratch["_view"] = self._view
        return self._view

    @property
    def events(self) -> Sequence[msgspec.Struct]:
        """The round's events (from its deal) as the seat's events page holds them."""
        if self._events is None:
            self._events = self._events_of()
        return self._events

    @property
    def memory(self) -> Any:
        """The game's `Memory` of what the seat was shown, up to now."""
        if self._memory is None:
            self._memory = self._memory_of()
        return self._memory

    def house_command(self) -> msgspec.Struct | None:
        """The house's command for the seat now, from its view and round's events alone (as
        `Table.house` decides it), chosen once for the whole decision."""
        if "house" not in self.scratch:
            self.scratch["house"] = self.engine.house_command(self.view, self.events, self.rng)
        command: msgspec.Struct | None = self.scratch["house"]
        return command

    def __eq__(self, other: object) -> bool:
        # Two seeded environments compare their infos (pettingzoo's seed_test): one decision of
        # one seat at one point of the match is the same information.
        if not isinstance(other, SeatInfo):
            return NotImplemented
        return (self.engine.kind, self.seat, self.kind, self.picks, self.version) == (
            other.engine.kind,
            other.seat,
            other.kind,
            other.picks,
            other.version,
        )

    def __hash__(self) -> int:
        return hash((self.engine.kind, self.seat, self.kind, self.picks, self.version))

    def __repr__(self) -> str:
        return (
            f"SeatInfo(seat={self.seat}, kind={self.kind!r}, picks={self.picks!r}, "
            f"version={self.version})"
        )


def table_state(info: SeatInfo) -> object | None:
    """The in-process table's state behind an environment's `SeatInfo` (None at a live table):
    an encoding may read the seat's own facts from it, as its view would show them, without
    building the view. Never for a policy: it holds every seat's cards."""
    return info._state_of() if info._state_of is not None else None


Policy = Callable[[dict[str, npt.NDArray[Any]], SeatInfo], int]
"""A policy: the observation dict (`observation`, `action_mask`) and the seat's `SeatInfo` to
an action."""


@dataclass(frozen=True, slots=True)
class Encoding:
    """One game's decisions, actions and observations (`envs.cheat.ENCODING`, …): the game's
    own functions, gathered."""

    kind: str
    num_actions: int
    action_names: tuple[str, ...]
    decisions: Callable[[Table], list[Decision]]
    """The decisions the table asks for now, in order (empty once the match is over)."""
    new_memory: Callable[[int], Memory]
    """An empty memory for a seat."""
    observation_size: Callable[[int], int]
    """The length of a seat's observation at a table of that many seats."""
    observation: Callable[[SeatInfo], Observation]
    """The seat's observation: its own information only, every entry in [0, 1]."""
    mask: Callable[[SeatInfo], Mask]
    """1 for each action the seat's decision allows (all 0 when it decides nothing)."""
    resolve: Callable[[SeatInfo, int], Resolved]
    """What a legal action does to the decision."""
    action_for: Callable[[SeatInfo, msgspec.Struct | None], int]
    """The decision's next action toward a command (None: send nothing), or its first legal
    action when the command does not fit the decision."""
    rewards: Callable[[Table], list[float]]
    """Each seat's reward for the finished match, in [-1, 1], summing to 0."""
    decision_of: Callable[[View, bool], str | None]
    """The kind of decision a seat's view asks of it now (the flag: it already let the open
    play go), None when it has none: what the live adapter reads."""


def first_legal(mask: Mask) -> int:
    """The lowest action a mask allows."""
    return int(np.flatnonzero(mask)[0])


def house_policy(observation: dict[str, npt.NDArray[Any]], info: SeatInfo) -> int:
    """The house as a policy for any seat: `Table.house`'s command for the seat, turned into the
    decision's next action (a Cheat play, pick by pick)."""
    return info.encoding.action_for(info, info.house_command())


def random_policy(observation: dict[str, npt.NDArray[Any]], info: SeatInfo) -> int:
    """A uniformly random legal action, drawn from the seat's `rng`."""
    legal = np.flatnonzero(observation["action_mask"])
    return int(legal[info.rng.randrange(len(legal))])


def place_rewards(scores: Sequence[float]) -> list[float]:
    """Rewards from places: 1 for the first, -1 for the last, evenly between; tied seats share
    the average of their places, so the rewards sum to 0 (2 seats: 1, -1; a tie: 0, 0)."""
    return place_rewards_of(shared_places(scores))


def place_rewards_of(places: Sequence[float]) -> list[float]:
    """Rewards from a match's places (`Table.places()`): 1 for the first, -1 for the last,
    evenly between; shared places share their rewards, so the rewards sum to 0."""
    n = len(places)
    if n < 2:
        return [0.0] * n
    return [1 - 2 * (place - 1) / (n - 1) for place in places]


class Driver:
    """A table played one decision at a time. `current` is the decision waited for; `act`
    applies an action of its seat; `info(seat)` is what a seat knows now."""

    def __init__(self, table: Table, encoding: Encoding, seed: int | None = None) -> None:
        self.table, self.encoding = table, encoding
        self.engine: Rules = table.engine
        n = len(table.view(None).players)
        self.players = n
        base = random.Random(seed)
        self.rngs = [random.Random(base.getrandbits(64)) for _ in range(n)]
        self.memories: list[Memory] = [encoding.new_memory(seat) for seat in range(n)]
        self._cursors = [0] * n
        self.round_start = 0
        self._scanned = 0
        self.picks: tuple[str, ...] = ()
        self.scratch: dict[str, Any] = {}
        self.queue: list[Decision] = []
        self._infos: dict[int, SeatInfo] = {}
        self._masks: dict[int, Mask] = {}
        self._moved()

    @property
    def current(self) -> Decision | None:
        """The decision waited for now; None once the match is over."""
        return self.queue[0] if self.queue else None

    @property
    def finished(self) -> bool:
        """Whether the match is over."""
        return self.table.finished

    def _moved(self) -> None:
        """The table moved: its round's start, and the decisions it asks for now."""
        events = self.table.events
        deal = self.engine.deal_event
        for i in range(self._scanned, len(events)):
            if isinstance(events[i], deal):
                self.round_start = i
        self._scanned = len(events)
        self.queue = self.encoding.decisions(self.table)
        self._decision_changed()

    def _decision_changed(self) -> None:
        self.picks, self.scratch, self._infos, self._masks = (), {}, {}, {}

    def memory(self, seat: int) -> Memory:
        """The seat's memory, brought up to the table's last event."""
        memory, events = self.memories[seat], self.table.events
        redact = self.engine.redact
        for i in range(self._cursors[seat], len(events)):
            memory.see(redact(events[i], seat))
        self._cursors[seat] = len(events)
        return memory

    def round_events(self, seat: int) -> list[msgspec.Struct]:
        """The round's events, from its deal, redacted for the seat."""
        return self.table.events_for(seat, self.round_start)

    def info(self, seat: int) -> SeatInfo:
        """What `seat` knows now, with the current decision if it is the seat's."""
        known = self._infos.get(seat)
        if known is not None:
            return known
        current = self.current
        deciding = current is not None and current.seat == seat
        info = SeatInfo(
            self.engine,
            self.encoding,
            seat,
            current.kind if deciding and current is not None else None,
            self.picks if deciding else (),
            self.table.version,
            view=lambda: self.table.view(seat),
            events=lambda: self.round_events(seat),
            memory=lambda: self.memory(seat),
            rng=self.rngs[seat],
            scratch=self.scratch if deciding else {},
            state=lambda: self.table.state,
        )
        self._infos[seat] = info
        return info

    def mask(self, seat: int) -> Mask:
        """The actions `seat` may take now (all 0 unless it decides)."""
        mask = self._masks.get(seat)
        if mask is None:
            mask = self._masks[seat] = self.encoding.mask(self.info(seat))
        return mask

    def observe(self, seat: int) -> dict[str, npt.NDArray[Any]]:
        """The seat's observation dict: `observation` and `action_mask`."""
        info = self.info(seat)
        return {
            "observation": self.encoding.observation(info),
            "action_mask": self.mask(seat).copy(),
        }

    def act(self, action: int) -> list[msgspec.Struct]:
        """Apply the current decision's seat's action; the table's events it caused (none
        while a decision goes on, or for a let-go)."""
        current = self.current
        if current is None:
            raise IllegalAction("the match is over")
        info = self.info(current.seat)
        mask = self.mask(current.seat)
        if not 0 <= action < len(mask) or not mask[action]:
            raise IllegalAction(
                f"action {action} is not legal for seat {current.seat}'s {current.kind}"
            )
        resolved = self.encoding.resolve(info, action)
        if not resolved.finished:
            self.picks, self._infos, self._masks = resolved.picks, {}, {}
            return []
        if resolved.command is None:
            self.queue.pop(0)
            if not self.queue:
                self.queue = self.encoding.decisions(self.table)
            self._decision_changed()
            return []
        events = self.table.play(current.seat, resolved.command)
        self._moved()
        return events

    def copy(self, table: Table) -> Driver:
        """The driver at the same decision (its picks as they are) over `table`, a copy of this
        driver's table (`Table.copy()`, or a table replayed to the same point): its seats'
        randomness copied, their memories folded again from the events when asked."""
        copied = copy.copy(self)
        copied.table = table
        copied.rngs = [_copied_rng(rng) for rng in self.rngs]
        copied.memories = [self.encoding.new_memory(seat) for seat in range(self.players)]
        copied._cursors = [0] * self.players
        copied.queue, copied.scratch = list(self.queue), dict(self.scratch)
        copied._infos, copied._masks = {}, {}
        return copied

    def rewards(self) -> list[float]:
        """Each seat's reward: 0 until the match is over."""
        if not self.table.finished:
            return [0.0] * self.players
        return self.encoding.rewards(self.table)

    def play_out(self, policies: Sequence[Policy], most: int = 1_000_000) -> int:
        """Play the match to its end, seat s choosing by `policies[s]`; the actions taken."""
        taken = 0
        while self.current is not None and taken < most:
            seat = self.current.seat
            action = policies[seat](self.observe(seat), self.info(seat))
            self.act(action)
            taken += 1
        return taken


def _copied_rng(rng: random.Random) -> random.Random:
    copied = random.Random.__new__(random.Random)  # not seeded first: its state is set
    copied.setstate(rng.getstate())
    return copied
