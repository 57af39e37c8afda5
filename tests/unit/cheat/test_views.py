"""Cheat: what the view and the events show each viewer (docs/api.md, "The view", "Events")."""

from __future__ import annotations

import msgspec

from kronikas_rules import cheat
from kronikas_rules.cheat import Call, CheatOptions, CheatTableView, Play
from kronikas_rules.cheat.facts import CheatMyHand
from kronikas_rules.cheat.options import CheatTableOptions

from .helpers import fold, lobby, run, table

API_FIELDS = [
    "kind", "id", "status", "version", "options", "seeded", "round", "dealer", "turn",
    "winners", "players", "me", "legal", "cheat", "last_round",
]  # fmt: skip

THREE = table([["7H", "8H", "9H"], ["7B", "8B", "9B"], ["7L", "8L", "9L"]], set_aside=["AA"])


def _json(view: cheat.CheatGameView) -> dict[str, object]:
    decoded: dict[str, object] = msgspec.json.decode(msgspec.json.encode(view))
    return decoded


def test_the_view_has_every_field_of_the_api_always_present() -> None:
    for history in (lobby(2), THREE):
        for viewer in (None, 0):
            encoded = _json(cheat.view(fold(history), viewer, "g1", len(history)))
            assert list(encoded)[: len(API_FIELDS)] == API_FIELDS
            assert encoded["kind"] == "cheat" and "thirty_one" not in encoded


def test_the_lobby_view() -> None:
    state = fold(lobby(2, seeded=True))
    spectator = cheat.view(state, None, "g1", 3)
    assert (spectator.status, spectator.round, spectator.dealer, spectator.turn) == (
        "open",
        0,
        None,
        None,
    )
    assert spectator.seeded is True and spectator.cheat is None and spectator.last_round is None
    assert (spectator.me, spectator.legal, spectator.winners) == (None, None, [])
    assert [(p.id, p.seat, p.hand_size, p.points) for p in spectator.players] == [
        ("p0", 0, 0, 0),
        ("p1", 1, 0, 0),
    ]
    assert [(p.house, p.away, p.left) for p in spectator.players] == [(False, False, False)] * 2
    assert spectator.deadline is None
    seated = cheat.view(state, 1, "g1", 3)
    assert seated.me == CheatMyHand(id="p1", seat=1, hand=[], rank_counts={})
    assert seated.legal == ["leave"]


def test_a_player_sees_their_own_hand_and_legal_moves_and_a_spectator_neither() -> None:
    state = fold(THREE)
    mine = cheat.view(state, 1, "g1", len(THREE))
    assert mine.me == CheatMyHand(
        id="p1", seat=1, hand=["7B", "8B", "9B"], rank_counts={"7": 1, "8": 1, "9": 1}
    )
    assert mine.legal == ["leave"]
    assert cheat.view(state, 0, "g1", 5).legal == ["play", "leave"]
    spectator = cheat.view(state, None, "g1", 5)
    assert spectator.me is None and spectator.legal is None
    assert (spectator.status, spectator.round, spectator.dealer, spectator.turn) == (
        "playing",
        1,
        2,
        0,
    )
    assert spectator.cheat == CheatTableView(
        rank="7",
        pile_size=0,
        set_aside=1,
        window_open=False,
        last_play=None,
        last_call=None,
        commitment=state.deal.commitment,
        scheme="deck-sha256",
        deck_size=10,
    )


def test_during_the_window_the_next_player_is_on_turn_and_others_may_call() -> None:
    history = run(THREE, (0, Play(cards=["9H", "8H"])))
    state = fold(history)
    views = [cheat.view(state, seat, "g1", len(history)) for seat in range(3)]
    assert [v.turn for v in views] == [1, 1, 1]
    assert [v.legal for v in views] == [["leave"], ["play", "call", "leave"], ["call", "leave"]]
    assert views[0].me is not None and views[0].me.hand == ["7H"]
    table_view = views[2].cheat
    assert table_view is not None
    assert (table_view.rank, table_view.pile_size, table_view.window_open) == ("8", 2, True)
    assert table_view.last_play == cheat.CheatLastPlay(seat=0, count=2, rank="7")
    assert [p.hand_size for p in views[2].players] == [1, 3, 3]


def test_last_play_is_null_once_the_pile_is_taken_and_the_call_shows_its_cards() -> None:
    history = run(THREE, (0, Play(cards=["9H", "8H"])), (2, Call()))
    table_view = cheat.view(fold(history), None, "g1", len(history)).cheat
    assert table_view is not None
    assert table_view.last_play is None and table_view.pile_size == 0
    assert not table_view.window_open
    assert table_view.last_call == cheat.CheatCallResult(
        caller=2, seat=0, rank="7", cards=["9H", "8H"], honest=False, taker=0
    )


def test_the_finished_view_names_the_winners_and_waits_for_nobody() -> None:
    history = run(table([["7H"], ["8B", "9B"]]), (0, Play(cards=["7H"])), (1, cheat.Accept()))
    state = fold(history)
    for viewer in (None, 0, 1):
        seen = cheat.view(state, viewer, "g1", len(history))
        assert (seen.status, seen.turn, seen.winners) == ("finished", None, [0])
        assert seen.legal == (None if viewer is None else [])
        assert seen.last_round == cheat.CheatRoundResult(
            round=1, winner=0, places=[1, 2], points=[4, 3], hand_sizes=[0, 2]
        )
        assert [p.points for p in seen.players] == [4, 3]
        assert seen.cheat is not None and not seen.cheat.window_open


def test_the_view_uses_the_options_and_the_seeded_flag_of_the_table() -> None:
    options = CheatOptions(max_play=2, rounds=3)
    state = fold(table([["7H"], ["8B"]], options=options))
    seen = cheat.view(state, 0, "g1", 4)
    assert seen.options == CheatTableOptions.of(options) and seen.seeded is False


def test_events_hide_nothing_from_nobody_when_nothing_is_hidden() -> None:
    history = run(THREE, (0, Play(cards=["7H"])), (1, Call()))
    for event in history:
        if not isinstance(
            event, cheat.CheatRoundDealt | cheat.CheatCardsPlayed | cheat.CheatPileTaken
        ):
            assert cheat.redact(event, None) is event
