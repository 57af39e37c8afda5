"""The live adapter: a policy of the environments at a table of the service, unchanged.

`LiveSeat` works on the wire forms the SDK's models give with `.to_dict()` (a seat's view and
its events), with no SDK or network of its own: the caller fetches, the adapter says whether the
seat has a decision now (`decision`), gives its observation and `SeatInfo` (the very ones the
environment gives at the same point of the match), takes actions (`act`), and hands back the
command dict to send (`send_command(body=…)`) when a decision is complete:

    seat = LiveSeat("cheat")
    while True:
        view = get_game.sync(game_id, client=me)
        page = list_events.sync(game_id, client=me, after=seat.version)
        seat.update(view.to_dict(), [e.to_dict() for e in page.events])
        if seat.finished:
            break
        command = seat.decide(policy)          # None: nothing to send now
        if command is not None:
            send_command.sync(game_id, client=me, body=Command.from_dict(command))
        else:                                  # wait for the table to change
            list_events.sync(game_id, client=me, after=seat.version, wait=5.0)

Cheat's challenge window: while the last play may be called, the seat answers it once
(`call` or `let_go`); a seat on turn then plays or accepts, as the environment orders it.
Calls race at a live table: a command the table refuses because another seat moved first is
answered by fetching again (the adapter drops the decision when the view moves on).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any, Union

import msgspec
import numpy.typing as npt

from kronikas_rules.engine import Rules, View
from kronikas_rules.envs.decisions import IllegalAction, Memory, Policy, SeatInfo
from kronikas_rules.envs.games import encoding_of
from kronikas_rules.games import games
from kronikas_rules.seating import PlayerJoined, PlayerLeft, SeatAway, SeatBack

_SEATING = (PlayerJoined, PlayerLeft, SeatAway, SeatBack)


class LiveSeat:
    """One seat of a live table of `kind`, as its player's client sees it (`seat`: taken from
    the first view when not given); `seed` seeds the seat's `rng` (its policies' draws)."""

    def __init__(self, kind: str, seat: int | None = None, *, seed: int | None = None) -> None:
        self.kind = kind
        self.engine: Rules = games()[kind]
        self.encoding = encoding_of(kind)
        self.seat = seat
        self.rng = random.Random(seed)
        self._events: Any = Union[tuple(self.engine.events)]  # noqa: UP007  # a runtime union
        self.view: View | None = None
        self.version = 0
        """The last event folded in: ask for the events after it."""
        self.round_events: list[msgspec.Struct] = []
        self._pending: dict[int, msgspec.Struct] = {}
        self._memory: Memory | None = None
        self.picks: tuple[str, ...] = ()
        self.scratch: dict[str, Any] = {}
        self._at: int | None = None
        self._answered: tuple[int, int] | None = None

    # --- what the service shows -------------------------------------------------------------

    def event(self, wire: Mapping[str, Any]) -> msgspec.Struct:
        """A wire event (`{"type": "<kind>.<tag>", "version", "data"}`) as the rules' event."""
        data = dict(wire["data"])
        data["type"] = str(wire["type"]).split(".", 1)[1]
        event: msgspec.Struct = msgspec.convert(data, self._events, strict=False)
        return event

    def update(self, view: Mapping[str, Any], events: Iterable[Mapping[str, Any]] = ()) -> None:
        """Take the seat's view now and its events (any not folded yet; those beyond the view's
        version wait for a later view, so memory and view always meet)."""
        typed: Any = msgspec.convert(view, self.engine.view_type, strict=False)
        if self.seat is None:
            if typed.me is None:
                raise ValueError("a spectator's view: the adapter needs a seat's")
            self.seat = int(typed.me.seat)
        for wire in events:
            version = int(wire["version"])
            if version > self.version:
                self._pending[version] = self.event(wire)
        memory = self.memory
        while self.version < typed.version and self.version + 1 in self._pending:
            self.version += 1
            event = self._pending.pop(self.version)
            if isinstance(event, self.engine.deal_event):
                self.round_events = []
            self.round_events.append(event)
            memory.see(event)
        self.view = typed
        if typed.version != self._at:
            self._at, self.picks, self.scratch = typed.version, (), {}

    @property
    def memory(self) -> Memory:
        """The game's memory of what the seat was shown, folded from its events."""
        if self._memory is None:
            if self.seat is None:
                raise ValueError("the seat is not known yet: update with its view first")
            self._memory = self.encoding.new_memory(self.seat)
        return self._memory

    @property
    def ready(self) -> bool:
        """Whether every event up to the view's version is folded in."""
        return self.view is not None and self.version >= int(_version(self.view))

    @property
    def finished(self) -> bool:
        """Whether the match is over."""
        return self.view is not None and self.view.status == "finished"

    def _play_key(self) -> tuple[int, int]:
        """Which play of the round the seat may answer now: the round and the game's own
        events of it so far (seating's aside)."""
        moves = sum(1 for event in self.round_events if not isinstance(event, _SEATING))
        return int(getattr(self.view, "round", 0)), moves

    # --- the decision -----------------------------------------------------------------------

    @property
    def decision(self) -> str | None:
        """The kind of decision the seat has now (the environment's), None when it has none."""
        if self.view is None or not self.ready or self.finished:
            return None
        answered = self._answered == self._play_key()
        return self.encoding.decision_of(self.view, answered)

    def info(self) -> SeatInfo:
        """What the seat knows now, as the environment's `infos[agent]["seat"]` says it."""
        if self.view is None or self.seat is None:
            raise ValueError("update the seat with its view first")
        view = self.view
        kind = self.decision
        return SeatInfo(
            self.engine,
            self.encoding,
            self.seat,
            kind,
            self.picks if kind is not None else (),
            int(_version(view)),
            view=lambda: view,
            events=lambda: list(self.round_events),
            memory=lambda: self.memory,
            rng=self.rng,
            scratch=self.scratch,
        )

    def observe(self) -> dict[str, npt.NDArray[Any]]:
        """The seat's observation dict, as the environment's `observe(agent)` gives it."""
        info = self.info()
        return {
            "observation": self.encoding.observation(info),
            "action_mask": self.encoding.mask(info),
        }

    def act(self, action: int) -> dict[str, Any] | None:
        """Apply an action to the seat's decision; the command dict to send when it completes
        the decision (None: the decision goes on, or sends nothing, as a let-go)."""
        info = self.info()
        mask = self.encoding.mask(info)
        if info.kind is None or not 0 <= action < len(mask) or not mask[action]:
            raise IllegalAction(f"action {action} is not legal for the seat's {info.kind}")
        resolved = self.encoding.resolve(info, action)
        if not resolved.finished:
            self.picks = resolved.picks
            return None
        self.picks, self.scratch = (), {}
        if resolved.command is None:
            self._answered = self._play_key()
            return None
        command: dict[str, Any] = msgspec.to_builtins(resolved.command)
        return command

    def decide(self, policy: Policy, most: int = 64) -> dict[str, Any] | None:
        """Ask `policy` for actions until the seat has a command to send (returned) or no
        decision left (None)."""
        for _ in range(most):
            if self.decision is None:
                return None
            command = self.act(policy(self.observe(), self.info()))
            if command is not None:
                return command
        raise RuntimeError(f"no command after {most} actions")


def _version(view: View) -> int:
    return int(getattr(view, "version", 0))
