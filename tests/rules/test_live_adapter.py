"""Offline and online are one policy: the environments' policies play the real service through
the Python SDK and the live adapter (`kronikas_rules.envs.live`), unchanged."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import pytest
from kronikas_client import AuthenticatedClient, Client
from kronikas_client.api.games import (
    create_game,
    get_game,
    join_game,
    list_events,
    seat_house_player,
    send_command,
    start_game,
)
from kronikas_client.models import (
    Accept,
    Call,
    CheatGameView,
    CheatOptions,
    CommandResult,
    CreateCheatGame,
    Created,
    CreateThirtyOneGame,
    EventPage,
    Exchange,
    HouseSeated,
    Joined,
    JoinRequest,
    Keep,
    Pass,
    Play,
    Problem,
    Show,
    Swap,
    SwapAll,
    ThirtyOneGameView,
    ThirtyOneOptions,
)

from kronikas_rules.envs import Driver, Policy, encoding_of, house_policy, random_policy
from kronikas_rules.envs.live import LiveSeat
from kronikas_rules.table import Table
from tests.conftest import ServiceProcess
from tests.snippets import snippet

COMMANDS: dict[str, Any] = {
    "play": Play,
    "call": Call,
    "accept": Accept,
    "keep": Keep,
    "exchange": Exchange,
    "swap": Swap,
    "swap_all": SwapAll,
    "pass": Pass,
    "show": Show,
}
OPTIONS: dict[str, dict[str, Any]] = {
    # The house waits for nobody's call: a person's answer comes when the adapter asks for it.
    "cheat": {"house_pause_seconds": 0, "max_plays": 60},
    "thirty_one": {"lives": 1, "max_circuits": 3},
}


def _create(url: str, kind: str, seed: int) -> tuple[str, AuthenticatedClient]:
    anyone = Client(base_url=url)
    body = (
        CreateCheatGame(seed=seed, options=CheatOptions.from_dict(OPTIONS[kind]))
        if kind == "cheat"
        else CreateThirtyOneGame(seed=seed, options=ThirtyOneOptions.from_dict(OPTIONS[kind]))
    )
    created = create_game.sync(client=anyone, body=body)
    assert isinstance(created, Created), created
    return created.game.id, AuthenticatedClient(base_url=url, token=created.host_token)


def _join(url: str, game_id: str, name: str) -> AuthenticatedClient:
    joined = join_game.sync(game_id, client=Client(base_url=url), body=JoinRequest(name=name))
    assert isinstance(joined, Joined), joined
    return AuthenticatedClient(base_url=url, token=joined.token)


def _start(game_id: str, host: AuthenticatedClient) -> None:
    started = start_game.sync(game_id, client=host)
    assert isinstance(started, CheatGameView | ThirtyOneGameView), started


def _refresh(live: LiveSeat, game_id: str, me: AuthenticatedClient, wait: float = 0) -> None:
    """The seat's view, then its events after the adapter's last (which cover the view)."""
    view = get_game.sync(game_id, client=me)
    assert isinstance(view, CheatGameView | ThirtyOneGameView), view
    events: list[dict[str, Any]] = []
    more = True
    while more:
        after = max([live.version, *(e["version"] for e in events)])
        page = list_events.sync(game_id, client=me, after=after, wait=wait)
        assert isinstance(page, EventPage), page
        events += [event.to_dict() for event in page.events]
        more = page.more
    live.update(view.to_dict(), events)


def _send(
    game_id: str, me: AuthenticatedClient, command: dict[str, Any]
) -> CommandResult | Problem:
    body = COMMANDS[command["type"]].from_dict(command)
    result = send_command.sync(game_id, client=me, body=body)
    assert isinstance(result, CommandResult | Problem), result
    return result


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
def test_the_house_policy_plays_a_live_table_through_the_adapter(
    service: ServiceProcess, kind: str
) -> None:
    game_id, host = _create(service.url, kind, seed=41)
    me = _join(service.url, game_id, "Ügynök")
    seated = seat_house_player.sync(game_id, client=host, body=JoinRequest(name="Ház"))
    assert isinstance(seated, HouseSeated), seated
    _start(game_id, host)
    live = LiveSeat(kind, seed=41)
    sent = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        _refresh(live, game_id, me)
        if live.finished:
            break
        command = live.decide(house_policy)
        if command is None:
            _refresh(live, game_id, me, wait=0.5)  # the house's move, or a call, comes
            continue
        result = _send(game_id, me, command)
        # Calls race the house's plays; anything else the table refuses is a bug.
        assert isinstance(result, CommandResult) or result.code == "illegal_move", result
        sent += isinstance(result, CommandResult)
    assert live.finished, "the match did not end"
    assert sent > 0 and live.view is not None and live.view.winners  # type: ignore[attr-defined]


def _lockstep(url: str, kind: str, players: int, seed: int, policy: Policy) -> int:
    """A live table of `players` seats, each played through its own adapter and token, next to
    the same seeded match offline: at every decision the adapter must see the decision and
    observation the environment gives, and the service must take every command. The number of
    commands sent."""
    game_id, host = _create(url, kind, seed)
    tokens = [_join(url, game_id, f"Ügynök {seat}") for seat in range(players)]
    _start(game_id, host)
    driver = Driver(Table(kind, players, options=OPTIONS[kind], seed=seed), encoding_of(kind), 1)
    seats = [LiveSeat(kind, seat, seed=seat) for seat in range(players)]
    sent = 0
    while (current := driver.current) is not None:
        live, me = seats[current.seat], tokens[current.seat]
        _refresh(live, game_id, me)
        assert live.decision == current.kind
        offline, online = driver.observe(current.seat), live.observe()
        assert np.array_equal(offline["observation"], online["observation"])
        assert np.array_equal(offline["action_mask"], online["action_mask"])
        action = policy(online, live.info())
        command = live.act(action)
        driver.act(action)
        if command is not None:
            result = _send(game_id, me, command)
            assert isinstance(result, CommandResult), (command, result)
            assert result.version == driver.table.version
            sent += 1
    for live, me in zip(seats, tokens, strict=True):
        _refresh(live, game_id, me)
        assert live.finished and live.decision is None
    return sent


@pytest.mark.parametrize(("kind", "players"), [("cheat", 3), ("thirty_one", 3)])
def test_a_random_policy_plays_a_live_match_to_its_end_as_offline(
    service: ServiceProcess, kind: str, players: int
) -> None:
    assert _lockstep(service.url, kind, players, seed=52, policy=random_policy) > 10


def test_the_readme_example_plays_a_live_table_with_the_house_policy(
    service: ServiceProcess,
) -> None:
    game_id, host = _create(service.url, "cheat", seed=61)
    me = _join(service.url, game_id, "Olvasó")
    seated = seat_house_player.sync(game_id, client=host, body=JoinRequest(name="Ház"))
    assert isinstance(seated, HouseSeated), seated
    _start(game_id, host)
    code = snippet("rules/README.md", "rules-live")
    exec(
        compile(code, "<rules-live>", "exec"),
        {"__name__": "rules-live", "game_id": game_id, "me": me},
    )
    final = get_game.sync(game_id, client=me)
    assert isinstance(final, CheatGameView) and final.status.value == "finished", final
