"""A Cheat table's events in words for one viewer (docs/api.md, "Records"): each deal, play,
call, pile and round's result, and the viewer's own cards where its events show them.

A seat's cards are named to that seat alone (its hand at the deal, what it put down, a pile it
took), whatever the event holds; the cards a call turns up are named to everyone.
"""

from __future__ import annotations

from collections.abc import Sequence

from kronikas_rules.account import Teller, plural, rank_plural
from kronikas_rules.cheat import events as ev

TITLE = "Cheat"


def account(events: Sequence[ev.Event], viewer: int | None, names: Sequence[str]) -> str:
    """The events (redacted for `viewer`, a seat or None for a spectator) in words, round by
    round; `names` are the seats' names."""
    teller = Teller(viewer, names)
    return teller.told(events, lambda event: _line(event, teller), ev.CheatRoundDealt)


def _own(teller: Teller, seat: int, cards: Sequence[str] | None) -> str:
    """`: the Seven of Hearts and …` when the cards are the viewer's and shown to it, else ``."""
    return f": {teller.cards(cards)}" if cards and teller.mine(seat) else ""


def _line(event: ev.Event, t: Teller) -> str | None:
    """The event's line, or None for one the shared teller tells."""
    match event:
        case ev.CheatGameCreated(options=options, seeded=seeded):
            return t.opened(TITLE, options, seeded)
        case ev.CheatRoundDealt():
            return _dealt(event, t)
        case ev.CheatCardsPlayed(seat=seat, count=count, rank=rank, cards=cards):
            return f"{t.Who(seat)} put down {plural(count, 'card')} as {rank_plural(rank)}" + (
                f"{_own(t, seat, cards)}."
            )
        case ev.CheatCalled(caller=caller, seat=seat, rank=rank, cards=cards, honest=honest):
            verdict = "honest" if honest else "a lie"
            return (
                f"{t.Who(caller)} called “Cheat!” on {t.whose(seat)} {rank_plural(rank)}: "
                f"{t.cards(cards)} turned up — {verdict}."
            )
        case ev.CheatPileTaken(seat=seat, count=count, turn=turn, cards=cards):
            then = "" if turn is None else f" {t.Who(turn)} played next."
            took = f"{t.Who(seat)} took the pile ({plural(count, 'card')})"
            return f"{took}{_own(t, seat, cards)}.{then}"
        case ev.CheatPenaltyTaken(seat=seat, count=count, cards=cards):
            return (
                f"The Pale Chronicler went uncalled: {t.who(seat)} took the pile "
                f"({plural(count, 'card')}){_own(t, seat, cards)}."
            )
        case ev.CheatPlayAccepted(seat=seat, player=player):
            return f"{t.Who(seat)} let {t.whose(player)} last play stand."
        case ev.CheatRoundEnded():
            return _round_ended(event, t)
        case ev.CheatMatchEnded(winners=winners, points=points, reason=reason):
            cap = " (the table reached its most events)" if reason == "event_cap" else ""
            won = f"won: {t.everyone(winners)}" if winners else "nobody won"
            return f"The match is over{cap}; {won}. Points: {t.by_seat(points)}."
    return None


def _dealt(event: ev.CheatRoundDealt, t: Teller) -> str:
    aside = f", {plural(event.set_aside, 'card')} set aside" if event.set_aside else ""
    line = (
        f"Round {event.round}: {t.who(event.dealer)} dealt{aside}. "
        f"{t.Who(event.turn)} started, announcing {rank_plural(event.rank)}."
    )
    hand = t.own(event.hands)
    if hand is not None:
        line += f" Your hand ({plural(len(hand), 'card')}): {t.cards(hand)}."
    return line


def _round_ended(event: ev.CheatRoundEnded, t: Teller) -> str:
    if event.reason == "max_plays":
        how = "it reached its most plays, and the fewest cards placed first"
    else:
        how = f"{t.who(event.winner)} went out first"
    return (
        f"Round {event.round} is over: {how}. Cards left: {t.by_seat(event.hand_sizes)}. "
        f"Places: {t.by_seat(event.places)}. Points: {t.by_seat(event.points)}; "
        f"totals: {t.by_seat(event.totals)}."
    )
