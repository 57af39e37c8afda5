"""Cheat: an audit of docs/rules.md sentence by sentence — the rules no other test file checks,
or checks only in a way that could not fail if the engine broke them."""

from __future__ import annotations

import pytest

from kronikas_rules import cheat
from kronikas_rules.cheat import (
    Accept,
    Call,
    CheatCalled,
    CheatMatchEnded,
    CheatOptions,
    CheatPileTaken,
    CheatRoundDealt,
    CheatRoundEnded,
    Command,
    Event,
    Play,
)
from kronikas_rules.cheat.engine import ENGINE as CHEAT
from kronikas_rules.common import DeckRevealed, IllegalMove, InvalidOptions, Start
from kronikas_rules.randomness import SeededRandomness

from .helpers import fold, given, lobby, run, table

LIMIT = CheatOptions(max_plays=20)
"""The least limit of plays a table may set: short enough to play out move by move."""


def _alternate(first: list[str], second: list[str]) -> list[tuple[int, Command]]:
    """Two seats, seat 0 first: each puts down its cards one at a time, in turn, no calls."""
    moves: list[tuple[int, Command]] = []
    for a, b in zip(first, second, strict=False):
        moves += [(0, Play(cards=[a])), (1, Play(cards=[b]))]
    if len(first) > len(second):
        moves.append((0, Play(cards=[first[-1]])))
    return moves


# --- A turn: "you put 1 to 4 cards (option `max_play`, from 1 to 4, default 4)" ------------------


def test_the_default_max_play_refuses_five_cards_and_offers_at_most_four() -> None:
    history = table([["7H", "8H", "9H", "10H", "UH"], ["7B", "8B"]])
    given(history).when(Play(cards=["7H", "8H", "9H", "10H", "UH"]), 0).raises(
        IllegalMove, match="at most 4"
    )
    plays = cheat.legal_moves(fold(history), 0)
    sizes = {len(move.cards) for move in plays if isinstance(move, Play)}
    assert sizes == {1, 2, 3, 4}


# --- "A round allows a number of plays (option `max_plays`, from 20 to 10,000, default 300)" -----


@pytest.mark.parametrize("max_plays", [20, 300, 10_000])
def test_the_engine_accepts_max_plays_from_20_to_10000(max_plays: int) -> None:
    CHEAT.validate_options(CheatOptions(max_plays=max_plays))


@pytest.mark.parametrize("max_plays", [19, 10_001])
def test_the_engine_refuses_max_plays_outside_20_to_10000(max_plays: int) -> None:
    with pytest.raises(InvalidOptions, match="max_plays"):
        CHEAT.validate_options(CheatOptions(max_plays=max_plays))


# --- A round that does not end ------------------------------------------------------------------

SEAT_0 = ["7H", "8H", "9H", "10H", "UH", "OH", "KH", "AH", "7B", "8B", "9B"]
SEAT_1 = ["7L", "8L", "9L", "10L", "UL", "OL", "KL", "AL", "7A", "10B", "8A"]
"""Eleven cards each; seat 1's tenth play, the round's 20th, announces tens with `10B`."""


def test_an_honest_last_allowed_play_called_gives_the_caller_the_pile_and_no_one_finishes() -> None:
    """Rules: "an honest play gives it to the caller ... Otherwise the round ends there with no
    one finished": the round's last allowed play, called and found honest."""
    history = run(table([SEAT_0, SEAT_1], options=LIMIT), *_alternate(SEAT_0[:10], SEAT_1[:10]))
    state = fold(history)
    assert isinstance(state, cheat.Window) and state.deal.plays == 20
    assert state.top.seat == 1 and state.top.rank == "10" and state.top.cards == ("10B",)
    assert cheat.legal(state, 0) == ["accept", "call", "leave"]
    pile = list(state.deal.pile)
    deal = next(e for e in history if isinstance(e, CheatRoundDealt))
    events = given(history).when(Call(), 0).events()
    assert events == [
        CheatCalled(caller=0, seat=1, rank="10", cards=["10B"], honest=True, taker=0),
        CheatPileTaken(seat=0, count=20, turn=None, cards=pile),
        CheatRoundEnded(
            round=1,
            winner=1,
            hand_sizes=[21, 1],
            places=[2, 1],
            points=[3, 4],
            totals=[3, 4],
            reason="max_plays",
        ),
        DeckRevealed(round=1, salt=deal.salt, deck=deal.deck),
        CheatMatchEnded(winners=[1], points=[3, 4]),
    ]


def test_every_round_allows_max_plays_plays_again() -> None:
    """Rules: "A round allows a number of plays": the count starts again at each deal."""
    options = CheatOptions(max_plays=20, rounds=2)
    first, second = SEAT_0[:10], SEAT_1[:10]
    history = run(table([first, second], options=options), *_alternate(first, second[:9]))
    state = fold(history)
    assert isinstance(state, cheat.Window) and state.deal.plays == 19
    assert state.deal.hands[0] == ()  # seat 0 went out with the round's 19th play
    history = run(history, (1, Accept()))
    assert isinstance(history[-1], CheatRoundDealt) and history[-1].round == 2
    state = fold(history)
    assert isinstance(state, cheat.ToPlay) and state.deal.plays == 0
    opener = state.deal.turn
    history = run(history, (opener, Play(cards=[state.deal.hands[opener][0]])))
    state = fold(history)
    assert isinstance(state, cheat.Window) and state.deal.plays == 1
    # The 20th play counted over both rounds would be the last allowed; it is only the first.
    assert cheat.legal(state, 1 - opener) == ["play", "call", "leave"]


# --- Seeded tables ------------------------------------------------------------------------------


def test_a_seeded_table_says_so_in_its_public_view_and_an_unseeded_one_does_not() -> None:
    """Rules: "Such a table says `seeded: true` in its view"; a fair one says false."""
    seeded = lobby(2, seeded=True)
    assert cheat.view(fold(seeded), None, "g", len(seeded)).seeded is True
    started = [*seeded, *given(seeded).when(Start(), None, SeededRandomness(4)).events()]
    for viewer in (None, 0, 1):
        assert cheat.view(fold(started), viewer, "g", len(started)).seeded is True
    fair = [*lobby(2), *given(lobby(2)).when(Start(), None, SeededRandomness(4)).events()]
    assert cheat.view(fold(fair), None, "g", len(fair)).seeded is False


def test_the_same_seed_options_and_players_give_the_same_first_dealer_and_deal() -> None:
    options = CheatOptions(chroniclers=True)
    deals: list[list[Event]] = [
        given(lobby(3, options)).when(Start(), None, SeededRandomness(41)).events()
        for _ in range(2)
    ]
    assert deals[0] == deals[1]
    deal = deals[0][0]
    assert isinstance(deal, CheatRoundDealt)
    assert (deal.round, deal.turn, deal.rank) == (1, (deal.dealer + 1) % 3, "7")
