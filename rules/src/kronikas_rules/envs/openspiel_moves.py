"""A stand-in decision driver until the shared one lands: an action is the index of a move in
the seat's legal moves (the first `ACTIONS`), a seat that may answer out of turn never does."""

from __future__ import annotations

from typing import Final

import msgspec
import numpy as np
import numpy.typing as npt

from kronikas_rules.table import Table

ACTIONS: Final = 64
SEATING: Final = ("leave", "back")


class MovesDriver:
    def __init__(self, table: Table) -> None:
        self.table = table

    def seat(self) -> int | None:
        table = self.table
        if table.finished:
            return None
        waiting = table.engine.waiting_for(table.state)
        return waiting if waiting is not None else min(table.to_act())

    def _moves(self) -> list[msgspec.Struct]:
        seat = self.seat()
        assert seat is not None
        moves = self.table.legal_moves(seat)
        own = [m for m in moves if m.__struct_config__.tag not in SEATING]
        return own[:ACTIONS]

    def legal_actions(self) -> list[int]:
        return list(range(len(self._moves())))

    def step(self, action: int) -> None:
        seat = self.seat()
        assert seat is not None
        self.table.play(seat, self._moves()[action])

    def action_name(self, action: int) -> str:
        return msgspec.json.encode(self._moves()[action]).decode()

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        return np.zeros(1, np.float32)

    def decision(self, seat: int) -> str:
        return ""

    def returns(self) -> list[float]:
        winners = msgspec.to_builtins(self.table.view(None))["winners"]
        n = len(self.table.view(None).players)
        return [1.0 if seat in winners else 0.0 for seat in range(n)]

    def copy(self, table: Table) -> MovesDriver:
        return MovesDriver(table)
