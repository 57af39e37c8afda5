"""docs/api.md, "Fair deals", for Thirty-One: which viewer gets which openings, in which event.

A seat's own dealt cards are opened in its copy of the deal; the table's cards, every card later
put face up on the table, the shower's hand, and the hands still in the round when the last
circuit ends (at three Aces the winner's only) in everyone's. Nothing else is opened, and no
`deck_revealed` follows a deal committed card by card; a deal stored before still ends with it.
Every opening here is checked with `proofs.verify` against its deal's commitment."""

from __future__ import annotations

import random
from collections.abc import Sequence

import msgspec

from kronikas_rules import proofs
from kronikas_rules import thirty_one as t
from kronikas_rules.cards import Card
from kronikas_rules.common import CapReached, DealsOpened, DeckRevealed, Start
from kronikas_rules.randomness import SeededRandomness
from tests.unit.thirty_one.helpers import dealt, fold, given, h, lobby, revealed, run

HANDS = {0: h("7H 8B 9L"), 1: h("AH KH 7L"), 2: h("10B UB 9B")}
TABLE = h("AL KL 8A")
DEAL = dealt(HANDS, TABLE, dealer=2, n=3)
VIEWERS = (None, 0, 1, 2)


def proven(openings: Sequence[proofs.Opening] | None, deal: t.ThirtyOneRoundDealt) -> list[Card]:
    """The cards these openings prove, each checked against the deal's commitment."""
    assert openings is not None
    assert deal.deck_size is not None
    for opening in openings:
        assert proofs.verify(opening, deal.commitment, deal.deck_size), opening
        assert opening.round == deal.round
    return [opening.card for opening in openings]


def cap(state: t.State) -> list[t.Event]:
    """The events of the table's cap of events reached in `state`."""
    return t.decide(state, CapReached(), None, SeededRandomness(0))


def public(event: t.Event) -> list[proofs.Opening] | None:
    """The openings of an event, which must be the same for every viewer."""
    copies = [t.redact(event, viewer) for viewer in VIEWERS]
    assert all(copy == event for copy in copies)
    openings: list[proofs.Opening] | None = getattr(event, "openings", None)
    return openings


# --- the deal ----------------------------------------------------------------------------------


def test_the_deal_opens_a_seats_own_hand_and_the_table_in_its_copy_only() -> None:
    for seat in range(3):
        mine = t.redact(DEAL, seat)
        assert isinstance(mine, t.ThirtyOneRoundDealt)
        assert proven(mine.openings, DEAL) == [*HANDS[seat], *TABLE]
        j = DEAL.seats.index(seat)  # the j-th seat of the round holds positions j, j+3, j+6
        assert mine.openings is not None
        assert [o.position for o in mine.openings] == [j, j + 3, j + 6, 9, 10, 11]
    spectator = t.redact(DEAL, None)
    assert isinstance(spectator, t.ThirtyOneRoundDealt)
    assert proven(spectator.openings, DEAL) == TABLE


def test_a_seat_out_of_the_round_gets_only_the_tables_openings() -> None:
    deal = dealt({0: HANDS[0], 2: HANDS[2]}, TABLE, dealer=2, n=3, round=2, out=[1])
    out = t.redact(deal, 1)
    assert isinstance(out, t.ThirtyOneRoundDealt)
    assert out.hands == [None, None, None]
    assert proven(out.openings, deal) == TABLE
    assert all(o.round == 2 for o in out.openings or [])


def test_the_stored_deal_holds_no_openings_and_a_deal_of_the_old_scheme_opens_nothing() -> None:
    assert DEAL.openings is None  # made for each viewer when redacted, from the deck and salts
    old = dealt(HANDS, TABLE, dealer=2, n=3, old=True)
    for viewer in VIEWERS:
        copy = t.redact(old, viewer)
        assert isinstance(copy, t.ThirtyOneRoundDealt)
        assert (copy.openings, copy.scheme, copy.deck_size) == (None, proofs.OLD_SCHEME, None)


# --- cards put face up -------------------------------------------------------------------------


def test_the_dealers_exchange_opens_the_old_hand_to_everyone() -> None:
    [exchanged] = given(*lobby(3), DEAL).when(t.Exchange(), 2).events()
    assert isinstance(exchanged, t.ThirtyOneHandExchanged)
    assert proven(public(exchanged), DEAL) == HANDS[2]


