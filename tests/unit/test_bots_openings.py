"""The example bots check every opening their seat receives, as the SDK parses it, and say so —
naming the seat — when one fails (bots/src/kronikas_bots/proofs.py)."""

from __future__ import annotations

import io
from typing import Any

from kronikas_bots.games import game_of
from kronikas_bots.proofs import OpeningCheck
from kronikas_client.events import parse_event

from tests.deals import Deal, deal


def _dealt(d: Deal, hand: list[int], openings: list[dict[str, Any]]) -> dict[str, Any]:
    """A Cheat deal as seat 0 of two receives it: its hand, and the openings of its cards."""
    data = {
        "type": "round_dealt", "round": 1, "dealer": 1, "turn": 0, "rank": "7", "set_aside": 0,
        "commitment": d.tree.root, "scheme": "merkle-sha256", "deck_size": d.size,
        "hands": [[d.deck[p] for p in hand], None], "set_aside_cards": None, "deck": None,
        "salt": None, "salts": None, "openings": openings,
    }  # fmt: skip
    return {"type": "cheat.round_dealt", "version": 3, "at": "2026-01-01T00:00:00Z", "data": data}


def _check() -> tuple[OpeningCheck, io.StringIO]:
    out = io.StringIO()
    rules = game_of("cheat")
    return OpeningCheck("good bot in seat 0", rules.seen, rules.shown, out=out), out


def test_a_seat_whose_openings_prove_its_hand_says_nothing() -> None:
    d = deal(32, seed=21)
    hand = list(range(0, 32, 2))
    check, out = _check()
    check.events([parse_event(_dealt(d, hand, [d.opening(p) for p in hand]))])
    assert check.problems == [] and out.getvalue() == ""


def test_a_seat_says_so_when_an_opening_fails() -> None:
    d = deal(32, seed=22)
    hand = list(range(0, 32, 2))
    openings = [d.opening(p) for p in hand]
    openings[3] = openings[3] | {"salt": "0" * 32}
    check, out = _check()
    check.events([parse_event(_dealt(d, hand, openings))])
    card = d.deck[hand[3]]
    assert out.getvalue().splitlines() == [
        f"good bot in seat 0: an opening does not check: round 1, position {hand[3]}: "
        f"the opening of {card} does not prove it",
        f"good bot in seat 0: an opening does not check: round 1: no opening for {card}",
    ]
