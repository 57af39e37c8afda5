"""What a table keeps is not walked by the collector: the rules' events, states, views and
openings, and the service's `Seen`, are `gc=False` values (none refers back to what holds it),
so the fold cache's thousands of tables add nothing to a middle pass but their containers."""

from __future__ import annotations

import gc
from typing import Any

import msgspec
import pytest

from kronikas.application.tables import Seen
from kronikas.application.wire import Record
from kronikas_rules.cheat import CheatOptions
from kronikas_rules.cheat.engine import ENGINE as CHEAT
from kronikas_rules.thirty_one import ThirtyOneOptions
from kronikas_rules.thirty_one.engine import ENGINE as THIRTY_ONE
from tests.unit.house.tables import AnyTable, Decks, Table, drive


@pytest.mark.parametrize(
    "engine, options", [(CHEAT, CheatOptions()), (THIRTY_ONE, ThirtyOneOptions())]
)
def test_what_a_table_keeps_is_not_walked_by_the_collector(engine: Any, options: Any) -> None:
    """A played match's events, states, views and their openings are values the collector does
    not track (`gc=False`: none refers back to what holds it), nor the service's `Seen`: the
    fold cache holds thousands of tables' worth, which every middle pass would walk."""
    table: AnyTable = Table(engine, options, 3, [0], Decks(7, 7))
    drive(table, 7, 300)
    views = [table.view(seat) for seat in range(3)]
    states: list[object] = [table.state, *msgspec.structs.asdict(table.state).values()]
    values = [*table.events, *views, *(o for v in views for o in v.openings)]
    values += [s for s in states if isinstance(s, msgspec.Struct)]
    assert values and not [type(v).__name__ for v in values if gc.is_tracked(v)]
    record = Record(v=1, at="2026-12-07T00:00:00.000Z", e=table.events[0])
    assert not gc.is_tracked(Seen(record, engine.kind, engine, "game_created", 1))