def test_a_swap_opens_the_card_given_to_the_table_to_everyone() -> None:
    history = [*lobby(3), DEAL, t.ThirtyOneHandKept(seat=2, turn=0)]
    [swapped] = given(*history).when(t.Swap(give="8B", take="KL"), 0).events()
    assert isinstance(swapped, t.ThirtyOneCardSwapped)
    assert proven(public(swapped), DEAL) == ["8B"]  # KL was opened with the table


def test_swap_all_opens_the_old_hand_laid_on_the_table_to_everyone() -> None:
    history = [*lobby(3), DEAL, t.ThirtyOneHandKept(seat=2, turn=0)]
    [swapped] = given(*history).when(t.SwapAll(), 0).events()
    assert isinstance(swapped, t.ThirtyOneHandsSwapped)
    assert proven(public(swapped), DEAL) == HANDS[0]


def test_a_show_opens_the_showers_hand_to_everyone() -> None:
    history = [*lobby(3), DEAL, t.ThirtyOneHandKept(seat=2, turn=0)]
    [shown] = given(*history).when(t.Show(), 0).events()
    assert isinstance(shown, t.ThirtyOneHandShown)
    assert proven(public(shown), DEAL) == HANDS[0]


# --- the round's end ---------------------------------------------------------------------------


def test_the_last_circuits_end_opens_every_hand_still_in_the_round_and_reveals_no_deck() -> None:
    history = [
        *lobby(3),
        DEAL,
        t.ThirtyOneHandKept(seat=2, turn=0),
        t.ThirtyOneHandShown(seat=0, hand=HANDS[0], turn=1),
        t.ThirtyOnePassed(seat=1, turn=2),
    ]
    events = given(*history).when(t.Pass(), 2).events()
    ended = events[1]
    assert isinstance(ended, t.ThirtyOneRoundEnded)
    assert proven(public(ended), DEAL) == [*HANDS[0], *HANDS[1], *HANDS[2]]
    assert not any(isinstance(event, DeckRevealed) for event in events)
    assert isinstance(events[2], t.ThirtyOneRoundDealt)


def test_a_seat_out_of_the_match_has_no_hand_to_open_at_the_rounds_end() -> None:
    first = dealt(HANDS, h("OH OB OL"), dealer=1, n=3)
    deal = dealt({0: HANDS[0], 2: HANDS[2]}, TABLE, dealer=2, n=3, round=2, out=[1])
    history = [
        *lobby(3),
        first,
        t.ThirtyOneRoundEnded(
            round=1,
            hands=[None] * 3,
            scores=[None] * 3,
            lost_life=[1],
            out=[1],
            three_aces=None,
            lives=[3, 0, 3],
        ),
        deal,
        t.ThirtyOneHandKept(seat=2, turn=0),
        t.ThirtyOneHandShown(seat=0, hand=HANDS[0], turn=2),
    ]
    ended = given(*history).when(t.Pass(), 2).events()[1]
    assert isinstance(ended, t.ThirtyOneRoundEnded)
    assert proven(public(ended), deal) == [*HANDS[0], *HANDS[2]]


def test_at_three_aces_only_the_winners_hand_is_opened() -> None:
    hands = {0: h("AB AL 9B"), 1: h("10H KH 7L"), 2: h("KA 7A 8A")}
    deal = dealt(hands, h("AA KL 8H"), dealer=2, n=3)
    history = [
        *lobby(3),
        deal,
        t.ThirtyOneHandKept(seat=2, turn=0),
        t.ThirtyOnePassed(seat=0, turn=1),
        t.ThirtyOneHandShown(seat=1, hand=hands[1], turn=2),
        t.ThirtyOnePassed(seat=2, turn=0),
    ]
    events = given(*history).when(t.Swap(give="9B", take="AA"), 0).events()
    ended = next(e for e in events if isinstance(e, t.ThirtyOneRoundEnded))
    # the shower's hand was opened at its show; the round's end opens the winner's only
    assert proven(public(ended), deal) == h("AB AL AA")
    assert not any(isinstance(event, DeckRevealed) for event in events)


def test_seed_326_three_aces_dealt_leave_a_spectator_only_the_table_and_the_winners_hand() -> None:
    # Seed 326 with three players deals three Aces to seat 2: the round ends at its deal. The
    # deck was revealed then, and a spectator rebuilt the other two hands from it.
    rng = SeededRandomness(326)
    events = t.decide(fold(lobby(3)), Start(), None, rng)
    deal, ended, nxt = events
    assert isinstance(deal, t.ThirtyOneRoundDealt) and isinstance(ended, t.ThirtyOneRoundEnded)
    assert isinstance(nxt, t.ThirtyOneRoundDealt) and nxt.round == 2
    assert ended.three_aces == 2
    hidden = {card for s in (0, 1) for card in deal.hands[s] or ()}
    for viewer in VIEWERS:
        seen = [t.redact(deal, viewer), t.redact(ended, viewer)]
        assert isinstance(seen[0], t.ThirtyOneRoundDealt)
        opened = proven(seen[0].openings, deal) + proven(public(ended), deal)
        own = list(deal.hands[viewer] or ()) if viewer is not None else []
        assert opened == [*own, *deal.table, *h("AH AA AB")]
        others = hidden - set(own)
        body = msgspec.json.encode(seen).decode()
        assert not any(f'"{card}"' in body for card in others), viewer


