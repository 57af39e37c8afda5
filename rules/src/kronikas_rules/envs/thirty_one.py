"""Thirty-One as decisions, actions and observations (the README's "Environments" tells it in
full).

Decisions (`Decision.kind`, the view's `thirty_one.phase`): `dealer_choice` (the dealer keeps
or exchanges), `turns` (swap, swap_all, pass, show), `last_circuit` (swap, swap_all, pass). One
action is one command.

Actions (14): 0 `keep`, 1 `exchange`, 2–10 `swap` of the hand's card at position i (0–2) for
the table's card at position j (0–2) as action 2 + 3i + j, 11 `swap_all`, 12 `pass`, 13 `show`.
A hand's and the table's cards keep their positions (docs/rules.md).
"""

from __future__ import annotations

from typing import Final, NamedTuple, cast

import msgspec
import numpy as np

import kronikas_rules.thirty_one.events as ev
import kronikas_rules.thirty_one.states as st
from kronikas_rules.cards import COLOURED, RANKS, SUITS, Card
from kronikas_rules.engine import View, tag_of
from kronikas_rules.envs.decisions import (
    Decision,
    Encoding,
    Mask,
    Observation,
    Resolved,
    SeatInfo,
    first_legal,
    place_rewards_of,
    table_state,
)
from kronikas_rules.table import Table
from kronikas_rules.thirty_one.commands import Exchange, Keep, Pass, Show, Swap, SwapAll
from kronikas_rules.thirty_one.legal import allowed, choices
from kronikas_rules.thirty_one.options import ThirtyOneOptions, ThirtyOneTableOptions
from kronikas_rules.thirty_one.scoring import THREE_ACES, score, swapped
from kronikas_rules.thirty_one.states import DealerChoice, LastCircuit, Turns
from kronikas_rules.thirty_one.view_types import ThirtyOneGameView

KIND: Final = "thirty_one"
CODES: Final[tuple[Card, ...]] = (*(r + s for r in RANKS for s in SUITS), COLOURED)
"""The cards in rank order (7H 7B 7L 7A 8H … AA, XC): an observation's one-hot index."""
INDEX: Final[dict[Card, int]] = {card: i for i, card in enumerate(CODES)}
C: Final = len(CODES)
KEEP, EXCHANGE, SWAP, SWAP_ALL, PASS, SHOW = 0, 1, 2, 11, 12, 13
NUM_ACTIONS: Final = 14
ACTION_NAMES: Final[tuple[str, ...]] = (
    "keep",
    "exchange",
    *(f"swap hand[{i}] for table[{j}]" for i in range(3) for j in range(3)),
    "swap_all",
    "pass",
    "show",
)
KINDS: Final = ("dealer_choice", "turns", "last_circuit")
_PLAIN: Final[dict[str, int]] = {
    "keep": KEEP,
    "exchange": EXCHANGE,
    "swap_all": SWAP_ALL,
    "pass": PASS,
    "show": SHOW,
}
_COMMANDS: Final[dict[int, msgspec.Struct]] = {
    KEEP: Keep(),
    EXCHANGE: Exchange(),
    SWAP_ALL: SwapAll(),
    PASS: Pass(),
    SHOW: Show(),
}


class ThirtyOneMemory:
    """What a seat saw of each other seat's hand in the round: the cards it took from the table
    in public (a swap, a swap_all, the dealer's exchange) and has not given back, or showed."""

    __slots__ = ("known", "table")

    def __init__(self, seat: int) -> None:
        self.known: dict[int, set[Card]] = {}
        self.table: list[Card] = []

    def see(self, event: msgspec.Struct) -> None:
        """Fold one event, as the seat's events page holds it."""
        match event:
            case ev.ThirtyOneCardSwapped(seat=seat, give=give, take=take):
                known = self.known.setdefault(seat, set())
                known.discard(give)
                known.add(take)
                self.table = [give if card == take else card for card in self.table]
            case (
                ev.ThirtyOneHandsSwapped(seat=seat, table=table)
                | ev.ThirtyOneHandExchanged(seat=seat, table=table)
            ):
                self.known[seat] = set(self.table)
                self.table = list(table)
            case ev.ThirtyOneHandShown(seat=seat, hand=hand):
                self.known[seat] = set(hand)
            case ev.ThirtyOneRoundDealt(table=table):
                self.known, self.table = {}, list(table)
            case _:
                pass


def _view(info: SeatInfo) -> ThirtyOneGameView:
    return cast(ThirtyOneGameView, info.view)


def observation_size(players: int) -> int:
    """The observation's length at a table of `players` seats (`observation` lists its parts)."""
    return 6 * C + 3 + 1 + 9 + 1 + 3 + 8 * players + 2 * players * C


def _slots(into: list[float], at: int, cards: list[Card]) -> int:
    """One-hot each card of a hand or the table by its position; the next free index."""
    for position, card in enumerate(cards[:3]):
        into[at + position * C + INDEX[card]] = 1.0
    return at + 3 * C


