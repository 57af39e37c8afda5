"""What every game's account of a table says alike (docs/api.md, "Records"): a table's events in
words for one viewer, for people and LLM agents. A game's `account.py` tells its own events; this
module names cards and seats, tells the seating's events and the table's opening, and lays the
lines out round by round.

An account reads only what the events it is given hold for its viewer (they come redacted), and
the games' accounts name a seat's cards to that seat alone even when handed more: a line never
says what the viewer's own events page would not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import msgspec

from kronikas_rules.cards import RANKS_PLURAL, Card, card_name
from kronikas_rules.common import DeckRevealed
from kronikas_rules.seating import PlayerJoined, PlayerLeft, SeatAway, SeatBack

EventT = TypeVar("EventT", bound=msgspec.Struct)
OwnT = TypeVar("OwnT")

DEALS_OPENED = "deals_opened"
"""The tag of the event that opens every deal of a match whose `reveal` is `match_end`
(`DealsOpened`, kronikas_rules/common.py): every game's, so told here."""


def list_words(items: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def plural(n: int, one: str, many: str | None = None) -> str:
    """`1 card`, `3 cards`."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def rank_plural(rank: str) -> str:
    """A rank as a play announces it: `7` is `sevens`."""
    return RANKS_PLURAL.get(rank, rank)


def humanize(name: str) -> str:
    """A name from the wire in words: `max_plays` is `max plays`."""
    return name.replace("_", " ")


def _value_words(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_value_words(v) for v in value)
    return str(value)


def options_words(options: msgspec.Struct) -> str:
    """A table's options, each with its value: `rounds 2, chroniclers yes`."""
    given = msgspec.to_builtins(options)
    return ", ".join(f"{humanize(name)} {_value_words(value)}" for name, value in given.items())


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class Teller:
    """Tells one viewer's events: `viewer` is its seat (None: a spectator), `names` the seats'
    names as the table has them now. Names follow the log: a page from the start seats its
    players as they joined, and a seat freed before the start moves the later ones down."""

    def __init__(self, viewer: int | None, names: Sequence[str]) -> None:
        self.viewer = viewer
        self.names = list(names)
        self.from_start = False
        """Whether the events began at the table's opening: then they seat the names."""

    def who(self, seat: int | None) -> str:
        """A seat as a sentence names it: `you` for the viewer's own."""
        if seat is None:
            return "nobody"
        if seat == self.viewer:
            return "you"
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat + 1}"

    def Who(self, seat: int | None) -> str:  # the capital starts a sentence
        """`who`, to start a sentence."""
        return _capital(self.who(seat))

    def whose(self, seat: int) -> str:
        """`your`, `Anna's`."""
        return "your" if seat == self.viewer else f"{self.who(seat)}’s"

    def mine(self, seat: int | None) -> bool:
        """Whether the seat is the viewer's."""
        return seat is not None and seat == self.viewer

    def own(self, by_seat: Sequence[OwnT | None]) -> OwnT | None:
        """The viewer's item of a list by seat (its hand), None for a spectator or none."""
        viewer = self.viewer
        return by_seat[viewer] if viewer is not None and 0 <= viewer < len(by_seat) else None

    def everyone(self, seats: Iterable[int]) -> str:
        """Seats by name, in a list: `you, Anna and Bence`."""
        return list_words([self.who(s) for s in seats])

    @staticmethod
    def cards(codes: Sequence[Card]) -> str:
        """`the Seven of Hearts and the Pale Chronicler`."""
        return list_words([f"the {card_name(c)}" for c in codes])

    def by_seat(self, values: Sequence[object]) -> str:
        """Values by seat, named: `Anna 4, you 2`."""
        return ", ".join(f"{self.who(s)} {_value_words(v)}" for s, v in enumerate(values))

    def shared(self, event: msgspec.Struct) -> str | None:
        """The line of an event every game has (seating, an old deal's reveal), else None."""
        match event:
            case PlayerJoined(seat=seat, name=name, house=house):
                if self.from_start and seat <= len(self.names):
                    self.names.insert(seat, name)
                by_house = " (the house plays this seat)" if house else ""
                sat = "You sat down as" if self.mine(seat) else "Sat down:"
                return f"{sat} {name}, seat {seat + 1}{by_house}."
            case PlayerLeft(seat=seat, started=started):
                who = self.Who(seat)
                if not started:
                    if self.from_start and seat < len(self.names):
                        del self.names[seat]
                    return f"{who} left the table before the start; the seats after moved down."
                return f"{who} left the table; the house plays that seat to the end."
            case SeatAway(seat=seat):
                return f"{self.Who(seat)} ran out of time: the house plays the seat meanwhile."
            case SeatBack(seat=seat):
                return f"{self.Who(seat)} took the seat back and played on."
            case DeckRevealed(round=round, deck=deck):
                size = plural(len(deck or ()), "card")
                return (
                    f"The whole deck of round {round} was shown ({size}), as deals were before "
                    "each card had a proof of its own: the deal can be checked."
                )
        if event.__struct_config__.tag == DEALS_OPENED:
            opened = plural(len(getattr(event, "openings", None) or ()), "card")
            return (
                f"Every card of every deal of the match was opened to everyone ({opened}): "
                "each can be checked against its deal."
            )
        return None

    def opened(self, title: str, options: msgspec.Struct, seeded: bool) -> str:
        """The table's first line: the game, whether seeded, its options. (A page from the
        start seats its players as they join.)"""
        self.names, self.from_start = [], True
        how = "a seeded table" if seeded else "a table"
        return f"{title}, {how}, was opened with {options_words(options)}."

    def told(
        self, events: Iterable[EventT], line: Callable[[EventT], str | None], deal: type
    ) -> str:
        """The account: each event's line (the game's `line`, else the shared one, else its
        type in words), a blank line before each round's deal."""
        lines: list[str] = []
        for event in events:
            said = line(event)
            if said is None:
                said = self.shared(event)
            if said is None:
                tag = event.__struct_config__.tag
                said = f"{_capital(humanize(str(tag)))}."
            if isinstance(event, deal) and lines:
                lines.append("")
            lines.append(said)
        return "\n".join(lines) + "\n" if lines else ""
