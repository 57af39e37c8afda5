"""Who may do what at a table is pure rules over a fold and a role (application/access.py): no
store, no cache, nothing awaited."""

from __future__ import annotations

import pytest

from kronikas.application.access import (
    HOST,
    as_host,
    may_send,
    mover,
    player_role,
    role_of,
    seated,
)
from kronikas.application.errors import Forbidden, InvalidRequest, Unauthorized
from kronikas.application.tables import Fold
from kronikas_rules.cheat import Play
from kronikas_rules.seating import Leave
from kronikas_rules.thirty_one import Pass
from tests.apps import ENGINES


def lobby(kind: str = "cheat") -> Fold:
    engine = ENGINES[kind]
    state = engine.initial_state(engine.options(), False)
    return Fold("0123456789abcdef", kind, engine, None, 1, state, 0)


def test_a_token_the_table_does_not_know_has_no_role() -> None:
    assert role_of(HOST) == HOST
    with pytest.raises(Unauthorized):
        role_of(None)


def test_only_the_host_may_do_what_the_host_does() -> None:
    as_host(HOST, "start the table")
    with pytest.raises(Forbidden, match="Only the host token may start the table"):
        as_host(player_role("p1"), "start the table")


def test_the_host_plays_nothing_and_a_command_of_another_game_is_refused() -> None:
    table = lobby("cheat")
    may_send(table, player_role("p1"), Leave())
    with pytest.raises(Forbidden):
        may_send(table, HOST, Leave())
    with pytest.raises(InvalidRequest, match="not a command of cheat"):
        may_send(table, player_role("p1"), Pass())
    with pytest.raises(InvalidRequest, match="not a command of thirty_one"):
        may_send(lobby("thirty_one"), player_role("p1"), Play(cards=["AS"]))


def test_a_player_without_a_seat_left_before_the_start() -> None:
    assert seated(2, player_role("p1")) == 2
    assert seated(None, HOST) is None and seated(None, None) is None
    with pytest.raises(Unauthorized, match="left the table before it started"):
        seated(None, player_role("p1"))


def test_a_mover_is_asked_one_question() -> None:
    table = lobby("cheat")
    with pytest.raises(Unauthorized, match="not one of this table's"):
        mover(table, None, Leave(), None)
    with pytest.raises(Forbidden):
        mover(table, HOST, Leave(), None)
    with pytest.raises(InvalidRequest, match="not a command of cheat"):
        mover(table, player_role("p1"), Pass(), 0)
    # the seat the repository found (it read the table for a seat its fold did not know)
    assert mover(table, player_role("p1"), Leave(), 1) == 1
    with pytest.raises(Unauthorized, match="left the table before it started"):
        mover(table, player_role("p1"), Leave(), None)
    with pytest.raises(Unauthorized, match="not one of this table's"):
        as_host(None, "start the table")