# --- a deal stored before ----------------------------------------------------------------------


def test_a_deal_of_the_old_scheme_still_ends_with_its_deck_revealed() -> None:
    old = dealt(HANDS, TABLE, dealer=2, n=3, old=True)
    history = [
        *lobby(3),
        old,
        t.ThirtyOneHandKept(seat=2, turn=0),
        t.ThirtyOneHandShown(seat=0, hand=HANDS[0], turn=1),
        t.ThirtyOnePassed(seat=1, turn=2),
    ]
    events = given(*history).when(t.Pass(), 2).events()
    ended = events[1]
    assert isinstance(ended, t.ThirtyOneRoundEnded) and ended.openings is None
    assert events[2] == revealed(old)
    nxt = events[3]  # the next deal is committed card by card
    assert isinstance(nxt, t.ThirtyOneRoundDealt) and nxt.scheme == proofs.SCHEME


def test_a_round_of_the_old_scheme_cut_by_the_cap_reveals_its_deck() -> None:
    old = dealt(HANDS, TABLE, dealer=2, n=3, old=True)
    events = cap(fold([*lobby(3), old]))
    assert events[0] == revealed(old)
    assert isinstance(events[1], t.ThirtyOneMatchEnded)
    assert t.is_terminal(fold([*lobby(3), old, *events]))
    new = cap(fold([*lobby(3), DEAL]))
    assert [type(e) for e in new] == [t.ThirtyOneMatchEnded]
    assert t.is_terminal(fold([*lobby(3), DEAL, *new]))


# --- the view ----------------------------------------------------------------------------------


def test_the_view_holds_the_openings_of_the_cards_it_shows_the_viewer() -> None:
    history = [
        *lobby(3),
        DEAL,
        t.ThirtyOneHandKept(seat=2, turn=0),
        t.ThirtyOneCardSwapped(seat=0, give="8B", take="KL", turn=1),
    ]
    table = h("AL 8B 8A")
    for viewer in VIEWERS:
        view = t.view(fold(history), viewer, "g", len(history))
        assert view.thirty_one is not None
        assert view.thirty_one.table == table
        mine = view.me.hand if view.me is not None else []
        cards = proven(view.openings, DEAL)
        assert sorted(cards) == sorted([*mine, *table])
        assert [o.position for o in view.openings] == sorted(o.position for o in view.openings)
    history.append(t.ThirtyOneHandShown(seat=1, hand=HANDS[1], turn=2))
    spectator = t.view(fold(history), None, "g", len(history))
    assert sorted(proven(spectator.openings, DEAL)) == sorted([*table, *HANDS[1]])


def test_the_view_holds_no_openings_outside_a_round_or_for_a_deal_of_the_old_scheme() -> None:
    assert t.view(fold(lobby(3)), 0, "g", 4).openings == []
    old = dealt(HANDS, TABLE, dealer=2, n=3, old=True)
    view = t.view(fold([*lobby(3), old]), 0, "g", 5)
    assert view.openings == []
    assert view.thirty_one is not None
    assert (view.thirty_one.scheme, view.thirty_one.deck_size) == (proofs.OLD_SCHEME, None)
    assert view.thirty_one.commitment == old.commitment


# --- nothing else is opened --------------------------------------------------------------------


def _shown(event: t.Event, viewer: int | None) -> list[Card]:
    """The cards a redacted event shows its viewer, field by field."""
    match event:
        case t.ThirtyOneRoundDealt():
            mine = event.hands[viewer] if viewer is not None else None
            return [*(mine or []), *event.table]
        case t.ThirtyOneHandExchanged() | t.ThirtyOneHandsSwapped():
            return list(event.table)
        case t.ThirtyOneCardSwapped():
            return [event.give]
        case t.ThirtyOneHandShown():
            return list(event.hand)
        case t.ThirtyOneRoundEnded():
            return [card for hand in event.hands if hand is not None for card in hand]
        case _:
            return []


