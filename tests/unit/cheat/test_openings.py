"""Cheat's openings (docs/rules.md, docs/api.md "Fair deals"): each card of a deal is opened, in
the event where a viewer comes to know it, to that viewer only — a seat's dealt hand in its copy
of the deal, a call's turned-up cards to everyone, a pile to its taker, the Pale Chronicler a
penalty announces to everyone — and every opening checks against the deal's commitment. No deal
committed card by card is revealed whole, unless the table's `reveal` opens every deal at the
match's end."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import given as hypothesis_given

from kronikas_rules import cheat, proofs
from kronikas_rules.cards import PALE, make_deck
from kronikas_rules.cheat import Accept, Call, CheatOptions, Play
from kronikas_rules.common import CapReached, DealsOpened, DeckRevealed, Start
from kronikas_rules.proofs import Opening
from kronikas_rules.randomness import SeededRandomness
from tests.conftest import examples

from .helpers import fold, given, lobby, run, table
from .test_properties import Table, match, tables

Viewer = int | None


def checked(openings: list[Opening] | None, deal: cheat.CheatRoundDealt) -> list[int]:
    """The positions `openings` open, each checked against the deal's commitment and deck."""
    assert deal.deck is not None and deal.deck_size == len(deal.deck)
    for opening in openings or []:
        assert proofs.verify(opening, deal.commitment, len(deal.deck)), opening
        assert (opening.round, opening.card) == (deal.round, deal.deck[opening.position])
    return [opening.position for opening in openings or []]


def started(options: CheatOptions, n: int, seed: int = 7) -> list[cheat.Event]:
    """A table of `n` seats, dealt from a seeded shuffle."""
    return run(lobby(n, options), (None, Start()), rng=SeededRandomness(seed))  # type: ignore[arg-type]


# --- the deal ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("decks", "chroniclers", "n", "size"),
    [(1, False, 3, 32), (1, True, 4, 34), (2, False, 5, 64), (2, True, 8, 66)],
)
def test_each_seats_copy_of_the_deal_opens_its_own_hand_and_nothing_else(
    decks: int, chroniclers: bool, n: int, size: int
) -> None:
    deal = started(CheatOptions(decks=decks, chroniclers=chroniclers), n)[-1]
    assert isinstance(deal, cheat.CheatRoundDealt) and deal.deck is not None
    assert (deal.scheme, deal.deck_size, deal.openings) == (proofs.SCHEME, size, None)
    dealt = size // n * n
    for seat in range(n):
        mine = cheat.redact(deal, seat)
        positions = checked(mine.openings, deal)
        # position i goes to seat (dealer + 1 + i) mod n, the rest is set aside
        assert sorted(positions) == [i for i in range(dealt) if (deal.dealer + 1 + i) % n == seat]
        assert [o.card for o in mine.openings or []] == mine.hands[seat]
    assert cheat.redact(deal, None).openings is None


def test_a_deal_opens_nothing_to_a_seat_it_did_not_reach() -> None:
    """A player who left the lobby before the start held a seat the deal has not."""
    deal = started(CheatOptions(), 3)[-1]
    assert isinstance(deal, cheat.CheatRoundDealt)
    seen = cheat.redact(deal, 3)
    assert seen.openings is None and seen.hands == [None] * 3


def test_a_deal_stored_before_opens_nothing_and_keeps_its_reveal() -> None:
    """A deal with one hash of the whole deck (no salt for each card) is revealed at its end,
    as before, and opens no card on the way."""
    history = table([["7H"], ["8B", "9B"]])
    assert all(cheat.redact(history[-1], v).openings is None for v in (None, 0, 1))
    history = run(history, (0, Play(cards=["7H"])), (1, Call()))
    assert all(e.openings is None for e in history if isinstance(e, cheat.CheatCalled))
    revealed = [e for e in history if isinstance(e, DeckRevealed)]
    assert revealed and revealed[0].deck == ["7H", "8B", "9B"]
    view = cheat.view(fold(history), 0, "g", len(history))
    assert view.openings == [] and view.cheat is not None
    assert (view.cheat.scheme, view.cheat.deck_size) == (proofs.OLD_SCHEME, 3)


def test_at_the_cap_a_deal_stored_before_is_revealed_and_a_new_one_is_not() -> None:
    old = fold(table([["7H", "8H"], ["8B", "9B"]]))
    events = cheat.decide(old, CapReached(), None, SeededRandomness(0))
    assert [type(e) for e in events] == [DeckRevealed, cheat.CheatMatchEnded]
    new = fold(table([["7H", "8H"], ["8B", "9B"]], committed=True))
    events = cheat.decide(new, CapReached(), None, SeededRandomness(0))
    assert [type(e) for e in events] == [cheat.CheatMatchEnded]


