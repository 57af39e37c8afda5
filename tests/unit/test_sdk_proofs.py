"""The Python SDK's verifier (`kronikas_client.proofs`) on deals the service's own
`kronikas_rules.proofs` commits to: every opening proves its card, one byte changed in any part is
refused, and the collector finds openings that disagree with each other or with what was seen."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from kronikas_client.proofs import OLD_SCHEME, Openings, verify

from kronikas_rules import proofs
from kronikas_rules.proofs import Opening
from tests.deals import DECKS, PARTS, Deal, deal, deals, every_case

CASES = every_case()


def test_every_opening_of_every_deck_size_proves_its_card() -> None:
    good = [c for c in CASES if c["part"] is None]
    assert sorted({c["deck_size"] for c in good}) == sorted(DECKS)
    assert len(good) == sum(DECKS)
    assert all(verify(c["opening"], c["commitment"], c["deck_size"]) for c in good)


def test_one_byte_changed_in_any_part_of_an_opening_is_refused() -> None:
    bad = [c for c in CASES if c["part"] is not None]
    parts = {c["part"].split("[")[0] for c in bad}
    assert parts == set(PARTS)  # each part, and each element of each path, corrupted
    accepted = [c for c in bad if verify(c["opening"], c["commitment"], c["deck_size"])]
    assert accepted == []


def test_the_sdk_and_the_service_agree_on_every_opening() -> None:
    for case in CASES:
        opening = Opening(**case["opening"])
        by_service = proofs.verify(opening, case["commitment"], case["deck_size"])
        assert verify(case["opening"], case["commitment"], case["deck_size"]) == by_service, case


@pytest.mark.parametrize("size", sorted(DECKS))
def test_the_last_card_is_refused_with_any_other_deck_size(size: int) -> None:
    d = deal(size, seed=7)
    last = d.opening(size - 1)
    assert [n for n in range(1, 130) if verify(last, d.tree.root, n)] == [size]


def test_malformed_parts_are_refused_not_raised() -> None:
    d = deal(32, seed=3)
    good, root = d.opening(5), d.tree.root
    assert verify(good, root, 32)
    for broken in (
        good | {"position": True},  # a bool is not a position
        good | {"position": "5"},
        good | {"position": -1},
        good | {"salt": good["salt"].upper()},
        good | {"salt": good["salt"][:-2]},
        good | {"path": [*good["path"][:-1], good["path"][-1].upper()]},
        good | {"path": good["path"][:-1]},
        good | {"path": [*good["path"], good["path"][0]]},
        good | {"path": None},
        good | {"card": None},
    ):
        assert not verify(broken, root, 32), broken
    assert not verify(good, root.upper(), 32)
    assert not verify(good, root, 0)


def _seen(d: Deal, positions: list[int], round: int = 1) -> Openings:
    seen = Openings()
    seen.deal(round, d.tree.root, d.size)
    for p in positions:
        assert seen.add(d.opening(p, round))
    return seen


def test_a_hand_with_its_openings_agrees() -> None:
    d = deal(64, seed=5)
    hand = [d.deck[p] for p in range(0, 64, 8)]
    seen = _seen(d, list(range(0, 64, 8)))
    assert seen.saw(1, hand)
    assert seen.problems == []


def test_an_opening_that_comes_before_its_deal_is_checked_when_the_deal_comes() -> None:
    d = deal(33, seed=6)
    seen = Openings()
    forged = d.opening(4) | {"card": d.deck[5]}
    seen.observe({"type": "x.pile_taken", "data": {"openings": [d.opening(3), forged]}})
    assert seen.problems == []
    dealt = {"round": 1, "commitment": d.tree.root, "scheme": "merkle-sha256", "deck_size": 33}
    seen.observe({"type": "x.round_dealt", "data": dealt})
    assert seen.problems == [f"round 1, position 4: the opening of {d.deck[5]} does not prove it"]


def test_a_card_seen_without_its_opening_is_found() -> None:
    d = deal(32, seed=8)
    seen = _seen(d, [0, 1, 2])
    other = d.deck[3]
    assert not seen.saw(1, [d.deck[0], d.deck[1], other])
    assert seen.problems == [f"round 1: no opening for {other}"]


def test_a_card_seen_twice_needs_two_positions() -> None:
    d = deal(64, seed=9)
    first = d.deck.index(d.deck[0], 1)  # the other copy of the first card
    seen = _seen(d, [0])
    assert not seen.saw(1, [d.deck[0], d.deck[0]])
    assert seen.add(d.opening(first))
    assert seen.saw(1, [d.deck[0], d.deck[0]])


def test_a_deck_with_more_copies_of_a_card_than_it_holds_is_found() -> None:
    # A dishonest dealer commits to a one-deck shuffle holding 7H twice (and no 8H): each
    # opening proves its card, and the second 7H is one copy too many for a deck of 32.
    deck = ["7H" if card == "8H" else card for card in DECKS[32]]
    salts = [f"{i:032x}" for i in range(32)]
    tree = proofs.Tree(deck, salts)
    seen = Openings()
    seen.deal(1, tree.root, 32)
    twice = [p for p, card in enumerate(deck) if card == "7H"]
    assert seen.add(_wire(tree.opening(1, twice[0])))
    assert not seen.add(_wire(tree.opening(1, twice[1])))
    assert seen.problems == [
        f"round 1, position {twice[1]}: 7H opened at 2 positions of a deck of 32"
    ]


def test_two_chroniclers_in_a_deck_with_room_for_one_are_found() -> None:
    deck = [*DECKS[32], "XC"]
    deck[0] = "XP"  # a deck of 33 has one Chronicler
    tree = proofs.Tree(deck, [f"{i:032x}" for i in range(33)])
    seen = Openings()
    seen.deal(2, tree.root, 33)
    assert seen.add(_wire(tree.opening(2, 32)))
    assert not seen.add(_wire(tree.opening(2, 0)))


def test_two_commitments_to_one_round_are_found() -> None:
    a, b = deal(32, seed=1), deal(32, seed=2)
    seen = Openings()
    seen.deal(1, a.tree.root, 32)
    seen.deal(1, b.tree.root, 32)
    assert seen.problems == ["round 1: two different commitments to its deal"]


def test_a_deal_from_before_has_no_openings_to_check() -> None:
    seen = Openings()
    seen.observe({"data": {"round": 1, "commitment": "ab" * 32, "hands": [["7H"], None]}})
    assert seen.saw(1, ["7H"])
    assert seen.problems == []
    d = deal(32, seed=4)
    assert not seen.add(d.opening(0))
    assert seen.problems == [f"round 1, position 0: an opening of a deal of scheme {OLD_SCHEME}"]


def test_every_deal_opened_at_the_match_end_agrees_with_what_was_seen() -> None:
    seen = Openings()
    every: list[Any] = []
    for round, d in enumerate(deals(), start=1):
        seen.deal(round, d.tree.root, d.size)
        every += [d.opening(p, round) for p in range(d.size)]
    seen.observe({"type": "x.deals_opened", "data": {"openings": every}})
    assert seen.problems == []
    for round, d in enumerate(deals(), start=1):
        assert seen.saw(round, d.deck)
    assert Counter(o["round"] for o in every) == Counter(
        {r: d.size for r, d in enumerate(deals(), start=1)}
    )


def _wire(opening: Opening) -> dict[str, Any]:
    return {f: getattr(opening, f) for f in ("round", "position", "card", "salt", "path")}
