"""Cheat: a sentence-by-sentence review of docs/rules.md and docs/api.md against the engine — the
points the other test files leave open, and an independent reading of the turn rules checked move
by move."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kronikas_rules import cheat
from kronikas_rules.cards import COLOURED, PALE, RANKS
from kronikas_rules.cheat import (
    Accept,
    Call,
    CheatCalled,
    CheatCardsPlayed,
    CheatLastPlay,
    CheatOptions,
    CheatPenalty,
    CheatPenaltyTaken,
    CheatPileTaken,
    Command,
    Play,
)
from kronikas_rules.common import DomainError, IllegalMove, NotYourTurn, Start
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join
from tests.conftest import examples

from .helpers import fold, run, table
from .helpers import given as given_events

CHRONICLERS = CheatOptions(chroniclers=True)
FOUR = table(
    [["7H", "8H", "9H"], ["7B", "8B", "9B"], ["7L", "8L", "9L"], ["7A", "8A", "9A"]],
    dealer=3,
)
"""Four players; the dealer is seat 3, so seat 0 starts."""


def _table_view(history: list[cheat.Event], viewer: int | None = None) -> cheat.CheatTableView:
    seen = cheat.view(fold(history), viewer, "g", len(history)).cheat
    assert seen is not None
    return seen


# --- docs/api.md, "The view": `last_play` is null only once the pile is taken -----------------


def test_last_play_stays_while_its_cards_lie_on_the_pile_after_an_accepted_last_play() -> None:
    """docs/api.md: last_play is "the latest play while its cards lie on the pile; null once the
    pile is taken". An accepted last play ends the round without anyone taking the pile."""
    history = run(
        table([["7H", "8H"], ["8B", "9B"], ["9L", "10L"]]),
        (0, Play(cards=["7H"])),
        (1, Play(cards=["8B"])),
        (2, Play(cards=["9L"])),
        (0, Play(cards=["8H"])),
        (1, Accept()),
    )
    assert cheat.is_terminal(fold(history))
    seen = _table_view(history)
    assert seen.pile_size == 4 and not seen.window_open
    assert seen.last_play == CheatLastPlay(seat=0, count=1, rank="10")


def test_last_play_is_null_when_the_round_ends_on_a_call_that_takes_the_pile() -> None:
    history = run(table([["7H"], ["8B", "9B"]]), (0, Play(cards=["7H"])), (1, Call()))
    assert cheat.is_terminal(fold(history))
    seen = _table_view(history)
    assert (seen.pile_size, seen.last_play, seen.window_open) == (0, None, False)


def test_last_play_is_null_once_an_accepted_pale_chronicler_penalty_takes_the_pile() -> None:
    history = run(
        table([["XP"], ["7B", "8B"], ["7L", "8L"]], options=CHRONICLERS),
        (0, Play(cards=["XP"])),
        (1, Accept()),
    )
    seen = _table_view(history)
    assert (seen.pile_size, seen.last_play, seen.window_open, seen.rank) == (0, None, False, "8")


def test_after_a_penalty_the_last_play_is_the_play_that_closed_the_window() -> None:
    history = run(
        table([["XP", "7H"], ["8B", "9B"], ["7L", "8L"]], options=CHRONICLERS),
        (0, Play(cards=["XP"])),
        (1, Play(cards=["8B"])),
    )
    seen = _table_view(history)
    assert seen.last_play == CheatLastPlay(seat=1, count=1, rank="8")
    assert seen.pile_size == 1 and seen.window_open
    assert fold(history).deal.hands[0] == ("7H", "XP")


def test_every_viewer_learns_that_an_uncalled_play_held_the_pale_chronicler() -> None:
    """docs/rules.md: "everyone learns that the play held XP, and its other cards stay hidden"."""
    history = run(
        table([["XP", "7H", "9H"], ["8B", "9B"], ["7L", "8L"]], options=CHRONICLERS),
        (0, Play(cards=["XP", "7H"])),
        (1, Play(cards=["8B"])),
    )
    for viewer in (None, 0, 1, 2):
        seen = cheat.view(fold(history), viewer, "g", len(history)).cheat
        assert seen is not None
        assert seen.last_penalty == CheatPenalty(seat=0, count=2)


# --- docs/api.md: `turn` and `legal` during the window, and the refusal codes -----------------


def test_while_the_last_player_has_no_cards_the_view_waits_for_the_next_player() -> None:
    """docs/api.md: during the window `turn` is the next player, who may accept instead of play."""
    history = run(table([["7H"], ["8B", "9B"], ["8L", "9L"]]), (0, Play(cards=["7H"])))
    views = [cheat.view(fold(history), seat, "g", len(history)) for seat in (None, 0, 1, 2)]
    assert [v.turn for v in views] == [1, 1, 1, 1]
    assert [v.legal for v in views] == [
        None,
        ["leave"],
        ["accept", "call", "leave"],
        ["call", "leave"],
    ]