# --- plays, calls and piles ----------------------------------------------------------------------

THREE = table([["7H", "8H", "9H"], ["7B", "8B", "9B"], ["7L", "8L", "9L"]], committed=True)
"""Three seats, a deal committed card by card; the dealer is seat 2, so seat 0 starts."""


def test_a_play_opens_nothing_and_a_call_opens_the_turned_up_cards_to_everyone() -> None:
    deal = THREE[-1]
    assert isinstance(deal, cheat.CheatRoundDealt)
    history = run(THREE, (0, Play(cards=["9H", "7H"])))
    assert not hasattr(history[-1], "openings")
    called, taken = given(history).when(Call(), 1).events()
    assert isinstance(called, cheat.CheatCalled) and isinstance(taken, cheat.CheatPileTaken)
    for viewer in (None, 0, 1, 2):
        seen = cheat.redact(called, viewer)
        assert [deal.deck[p] for p in checked(seen.openings, deal)] == ["9H", "7H"]
    # the liar (seat 0) takes the pile: its copy opens the pile, nobody else's does
    assert taken.seat == 0
    assert checked(cheat.redact(taken, 0).openings, deal) == checked(called.openings, deal)
    for viewer in (None, 1, 2):
        assert cheat.redact(taken, viewer).openings is None


def test_the_taker_of_a_pile_of_several_plays_gets_every_cards_opening() -> None:
    deal = THREE[-1]
    assert isinstance(deal, cheat.CheatRoundDealt)
    history = run(THREE, (0, Play(cards=["7H"])), (1, Play(cards=["7B"])), (2, Play(cards=["9L"])))
    _, taken = given(history).when(Call(), 0).events()
    assert isinstance(taken, cheat.CheatPileTaken) and taken.seat == 0  # 9L was a nine
    mine = cheat.redact(taken, 0)
    assert [deal.deck[p] for p in checked(mine.openings, deal)] == ["7H", "7B", "9L"]
    assert [o.card for o in mine.openings or []] == mine.cards
    assert [cheat.redact(taken, v).openings for v in (None, 1, 2)] == [None] * 3


WITH_XP = table(
    [["XP", "7H", "8H"], ["7B", "8B", "9B"], ["7L", "8L", "9L"]],
    options=CheatOptions(chroniclers=True),
    committed=True,
)


def test_a_penalty_opens_the_pile_to_its_taker_and_the_pale_chronicler_to_everyone() -> None:
    deal = WITH_XP[-1]
    assert isinstance(deal, cheat.CheatRoundDealt)
    # seat 1 plays on: the window closes uncalled on seat 0's XP, which takes the pile
    history = run(WITH_XP, (0, Play(cards=["XP", "7H"])), (1, Play(cards=["8B"])))
    taken = next(e for e in history if isinstance(e, cheat.CheatPenaltyTaken))
    assert taken.seat == 0
    mine = cheat.redact(taken, 0)
    assert sorted(deal.deck[p] for p in checked(mine.openings, deal)) == ["7H", "XP"]
    for viewer in (None, 1, 2):
        seen = cheat.redact(taken, viewer)
        assert [deal.deck[p] for p in checked(seen.openings, deal)] == [PALE]


def test_with_two_decks_an_opening_names_the_copy_the_viewer_saw() -> None:
    """Seat 0 holds both copies of 7H: a play puts down the one at the lower position, and the
    call opens that very copy; the other is opened only when it is put down in turn."""
    history = table(
        [["7H", "7H", "8H"], ["7B", "8B", "9B"]], options=CheatOptions(decks=2), committed=True
    )
    deal = history[-1]
    assert isinstance(deal, cheat.CheatRoundDealt) and deal.deck is not None
    copies = [p for p, card in enumerate(deal.deck) if card == "7H"]
    assert len(copies) == 2
    dealt = checked(cheat.redact(deal, 0).openings, deal)
    assert set(copies) <= set(dealt)
    history = run(history, (0, Play(cards=["7H"])), (1, Call()))
    called = next(e for e in history if isinstance(e, cheat.CheatCalled))
    assert checked(called.openings, deal) == [min(copies)]
    taken = next(e for e in history if isinstance(e, cheat.CheatPileTaken))
    assert taken.seat == 1  # an honest play: the caller takes it
    # seat 1 now holds the first copy and plays on; seat 0 puts down its other copy as a nine
    history = run(history, (1, Play(cards=["8B"])), (0, Play(cards=["7H"])), (1, Call()))
    called = [e for e in history if isinstance(e, cheat.CheatCalled)][-1]
    assert checked(called.openings, deal) == [max(copies)]
    view = cheat.view(fold(history), 1, "g", len(history))
    assert view.me is not None and "7H" in view.me.hand
    # its hand holds the first copy, the last call turned up the second
    assert {min(copies), max(copies)} <= set(checked(view.openings, deal))


