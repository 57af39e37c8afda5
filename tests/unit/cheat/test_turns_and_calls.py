"""Cheat: turns, honesty, calling "Cheat!", the Chroniclers, going out (docs/rules.md, Cheat)."""

from __future__ import annotations

import pytest

from kronikas_rules import cheat
from kronikas_rules.cheat import (
    Accept,
    Call,
    CheatCalled,
    CheatCardsPlayed,
    CheatMatchEnded,
    CheatOptions,
    CheatPenaltyTaken,
    CheatPileTaken,
    CheatPlayAccepted,
    CheatRoundEnded,
    Play,
)
from kronikas_rules.common import DeckRevealed, IllegalMove, NotYourTurn

from .helpers import SALT, fold, given, run, table

THREE = table([["7H", "8H", "9H"], ["7B", "8B", "9B"], ["7L", "8L", "9L"]])
"""Three players; the dealer is seat 2, so seat 0 starts."""

CHRONICLERS = CheatOptions(chroniclers=True)
WITH_X = table(
    [["XC", "XP", "7H", "8H", "10H"], ["7B", "8B", "9B", "10B"], ["7L", "8L", "9L", "10L"]],
    options=CHRONICLERS,
)


def played(seat: int, cards: list[str], rank: str, turn: int, next_rank: str) -> CheatCardsPlayed:
    return CheatCardsPlayed(
        seat=seat, count=len(cards), rank=rank, turn=turn, next_rank=next_rank, cards=cards
    )


# --- turns -----------------------------------------------------------------------------------


def test_player_after_the_dealer_starts_and_announces_sevens() -> None:
    history = table([["7H", "8H"], ["7B", "8B"], ["7L", "8L"]], dealer=1)
    given(history).when(Play(cards=["8L"]), 2).then([played(2, ["8L"], "7", 0, "8")])


def test_only_the_player_on_turn_may_play() -> None:
    error = given(THREE).when(Play(cards=["7B"]), 1).raises(NotYourTurn)
    assert "seat 0" in error.detail


def test_each_next_player_announces_the_next_rank() -> None:
    history = run(THREE, (0, Play(cards=["7H"])), (1, Play(cards=["7B"])))
    given(history).when(Play(cards=["9L"]), 2).then([played(2, ["9L"], "9", 0, "10")])
    assert fold(history).deal.rank == "9"