def test_refusals_while_the_last_player_has_no_cards() -> None:
    history = run(table([["7H"], ["8B", "9B"], ["8L", "9L"]]), (0, Play(cards=["7H"])))
    # The player who went out may do nothing; calling their own play is illegal by docs/api.md.
    given_events(history).when(Play(cards=["8B"]), 0).raises(NotYourTurn)
    given_events(history).when(Accept(), 0).raises(NotYourTurn)
    given_events(history).when(Call(), 0).raises(IllegalMove, match="own play")
    # A third player may call, so another move is illegal rather than out of turn.
    given_events(history).when(Play(cards=["8L"]), 2).raises(IllegalMove)
    given_events(history).when(Accept(), 2).raises(IllegalMove)


def test_the_seats_skipped_after_a_caught_lie_may_do_nothing_but_leave() -> None:
    history = run(FOUR, (0, Play(cards=["9H"])), (2, Call()))
    state = fold(history)
    assert [cheat.legal(state, seat) for seat in range(4)] == [
        ["leave"],
        ["leave"],
        ["play", "leave"],
        ["leave"],
    ]
    given_events(history).when(Play(cards=["8B"]), 1).raises(NotYourTurn)
    given_events(history).when(Call(), 1).raises(NotYourTurn)


# --- docs/rules.md, "Calling": the window and who may call ------------------------------------


def test_a_player_may_call_the_play_after_their_own_but_not_their_own() -> None:
    history = run(FOUR, (0, Play(cards=["9H"])), (1, Play(cards=["9B"])))
    given_events(history).when(Call(), 1).raises(IllegalMove, match="own play")
    called = given_events(history).when(Call(), 0).events()[0]
    assert called == CheatCalled(caller=0, seat=1, rank="8", cards=["9B"], honest=False, taker=1)


def test_accept_closes_the_window_so_nobody_may_call_after_it() -> None:
    history = run(
        table([["XP"], ["7B", "8B"], ["7L", "8L"]], options=CHRONICLERS),
        (0, Play(cards=["XP"])),
        (1, Accept()),
    )
    given_events(history).when(Call(), 2).raises(NotYourTurn)
    given_events(history).when(Call(), 1).raises(IllegalMove, match="no play to call")
    given_events(history).when(Accept(), 1).raises(IllegalMove)


def test_a_caller_before_the_liar_plays_next_and_the_seats_between_are_skipped() -> None:
    """Seat 2 lies, seat 0 catches it: seat 3 (between 2 and 0 in the order of play) is
    skipped, and seat 0 announces the rank after the called one."""
    history = run(FOUR, (0, Play(cards=["7H"])), (1, Play(cards=["8B"])), (2, Play(cards=["7L"])))
    state = (
        given_events(history)
        .when(Call(), 0)
        .then(
            [
                CheatCalled(caller=0, seat=2, rank="9", cards=["7L"], honest=False, taker=2),
                CheatPileTaken(seat=2, count=3, turn=0, cards=["7H", "8B", "7L"]),
            ]
        )
    )
    assert (state.deal.turn, state.deal.rank) == (0, "10")
    assert cheat.legal(state, 3) == ["leave"]


def test_a_false_call_from_further_round_the_table_continues_after_the_player_who_played() -> None:
    history = run(FOUR, (0, Play(cards=["7H"])))
    state = (
        given_events(history)
        .when(Call(), 3)
        .then(
            [
                CheatCalled(caller=3, seat=0, rank="7", cards=["7H"], honest=True, taker=3),
                CheatPileTaken(seat=3, count=1, turn=1, cards=["7H"]),
            ]
        )
    )
    assert (state.deal.turn, state.deal.rank) == (1, "8")


