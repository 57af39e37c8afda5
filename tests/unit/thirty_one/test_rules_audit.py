"""Thirty-One: an audit of docs/rules.md sentence by sentence — the rules no other test file
checks, or checks only in a way that could not fail if the engine broke them."""

from __future__ import annotations

from collections.abc import Sequence

from kronikas_rules import thirty_one as t
from kronikas_rules.common import Start
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import PlayerJoined
from tests.unit.thirty_one.helpers import dealt, fold, given, h, lobby, opens, run

HANDS = {0: h("7H 8B 10L"), 1: h("9H 9L 7B"), 2: h("10B UB OB")}
KINGS = h("KL KA KB")
"""Three Kings: 30.5 as a hand, though no suit of them reaches 21."""


def _turns(table: Sequence[str]) -> tuple[t.ThirtyOneRoundDealt, list[t.Event]]:
    """Three players, dealer 2 kept: seat 0 is on turn."""
    deal = dealt(HANDS, table, dealer=2, n=3)
    return deal, [*lobby(3), deal, t.ThirtyOneHandKept(seat=2, turn=0)]


# --- A turn: "`swap_all` ... would score at least 21 as a hand" ---------------------------------


def test_swap_all_is_legal_with_three_cards_of_one_rank_on_the_table() -> None:
    assert t.score(KINGS) == 61
    deal, history = _turns(KINGS)
    assert t.legal(given(*history).state, 0) == ["swap", "swap_all", "pass", "show", "leave"]
    state = (
        given(*history)
        .when(t.SwapAll(), 0)
        .then(
            [
                t.ThirtyOneHandsSwapped(
                    seat=0, table=HANDS[0], turn=1, openings=opens(deal, HANDS[0])
                )
            ]
        )
    )
    assert isinstance(state, t.Turns)
    assert state.deal.hands[0] == tuple(KINGS)
    assert state.deal.table == tuple(HANDS[0])


# --- The last circuit: "`swap` or `swap_all`, but only if the hand afterwards scores at least 21"


def test_a_last_circuit_swap_to_three_of_one_rank_is_allowed_and_shows_at_once() -> None:
    deal, history = _turns(h("9B 8A 7A"))
    history = [*history, t.ThirtyOneHandShown(seat=0, hand=HANDS[0], turn=1)]
    state = given(*history).state
    assert isinstance(state, t.LastCircuit)
    assert t.legal(state, 1) == ["swap", "pass", "leave"]
    # 9H 9L 9B scores 30.5; no other swap of 9H 9L 7B with this table reaches 21.
    assert t.legal_moves(state, 1)[0] == t.Swap(give="7B", take="9B")
    assert [m for m in t.legal_moves(state, 1) if isinstance(m, t.Swap)] == [
        t.Swap(give="7B", take="9B")
    ]
    after = (
        given(*history)
        .when(t.Swap(give="7B", take="9B"), 1)
        .then(
            [
                t.ThirtyOneCardSwapped(
                    seat=1, give="7B", take="9B", turn=1, openings=opens(deal, ["7B"])
                ),
                t.ThirtyOneHandShown(
                    seat=1, hand=h("9H 9L 9B"), turn=2, openings=opens(deal, h("9H 9L 9B"))
                ),
            ]
        )
    )
    assert isinstance(after, t.LastCircuit)
    assert after.shown == (tuple(HANDS[0]), ("9H", "9L", "9B"), None)
    assert after.deal.table == ("7B", "8A", "7A")


# --- Seeded tables: "A table may be created with an explicit `seed`. It then deals reproducibly"


def _seeded_lobby(n: int) -> list[t.Event]:
    joins = [PlayerJoined(player_id=f"p{s}", name=f"Player {s}", seat=s) for s in range(n)]
    return [*t.created(t.ThirtyOneOptions(), True), *joins]


def test_a_seeded_table_says_so_in_its_public_view_and_an_unseeded_one_does_not() -> None:
    """Rules: "Such a table says `seeded: true` in its view, so that nobody takes it for a fair
    one"."""
    seeded = _seeded_lobby(3)
    assert t.view(fold(seeded), None, "g", len(seeded)).seeded is True
    start = t.decide(fold(seeded), Start(), None, SeededRandomness(4))
    history = [*seeded, *start]
    for viewer in (None, 0, 1, 2):
        assert t.view(fold(history), viewer, "g", len(history)).seeded is True
    fair = lobby(3)
    fair_start = t.decide(fold(fair), Start(), None, SeededRandomness(4))
    assert t.view(fold([*fair, *fair_start]), None, "g", 5).seeded is False


SEED = 8


def _round_two(moves: str) -> t.ThirtyOneRoundDealt:
    """The second deal of a seeded three-player table, after round 1 is played as `moves` says:
    "show" (the first player shows at once, the others pass) or "late" (everyone passes once,
    then the first player shows and the others swap or pass)."""
    rng = SeededRandomness(SEED)
    start = t.decide(fold(_seeded_lobby(3)), Start(), None, rng)
    assert len(start) == 1, "the seed must deal no three Aces"
    first = start[0]
    assert isinstance(first, t.ThirtyOneRoundDealt)
    a, b, c = first.seats
    plays: list[tuple[int, t.Command]] = [(first.dealer, t.Keep())]
    if moves == "late":
        plays += [(a, t.Pass()), (b, t.Pass()), (c, t.Pass())]
    plays += [(a, t.Show()), (b, t.Pass()), (c, t.Pass())]
    _, events = run([*_seeded_lobby(3), *start], plays, rng)
    ended = next(e for e in events if isinstance(e, t.ThirtyOneRoundEnded))
    assert ended.out == [] and ended.three_aces is None
    second = events[-1]
    assert isinstance(second, t.ThirtyOneRoundDealt) and second.round == 2
    return second


def test_the_same_seed_gives_the_same_deals_round_after_round_whatever_was_played() -> None:
    """Rules: "the same seed, the same options and the same number of players give the same dealer
    and the same deals, round after round": round 2's deal whatever round 1's play."""
    once, again, other = _round_two("show"), _round_two("show"), _round_two("late")
    assert once == again == other
    rng = SeededRandomness(SEED)
    first = t.decide(fold(_seeded_lobby(3)), Start(), None, rng)[0]
    assert isinstance(first, t.ThirtyOneRoundDealt)
    assert once.dealer == (first.dealer + 1) % 3
    assert once.deck != first.deck  # round 2 is a shuffle of its own