def test_rank_sequence_wraps_from_ace_to_seven() -> None:
    hands = [["7H", "9H", "UH", "KH", "7A"], ["8H", "10H", "OH", "AH", "8A"]]
    moves = [(i % 2, Play(cards=[hands[i % 2][i // 2]])) for i in range(9)]
    events = run(table(hands), *moves)
    announced = [e.rank for e in events if isinstance(e, CheatCardsPlayed)]
    assert announced == ["7", "8", "9", "10", "U", "O", "K", "A", "7"]


def test_a_play_puts_down_one_to_max_play_cards() -> None:
    hands = [["7H", "8H", "9H", "10H", "UH"], ["7B", "8B"]]
    given(table(hands)).when(Play(cards=["7H", "8H", "9H", "10H"]), 0).then(
        [played(0, ["7H", "8H", "9H", "10H"], "7", 1, "8")]
    )
    two = table(hands, options=CheatOptions(max_play=2))
    given(two).when(Play(cards=["7H", "8H"]), 0).then([played(0, ["7H", "8H"], "7", 1, "8")])
    given(two).when(Play(cards=["7H", "8H", "9H"]), 0).raises(IllegalMove, match="at most 2")


def test_a_player_on_turn_must_put_down_at_least_one_card() -> None:
    given(THREE).when(Play(cards=[]), 0).raises(IllegalMove, match="at least one")


def test_any_cards_may_be_put_down() -> None:
    given(THREE).when(Play(cards=["9H", "8H"]), 0).then([played(0, ["9H", "8H"], "7", 1, "8")])


def test_cards_not_in_hand_are_refused() -> None:
    given(THREE).when(Play(cards=["7B"]), 0).raises(IllegalMove, match="do not hold 7B")


def test_a_code_held_once_cannot_be_put_down_twice() -> None:
    given(THREE).when(Play(cards=["7H", "7H"]), 0).raises(IllegalMove, match="as many times")


def test_with_two_decks_the_same_code_can_be_played_twice() -> None:
    history = table([["7H", "7H", "8H"], ["7B", "8B"]], options=CheatOptions(decks=2))
    state = (
        given(history)
        .when(Play(cards=["7H", "7H"]), 0)
        .then([played(0, ["7H", "7H"], "7", 1, "8")])
    )
    assert state.deal.hands[0] == ("8H",)


def test_the_service_announces_count_and_rank() -> None:
    history = run(THREE, (0, Play(cards=["9H", "8H"])))
    top = cheat.view(fold(history), None, "g", len(history)).cheat
    assert top is not None
    assert top.last_play == cheat.CheatLastPlay(seat=0, count=2, rank="7")


# --- calling ---------------------------------------------------------------------------------


def test_any_player_other_than_the_one_who_played_may_call() -> None:
    state = fold(run(THREE, (0, Play(cards=["7H"]))))
    assert [cheat.legal(state, seat) for seat in range(3)] == [
        ["leave"],
        ["play", "call", "leave"],
        ["call", "leave"],
    ]


def test_caller_takes_pile_when_play_was_honest() -> None:
    history = run(THREE, (0, Play(cards=["7H"])))
    state = (
        given(history)
        .when(Call(), 1)
        .then(
            [
                CheatCalled(caller=1, seat=0, rank="7", cards=["7H"], honest=True, taker=1),
                CheatPileTaken(seat=1, count=1, turn=1, cards=["7H"]),
            ]
        )
    )
    assert state.deal.hands[1] == ("7H", "7B", "8B", "9B")
    assert state.deal.pile == ()
    assert state.deal.turn == 1


def test_liar_takes_pile_and_caller_plays_next() -> None:
    history = run(THREE, (0, Play(cards=["8H"])))
    state = (
        given(history)
        .when(Call(), 1)
        .then(
            [
                CheatCalled(caller=1, seat=0, rank="7", cards=["8H"], honest=False, taker=0),
                CheatPileTaken(seat=0, count=1, turn=1, cards=["8H"]),
            ]
        )
    )
    assert state.deal.hands[0] == ("7H", "8H", "9H")
    assert state.deal.turn == 1


def test_a_non_next_caller_who_catches_a_lie_plays_next_and_the_seats_between_are_skipped() -> None:
    history = run(THREE, (0, Play(cards=["8H"])))
    state = (
        given(history)
        .when(Call(), 2)
        .then(
            [
                CheatCalled(caller=2, seat=0, rank="7", cards=["8H"], honest=False, taker=0),
                CheatPileTaken(seat=0, count=1, turn=2, cards=["8H"]),
            ]
        )
    )
    assert state.deal.turn == 2
    assert cheat.legal(state, 1) == ["leave"]
    assert cheat.legal(state, 2) == ["play", "leave"]


def test_false_call_by_a_non_next_player_continues_after_the_player_who_played() -> None:
    history = run(THREE, (0, Play(cards=["7H"])))
    state = (
        given(history)
        .when(Call(), 2)
        .then(
            [
                CheatCalled(caller=2, seat=0, rank="7", cards=["7H"], honest=True, taker=2),
                CheatPileTaken(seat=2, count=1, turn=1, cards=["7H"]),
            ]
        )
    )
    assert state.deal.turn == 1
    assert state.deal.hands[2] == ("7H", "7L", "8L", "9L")


def test_the_taker_gets_the_whole_pile() -> None:
    history = run(THREE, (0, Play(cards=["7H"])), (1, Play(cards=["8B"])), (2, Play(cards=["7L"])))
    state = (
        given(history)
        .when(Call(), 0)
        .then(
            [
                CheatCalled(caller=0, seat=2, rank="9", cards=["7L"], honest=False, taker=2),
                CheatPileTaken(seat=2, count=3, turn=0, cards=["7H", "8B", "7L"]),
            ]
        )
    )
    assert state.deal.hands[2] == ("7H", "7L", "8B", "8L", "9L")


def test_only_the_most_recent_play_can_be_called() -> None:
    history = run(THREE, (0, Play(cards=["8H"])), (1, Play(cards=["8B"])))
    given(history).when(Call(), 2).then(
        [
            CheatCalled(caller=2, seat=1, rank="8", cards=["8B"], honest=True, taker=2),
            CheatPileTaken(seat=2, count=2, turn=2, cards=["8H", "8B"]),
        ]
    )


def test_the_next_play_closes_the_window_on_the_previous_one() -> None:
    state = fold(run(THREE, (0, Play(cards=["8H"])), (1, Play(cards=["8B"]))))
    assert isinstance(state, cheat.Window) and state.top.seat == 1
    assert cheat.legal(state, 0) == ["call", "leave"]


def test_a_call_closes_the_window_so_a_later_call_is_refused() -> None:
    history = run(THREE, (0, Play(cards=["8H"])), (2, Call()))
    given(history).when(Call(), 1).raises(NotYourTurn)
    given(history).when(Call(), 2).raises(IllegalMove, match="no play to call")


def test_calling_ones_own_play_is_illegal() -> None:
    history = run(THREE, (0, Play(cards=["8H"])))
    given(history).when(Call(), 0).raises(IllegalMove, match="own play")


def test_the_player_who_just_played_may_do_nothing_else() -> None:
    history = run(THREE, (0, Play(cards=["8H"])))
    given(history).when(Play(cards=["7H"]), 0).raises(NotYourTurn)
    given(history).when(Accept(), 0).raises(NotYourTurn)


def test_a_call_with_no_open_window_is_refused() -> None:
    given(THREE).when(Call(), 0).raises(IllegalMove, match="no play to call")
    given(THREE).when(Call(), 1).raises(NotYourTurn)


def test_a_player_who_may_call_but_is_not_next_may_not_play() -> None:
    history = run(THREE, (0, Play(cards=["8H"])))
    given(history).when(Play(cards=["7L"]), 2).raises(IllegalMove, match="only call")


def test_called_cards_are_turned_up_for_everyone_and_the_rest_of_the_pile_goes_unseen() -> None:
    history = run(THREE, (0, Play(cards=["7H"])), (1, Play(cards=["7B"])))
    called, taken = given(history).when(Call(), 2).events()
    assert isinstance(called, CheatCalled) and isinstance(taken, CheatPileTaken)
    for viewer in (None, 0, 1, 2):
        assert cheat.redact(called, viewer) == called
    assert cheat.redact(taken, 1) == taken  # the taker sees what went into their hand
    for viewer in (None, 0, 2):
        assert cheat.redact(taken, viewer).cards is None  # type: ignore[union-attr]


def test_announced_rank_continues_the_sequence_after_a_call() -> None:
    lie = fold(run(THREE, (0, Play(cards=["8H"])), (2, Call())))
    honest = fold(run(THREE, (0, Play(cards=["7H"])), (1, Call())))
    assert lie.deal.rank == honest.deal.rank == "8"
    history = run(THREE, (0, Play(cards=["8H"])), (2, Call()))
    given(history).when(Play(cards=["8L"]), 2).then([played(2, ["8L"], "8", 0, "9")])


def test_two_players_keep_their_rank_parity_through_calls() -> None:
    hands = [["7H", "9H", "UH", "KH", "8A", "9A"], ["8H", "10H", "OH", "AH", "10A", "UA"]]
    events = run(
        table(hands),
        (0, Play(cards=["7H"])),
        (1, Call()),  # honest: the caller takes the pile and plays on in order
        (1, Play(cards=["8H"])),
        (0, Play(cards=["8A"])),  # a lie for nines
        (1, Call()),  # caught: the caller plays next, as the next seat anyway
        (1, Play(cards=["10H"])),
        (0, Play(cards=["UH"])),
    )
    by_seat = [
        [e.rank for e in events if isinstance(e, CheatCardsPlayed) and e.seat == s] for s in (0, 1)
    ]
    assert by_seat == [["7", "9", "U"], ["8", "10"]]


# --- the Chroniclers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "honest"),
    [
        (["XC"], True),
        (["XC", "7H"], True),
        (["XC", "8H"], False),
        (["XP"], True),
        (["XP", "7H"], True),
        (["XC", "XP"], True),
        (["XP", "8H"], False),
        (["XC", "XP", "7H", "8H"], False),
    ],
)
def test_honesty_of_plays_with_chroniclers_when_called(cards: list[str], honest: bool) -> None:
    """XC always counts as true; XP counts as one correct card when called; others as usual."""
    history = run(WITH_X, (0, Play(cards=cards)))
    events = given(history).when(Call(), 1).events()
    assert events[0] == CheatCalled(
        caller=1, seat=0, rank="7", cards=cards, honest=honest, taker=(1 if honest else 0)
    )
    assert isinstance(events[1], CheatPileTaken)
    assert events[1].seat == (1 if honest else 0)
    assert events[1].turn == 1


def test_coloured_chronicler_with_a_wrong_card_is_a_lie() -> None:
    history = run(WITH_X, (0, Play(cards=["XC", "8H"])))
    called, taken = given(history).when(Call(), 2).events()
    assert called == CheatCalled(
        caller=2, seat=0, rank="7", cards=["XC", "8H"], honest=False, taker=0
    )
    assert taken == CheatPileTaken(seat=0, count=2, turn=2, cards=["XC", "8H"])


def test_called_pale_chronicler_makes_the_caller_take_the_pile_and_gives_no_extra_turn() -> None:
    # 7B for eights is caught: seat 1 takes the pile and the caller, seat 2, plays nines.
    history = run(WITH_X, (0, Play(cards=["7H"])), (1, Play(cards=["7B"])), (2, Call()))
    history = run(history, (2, Play(cards=["7L"])), (0, Play(cards=["XP"])))
    state = (
        given(history)
        .when(Call(), 2)
        .then(
            [
                CheatCalled(caller=2, seat=0, rank="10", cards=["XP"], honest=True, taker=2),
                CheatPileTaken(seat=2, count=2, turn=1, cards=["7L", "XP"]),
            ]
        )
    )
    assert state.deal.turn == 1  # the seat after the XP player, not the XP player again


def test_uncalled_pale_chronicler_gives_its_player_the_pile_before_the_next_cards_land() -> None:
    history = run(
        WITH_X,
        (0, Play(cards=["7H"])),
        (1, Play(cards=["8B"])),
        (2, Play(cards=["9L"])),
        (0, Play(cards=["XP"])),
    )
    state = (
        given(history)
        .when(Play(cards=["10B"]), 1)
        .then(
            [
                CheatPenaltyTaken(seat=0, count=4, turn=1, cards=["7H", "8B", "9L", "XP"]),
                played(1, ["10B"], "U", 2, "O"),
            ]
        )
    )
    assert state.deal.pile == ("10B",)
    assert state.deal.hands[0] == ("7H", "8H", "8B", "9L", "10H", "XC", "XP")


@pytest.mark.parametrize("cards", [["XP"], ["XP", "7H"], ["XP", "XC"], ["XP", "8H"]])
def test_an_uncalled_play_holding_the_pale_chronicler_is_always_penalised(cards: list[str]) -> None:
    history = run(WITH_X, (0, Play(cards=cards)))
    events = given(history).when(Play(cards=["7B"]), 1).events()
    assert events[0] == CheatPenaltyTaken(seat=0, count=len(cards), turn=1, cards=cards)


def test_the_penalty_tells_everyone_only_that_the_play_held_the_pale_chronicler() -> None:
    history = run(WITH_X, (0, Play(cards=["XP", "8H"])))
    play = history[-1]
    assert isinstance(play, CheatCardsPlayed)
    assert [cheat.redact(play, v).cards for v in (None, 1, 2)] == [None, None, None]  # type: ignore[union-attr]
    penalty, _ = given(history).when(Play(cards=["8B"]), 1).events()
    assert isinstance(penalty, CheatPenaltyTaken)
    assert cheat.redact(penalty, 0) == penalty
    for viewer in (None, 1, 2):
        assert cheat.redact(penalty, viewer) == CheatPenaltyTaken(seat=0, count=2, turn=1)


def test_pale_chronicler_as_last_card_accepted_gives_its_player_the_pile_and_acceptor_plays() -> (
    None
):
    history = run(
        table([["XP"], ["7B", "8B"], ["7L", "8L"]], options=CHRONICLERS), (0, Play(cards=["XP"]))
    )
    state = (
        given(history)
        .when(Accept(), 1)
        .then(
            [
                CheatPlayAccepted(seat=1, player=0),
                CheatPenaltyTaken(seat=0, count=1, turn=1, cards=["XP"]),
            ]
        )
    )
    assert state.deal.hands[0] == ("XP",)
    assert state.deal.turn == 1 and state.deal.rank == "8"
    assert cheat.legal(state, 1) == ["play", "leave"]


def test_pale_chronicler_as_last_card_called_lets_its_player_finish() -> None:
    history = run(
        table([["XP"], ["7B", "8B"], ["7L", "8L"]], options=CHRONICLERS), (0, Play(cards=["XP"]))
    )
    events = given(history).when(Call(), 2).events()
    assert events[:3] == [
        CheatCalled(caller=2, seat=0, rank="7", cards=["XP"], honest=True, taker=2),
        CheatPileTaken(seat=2, count=1, turn=None, cards=["XP"]),
        CheatRoundEnded(
            round=1,
            winner=0,
            hand_sizes=[0, 2, 3],
            places=[1, 2, 3],
            points=[4, 3, 2],
            totals=[4, 3, 2],
        ),
    ]


def test_pale_chronicler_with_a_wrong_last_card_called_is_a_lie_and_its_player_plays_on() -> None:
    history = run(
        table([["XP", "8H"], ["7B", "8B"], ["7L", "8L"]], options=CHRONICLERS),
        (0, Play(cards=["XP", "8H"])),
    )
    state = (
        given(history)
        .when(Call(), 1)
        .then(
            [
                CheatCalled(caller=1, seat=0, rank="7", cards=["XP", "8H"], honest=False, taker=0),
                CheatPileTaken(seat=0, count=2, turn=1, cards=["XP", "8H"]),
            ]
        )
    )
    assert state.deal.hands[0] == ("8H", "XP")


# --- going out -------------------------------------------------------------------------------

OUT = table([["7H"], ["8B", "9B"], ["8L", "9L", "10L"]])
"""Seat 0 can go out with its first play."""


def test_putting_down_the_last_card_opens_the_window_as_any_play() -> None:
    state = given(OUT).when(Play(cards=["7H"]), 0).then([played(0, ["7H"], "7", 1, "8")])
    assert isinstance(state, cheat.Window)
    assert state.deal.hands[0] == ()


def test_next_player_cannot_play_while_the_last_player_has_no_cards() -> None:
    history = run(OUT, (0, Play(cards=["7H"])))
    given(history).when(Play(cards=["8B"]), 1).raises(IllegalMove, match="accept or call")
    state = fold(history)
    assert [cheat.legal(state, seat) for seat in range(3)] == [
        ["leave"],
        ["accept", "call", "leave"],
        ["call", "leave"],
    ]


def test_accept_is_legal_only_when_the_last_player_has_no_cards() -> None:
    history = run(THREE, (0, Play(cards=["7H"])))
    given(history).when(Accept(), 1).raises(IllegalMove, match="emptied")
    given(history).when(Accept(), 2).raises(IllegalMove)
    given(THREE).when(Accept(), 0).raises(IllegalMove)
    given(THREE).when(Accept(), 1).raises(NotYourTurn)


def test_only_the_next_player_may_accept() -> None:
    history = run(OUT, (0, Play(cards=["7H"])))
    given(history).when(Accept(), 2).raises(IllegalMove, match="Only the next player, seat 1")


def test_accepting_a_play_that_emptied_a_hand_finishes_the_round() -> None:
    """A deal stored before deals were committed card by card still reveals its deck."""
    history = run(OUT, (0, Play(cards=["7H"])))
    deck = ["7H", "8B", "8L", "9B", "9L", "10L"]  # round the table, skipping a full hand
    state = (
        given(history)
        .when(Accept(), 1)
        .then(
            [
                CheatPlayAccepted(seat=1, player=0),
                CheatRoundEnded(
                    round=1,
                    winner=0,
                    hand_sizes=[0, 2, 3],
                    places=[1, 2, 3],
                    points=[4, 3, 2],
                    totals=[4, 3, 2],
                ),
                DeckRevealed(round=1, salt=SALT, deck=deck),
                CheatMatchEnded(winners=[0], points=[4, 3, 2]),
            ]
        )
    )
    assert cheat.is_terminal(state)


def test_other_players_may_call_a_play_that_emptied_a_hand() -> None:
    history = run(OUT, (0, Play(cards=["7H"])))
    assert given(history).when(Call(), 2).events()[0] == CheatCalled(
        caller=2, seat=0, rank="7", cards=["7H"], honest=True, taker=2
    )


@pytest.mark.parametrize("caller", [1, 2])
def test_last_card_lie_called_makes_its_player_take_the_pile_and_play_on(caller: int) -> None:
    history = run(table([["8H"], ["8B", "9B"], ["8L", "9L"]]), (0, Play(cards=["8H"])))
    state = (
        given(history)
        .when(Call(), caller)
        .then(
            [
                CheatCalled(caller=caller, seat=0, rank="7", cards=["8H"], honest=False, taker=0),
                CheatPileTaken(seat=0, count=1, turn=caller, cards=["8H"]),
            ]
        )
    )
    assert isinstance(state, cheat.ToPlay)
    assert state.deal.hands[0] == ("8H",) and state.deal.turn == caller


def test_last_card_honest_play_called_finishes_the_round_after_the_caller_takes_the_pile() -> None:
    history = run(
        table([["7H", "10H"], ["8B", "9B"], ["9L", "10L", "UL"]]),
        (0, Play(cards=["7H"])),
        (1, Play(cards=["8B"])),
        (2, Play(cards=["9L"])),
        (0, Play(cards=["10H"])),
    )
    events = given(history).when(Call(), 2).events()
    assert events[:3] == [
        CheatCalled(caller=2, seat=0, rank="10", cards=["10H"], honest=True, taker=2),
        CheatPileTaken(seat=2, count=4, turn=None, cards=["7H", "8B", "9L", "10H"]),
        CheatRoundEnded(
            round=1,
            winner=0,
            hand_sizes=[0, 1, 6],
            places=[1, 2, 3],
            points=[4, 3, 2],
            totals=[4, 3, 2],
        ),
    ]
    assert isinstance(events[3], DeckRevealed)
    assert events[4] == CheatMatchEnded(winners=[0], points=[4, 3, 2])
