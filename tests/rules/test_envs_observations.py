"""What an observation carries: never a hidden card of another seat, and the same whether the
environment builds it or the live adapter builds it from the seat's wire view and events."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
import numpy as np
import pytest
from kronikas_client.events import parse_event
from kronikas_client.models import CheatGameView as SdkCheatView
from kronikas_client.models import ThirtyOneGameView as SdkThirtyOneView

from kronikas_rules.envs import Driver, encoding_of, house_policy, random_policy
from kronikas_rules.envs import cheat as cheat_env
from kronikas_rules.envs import thirty_one as thirty_one_env
from kronikas_rules.envs.live import LiveSeat
from kronikas_rules.table import Table

SDK_VIEWS: dict[str, Any] = {"cheat": SdkCheatView, "thirty_one": SdkThirtyOneView}
MATCHES = [
    ("cheat", 2, {"chroniclers": True}, random_policy),
    ("cheat", 3, {"chroniclers": True, "rounds": 2}, house_policy),
    ("cheat", 5, {"decks": 2, "chroniclers": True}, random_policy),
    ("thirty_one", 2, {"chronicler": True}, random_policy),
    ("thirty_one", 4, {"chronicler": True, "lives": 1}, house_policy),
]


def _cards(kind: str, observation: np.ndarray, players: int) -> set[str]:
    """The card codes any card-carrying part of an observation names (hand, picks, pile,
    turned-up, shown and known cards)."""
    if kind == "cheat":
        c, codes = cheat_env.C, cheat_env.CODES
        parts = [observation[: 5 * c], observation[-players * c :]]
    else:
        c, codes = thirty_one_env.C, thirty_one_env.CODES
        parts = [observation[: 6 * c], observation[-2 * players * c :]]
    return {codes[i % c] for part in parts for i in np.flatnonzero(part)}


def _seen(driver: Driver, seat: int, after: int) -> set[str]:
    """Every card code the seat's events page shows it after version `after` (redacted)."""
    text = msgspec.json.encode(driver.table.events_for(seat, after)).decode()
    codes = cheat_env.CODES if driver.table.kind == "cheat" else thirty_one_env.CODES
    return {code for code in codes if f'"{code}"' in text}


def _hands(driver: Driver) -> list[tuple[str, ...]]:
    state: Any = driver.table.state
    deal = getattr(state, "deal", None)
    return list(deal.hands) if deal is not None else []


def _decisions(kind: str, players: int, options: dict, policy: Any, seed: int) -> Iterator[Driver]:
    """The driver at each decision of a seeded match played by `policy`."""
    driver = Driver(Table(kind, players, options=options, seed=seed), encoding_of(kind), seed)
    while driver.current is not None:
        yield driver
        seat = driver.current.seat
        driver.act(policy(driver.observe(seat), driver.info(seat)))


@pytest.mark.parametrize(("kind", "players", "options", "policy"), MATCHES)
def test_no_observation_carries_a_hidden_card_of_another_seat(
    kind: str, players: int, options: dict, policy: Any
) -> None:
    checked, cursor = 0, 0
    seen_by: list[set[str]] = [set() for _ in range(players)]
    for driver in _decisions(kind, players, options, policy, seed=21):
        hands = _hands(driver)
        for seat in range(players):
            seen_by[seat] |= _seen(driver, seat, cursor)
        cursor = driver.table.version
        for seat in range(players):
            named = _cards(kind, driver.observe(seat)["observation"], players)
            seen = seen_by[seat] | set(hands[seat] if hands else ())
            hidden = {card for other, hand in enumerate(hands) if other != seat for card in hand}
            assert not (named & (hidden - seen)), (seat, named & (hidden - seen))
            assert named <= seen
            checked += 1
    assert checked > 50


def _wire_view(driver: Driver, seat: int) -> dict[str, Any]:
    """The seat's view as the SDK parses it from the wire and gives it back (`.to_dict()`)."""
    view = msgspec.to_builtins(driver.table.view(seat))
    return dict(SDK_VIEWS[driver.table.kind].from_dict(view).to_dict())


def _wire_events(driver: Driver, seat: int, after: int) -> list[dict[str, Any]]:
    kind = driver.table.kind
    out = []
    for version, event in enumerate(driver.table.events_for(seat, after), start=after + 1):
        data = msgspec.to_builtins(event)
        wire = {"type": f"{kind}.{data['type']}", "version": version, "at": "", "data": data}
        out.append(dict(parse_event(wire).to_dict()))
    return out


@pytest.mark.parametrize(("kind", "players", "options", "policy"), MATCHES)
def test_the_adapter_observes_what_the_environment_observes(
    kind: str, players: int, options: dict, policy: Any
) -> None:
    driver = Driver(Table(kind, players, options=options, seed=33), encoding_of(kind), 33)
    seats = [LiveSeat(kind, seed=seat) for seat in range(players)]
    steps = 0
    while (current := driver.current) is not None:
        live = seats[current.seat]
        live.update(
            _wire_view(driver, current.seat), _wire_events(driver, current.seat, live.version)
        )
        assert live.seat == current.seat and live.decision == current.kind
        offline, online = driver.observe(current.seat), live.observe()
        assert np.array_equal(offline["observation"], online["observation"])
        assert np.array_equal(offline["action_mask"], online["action_mask"])
        assert live.info() == driver.info(current.seat)
        # What a policy reads beyond the arrays: the same view and the same round's events.
        assert live.info().view == driver.info(current.seat).view
        assert live.info().events == driver.info(current.seat).events
        # The policy, fed by the adapter, acts in both: the same command comes out.
        action = policy(online, live.info())
        resolved = driver.encoding.resolve(driver.info(current.seat), action)
        sent = live.act(action)
        driver.act(action)
        wanted = msgspec.to_builtins(resolved.command) if resolved.command is not None else None
        assert sent == wanted
        steps += 1
    assert steps > 20


def test_the_adapter_folds_events_only_up_to_the_view_it_was_given() -> None:
    driver = Driver(Table("thirty_one", 2, seed=8), thirty_one_env.ENCODING, seed=8)
    seat = driver.current.seat  # type: ignore[union-attr]
    live = LiveSeat("thirty_one", seat)
    early = _wire_view(driver, seat)
    driver.play_out([random_policy] * 2, most=6)
    # A view older than the events: the events beyond it wait, and the seat decides nothing.
    live.update(early, _wire_events(driver, seat, 0))
    assert live.version == early["version"] and live.ready
    later = _wire_view(driver, seat)
    live.update(later, [])
    assert live.version == later["version"] and live.ready
    # A view newer than the events it has: not ready, no decision until they come.
    behind = LiveSeat("thirty_one", seat)
    behind.update(later, _wire_events(driver, seat, 0)[:3])
    assert not behind.ready and behind.decision is None
    behind.update(later, _wire_events(driver, seat, 3))
    assert behind.ready