# --- views ---------------------------------------------------------------------------------------


def test_a_view_opens_the_viewers_hand_and_the_last_calls_cards() -> None:
    deal = THREE[-1]
    assert isinstance(deal, cheat.CheatRoundDealt)
    state = fold(THREE)
    for seat in range(3):
        seen = cheat.view(state, seat, "g", 5)
        assert seen.me is not None
        assert [deal.deck[p] for p in checked(seen.openings, deal)] == seen.me.hand
        assert seen.cheat is not None
        assert (seen.cheat.scheme, seen.cheat.deck_size) == (proofs.SCHEME, 9)
    assert cheat.view(state, None, "g", 5).openings == []
    history = run(THREE, (0, Play(cards=["7H"])), (1, Call()))  # honest: seat 1 takes 7H
    state = fold(history)
    for viewer in (None, 0, 2):
        seen = cheat.view(state, viewer, "g", 9)
        hand = [] if seen.me is None else seen.me.hand
        assert [deal.deck[p] for p in checked(seen.openings, deal)] == [*hand, "7H"]
    seen = cheat.view(state, 1, "g", 9)
    assert seen.me is not None and "7H" in seen.me.hand
    assert [deal.deck[p] for p in checked(seen.openings, deal)] == seen.me.hand


# --- the match's end ---------------------------------------------------------------------------


def _to_the_end(options: CheatOptions, n: int, seed: int) -> list[cheat.Event]:
    history = started(options, n, seed)
    state, rnd, rng = fold(history), random.Random(seed), SeededRandomness(seed)
    while isinstance(state, cheat.InRound):
        seat, command = _honest_or_called(state, rnd)
        for event in cheat.decide(state, command, seat, rng):
            history.append(event)
            state = cheat.evolve(state, event)
    return history


def _honest_or_called(state: cheat.InRound, rnd: random.Random) -> tuple[int, Any]:
    """A quick round: the player on turn puts down one card, and every play is called or, when
    it emptied a hand, accepted."""
    if isinstance(state, cheat.Window):
        seat = state.deal.turn
        kinds = cheat.legal(state, seat)
        return seat, Accept() if "accept" in kinds else Call()
    seat = state.deal.turn
    return seat, Play(cards=[rnd.choice(state.deal.hands[seat])])


@pytest.mark.parametrize(("decks", "chroniclers", "n"), [(1, False, 2), (2, True, 5)])
def test_reveal_at_match_end_opens_every_position_of_every_deal_to_everyone(
    decks: int, chroniclers: bool, n: int
) -> None:
    options = CheatOptions(rounds=2, decks=decks, chroniclers=chroniclers, reveal="match_end")
    history = _to_the_end(options, n, 3)
    assert isinstance(history[-1], cheat.CheatMatchEnded)  # the match's last, `final` on the wire
    opened = history[-2]
    assert isinstance(opened, DealsOpened)
    deals = [e for e in history if isinstance(e, cheat.CheatRoundDealt)]
    assert [d.round for d in deals] == [1, 2]
    for deal in deals:
        positions = checked([o for o in opened.openings if o.round == deal.round], deal)
        assert positions == list(range(len(make_deck(decks, ("XC", "XP") if chroniclers else ()))))
    assert all(cheat.redact(opened, v) == opened for v in (None, *range(n)))
    assert not any(isinstance(e, DeckRevealed) for e in history)


def test_reveal_never_opens_no_deal_at_the_end_nor_at_the_cap() -> None:
    history = _to_the_end(CheatOptions(rounds=2), 3, 4)
    assert isinstance(history[-1], cheat.CheatMatchEnded)
    assert not any(isinstance(e, DealsOpened | DeckRevealed) for e in history)
    options = CheatOptions(reveal="match_end")
    state = fold(started(options, 3))
    events = cheat.decide(state, CapReached(), None, SeededRandomness(0))
    assert [type(e) for e in events] == [DealsOpened, cheat.CheatMatchEnded]
    state = fold(started(CheatOptions(), 3))
    events = cheat.decide(state, CapReached(), None, SeededRandomness(0))
    assert [type(e) for e in events] == [cheat.CheatMatchEnded]


def test_a_table_stored_before_reveal_opens_no_deal_at_the_end() -> None:
    """Its options hold no `reveal`: `never`."""
    old = b'{"type": "game_created", "options": {"rounds": 1}, "seeded": false}'
    created = msgspec.json.decode(old, type=cheat.Event)
    assert isinstance(created, cheat.CheatGameCreated)
    assert created.options.reveal is msgspec.UNSET
    history = [created, *table([["7H"], ["8B", "9B"]], committed=True)[1:]]
    history = run(history, (0, Play(cards=["7H"])), (1, Accept()))
    assert isinstance(history[-1], cheat.CheatMatchEnded)
    assert not any(isinstance(e, DealsOpened | DeckRevealed) for e in history)
    assert cheat.CheatTableOptions.of(CheatOptions()).reveal == "never"  # a new table's