class _Facts(NamedTuple):
    """What the observation and the mask read of a seat, as its view shows it: read from the
    view (live), or from the state without building the view (in-process)."""

    players: int
    hand: list[Card]
    table: list[Card]
    circuit: int | None
    passed: set[int]
    shown: list[list[Card] | None] | None
    lives: list[int]
    out: list[bool]
    holds: list[bool]
    dealer: int | None
    turn: int | None
    lost: set[int]
    options: ThirtyOneOptions | ThirtyOneTableOptions
    legal: list[str]
    swaps: list[tuple[Card, Card]]


def _facts(info: SeatInfo) -> _Facts:
    """The seat's facts: from the table's state in-process, else from its view (once for the
    decision: its observation and its mask read them)."""
    kept: _Facts | None = info.scratch.get("_facts") if info.kind is not None else None
    if kept is None:
        kept = _read_facts(info)
        if info.kind is not None:
            info.scratch["_facts"] = kept
    return kept


def _read_facts(info: SeatInfo) -> _Facts:
    state = table_state(info)
    if state is not None:
        return _facts_of_state(cast(st.State, state), info.seat)
    view = _view(info)
    middle, me = view.thirty_one, view.me
    table = list(middle.table) if middle is not None else []
    return _Facts(
        players=len(view.players),
        hand=list(me.hand) if me is not None else [],
        table=table,
        circuit=middle.circuit if middle is not None else None,
        passed=set(middle.passed) if middle is not None else set(),
        shown=[None if h is None else list(h) for h in middle.shown] if middle else None,
        lives=[p.lives for p in view.players],
        out=[p.out for p in view.players],
        holds=[p.hand_size > 0 for p in view.players],
        dealer=view.dealer,
        turn=view.turn,
        lost=set(view.last_round.lost_life) if view.last_round is not None else set(),
        options=view.options,
        legal=list(view.legal or []),
        swaps=[(c.give, c.take) for c in me.swaps] if me is not None else [],
    )


def _facts_of_state(state: st.State, seat: int) -> _Facts:
    """The seat's facts from the state, as `thirty_one.view` would show them (the tests hold
    the two to one another at every decision)."""
    game = state.match
    n = len(game.seats)
    deal = st.deal_of(state)
    hands = deal.hands if deal is not None else ((),) * n
    circuit: int | None = None
    passed: set[int] = set()
    shown: list[list[Card] | None] | None = None
    turn: int | None = None
    if isinstance(state, st.Turns):
        circuit = state.turns // len(state.deal.order) + 1
        passed = {s for s in range(n) if state.passed[s]}
        shown, turn = [None] * n, state.turn
    elif isinstance(state, st.LastCircuit):
        shown = [None if hand is None else list(hand) for hand in state.shown]
        turn = state.turn
    elif isinstance(state, st.DealerChoice):
        shown, turn = [None] * n, game.dealer
    legal = allowed(state, seat) if not game.seats[seat].left else []
    swaps = [
        (move.give, move.take)
        for move in (choices(state, seat, "swap") if "swap" in legal else [])
        if isinstance(move, Swap)
    ]
    return _Facts(
        players=n,
        hand=list(hands[seat]),
        table=list(deal.table) if deal is not None else [],
        circuit=circuit,
        passed=passed,
        shown=shown,
        lives=list(game.lives),
        out=list(game.out),
        holds=[len(hand) > 0 for hand in hands],
        dealer=game.dealer,
        turn=turn,
        lost=set(game.last_round.lost_life) if game.last_round is not None else set(),
        options=game.options,
        legal=legal,
        swaps=swaps,
    )