def test_every_event_opens_exactly_the_cards_it_shows_its_viewer() -> None:
    for seed in range(12):
        rng, moves = SeededRandomness(seed), random.Random(seed)
        n = 2 + seed % 4
        history = [*lobby(n, t.ThirtyOneOptions(lives=1, chronicler=seed % 2 == 1))]
        history += t.decide(fold(history), Start(), None, rng)
        state = fold(history)
        while not t.is_terminal(state) and len(history) < 400:
            seat = t.waiting_for(state)
            assert seat is not None
            plays = [m for m in t.legal_moves(state, seat) if not isinstance(m, t.Leave)]
            command = moves.choice(plays)
            state, events = run(history, [(seat, command)], rng)
            history += events
        assert t.is_terminal(state)
        deal: t.ThirtyOneRoundDealt | None = None
        for event in history:
            deal = event if isinstance(event, t.ThirtyOneRoundDealt) else deal
            assert not isinstance(event, DeckRevealed | DealsOpened)
            for viewer in (None, *range(n)):
                seen = t.redact(event, viewer)
                opened = getattr(seen, "openings", None)
                if opened is None:
                    assert _shown(seen, viewer) == [], (seed, viewer, event)
                    continue
                assert deal is not None
                assert proven(opened, deal) == _shown(seen, viewer), (seed, viewer, event)


# --- reveal: "match_end" -----------------------------------------------------------------------


def _match(options: t.ThirtyOneOptions, seed: int) -> list[t.Event]:
    """A whole match of three players who keep, show and pass, from a seeded shuffle."""
    rng = SeededRandomness(seed)
    history = [*lobby(3, options)]
    history += t.decide(fold(history), Start(), None, rng)
    state = fold(history)
    while not t.is_terminal(state):
        seat = t.waiting_for(state)
        assert seat is not None
        kinds = t.legal(state, seat)
        command = next(
            c
            for kind, c in (("keep", t.Keep()), ("show", t.Show()), ("pass", t.Pass()))
            if kind in kinds
        )
        state, events = run(history, [(seat, command)], rng)
        history += events
    return history


def test_reveal_match_end_opens_every_position_of_every_deal_as_the_match_ends() -> None:
    history = _match(t.ThirtyOneOptions(lives=1, reveal="match_end"), seed=3)
    deals = [e for e in history if isinstance(e, t.ThirtyOneRoundDealt)]
    assert len(deals) >= 2
    assert isinstance(history[-1], t.ThirtyOneMatchEnded)  # the match's last, `final` on the wire
    last = history[-2]
    assert isinstance(last, DealsOpened)
    assert public(last) == last.openings
    expected = [(deal.round, p) for deal in deals for p in range(32)]
    assert [(o.round, o.position) for o in last.openings] == expected
    by_round = {deal.round: deal for deal in deals}
    for opening in last.openings:
        deal = by_round[opening.round]
        assert deal.deck is not None and deal.deck_size == 32
        assert proofs.verify(opening, deal.commitment, deal.deck_size)
        assert opening.card == deal.deck[opening.position]
    assert t.is_terminal(fold(history))
    assert t.view(fold(history), None, "g", len(history)).options.reveal == "match_end"


def test_reveal_never_is_the_default_and_opens_no_deal_at_the_end() -> None:
    assert t.ThirtyOneOptions().reveal == "never"
    history = _match(t.ThirtyOneOptions(lives=1), seed=3)
    assert isinstance(history[-1], t.ThirtyOneMatchEnded)
    assert not any(isinstance(e, DealsOpened | DeckRevealed) for e in history)


def test_a_table_stored_without_reveal_reads_as_never() -> None:
    body = b'{"type": "game_created", "options": {"lives": 2}, "seeded": false}'
    created = msgspec.json.decode(body, type=t.Event)
    assert isinstance(created, t.ThirtyOneGameCreated)
    assert created.options.reveal == "never"


def test_reveal_match_end_opens_the_deals_when_the_cap_ends_the_match() -> None:
    options = t.ThirtyOneOptions(reveal="match_end")
    history = [*lobby(3, options), DEAL, t.ThirtyOneHandKept(seat=2, turn=0)]
    events = cap(fold(history))
    assert [type(e) for e in events] == [DealsOpened, t.ThirtyOneMatchEnded]
    assert t.is_terminal(fold([*history, *events]))
    opened = events[0]
    assert isinstance(opened, DealsOpened)
    assert proven(opened.openings, DEAL) == DEAL.deck
    assert cap(fold(lobby(3, options))) == [t.ThirtyOneMatchEnded(winners=[], reason="event_cap")]