# --- every viewer, every event: a model of who may know which position ------------------------


class Knowledge:
    """Who may know which position of the current deal, followed from the stored events by the
    rules alone: a seat its dealt positions and the piles it takes, everyone the cards a call
    turns up and the Pale Chronicler of a penalty."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.deal: cheat.CheatRoundDealt | None = None
        self.held: list[list[int]] = [[] for _ in range(n)]
        self.known: dict[Viewer, set[int]] = {}
        self.pile: list[int] = []
        self.top: list[int] = []
        self.called: list[int] = []

    def expected(self, event: cheat.Event) -> dict[Viewer, list[int] | None]:
        """The positions `event` opens to each viewer (None: no openings), as the rules say;
        and the knowledge after it."""
        viewers: list[Viewer] = [None, *range(self.n)]
        match event:
            case cheat.CheatRoundDealt(deck=list() as deck, dealer=dealer):
                self.deal, dealt = event, len(deck) - event.set_aside
                self.held = [
                    [i for i in range(dealt) if (dealer + 1 + i) % self.n == s]
                    for s in range(self.n)
                ]
                self.known = {v: set() if v is None else set(self.held[v]) for v in viewers}
                self.pile, self.top, self.called = [], [], []
                return {v: None if v is None else self.held[v] for v in viewers}
            case cheat.CheatCardsPlayed(cards=list() as cards, seat=seat):
                assert self.deal is not None and self.deal.deck is not None
                self.top = []
                for card in cards:  # the copy at the lowest position the seat holds
                    position = min(p for p in self.held[seat] if self.deal.deck[p] == card)
                    self.held[seat].remove(position)
                    self.top.append(position)
                self.pile += self.top
                return {}
            case cheat.CheatCalled():
                for v in viewers:
                    self.known[v] |= set(self.top)
                self.called = list(self.top)
                return dict.fromkeys(viewers, self.top)
            case cheat.CheatPileTaken(seat=seat) | cheat.CheatPenaltyTaken(seat=seat):
                pile, self.pile = self.pile, []
                self.held[seat] += pile
                self.known[seat] |= set(pile)
                others: list[int] | None = None
                if isinstance(event, cheat.CheatPenaltyTaken):
                    assert self.deal is not None and self.deal.deck is not None
                    others = [p for p in pile if self.deal.deck[p] == PALE]
                    for v in viewers:
                        self.known[v] |= set(others)
                return {v: pile if v == seat else others for v in viewers}
            case _:
                return {}


def _positions(openings: list[Opening] | None) -> list[int] | None:
    return None if openings is None else [o.position for o in openings]


def _check_views(state: Any, model: Knowledge, version: int) -> None:
    """Each view opens its viewer's hand and the last call's cards, and nothing it may not
    know."""
    deal = model.deal
    if deal is None or not isinstance(state, cheat.InRound | cheat.RoundOver | cheat.Finished):
        return
    for viewer in (None, *range(model.n)):
        seen = cheat.view(state, viewer, "g", version)
        positions = checked(seen.openings, deal)
        assert set(positions) <= model.known[viewer]
        hand = set() if viewer is None else set(model.held[viewer])
        assert set(positions) == hand | set(model.called)
        if seen.me is not None:
            hand_cards = [deal.deck[p] for p in positions][: len(seen.me.hand)]  # type: ignore[index]
            assert hand_cards == seen.me.hand


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@hypothesis_given(tables())
def test_every_opening_checks_and_reaches_exactly_the_viewers_who_may_know_it(
    table: Table,
) -> None:
    options, n, seed, churn = table
    model, version = Knowledge(n), 0
    for _, _, _, events, after in match(options, n, seed, random.Random(seed), churn):
        for event in events:
            version += 1
            expected = model.expected(event)
            if isinstance(event, DealsOpened):
                assert options.reveal == "match_end"
                continue
            assert not isinstance(event, DeckRevealed)
            for viewer in (None, *range(n)):
                seen = cheat.redact(event, viewer)
                got = _positions(getattr(seen, "openings", None))
                if got is not None and isinstance(event, cheat.CheatRoundDealt):
                    got = sorted(got)  # a hand's openings come in the hand's order
                assert got == expected.get(viewer), (event, viewer)
                if got is not None and model.deal is not None:
                    checked(seen.openings, model.deal)  # type: ignore[attr-defined]
                    assert set(got) <= model.known[viewer]
        _check_views(after, model, version)
