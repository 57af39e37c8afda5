"""Determinising a Cheat seat's round: where the cards it cannot see may be, from what it saw.

A seat sees its own hand, every hand's size, the pile's size and the plays on it (who, how many,
announced as what), the cards a call turns up, the piles it takes, and its own plays. `Seen`
folds the round's events as the seat saw them (redacted for it) into what that tells of each
card it does not hold: a card it saw go into another seat's hand stays there, or went face down
on the pile with one of that seat's later plays, and moves on with the pile to whoever takes it;
the Pale Chronicler is in no play whose window closed without a penalty. `sample` then deals
every hidden card to a place it may be (another seat's hand, another seat's play on the pile, the
cards set aside), each place getting exactly as many as the seat's view says it holds, and
`world` builds the rules' own state of that deal, for `kronikas_rules.cheat.decide` and `evolve`
to play on.

What is known is kept on the safe side: with two decks, two copies of a card are told apart only
as far as the seat could, and whatever cannot be settled is left open; a sample never puts a card
where the seat knows it is not.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import msgspec

from kronikas_rules import cheat
from kronikas_rules.cards import COLOURED, PALE, Card, make_deck
from kronikas_rules.cheat import states as st
from kronikas_rules.seating import Player

Place = tuple[str, int]
"""Where a hidden card may be: ("hand", seat), ("play", i) — the i-th play on the pile — or
("aside", 0), the cards set aside at the deal."""
ASIDE: Place = ("aside", 0)


def is_true(card: Card, rank: str) -> bool:
    """Whether the card counts as `rank` when its play is called (a Chronicler always does)."""
    return card[0] == "X" or card[:-1] == rank


@dataclass
class PilePlay:
    """One play on the pile: who, how many cards announced as what; its cards when the seat
    knows them (its own), and whether its window closed (a later play landed on it)."""

    seat: int
    count: int
    rank: str
    cards: list[Card] | None = None
    closed: bool = False


@dataclass
class Tracked:
    """One card the seat saw go somewhere hidden, and the places it may be now."""

    card: Card
    places: set[Place]


@dataclass
class Seen:
    """What seat `me` knows of a round's hidden cards, folded from its redacted events."""

    me: int
    players: int = 0
    plays: list[PilePlay] = field(default_factory=list)
    tracked: list[Tracked] = field(default_factory=list)
    made: int = 0
    """The plays made in the round so far (its limit of plays counts them)."""

    @classmethod
    def of(cls, me: int, events: Sequence[cheat.Event]) -> Seen:
        """The knowledge of the round whose events (from its deal, redacted for `me`) these are."""
        seen = cls(me)
        for event in events:
            seen.fold(event)
        return seen

    def fold(self, event: cheat.Event) -> None:
        """Take note of one event as the seat saw it."""
        match event:
            case cheat.CheatRoundDealt():
                self.players, self.plays, self.tracked = len(event.hands), [], []
                self.made = 0
            case cheat.CheatCardsPlayed(seat=seat):
                self.made += 1
                self._close()
                index = len(self.plays)
                mine = list(event.cards or ()) if seat == self.me else None
                self.plays.append(PilePlay(seat, event.count, event.rank, mine))
                if seat != self.me:
                    for known in self.tracked:
                        if ("hand", seat) in known.places:
                            known.places.add(("play", index))
            case cheat.CheatCalled():
                self._turned_up(list(event.cards))
            case cheat.CheatPenaltyTaken(seat=seat):
                if seat != self.me and self.plays:
                    self._pale_in_top()
                self._taken(seat, event.cards)
            case cheat.CheatPileTaken(seat=seat):
                self._taken(seat, event.cards)
            case cheat.CheatPlayAccepted():
                self._close()
            case _:
                pass

    def _close(self) -> None:
        """The open play's window closed uncalled, with no penalty (that would have taken the
        pile first): the play held no Pale Chronicler."""
        if not self.plays:
            return
        self.plays[-1].closed = True
        place: Place = ("play", len(self.plays) - 1)
        for known in self.tracked:
            if known.card == PALE:
                known.places.discard(place)
        self.tracked = [known for known in self.tracked if known.places]

    def _turned_up(self, cards: list[Card]) -> None:
        """The top play's cards are turned up: known, and no tracked card is in it but those."""
        if not self.plays:
            return
        top, index = self.plays[-1], len(self.plays) - 1
        if top.seat == self.me:
            return
        top.cards = cards
        self._identify(index, Counter(cards))

    def _identify(self, index: int, cards: Counter[Card]) -> None:
        """Play `index` is known to hold `cards`: no tracked card is there but those."""
        self._settle({("play", index)}, cards)

    def _settle(self, places: set[Place], cards: Counter[Card]) -> None:
        """`cards` were found at `places` (turned up, or taken by the seat itself): a tracked
        card that may have been there and is one of them is dropped (its place is known now),
        the others were elsewhere. Two copies of a card that both may have been there cannot be
        told apart: the one left may be wherever either of them could."""
        kept: list[Tracked] = []
        candidates: dict[Card, list[Tracked]] = {}
        for known in self.tracked:
            if known.places & places and cards[known.card] > 0:
                candidates.setdefault(known.card, []).append(known)
            else:
                known.places -= places
                if known.places:
                    kept.append(known)
        for card, group in candidates.items():
            where = set().union(*(known.places for known in group)) - places
            for _ in range(len(group) - cards[card]):
                if where:
                    kept.append(Tracked(card, set(where)))
        self.tracked = kept

    def _pale_in_top(self) -> None:
        """A penalty: the open play held the Pale Chronicler (everyone learns it)."""
        index = len(self.plays) - 1
        pale = next((k for k in self.tracked if k.card == PALE), None)
        if pale is None:
            self.tracked.append(Tracked(PALE, {("play", index)}))
        else:
            pale.places = {("play", index)}

    def _taken(self, seat: int, cards: list[Card] | None) -> None:
        """`seat` took the whole pile: every card on it is now in that hand."""
        plays = {("play", i) for i in range(len(self.plays))}
        known = Counter(card for play in self.plays for card in play.cards or ())
        if seat == self.me:
            # The seat now holds the pile: its cards are in its hand, which its view shows.
            self._settle(plays, Counter(cards or ()) - known)
        else:
            for tracked in self.tracked:
                if tracked.places & plays:
                    tracked.places = (tracked.places - plays) | {("hand", seat)}
            self.tracked += [Tracked(card, {("hand", seat)}) for card in known.elements()]
        self.plays = []


