"""A seat's legal moves written out for an agent, from the engine's own `legal_moves`.

Every move is listed as the command to send, except where listing would drown the agent: a
command type whose moves choose a few values for one list field (put down some cards) comes as
one choice instead — the values it chooses from, how many at least and at most, and how many
commands that makes — when, and only when, the engine's moves are exactly every such choice
(checked by counting them); and a command type whose moves are every combination of one value
for each of its fields (give one card of the hand, take one of the table) comes as one choice
of the values of each field, when, and only when, the engine's moves are exactly every such
combination. Anything else is listed whole, so nothing here decides what is legal: it only
shortens what the engine enumerated.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

import msgspec
from pydantic import BaseModel, Field

from kronikas_rules.engine import tag_of


class Choice(BaseModel):
    """Every command of one type that picks `min_count` to `max_count` values from
    `choose_from` for its list field `field`: any such pick is legal, and no other."""

    type: str = Field(description="The command's `type`.")
    field: str = Field(description="The command's list field to fill.")
    choose_from: list[str] = Field(
        description="The values to pick from; a value listed twice may be picked twice."
    )
    min_count: int = Field(description="Pick at least this many values.")
    max_count: int = Field(description="Pick at most this many values.")
    commands: int = Field(description="How many distinct commands these picks make.")
    example: dict[str, Any] = Field(description="One of them, ready to send.")


class Combination(BaseModel):
    """Every command of one type that takes one value of each list of `each_of` for the field
    it names: any such combination is legal, and no other."""

    type: str = Field(description="The command's `type`.")
    each_of: dict[str, list[str]] = Field(description="Each field's values: take one of each.")
    commands: int = Field(description="How many distinct commands these combinations make.")


def about(cls: type) -> str:
    """What a command does, in one line: its docstring."""
    return " ".join((cls.__doc__ or "").split())


def explained(commands: Sequence[type]) -> dict[str, str]:
    """Each command type of a game with what it does, in one line."""
    return {tag_of(cls): about(cls) for cls in commands}


def _picks(copies: Sequence[int], low: int, high: int) -> int:
    """How many multisets of `low` to `high` items a multiset with these copies of each of its
    values has (the coefficients of prod(1 + x + … + x^c))."""
    ways = [1]
    for count in copies:
        grown = [0] * (len(ways) + count)
        for size, n in enumerate(ways):
            for extra in range(count + 1):
                grown[size + extra] += n
        ways = grown
    return sum(ways[low : high + 1])


def _as_choice(kind: str, moves: list[msgspec.Struct]) -> Choice | None:
    """The moves of one type as a `Choice`, when they are exactly every pick of one list field
    (the other fields alike); else None, and they are listed."""
    first = msgspec.to_builtins(moves[0])
    lists = [name for name, value in first.items() if isinstance(value, list)]
    if len(lists) != 1:
        return None
    field = lists[0]
    rest = {k: v for k, v in first.items() if k != field}
    most: Counter[str] = Counter()
    seen: set[tuple[str, ...]] = set()
    sizes: list[int] = []
    for move in moves:
        data = msgspec.to_builtins(move)
        values = data.pop(field)
        if data != rest or not all(isinstance(v, str) for v in values):
            return None
        picked = tuple(sorted(values))
        if picked in seen:
            return None
        seen.add(picked)
        sizes.append(len(values))
        for value, n in Counter(values).items():
            most[value] = max(most[value], n)
    low, high = min(sizes), max(sizes)
    if low < 1 or _picks(list(most.values()), low, high) != len(moves):
        return None
    return Choice(
        type=kind,
        field=field,
        choose_from=[v for v in most for _ in range(most[v])],
        min_count=low,
        max_count=high,
        commands=len(moves),
        example=msgspec.to_builtins(moves[0]),
    )


def _as_combination(kind: str, moves: list[msgspec.Struct]) -> Combination | None:
    """The moves of one type as a `Combination`, when they are more than one and exactly every
    combination of the values each of their fields takes; else None."""
    if len(moves) < 2:
        return None
    rows = [msgspec.to_builtins(move) for move in moves]
    fields = [name for name in rows[0] if name != "type"]
    values: dict[str, dict[str, None]] = {name: {} for name in fields}
    for row in rows:
        if list(row) != list(rows[0]):
            return None
        for name in fields:
            if not isinstance(row[name], str):
                return None
            values[name][row[name]] = None
    combinations = math.prod(len(seen) for seen in values.values())
    distinct = {tuple(row[name] for name in fields) for row in rows}
    if not fields or len(distinct) != len(rows) or combinations != len(rows):
        return None
    return Combination(
        type=kind, each_of={name: list(seen) for name, seen in values.items()}, commands=len(rows)
    )


def written_out(
    moves: Sequence[msgspec.Struct],
) -> tuple[list[dict[str, Any]], list[Choice | Combination]]:
    """The engine's legal moves (`Engine.legal_moves`, in its order) as commands to send, and
    the types shortened to a `Choice` or a `Combination`."""
    by_type: dict[str, list[msgspec.Struct]] = {}
    for move in moves:
        by_type.setdefault(tag_of(type(move)), []).append(move)
    listed: list[dict[str, Any]] = []
    choices: list[Choice | Combination] = []
    for kind, group in by_type.items():
        choice: Choice | Combination | None = _as_choice(kind, group)
        if choice is None:
            choice = _as_combination(kind, group)
        if choice is None:
            listed += [msgspec.to_builtins(move) for move in group]
        else:
            choices.append(choice)
    return listed, choices
