"""docs/rules.md, Thirty-One, "Lives", out players, the next round, and the match's end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from kronikas_rules import proofs
from kronikas_rules import thirty_one as t
from kronikas_rules.common import GameNotOpen, GameOver, NotYourTurn, Start
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join
from tests.unit.thirty_one.helpers import (
    Stacked,
    arrange,
    dealt,
    h,
    lobby,
    opens,
    order_of,
    run,
)

LOSER, WORST, MIDDLE, BEST = h("7H 8B 9L"), h("7L 8H 9B"), h("AA KA 7A"), h("AB KB OB")
TABLE = h("AL KL 8A")
OTHER_TABLE = h("10L UL 8L")


def showdown(n: int, dealer: int, out: Sequence[int] = ()) -> list[tuple[int, t.Command]]:
    """The dealer keeps, the first player shows, everyone else passes: the round is scored."""
    order = order_of(n, dealer, out)
    return [(dealer, t.Keep()), (order[0], t.Show()), *((s, t.Pass()) for s in order[1:])]


def deck(
    hands: Mapping[int, Sequence[str]], dealer: int, n: int, out: Sequence[int] = ()
) -> list[str]:
    return arrange(hands, TABLE, dealer, n, out)


def run_start(
    n: int,
    rng: Stacked,
    moves: Sequence[tuple[int, t.Command]],
    options: t.ThirtyOneOptions | None = None,
) -> tuple[t.State, list[t.Event]]:
    state, events = run(lobby(n, options), [], rng)
    assert not events
    start = t.decide(state, Start(), None, rng)
    history = [*lobby(n, options), *start]
    state, more = run(history, moves, rng)
    return state, [*start, *more]


def test_the_lowest_score_loses_a_life() -> None:
    hands = {0: LOSER, 1: MIDDLE, 2: BEST}
    rng = Stacked({1: deck(hands, 2, 3), 2: arrange(hands, OTHER_TABLE, 0, 3)}, dealer=2)
    _, events = run_start(3, rng, showdown(3, 2))
    ended = next(e for e in events if isinstance(e, t.ThirtyOneRoundEnded))
    assert ended.scores == [0.0, 28.0, 31.0]
    assert ended.lost_life == [0]
    assert ended.lives == [2, 3, 3]


def test_all_tied_for_lowest_lose_a_life() -> None:
    hands = {0: LOSER, 1: WORST, 2: MIDDLE}
    rng = Stacked({1: deck(hands, 2, 3), 2: arrange(hands, OTHER_TABLE, 0, 3)}, dealer=2)
    state, events = run_start(3, rng, showdown(3, 2))
    ended = next(e for e in events if isinstance(e, t.ThirtyOneRoundEnded))
    assert ended.scores == [0.0, 0.0, 28.0]
    assert ended.lost_life == [0, 1]
    assert ended.lives == [2, 2, 3]
    assert state.match.lives == (2, 2, 3)
    assert state.match.last_round == t.ThirtyOneRoundResult(
        round=1,
        hands=[LOSER, WORST, MIDDLE],
        scores=[0.0, 0.0, 28.0],
        lost_life=[0, 1],
        out=[],
        three_aces=None,
    )


def test_a_player_swims_at_zero_and_is_out_on_the_next_loss() -> None:
    options = t.ThirtyOneOptions(lives=1)
    hands = {0: LOSER, 1: MIDDLE, 2: BEST}
    rng = Stacked(
        {1: deck(hands, 2, 3), 2: deck(hands, 0, 3), 3: deck({1: MIDDLE, 2: BEST}, 1, 3, [0])},
        dealer=2,
    )
    state, events = run_start(3, rng, showdown(3, 2), options)
    assert state.match.lives == (0, 1, 1)
    assert state.match.out == (False, False, False)
    assert isinstance(state, t.DealerChoice)
    assert state.deal.order == (1, 2, 0)  # still dealt in, swimming at 0
    history = [*lobby(3, options), *events]
    state, events = run(history, showdown(3, 0), rng)
    ended = next(e for e in events if isinstance(e, t.ThirtyOneRoundEnded))
    assert ended.lost_life == [0]
    assert ended.out == [0]
    assert ended.lives == [0, 1, 1]
    assert state.match.out == (True, False, False)
    # the deal passes from seat 0 to seat 1, and seat 0 gets no cards
    assert events[-1] == dealt({1: MIDDLE, 2: BEST}, TABLE, dealer=1, n=3, round=3, out=[0])


def test_with_zero_lives_a_player_is_out_at_the_first_loss() -> None:
    options = t.ThirtyOneOptions(lives=0)
    hands = {0: LOSER, 1: MIDDLE, 2: BEST}
    rng = Stacked({1: deck(hands, 2, 3), 2: deck({1: MIDDLE, 2: BEST}, 1, 3, [0])}, dealer=2)
    state, events = run_start(3, rng, showdown(3, 2), options)
    ended = next(e for e in events if isinstance(e, t.ThirtyOneRoundEnded))
    assert ended.lost_life == [0]
    assert ended.out == [0]
    assert ended.lives == [0, 0, 0]
    assert state.match.out == (True, False, False)
    assert events[-1] == dealt({1: MIDDLE, 2: BEST}, TABLE, dealer=1, n=3, round=2, out=[0])


def test_nobody_is_out_when_every_player_left_would_be() -> None:
    options = t.ThirtyOneOptions(lives=0)
    hands = {0: LOSER, 1: WORST}
    rng = Stacked({1: deck(hands, 1, 2), 2: deck(hands, 0, 2)}, dealer=1)
    state, events = run_start(2, rng, showdown(2, 1), options)
    ended = next(e for e in events if isinstance(e, t.ThirtyOneRoundEnded))
    assert ended.lost_life == [0, 1]
    assert ended.out == []
    assert ended.lives == [0, 0]
    assert isinstance(state, t.DealerChoice)
    assert state.match.out == (False, False)
    assert state.deal.order == (1, 0)


def test_nobody_is_out_when_three_tied_players_would_all_be() -> None:
    options = t.ThirtyOneOptions(lives=0)
    hands = {0: LOSER, 1: WORST, 2: h("7B 8L 9A")}
    rng = Stacked({1: deck(hands, 2, 3), 2: deck(hands, 0, 3)}, dealer=2)
    state, events = run_start(3, rng, showdown(3, 2), options)
    ended = next(e for e in events if isinstance(e, t.ThirtyOneRoundEnded))
    assert ended.lost_life == [0, 1, 2]
    assert ended.out == []
    assert state.match.out == (False, False, False)


def test_some_at_zero_go_out_when_not_everyone_left_would() -> None:
    options = t.ThirtyOneOptions(lives=0)
    hands = {0: LOSER, 1: WORST, 2: MIDDLE}
    rng = Stacked({1: deck(hands, 2, 3)}, dealer=2)
    state, events = run_start(3, rng, showdown(3, 2), options)
    assert t.is_terminal(state)
    deal = events[0]
    assert isinstance(deal, t.ThirtyOneRoundDealt)
    assert events[-2:] == [
        t.ThirtyOneRoundEnded(
            round=1,
            hands=[LOSER, WORST, MIDDLE],
            scores=[0.0, 0.0, 28.0],
            lost_life=[0, 1],
            out=[0, 1],
            three_aces=None,
            lives=[0, 0, 0],
            openings=opens(deal, [*LOSER, *WORST, *MIDDLE]),
        ),
        t.ThirtyOneMatchEnded(winners=[2]),
    ]


def test_the_match_ends_when_one_player_is_left_and_that_player_wins() -> None:
    options = t.ThirtyOneOptions(lives=0)
    hands = {0: LOSER, 1: MIDDLE}
    rng = Stacked({1: deck(hands, 1, 2)}, dealer=1)
    state, events = run_start(2, rng, showdown(2, 1), options)
    assert events[-1] == t.ThirtyOneMatchEnded(winners=[1])
    assert isinstance(state, t.Finished)
    assert t.is_terminal(state)
    view = t.view(state, 0, "g", len(events) + 3)
    assert view.status == "finished"
    assert view.winners == [1]
    assert view.turn is None
    assert view.legal == []
    assert view.thirty_one is None
    assert view.last_round is not None
    assert view.last_round.out == [0]
    assert [p.out for p in view.players] == [True, False]
    for seat in (0, 1):
        for command in (t.Pass(), t.Show(), t.Keep()):
            with pytest.raises(GameOver):
                t.decide(state, command, seat, rng)
    for lobby_command in (Join(player_id="p9", name="Late"), Start()):
        with pytest.raises(GameNotOpen):
            t.decide(state, lobby_command, None, rng)


def test_out_players_are_skipped_for_the_dealer_the_deal_and_the_turns() -> None:
    options = t.ThirtyOneOptions(lives=0)
    hands = {0: MIDDLE, 1: LOSER, 2: BEST, 3: h("AH KH 9H")}
    later = {0: MIDDLE, 2: BEST, 3: h("AH KH 9H")}
    rng = Stacked({1: deck(hands, 0, 4), 2: deck(later, 2, 4, [1])}, dealer=0)
    # round 1: dealer 0, order 1 2 3 0; seat 1 shows a worthless hand and is out
    state, events = run_start(4, rng, showdown(4, 0), options)
    assert events[-1] == dealt(later, TABLE, dealer=2, n=4, round=2, out=[1])
    assert isinstance(state, t.DealerChoice)
    assert state.match.dealer == 2  # seat 1, next after the dealer, is out
    assert state.deal.order == (3, 0, 2)
    history = [*lobby(4, options), *events]
    moves: list[tuple[int, t.Command]] = [(2, t.Keep()), (3, t.Pass()), (0, t.Pass())]
    for seat, command in moves:
        state, new = run(history, [(seat, command)], rng)
        history += new
        with pytest.raises(NotYourTurn, match="out of the match"):
            t.decide(state, t.Pass(), 1, rng)
        assert t.legal(state, 1) == ["leave"]  # out of the match, still at the table
    assert isinstance(state, t.Turns)
    assert state.turn == 2  # after seat 0 comes seat 2: seat 1 is skipped
    view = t.view(state, 1, "g", 99)
    assert view.me is not None
    assert view.me.hand == []
    assert view.players[1].hand_size == 0
    assert view.players[1].out
    assert view.thirty_one is not None and view.thirty_one.circuit == 1
    state, _ = run(history, [(2, t.Pass())], rng)
    view = t.view(state, 0, "g", 100)
    assert view.thirty_one is not None
    assert view.thirty_one.circuit == 2, "a circuit is the 3 players still in, not the 4 seats"


def test_the_next_round_is_dealt_at_once_with_a_new_shuffle_and_no_deck_revealed() -> None:
    rng = SeededRandomness(11)
    state, events = run(lobby(3), [], rng)
    start = t.decide(state, Start(), None, rng)
    first = start[-1]
    assert isinstance(first, t.ThirtyOneRoundDealt)
    if len(start) > 1:  # three Aces were dealt: another seed would be kinder, but it is fine
        return
    state, events = run([*lobby(3), *start], showdown(3, first.dealer), rng)
    ended, second = events[-2:]
    assert isinstance(ended, t.ThirtyOneRoundEnded)
    assert first.deck is not None
    assert first.salts is not None
    assert first.commitment == proofs.Tree(first.deck, first.salts).root
    assert isinstance(second, t.ThirtyOneRoundDealt)
    assert second.round == 2
    assert second.dealer == (first.dealer + 1) % 3
    assert second.commitment != first.commitment
    assert isinstance(state, t.DealerChoice)


def test_two_players_play_a_round() -> None:
    hands = {0: LOSER, 1: MIDDLE}
    rng = Stacked({1: deck(hands, 1, 2), 2: deck(hands, 0, 2)}, dealer=1)
    state, events = run_start(2, rng, [(1, t.Keep()), (0, t.Show())])
    assert isinstance(state, t.LastCircuit)
    assert state.turn == 1
    state, more = run([*lobby(2), *events], [(1, t.Pass())], rng)
    assert more[0] == t.ThirtyOnePassed(seat=1, turn=None)
    assert isinstance(more[1], t.ThirtyOneRoundEnded)
    assert more[1].lost_life == [0]
    assert isinstance(state, t.DealerChoice)
    assert state.match.dealer == 0
    assert state.deal.order == (1, 0)


def test_nine_players_play_a_round() -> None:
    rng = SeededRandomness(3)
    state, _ = run(lobby(9), [], rng)
    start = t.decide(state, Start(), None, rng)
    deal = start[0]
    assert isinstance(deal, t.ThirtyOneRoundDealt)
    assert all(hand is not None and len(hand) == 3 for hand in deal.hands)
    assert len(deal.table) == 3
    assert deal.deck is not None
    assert deal.deck[27:30] == deal.table  # two cards are left unused
    if len(start) > 1:
        return
    order = order_of(9, deal.dealer)
    state, events = run([*lobby(9), *start], [(deal.dealer, t.Keep()), (order[0], t.Show())], rng)
    assert isinstance(state, t.LastCircuit)
    turns = []
    history = [*lobby(9), *start, *events]
    while isinstance(state, t.LastCircuit):
        assert state.turn is not None
        turns.append(state.turn)
        state, new = run(history, [(state.turn, t.Pass())], rng)
        history += new
    assert turns == order[1:]
    ended = next(e for e in history if isinstance(e, t.ThirtyOneRoundEnded))
    assert all(score is not None for score in ended.scores)