def deck_of(options: cheat.CheatTableOptions) -> Counter[Card]:
    """Every card of a deal at a table with these options."""
    return Counter(make_deck(options.decks, (COLOURED, PALE) if options.chroniclers else ()))


class Impossible(Exception):
    """No deal fits what the seat knows (the events and the view disagree)."""


def sample(
    view: cheat.CheatGameView,
    seen: Seen,
    rng: random.Random,
    honest: Sequence[float] = (),
    tries: int = 6,
) -> dict[Place, list[Card]]:
    """A deal of the cards the seat cannot see to the places they may be, as many to each as the
    view says. `honest[i]`: how likely the i-th play on the pile was honest; such a play is then
    filled with true cards when it can be (the sample stays consistent either way)."""
    assert view.me is not None and view.cheat is not None
    me = view.me.seat
    capacity: dict[Place, int] = {
        ("hand", p.seat): p.hand_size for p in view.players if p.seat != me
    }
    for i, play in enumerate(seen.plays):
        if play.cards is None:
            capacity[("play", i)] = play.count
    capacity[ASIDE] = view.cheat.set_aside
    hidden = deck_of(view.options) - Counter(view.me.hand)
    for play in seen.plays:
        hidden -= Counter(play.cards or ())
    if hidden.total() != sum(capacity.values()):
        raise Impossible(f"{hidden.total()} hidden cards for {sum(capacity.values())} places")
    closed = {("play", i) for i, play in enumerate(seen.plays) if play.closed}
    cards: list[tuple[Card, set[Place]]] = []
    left = Counter(hidden)
    for known in seen.tracked:
        places = known.places & capacity.keys()
        if places and left[known.card] > 0:
            left[known.card] -= 1
            cards.append((known.card, places))
    anywhere = set(capacity)
    for card in left.elements():
        cards.append((card, anywhere - closed if card == PALE else anywhere))
    for attempt in range(tries):
        # Later tries leave out the honesty guesses: they may be what does not fit.
        guesses = honest if attempt < tries // 2 else ()
        dealt = _deal(cards, capacity, seen.plays, guesses, rng)
        if dealt is not None:
            return dealt
    return _flow_deal(cards, capacity, rng)


