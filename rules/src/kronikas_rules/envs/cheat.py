"""Cheat as decisions, actions and observations (the README's "Environments" tells it in full).

Decisions (`Decision.kind`):
- `play`: the player on turn puts cards down, picked one at a time (`pick <card>`, a card code
  it still holds, at most `max_play`), then `done` (at least one pick). The table announces the
  count and the rank due.
- `answer`: after every play, each seat but its player's decides once whether to `call` it or
  `let_go`, in order from the seat after the player round the table (so the next player first);
  the first `call` is sent and closes the window. When everyone lets it go, the next player
  decides `play` — or `accept`, when the play emptied its player's hand or was the round's last
  allowed (`accept` is then the one action).

Actions (38): 0–33 pick a card (`CODES`, hand order: 7H 7B 7L 7A 8H … AA, then XC, XP), 34
`done`, 35 `call`, 36 `let_go`, 37 `accept`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Final, cast

import msgspec
import numpy as np

import kronikas_rules.cheat.events as ev
from kronikas_rules.cards import COLOURED, PALE, RANKS, SUITS, Card
from kronikas_rules.cheat.commands import Accept, Call, Play
from kronikas_rules.cheat.states import ToPlay, Window
from kronikas_rules.cheat.view import CheatGameView
from kronikas_rules.engine import View
from kronikas_rules.envs.decisions import (
    Decision,
    Encoding,
    Mask,
    Observation,
    Resolved,
    SeatInfo,
    first_legal,
    place_rewards_of,
)
from kronikas_rules.table import Table

KIND: Final = "cheat"
CODES: Final[tuple[Card, ...]] = (*(r + s for r in RANKS for s in SUITS), COLOURED, PALE)
"""The cards in hand order; action i < 34 picks `CODES[i]`."""
INDEX: Final[dict[Card, int]] = {card: i for i, card in enumerate(CODES)}
C: Final = len(CODES)
DONE: Final = C
CALL: Final = C + 1
LET_GO: Final = C + 2
ACCEPT: Final = C + 3
NUM_ACTIONS: Final = C + 4
ACTION_NAMES: Final[tuple[str, ...]] = (
    *(f"pick {card}" for card in CODES),
    "done",
    "call",
    "let_go",
    "accept",
)
KINDS: Final = ("play", "answer", "accept")
RANK_INDEX: Final[dict[str, int]] = {rank: i for i, rank in enumerate(RANKS)}
R: Final = len(RANKS)
MOST_CARDS: Final = 2 * 32 + 2
"""The most cards a Cheat table holds: two decks and the Chroniclers (every count's scale)."""


class CheatMemory:
    """What a seat was shown of the round beyond its view: the plays made, its own cards lying
    on the pile, and where it last saw each card go into another seat's hand (a pile it knew
    cards of, turned-up cards, a penalty's Pale Chronicler), until it saw the card leave (turned
    up from that seat's play, or back in its own hand): a card is known in one place at a time,
    two with two decks."""

    __slots__ = ("decks", "known", "me", "on_pile", "plays", "turned", "turned_from")

    def __init__(self, seat: int) -> None:
        self.me = seat
        self.decks = 1
        self.plays = 0
        self.on_pile: Counter[Card] = Counter()
        self.known: dict[int, Counter[Card]] = {}
        self.turned: list[Card] = []
        self.turned_from = -1

    def see(self, event: msgspec.Struct) -> None:
        """Fold one event, as the seat's events page holds it."""
        match event:
            case ev.CheatCardsPlayed(seat=seat, cards=cards):
                self.plays += 1
                if seat == self.me and cards:
                    self.on_pile.update(cards)
            case ev.CheatCalled(seat=seat, cards=cards):
                self.turned, self.turned_from = list(cards), seat
                self._forget(cards, seat)
            case ev.CheatPileTaken(seat=seat, cards=cards):
                if seat == self.me:
                    self._forget(cards or ())
                else:
                    mine = [] if self.turned_from == self.me else self.turned
                    self._went(seat, [*self.on_pile.elements(), *mine])
                self.on_pile, self.turned = Counter(), []
            case ev.CheatPenaltyTaken(seat=seat, cards=cards):
                if seat == self.me:
                    self._forget(cards or ())
                else:
                    self._went(seat, [*self.on_pile.elements(), PALE])
                self.on_pile = Counter()
            case ev.CheatRoundDealt(hands=hands, set_aside=aside, deck_size=size):
                own = next((len(hand) for hand in hands if hand is not None), 0)
                self.decks = 2 if (size or aside + own * len(hands)) > MOST_CARDS // 2 else 1
                self.plays, self.on_pile, self.known, self.turned = 0, Counter(), {}, []
            case _:
                pass

    def _copies(self, card: Card) -> int:
        return 1 if card[0] == "X" else self.decks

    def _forget(self, cards: Iterable[Card], seat: int | None = None) -> None:
        """One copy of each card is no longer where it was last seen (in `seat`, or anywhere)."""
        holders = [seat] if seat is not None else sorted(self.known)
        for card in cards:
            for holder in holders:
                known = self.known.get(holder)
                if known is not None and known[card] > 0:
                    known[card] -= 1
                    break

    def _went(self, seat: int, cards: Iterable[Card]) -> None:
        """The cards went into `seat`'s hand: seen there last, so no longer elsewhere."""
        known = self.known.setdefault(seat, Counter())
        for card in cards:
            known[card] += 1
            while sum(k[card] for k in self.known.values()) > self._copies(card):
                elsewhere = [s for s, k in sorted(self.known.items()) if s != seat and k[card]]
                if not elsewhere:
                    known[card] = self._copies(card)
                    break
                self.known[elsewhere[0]][card] -= 1


def _view(info: SeatInfo) -> CheatGameView:
    return cast(CheatGameView, info.view)


def observation_size(players: int) -> int:
    """The observation's length at a table of `players` seats (`observation` lists its parts)."""
    return 5 * C + 3 + 2 * R + 9 + 5 * players + 3 * players + players * C


def _counts(into: list[float], at: int, cards: Iterable[Card] | Counter[Card]) -> int:
    """Add each card's count / 2 at `at` + its code's index (two copies at most, two decks);
    the next free index."""
    if isinstance(cards, Counter):
        for card, k in cards.items():
            if k > 0:
                into[at + INDEX[card]] = min(1.0, k / 2)
    else:
        for card in cards:
            into[at + INDEX[card]] += 0.5
    return at + C


def observation(info: SeatInfo) -> Observation:
    """The seat's observation (`observe` says what it holds). A play's picks change only their
    own entries: the rest is made once for the decision and kept in its `scratch`."""
    if info.kind is None:
        return observe(info, ())
    base: Observation | None = info.scratch.get("_observation")
    if base is None:
        base = info.scratch["_observation"] = observe(info, ())
    if not info.picks:
        return base.copy()
    out = base.copy()
    for card in info.picks:
        out[C + INDEX[card]] += 0.5
    out[_PICKED] = len(info.picks) / _view(info).options.max_play
    return out


_PICKED: Final = 5 * C + 3 + 2 * R + 6
"""Where the observation holds how many cards are picked (/ max_play)."""


def observe(info: SeatInfo, picks: Sequence[Card]) -> Observation:
    """The seat's observation, every entry in [0, 1]; seats are listed from the seat itself
    round the table (`rel` = (seat - me) mod n). In order: its hand (count of each code / 2),
    the picks of its play so far (/ 2), its own cards lying on the pile (/ 2), the last call's
    turned-up cards (/ 2), the cards it saw the last penalty bring back (XP only); the decision
    (one-hot play, answer, accept); the rank due (one-hot), the last play's announced rank
    (one-hot); the pile size, the cards set aside, the plays of the round, the last play's
    count (/ 4), whether the window is open, whether the last call found a lie, the picks made
    (/ max_play), max_play (/ 4), whether Chroniclers are in; by seat: cards in hand, points (/
    the most a match gives), whether it made the last play, whether it called last, whether it
    took the last penalty; by seat: whether it is on turn, whether it dealt, whether the last
    call's pile went to it; by seat: the cards it saw go into that seat's hand (/ 2)."""
    view = _view(info)
    n = len(view.players)
    # A list, made an array once: numpy's item writes would cost more than the rest.
    out = [0.0] * observation_size(n)
    me = info.seat
    memory = cast(CheatMemory, info.memory)
    table = view.cheat
    hand = view.me.hand if view.me is not None else []
    at = _counts(out, 0, hand)
    at = _counts(out, at, picks)
    at = _counts(out, at, memory.on_pile)
    call = table.last_call if table is not None else None
    at = _counts(out, at, call.cards if call is not None else [])
    if table is not None and table.last_penalty is not None:
        out[at + INDEX[PALE]] = 1.0
    at += C
    if info.kind is not None:
        out[at + KINDS.index(info.kind)] = 1.0
    at += 3
    if table is not None:
        out[at + RANK_INDEX[table.rank]] = 1.0
    at += R
    play = table.last_play if table is not None else None
    if play is not None:
        out[at + RANK_INDEX[play.rank]] = 1.0
    at += R
    options = view.options
    limit = options.play_limit or 10_000
    if table is not None:
        out[at] = table.pile_size / MOST_CARDS
        out[at + 1] = table.set_aside / MOST_CARDS
        out[at + 2] = min(1.0, memory.plays / limit)
        out[at + 3] = play.count / 4 if play is not None else 0.0
        out[at + 4] = float(table.window_open)
        out[at + 5] = float(call is not None and not call.honest)
    out[at + 6] = len(picks) / options.max_play
    out[at + 7] = options.max_play / 4
    out[at + 8] = float(options.chroniclers)
    at += 9
    most_points = max(1, options.rounds * max(options.place_points))
    penalty = table.last_penalty if table is not None else None
    for player in view.players:
        rel = (player.seat - me) % n
        out[at + rel] = player.hand_size / MOST_CARDS
        out[at + n + rel] = min(1.0, player.points / most_points)
    if play is not None:
        out[at + 2 * n + (play.seat - me) % n] = 1.0
    if call is not None:
        out[at + 3 * n + (call.caller - me) % n] = 1.0
    if penalty is not None:
        out[at + 4 * n + (penalty.seat - me) % n] = 1.0
    at += 5 * n
    if view.turn is not None:
        out[at + (view.turn - me) % n] = 1.0
    if view.dealer is not None:
        out[at + n + (view.dealer - me) % n] = 1.0
    if call is not None:
        out[at + 2 * n + (call.taker - me) % n] = 1.0
    at += 3 * n
    for seat, cards in memory.known.items():
        if seat != me:
            _counts(out, at + ((seat - me) % n) * C, cards)
    return np.array(out, dtype=np.float32)


def mask(info: SeatInfo) -> Mask:
    """The actions the seat's decision allows: picks of cards it still holds (beyond those
    picked) while fewer than `max_play` are picked, `done` after a pick; `call` and `let_go`;
    `accept`."""
    out = np.zeros(NUM_ACTIONS, dtype=np.int8)
    match info.kind:
        case "play":
            view = _view(info)
            picked = len(info.picks)
            if picked < view.options.max_play and view.me is not None:
                left = Counter(view.me.hand)
                left.subtract(info.picks)
                for card, k in left.items():
                    if k > 0:
                        out[INDEX[card]] = 1
            if picked:
                out[DONE] = 1
        case "answer":
            out[CALL] = out[LET_GO] = 1
        case "accept":
            out[ACCEPT] = 1
        case _:
            pass
    return out


def resolve(info: SeatInfo, action: int) -> Resolved:
    """A pick adds a card to the play; `done` sends it; `call` and `accept` are sent;
    `let_go` ends the seat's answer with nothing sent."""
    if action < C:
        return Resolved((*info.picks, CODES[action]), finished=False)
    if action == DONE:
        return Resolved((), True, Play(cards=list(info.picks)))
    if action == CALL:
        return Resolved((), True, Call())
    if action == ACCEPT:
        return Resolved((), True, Accept())
    return Resolved((), True, None)


def action_for(info: SeatInfo, command: msgspec.Struct | None) -> int:
    """The next action toward `command`: a play's next card not yet picked, then `done`;
    `call`; `let_go` for anything else while answering; `accept`."""
    allowed = mask(info)
    wanted: int | None = None
    match command:
        case Play(cards=cards) if info.kind == "play":
            left = Counter(cards)
            left.subtract(info.picks)
            missing = [card for card in cards if left[card] > 0]
            wanted = INDEX[missing[0]] if missing else DONE
        case Call():
            wanted = CALL if info.kind == "answer" else None
        case Accept():
            wanted = ACCEPT
        case _:
            pass
    if wanted is None and info.kind == "answer":
        wanted = LET_GO
    if wanted is not None and allowed[wanted]:
        return wanted
    return first_legal(allowed)


def decisions(table: Table) -> list[Decision]:
    """A play due: its player plays. The window open: every seat but the player's answers,
    from the next player round the table; then the next player plays, or accepts."""
    state = table.state
    match state:
        case ToPlay():
            return [Decision(state.deal.turn, "play")]
        case Window():
            n = len(state.match.seats)
            top = state.top.seat
            answers = [Decision((top + k) % n, "answer") for k in range(1, n)]
            last = "accept" if state.closes_round else "play"
            return [*answers, Decision(state.deal.turn, last)]
    return []


def decision_of(view: View, answered: bool) -> str | None:
    """The decision a seat's view asks of it: `answer` while the window is open and the seat may
    call (until it let the play go), else `play` or `accept` when it is on turn."""
    legal = view_legal(view)
    table = _cheat_table(view)
    if "call" in legal and table is not None and table.window_open and not answered:
        return "answer"
    if "play" in legal:
        return "play"
    if "accept" in legal:
        return "accept"
    return None


def view_legal(view: View) -> list[str]:
    """The command types the view says its seat may send."""
    return list(cast(CheatGameView, view).legal or [])


def _cheat_table(view: View) -> Any:
    return cast(CheatGameView, view).cheat


def rewards(table: Table) -> list[float]:
    """From the match's places (`Table.places()`: by points); seats tied share their places."""
    if not table.finished:
        return [0.0] * len(table.view(None).players)
    return place_rewards_of(table.places())


ENCODING: Final = Encoding(
    kind=KIND,
    num_actions=NUM_ACTIONS,
    action_names=ACTION_NAMES,
    decisions=decisions,
    new_memory=CheatMemory,
    observation_size=observation_size,
    observation=observation,
    mask=mask,
    resolve=resolve,
    action_for=action_for,
    rewards=rewards,
    decision_of=decision_of,
)
