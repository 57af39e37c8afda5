"""High Card's events in words for one viewer: a third game's account, from the shared teller."""

from __future__ import annotations

from collections.abc import Sequence

from kronikas_rules.account import Teller
from tests.third_game import events as ev


def account(events: Sequence[ev.Event], viewer: int | None, names: Sequence[str]) -> str:
    """The events (redacted for `viewer`) in words, round by round."""
    teller = Teller(viewer, names)
    return teller.told(events, lambda event: _line(event, teller), ev.HighCardRoundDealt)


def _line(event: ev.Event, t: Teller) -> str | None:
    match event:
        case ev.HighCardGameCreated(options=options, seeded=seeded):
            return t.opened("High Card", options, seeded)
        case ev.HighCardRoundDealt(round=round, cards=cards):
            mine = t.own(cards)
            yours = "" if mine is None else f" Your card: {t.cards([mine])}."
            return f"Round {round} was dealt.{yours}"
        case ev.HighCardRevealed(seat=seat):
            return f"{t.Who(seat)} stayed in."
        case ev.HighCardFolded(seat=seat):
            return f"{t.Who(seat)} folded."
        case ev.HighCardRoundEnded(round=round, cards=cards, winner=winner):
            shown = "; ".join(f"{t.who(seat)} {t.cards([c])}" for seat, c in enumerate(cards))
            return f"Round {round} is over: {shown}; {t.who(winner)} won it."
        case ev.HighCardMatchEnded(winners=winners):
            return f"The match is over; won: {t.everyone(winners)}."
    return None