def _deal(
    cards: list[tuple[Card, set[Place]]],
    capacity: dict[Place, int],
    plays: Sequence[PilePlay],
    honest: Sequence[float],
    rng: random.Random,
) -> dict[Place, list[Card]] | None:
    """One try: the plays guessed honest first, then the most constrained cards, each to a place
    it may be in proportion to the room left there; None when a card finds no room."""
    room = dict(capacity)
    dealt: dict[Place, list[Card]] = {place: [] for place in capacity}
    pending = list(range(len(cards)))
    rng.shuffle(pending)
    for i, chance in enumerate(honest[: len(plays)]):
        place: Place = ("play", i)
        if place not in room or rng.random() >= chance:
            continue
        fits = [j for j in pending if place in cards[j][1] and is_true(cards[j][0], plays[i].rank)]
        if len(fits) < room[place]:
            continue
        for j in rng.sample(fits, room[place]):
            dealt[place].append(cards[j][0])
            pending.remove(j)
        room[place] = 0
    pending.sort(key=lambda j: len(cards[j][1]))
    for j in pending:
        card, places = cards[j]
        open_ = [p for p in places if room[p] > 0]
        if not open_:
            return None
        weights = [room[p] for p in open_]
        chosen = rng.choices(open_, weights)[0] if len(open_) > 1 else open_[0]
        dealt[chosen].append(card)
        room[chosen] -= 1
    return dealt


def world(
    view: cheat.CheatGameView, seen: Seen, dealt: dict[Place, list[Card]], rounds_left: bool
) -> cheat.InRound:
    """The rules' state of the round as the sample deals it: hands, pile, set-aside cards, the
    rank due and who is on turn, the open play if any. Every card is a position of a made-up
    deck (no salts: nothing is committed to), and, unless `rounds_left`, the round is the
    match's last, so that playing it to its end deals nothing more."""
    assert view.me is not None and view.cheat is not None and view.turn is not None
    me = view.me.seat
    hands = [
        tuple(view.me.hand) if seat == me else st.sort_cards(dealt[("hand", seat)])
        for seat in range(len(view.players))
    ]
    plays = [
        play.cards if play.cards is not None else dealt[("play", i)]
        for i, play in enumerate(seen.plays)
    ]
    deck: list[Card] = []
    held = []
    for hand in hands:
        held.append(tuple(range(len(deck), len(deck) + len(hand))))
        deck += hand
    at = []
    for cards in plays:
        at.append(tuple(range(len(deck), len(deck) + len(cards))))
        deck += cards
    aside = dealt[ASIDE]
    deck += aside
    options = view.options
    if not rounds_left:
        options = msgspec.structs.replace(options, rounds=view.round, reveal="never")
    match = st.Match(
        options=options,
        seeded=True,
        seats=tuple(Player(id=p.id, name=p.name) for p in view.players),
        points=tuple(p.points for p in view.players),
        round=view.round,
        dealer=view.dealer or 0,
        last_round=view.last_round,
    )
    deal = st.Deal(
        deck=tuple(deck),
        salt="",
        commitment="",
        hands=tuple(hands),
        set_aside=tuple(aside),
        pile=tuple(card for cards in plays for card in cards),
        rank=view.cheat.rank,
        turn=view.turn,
        plays=seen.made,
        last_call=view.cheat.last_call,
        last_penalty=view.cheat.last_penalty,
        held=tuple(held),
        pile_at=tuple(p for positions in at for p in positions),
    )
    if view.cheat.window_open and seen.plays:
        top = seen.plays[-1]
        pile_top = st.PileTop(seat=top.seat, cards=tuple(plays[-1]), rank=top.rank, at=at[-1])
        return st.Window(match, deal, pile_top)
    return st.ToPlay(match, deal)


def _flow_deal(
    cards: list[tuple[Card, set[Place]]], capacity: dict[Place, int], rng: random.Random
) -> dict[Place, list[Card]]:
    """When random tries find no room, a deal found as a flow (cards with the same places form
    a group; augmenting paths from groups to places): one exists whenever the knowledge is
    true, though it is less evenly random."""
    groups: dict[frozenset[Place], list[Card]] = {}
    for card, places in cards:
        groups.setdefault(frozenset(places), []).append(card)
    keys = list(groups)
    rng.shuffle(keys)
    flow: dict[tuple[frozenset[Place], Place], int] = {}
    room = dict(capacity)

    def augment(group: frozenset[Place], seen: set[Place]) -> bool:
        """Find room for one more card of `group`, moving others along if need be."""
        order = list(group)
        rng.shuffle(order)
        for place in order:
            if place in seen:
                continue
            seen.add(place)
            if room[place] > 0:
                room[place] -= 1
                flow[group, place] = flow.get((group, place), 0) + 1
                return True
            for other in keys:
                if flow.get((other, place), 0) > 0 and augment(other, seen):
                    flow[other, place] -= 1
                    flow[group, place] = flow.get((group, place), 0) + 1
                    return True
        return False

    for group in keys:
        for _ in groups[group]:
            if not augment(group, set()):
                raise Impossible("no deal fits what the seat knows")
    dealt: dict[Place, list[Card]] = {place: [] for place in capacity}
    for group in keys:
        pool = list(groups[group])
        rng.shuffle(pool)
        for place in group:
            for _ in range(flow.get((group, place), 0)):
                dealt[place].append(pool.pop())
    return dealt