def test_the_sequence_wraps_to_sevens_after_a_called_ace_play() -> None:
    hands = [["7H", "9H", "UH", "KH", "AB"], ["8H", "10H", "OH", "AH", "7A"]]
    moves = [(i % 2, Play(cards=[hands[i % 2][i // 2]])) for i in range(8)]
    history = run(table(hands), *moves)
    assert fold(history).top.rank == "A"  # type: ignore[union-attr]
    state = fold(run(history, (0, Call())))  # seat 1's AH was honest: seat 0 takes the pile
    assert (state.deal.turn, state.deal.rank) == (0, "7")
    given_events(run(history, (0, Call()))).when(Play(cards=["7H"]), 0).then(
        [CheatCardsPlayed(seat=0, count=1, rank="7", turn=1, next_rank="8", cards=["7H"])]
    )


# --- docs/rules.md, "The Pale Chronicler" and the Coloured one ---------------------------------


def test_an_uncalled_coloured_chronicler_brings_no_penalty() -> None:
    history = run(
        table([["XC", "7H"], ["8B", "9B"], ["7L", "8L"]], options=CHRONICLERS),
        (0, Play(cards=["XC"])),
    )
    given_events(history).when(Play(cards=["8B"]), 1).then(
        [CheatCardsPlayed(seat=1, count=1, rank="8", turn=2, next_rank="9", cards=["8B"])]
    )


def test_a_called_pale_chronicler_with_a_coloured_one_and_true_cards_is_honest() -> None:
    history = run(
        table([["XC", "XP", "7H", "8H"], ["8B", "9B"], ["7L", "8L"]], options=CHRONICLERS),
        (0, Play(cards=["XC", "XP", "7H"])),
    )
    called, taken = given_events(history).when(Call(), 2).events()
    assert called == CheatCalled(
        caller=2, seat=0, rank="7", cards=["XC", "XP", "7H"], honest=True, taker=2
    )
    assert taken == CheatPileTaken(seat=2, count=3, turn=1, cards=["XC", "XP", "7H"])


def test_the_penalty_takes_the_whole_pile_not_only_the_pale_chronicler_play() -> None:
    history = run(
        table([["7H", "XP", "8H"], ["8B", "9B"], ["9L", "10L"]], options=CHRONICLERS),
        (0, Play(cards=["7H"])),
        (1, Play(cards=["8B"])),
        (2, Play(cards=["9L"])),
        (0, Play(cards=["XP"])),
    )
    penalty, played = given_events(history).when(Play(cards=["9B"]), 1).events()
    assert penalty == CheatPenaltyTaken(seat=0, count=4, turn=1, cards=["7H", "8B", "9L", "XP"])
    assert played == CheatCardsPlayed(
        seat=1, count=1, rank="U", turn=2, next_rank="O", cards=["9B"]
    )
    for viewer in (None, 1, 2):  # everyone learns the play held XP; no card is shown
        assert cheat.redact(penalty, viewer) == CheatPenaltyTaken(seat=0, count=4, turn=1)


# --- docs/rules.md, "End of the round and scoring" --------------------------------------------


def test_places_beyond_the_list_score_zero_in_a_round_of_eight() -> None:
    hands = [["7H"], *([f"{r}B" for r in RANKS[: i + 1]] for i in range(7))]
    options = CheatOptions(decks=2)
    history = run(table(hands, options=options, dealer=7), (0, Play(cards=["7H"])), (1, Accept()))
    ended = next(e for e in history if isinstance(e, cheat.CheatRoundEnded))
    assert ended.hand_sizes == [0, 1, 2, 3, 4, 5, 6, 7]
    assert ended.places == [1, 2, 3, 4, 5, 6, 7, 8]
    assert ended.points == [4, 3, 2, 0, 0, 0, 0, 0]


# --- an independent reading of the turn rules --------------------------------------------------


@dataclass
class Reading:
    """docs/rules.md's Cheat turns written again from the text, without the engine's code."""

    n: int
    max_play: int
    hands: list[list[str]]
    turn: int
    rank: str = "7"
    pile: list[str] = field(default_factory=list)
    last: tuple[int, list[str], str] | None = None  # the play whose window is open
    winner: int | None = None
    max_plays: int | None = None
    plays: int = 0
    at_limit: bool = False  # the round ended at its limit of plays, with no one finished

    def may(self, seat: int) -> set[str]:
        if self.last is None:
            return {"play"} if seat == self.turn else set()
        if seat == self.last[0]:
            return set()
        if seat != self.turn:
            return {"call"}
        last_allowed = self.max_plays is not None and self.plays == self.max_plays
        return {"call", "play" if self.hands[self.last[0]] and not last_allowed else "accept"}

    def refusal(self, seat: int, kind: str, cards: list[str]) -> str | None:
        allowed = self.may(seat)
        if kind not in allowed:
            own = self.last is not None and self.last[0] == seat and kind == "call"
            return "illegal_move" if allowed or own else "not_your_turn"
        if kind == "play" and (
            not 1 <= len(cards) <= self.max_play or Counter(cards) - Counter(self.hands[seat])
        ):
            return "illegal_move"
        return None

    def _close_uncalled(self) -> bool:
        if self.last is not None and PALE in self.last[1]:
            self.hands[self.last[0]] += self.pile
            self.pile, self.last = [], None
            return True
        return False

    def act(self, seat: int, kind: str, cards: list[str]) -> None:
        if kind == "play":
            self._close_uncalled()
            for card in cards:
                self.hands[seat].remove(card)
            self.pile += cards
            self.last = (seat, cards, self.rank)
            self.plays += 1
            self.rank = RANKS[(RANKS.index(self.rank) + 1) % len(RANKS)]
            self.turn = (seat + 1) % self.n
        elif kind == "call":
            assert self.last is not None
            player, played, rank = self.last
            honest = all(c in (COLOURED, PALE) or c[:-1] == rank for c in played)
            self.hands[seat if honest else player] += self.pile
            self.pile, self.last = [], None
            if honest and not self.hands[player]:
                self.winner = player
            elif self.plays == self.max_plays:
                self.at_limit = True
            else:
                self.turn = (player + 1) % self.n if honest else seat
        else:
            assert self.last is not None
            player = self.last[0]
            penalty = self._close_uncalled()
            if not penalty and not self.hands[player]:
                self.winner = player
            elif self.plays == self.max_plays:
                self.at_limit = True
            else:
                self.turn = seat


def _command(kind: str, cards: list[str]) -> Command:
    return Play(cards=cards) if kind == "play" else Call() if kind == "call" else Accept()


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_every_move_and_refusal_agrees_with_an_independent_reading_of_the_rules(
    seed: int,
) -> None:
    rnd = random.Random(seed)
    decks = rnd.choice([1, 2])
    n = rnd.randint(2, 4 * decks)
    options = CheatOptions(
        decks=decks,
        max_play=rnd.randint(1, 4),
        chroniclers=rnd.random() < 0.7,
        max_plays=rnd.choice([20, 21, 30, 300]),
    )
    rng = SeededRandomness(seed)
    state: cheat.State = cheat.initial_state(options, True)
    setup: list[cheat.Command | Join | Start] = [
        *(Join(player_id=f"p{i}", name=f"P{i}") for i in range(n)),
        Start(),
    ]
    for command in setup:
        for event in cheat.decide(state, command, None, rng):
            state = cheat.evolve(state, event)
    assert isinstance(state, cheat.InRound)
    hands = [list(h) for h in state.deal.hands]
    reading = Reading(n, options.max_play, hands, state.deal.turn, max_plays=options.max_plays)
    for _ in range(2_000):
        assert isinstance(state, cheat.InRound)
        assert [Counter(h) for h in state.deal.hands] == [Counter(h) for h in reading.hands]
        assert Counter(state.deal.pile) == Counter(reading.pile)
        assert (state.deal.turn, state.deal.rank) == (reading.turn, reading.rank)
        for seat in range(n):
            seen = cheat.view(state, seat, "g", 0)
            assert seen.turn == reading.turn
            assert set(seen.legal or []) == reading.may(seat) | {"leave"}
            hand = list(state.deal.hands[seat])
            probes = [("call", []), ("accept", []), ("play", hand[:1]), ("play", [PALE, PALE])]
            probes.append(("play", hand[: options.max_play + 1]))
            for kind, cards in probes:
                try:
                    cheat.decide(state, _command(kind, cards), seat, rng)
                    code = None
                except DomainError as error:
                    code = error.code
                assert code == reading.refusal(seat, kind, cards), (seat, kind, cards)
        moves = [(seat, kind) for seat in range(n) for kind in sorted(reading.may(seat))]
        seat, kind = rnd.choices(moves, [0.2 if k == "call" else 1.0 for _, k in moves])[0]
        cards: list[str] = []
        if kind == "play":
            hand = list(state.deal.hands[seat])
            true = [c for c in hand if c[:-1] == state.deal.rank or c[0] == "X"]
            pool = true if true and rnd.random() < 0.6 else hand
            cards = rnd.sample(pool, rnd.randint(1, min(len(pool), options.max_play)))
        events = cheat.decide(state, _command(kind, cards), seat, rng)
        for event in events:
            state = cheat.evolve(state, event)
        reading.act(seat, kind, cards)
        if reading.winner is not None or reading.at_limit:
            ended = [e for e in events if isinstance(e, cheat.CheatRoundEnded)]
            sizes = [len(hand) for hand in reading.hands]
            assert [e.hand_sizes for e in ended] == [sizes]
            assert [e.places for e in ended] == [[1 + sum(o < h for o in sizes) for h in sizes]]
            if reading.at_limit:  # nobody finished: the first seat placed 1st stands as winner
                assert [(e.reason, e.winner) for e in ended] == [
                    ("max_plays", sizes.index(min(sizes)))
                ]
            else:
                assert [(e.reason, e.winner) for e in ended] == [(msgspec.UNSET, reading.winner)]
            assert cheat.is_terminal(state)
            return
        assert not any(isinstance(e, cheat.CheatRoundEnded) for e in events)
