"""A table's account in words (`Engine.account`): seeded matches of both games played to the end,
told to each seat and to a spectator, name every move and the viewer's own cards, and no card the
viewer's own redacted events do not show it."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest

from kronikas_rules.cards import ALL_CODES, PALE, Card, card_name
from kronikas_rules.cheat import CheatOptions
from kronikas_rules.cheat import events as cheat_events
from kronikas_rules.cheat.engine import ENGINE as CHEAT
from kronikas_rules.common import DeckRevealed
from kronikas_rules.proofs import Opening
from kronikas_rules.thirty_one import ThirtyOneOptions
from kronikas_rules.thirty_one import events as thirty_events
from kronikas_rules.thirty_one.engine import ENGINE as THIRTY_ONE
from tests.unit.house.tables import AnyTable, Decks, Table, drive

NAMES = [f"P{seat}" for seat in range(8)]
"""The names `Table` seats its players with."""
MATCHES: list[tuple[Any, msgspec.Struct, int, int]] = [
    (CHEAT, CheatOptions(rounds=2, chroniclers=True), 3, 5),
    (CHEAT, CheatOptions(decks=2, chroniclers=True, max_play=3), 5, 8),
    (CHEAT, CheatOptions(max_plays=20), 2, 13),
    (THIRTY_ONE, ThirtyOneOptions(lives=2), 3, 5),
    (THIRTY_ONE, ThirtyOneOptions(lives=1, chronicler=True), 4, 21),
]
NAMED = re.compile("|".join(re.escape(card_name(c)) for c in sorted(ALL_CODES)))
CODE_OF = {card_name(c): c for c in ALL_CODES}


def _played(engine: Any, options: msgspec.Struct, players: int, seed: int) -> AnyTable:
    """A seeded match to its end: the house at the first seat, random legal moves elsewhere."""
    table: AnyTable = Table(engine, options, players, [0], Decks(seed, seed))
    drive(table, seed, 20_000)
    assert table.over()
    return table


def _codes(value: Any) -> set[Card]:
    if isinstance(value, str):
        return {value} if value in ALL_CODES else set()
    if isinstance(value, dict):
        return set().union(*(_codes(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(*(_codes(v) for v in value))
    return set()


def _known(events: list[Any]) -> set[Card]:
    """Every card the viewer's redacted events show it, but for an old deal's whole deck
    revealed at its end (which no account lists); a penalty announces the Pale Chronicler to
    everyone (docs/rules.md)."""
    shown = [e for e in events if not isinstance(e, DeckRevealed)]
    known = set().union(*(_codes(msgspec.to_builtins(e)) for e in shown))
    if any(isinstance(e, cheat_events.CheatPenaltyTaken) for e in events):
        known.add(PALE)
    return known


def _named(text: str) -> set[Card]:
    return {CODE_OF[name] for name in NAMED.findall(text)}


def _rounds(engine: Any, events: list[Any]) -> list[list[Any]]:
    """The events before the first deal, then each round's from its deal."""
    rounds: list[list[Any]] = [[]]
    for event in events:
        if isinstance(event, engine.deal_event):
            rounds.append([])
        rounds[-1].append(event)
    return rounds


@pytest.mark.parametrize(("engine", "options", "players", "seed"), MATCHES)
def test_an_account_names_no_card_its_viewer_may_not_know(
    engine: Any, options: msgspec.Struct, players: int, seed: int
) -> None:
    """Round by round, every card the account names is one the viewer's own events of that
    round show it."""
    table = _played(engine, options, players, seed)
    for viewer in [None, *range(players)]:
        seen = [engine.redact(e, viewer) for e in table.events]
        told = engine.account(seen, viewer, NAMES[:players])
        paragraphs = told.split("\n\n")
        rounds = _rounds(engine, seen)
        assert len(paragraphs) == len(rounds)
        hidden = False
        for events, whole, paragraph in zip(
            rounds, _rounds(engine, table.events), paragraphs, strict=True
        ):
            known = _known(events)
            assert _named(paragraph) <= known, f"viewer {viewer}: {paragraph}"
            hidden = hidden or known < _codes([msgspec.to_builtins(e) for e in whole])
        assert hidden  # some card was hidden from this viewer, and the account did not name it
        # Handed the events whole, it says the same: it reads only what the viewer may see.
        assert engine.account(table.events, viewer, NAMES[:players]) == told


@pytest.mark.parametrize(("engine", "options", "players", "seed"), MATCHES)
def test_a_seat_reads_its_own_hands_and_every_move(
    engine: Any, options: msgspec.Struct, players: int, seed: int
) -> None:
    table = _played(engine, options, players, seed)
    seat = players - 1
    told = engine.account([engine.redact(e, seat) for e in table.events], seat, NAMES[:players])
    rounds = [e for e in table.events if isinstance(e, engine.deal_event)]
    paragraphs = told.split("\n\n")
    assert len(paragraphs) == 1 + len(rounds)  # the seating, then one paragraph a round
    for deal, paragraph in zip(rounds, paragraphs[1:], strict=True):
        assert paragraph.startswith(f"Round {deal.round}: ")
        hand = deal.hands[seat]
        if hand is not None:  # out of a Thirty-One match, a seat is dealt nothing
            assert "Your hand" in paragraph.splitlines()[0]
            assert _named(paragraph.splitlines()[0]) >= set(hand)
    assert f"You sat down as {NAMES[seat]}, seat {players}." in told
    assert "The match is over" in told.splitlines()[-1]
    moves = {
        cheat_events.CheatCardsPlayed: r" put down \d+ cards? as ",
        cheat_events.CheatCalled: " called “Cheat!” on ",
        cheat_events.CheatPileTaken: " took the pile ",
        thirty_events.ThirtyOneCardSwapped: r" gave the .+? for the ",
        thirty_events.ThirtyOnePassed: " passed.",
        thirty_events.ThirtyOneHandShown: r" showed (your|their) hand: ",
    }
    assert len(re.findall(r"Round \d+ is over", told)) == len(rounds)
    for kind, words in moves.items():
        if kind not in engine.events:
            continue
        made = sum(isinstance(e, kind) for e in table.events)
        assert len(re.findall(words, told)) == made, kind.__name__


def test_a_spectator_reads_the_plays_but_never_a_hand() -> None:
    table = _played(CHEAT, CheatOptions(rounds=2), 3, 5)
    told = CHEAT.account([CHEAT.redact(e, None) for e in table.events], None, NAMES[:3])
    assert "Your hand" not in told and "You " not in told
    plays = [e for e in table.events if isinstance(e, cheat_events.CheatCardsPlayed)]
    first = plays[0]
    said = f"{NAMES[first.seat]} put down {first.count} card{'s' * (first.count > 1)} as sevens."
    assert said in told


class DealsOpened(msgspec.Struct, frozen=True, tag_field="type", tag="deals_opened"):
    """The shared event of `reveal: match_end`, as issue 41 agrees its shape."""

    openings: list[Opening]


@pytest.mark.parametrize("engine", [CHEAT, THIRTY_ONE])
def test_the_opening_of_every_deal_is_told_without_listing_the_cards(engine: Any) -> None:
    opening = Opening(round=1, position=0, card="AH", salt="5a17" * 8, path=[])
    told = engine.account([DealsOpened([opening, opening])], None, NAMES[:2])
    assert told == (
        "Every card of every deal of the match was opened to everyone (2 cards): "
        "each can be checked against its deal.\n"
    )