def observation(info: SeatInfo) -> Observation:
    """The seat's observation, every entry in [0, 1]; seats are listed from the seat itself
    round the table (`rel` = (seat - me) mod n). In order: its hand and the table (one-hot by
    position); the decision (one-hot dealer_choice, turns, last_circuit); the hand's score (/
    33), the score after each swap i, j (/ 33, at 3i + j), after swap_all (/ 33); the circuit
    (/ max_circuits), the turns left before a show is forced (/ circuits), whether the
    Chronicler is in; by seat: lives (/ the table's lives), out, passed last turn, dealer, on
    turn, showed this round, lost a life last round, holds cards; by seat: its shown hand, and
    the cards it took in public and still holds (each a set of codes)."""
    facts = _facts(info)
    n, me = facts.players, info.seat
    # A list, made an array once: numpy's item writes would cost more than the rest.
    out = [0.0] * observation_size(n)
    hand, table = facts.hand, facts.table
    at = _slots(out, 0, hand)
    at = _slots(out, at, table)
    if info.kind is not None:
        out[at + KINDS.index(info.kind)] = 1.0
    at += 3
    out[at] = score(hand) / THREE_ACES if len(hand) == 3 else 0.0
    at += 1
    if len(hand) == 3 and len(table) == 3:
        hand_t = tuple(hand)
        for i in range(3):
            for j in range(3):
                out[at + 3 * i + j] = score(swapped(hand_t, hand[i], table[j])) / THREE_ACES
    at += 9
    out[at] = score(table) / THREE_ACES if len(table) == 3 else 0.0
    at += 1
    options = facts.options
    circuits, circuit = options.max_circuits, facts.circuit
    if circuit is not None and circuits is not None:
        out[at] = min(1.0, circuit / circuits)
        out[at + 1] = max(0.0, (circuits - circuit + 1) / circuits)
    out[at + 2] = float(options.chronicler)
    at += 3
    lives = max(1, options.lives)
    shown = facts.shown
    for seat in range(n):
        rel = (seat - me) % n
        out[at + rel] = min(1.0, facts.lives[seat] / lives)
        out[at + n + rel] = float(facts.out[seat])
        out[at + 2 * n + rel] = float(seat in facts.passed)
        out[at + 3 * n + rel] = float(seat == facts.dealer)
        out[at + 4 * n + rel] = float(seat == facts.turn)
        out[at + 5 * n + rel] = float(shown is not None and shown[seat] is not None)
        out[at + 6 * n + rel] = float(seat in facts.lost)
        out[at + 7 * n + rel] = float(facts.holds[seat])
    at += 8 * n
    for seat, shown_hand in enumerate(shown or ()):
        for card in shown_hand or ():
            out[at + ((seat - me) % n) * C + INDEX[card]] = 1.0
    at += n * C
    memory = cast(ThirtyOneMemory, info.memory)
    for seat, cards in memory.known.items():
        if seat != me:
            for card in cards:
                out[at + ((seat - me) % n) * C + INDEX[card]] = 1.0
    return np.array(out, dtype=np.float32)


def mask(info: SeatInfo) -> Mask:
    """The actions the view's `legal` allows, swaps as `me.swaps` lists them."""
    out = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if info.kind is None:
        return out
    facts = _facts(info)
    for name in facts.legal:
        plain = _PLAIN.get(name)
        if plain is not None:
            out[plain] = 1
    hand, table = facts.hand, facts.table
    for give, take in facts.swaps:
        out[SWAP + 3 * hand.index(give) + table.index(take)] = 1
    return out


def resolve(info: SeatInfo, action: int) -> Resolved:
    """Every action is one command."""
    plain = _COMMANDS.get(action)
    if plain is not None:
        return Resolved((), True, plain)
    view = _view(info)
    i, j = divmod(action - SWAP, 3)
    hand = view.me.hand if view.me is not None else []
    table = view.thirty_one.table if view.thirty_one is not None else []
    return Resolved((), True, Swap(give=hand[i], take=table[j]))


def action_for(info: SeatInfo, command: msgspec.Struct | None) -> int:
    """The action of `command` (the first legal one when it does not fit)."""
    allowed = mask(info)
    wanted: int | None = None
    match command:
        case Swap(give=give, take=take):
            view = _view(info)
            hand = view.me.hand if view.me is not None else []
            table = view.thirty_one.table if view.thirty_one is not None else []
            if give in hand and take in table:
                wanted = SWAP + 3 * hand.index(give) + table.index(take)
        case Keep() | Exchange() | SwapAll() | Pass() | Show():
            wanted = _PLAIN[tag_of(type(command))]
        case _:
            pass
    if wanted is not None and allowed[wanted]:
        return wanted
    return first_legal(allowed)


def decisions(table: Table) -> list[Decision]:
    """The one seat the table waits for, deciding in its phase."""
    state = table.state
    match state:
        case DealerChoice():
            dealer = state.match.dealer
            return [] if dealer is None else [Decision(dealer, "dealer_choice")]
        case Turns() if state.turn is not None:
            return [Decision(state.turn, "turns")]
        case LastCircuit() if state.turn is not None:
            return [Decision(state.turn, "last_circuit")]
    return []


def decision_of(view: View, answered: bool) -> str | None:
    """The view's phase, when the seat may make a move of the game now."""
    typed = cast(ThirtyOneGameView, view)
    legal = typed.legal or []
    if typed.thirty_one is None or not any(name in _PLAIN or name == "swap" for name in legal):
        return None
    return typed.thirty_one.phase


def rewards(table: Table) -> list[float]:
    """From the match's places (`Table.places()`): a seat out earlier places lower than one out
    later, the winner first; seats out in the same round share their places (a match the cap
    of events ended places the seats still in by their lives)."""
    if not table.finished:
        return [0.0] * len(table.view(None).players)
    return place_rewards_of(table.places())


ENCODING: Final = Encoding(
    kind=KIND,
    num_actions=NUM_ACTIONS,
    action_names=ACTION_NAMES,
    decisions=decisions,
    new_memory=ThirtyOneMemory,
    observation_size=observation_size,
    observation=observation,
    mask=mask,
    resolve=resolve,
    action_for=action_for,
    rewards=rewards,
    decision_of=decision_of,
)
