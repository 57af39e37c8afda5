"""A Thirty-One table's events in words for one viewer (docs/api.md, "Records"): each deal, keep,
exchange, swap, pass, show and round's result, the table's cards as they change, and the
viewer's own hand where its events show it.

The table's cards and every card put on it are public; a dealt hand is named to its seat alone,
whatever the event holds, and so is that hand as the seat's own swaps change it.
"""

from __future__ import annotations

from collections.abc import Sequence

from kronikas_rules.account import Teller, plural
from kronikas_rules.cards import Card
from kronikas_rules.thirty_one import events as ev

TITLE = "Thirty-One"


def account(events: Sequence[ev.Event], viewer: int | None, names: Sequence[str]) -> str:
    """The events (redacted for `viewer`, a seat or None for a spectator) in words, round by
    round; `names` are the seats' names."""
    story = _Story(Teller(viewer, names))
    return story.teller.told(events, story.line, ev.ThirtyOneRoundDealt)


class _Story:
    """The lines of one account, with the table's cards and the viewer's hand as the events
    have shown them so far (None: not shown in these events)."""

    def __init__(self, teller: Teller) -> None:
        self.teller = teller
        self.table: list[Card] | None = None
        self.hand: list[Card] | None = None

    def line(self, event: ev.Event) -> str | None:
        """The event's line, or None for one the shared teller tells."""
        t = self.teller
        match event:
            case ev.ThirtyOneGameCreated(options=options, seeded=seeded):
                return t.opened(TITLE, options, seeded)
            case ev.ThirtyOneRoundDealt():
                return self.dealt(event)
            case ev.ThirtyOneHandKept(seat=seat):
                return f"{t.Who(seat)} kept {self.their(seat)} hand."
            case ev.ThirtyOneHandExchanged(seat=seat, table=table):
                did = f"exchanged {self.their(seat)} hand for the table"
                return f"{t.Who(seat)} {did}{self.put_down(seat, table)}"
            case ev.ThirtyOneHandsSwapped(seat=seat, table=table):
                did = f"swapped {self.their(seat)} whole hand with the table"
                return f"{t.Who(seat)} {did}{self.put_down(seat, table)}"
            case ev.ThirtyOneCardSwapped(seat=seat, give=give, take=take):
                return f"{t.Who(seat)} gave {t.cards([give])} for {t.cards([take])}." + (
                    self.swapped(seat, give, take)
                )
            case ev.ThirtyOnePassed(seat=seat):
                return f"{t.Who(seat)} passed."
            case ev.ThirtyOneHandShown(seat=seat, hand=hand):
                return f"{t.Who(seat)} showed {self.their(seat)} hand: {t.cards(hand)}."
            case ev.ThirtyOneRoundEnded():
                self.table = self.hand = None
                return self.ended(event)
            case ev.ThirtyOneMatchEnded(winners=winners, reason=reason):
                cap = " (the table reached its most events)" if reason == "event_cap" else ""
                won = f"won: {t.everyone(winners)}" if winners else "nobody won"
                return f"The match is over{cap}; {won}."
        return None

    def their(self, seat: int) -> str:
        return "your" if self.teller.mine(seat) else "their"

    def dealt(self, event: ev.ThirtyOneRoundDealt) -> str:
        t = self.teller
        self.table = list(event.table)
        mine = t.own(event.hands)
        self.hand = None if mine is None else list(mine)
        line = (
            f"Round {event.round}: {t.who(event.dealer)} dealt; the order of play: "
            f"{t.everyone(event.seats)}. The table shows {t.cards(event.table)}."
        )
        if self.hand is not None:
            line += f" Your hand: {t.cards(self.hand)}."
        return line

    def put_down(self, seat: int, table: list[Card]) -> str:
        """The rest of the line of a whole hand laid on the table: the table's new cards, and
        the viewer's hand when it was the viewer's move (its hand is the table it took)."""
        t = self.teller
        line = f"; the table now shows {t.cards(table)}."
        if t.mine(seat) and self.table is not None:
            self.hand = self.table
            line += f" Your hand: {t.cards(self.hand)}."
        self.table = list(table)
        return line

    def swapped(self, seat: int, give: Card, take: Card) -> str:
        """After one card swapped: the viewer's hand when the swap was its own."""
        if self.table is not None and take in self.table:
            self.table[self.table.index(take)] = give
        if not self.teller.mine(seat) or self.hand is None or give not in self.hand:
            return ""
        self.hand[self.hand.index(give)] = take
        return f" Your hand: {self.teller.cards(self.hand)}."

    def ended(self, event: ev.ThirtyOneRoundEnded) -> str:
        t = self.teller
        if event.three_aces is not None:
            head = f"Round {event.round} is over: three Aces for {t.who(event.three_aces)}"
        else:
            head = f"Round {event.round} is over"
        shown = [
            f"{t.who(seat)} {t.cards(hand)} ({_score(event.scores[seat])})"
            for seat, hand in enumerate(event.hands)
            if hand is not None and seat < len(event.scores)
        ]
        lines = [head + "."]
        if shown:
            lines.append(f"Hands: {'; '.join(shown)}.")
        lost = t.everyone(event.lost_life) if event.lost_life else "nobody"
        lines.append(f"Lost a life: {lost}.")
        if event.out:
            lines.append(f"Out of the match: {t.everyone(event.out)}.")
        lines.append(f"Lives: {t.by_seat(event.lives)}.")
        return " ".join(lines)


def _score(score: float | None) -> str:
    if score is None:
        return "no score"
    return f"{plural(int(score), 'point')}" if score == int(score) else f"{score} points"
