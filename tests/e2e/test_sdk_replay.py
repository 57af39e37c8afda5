"""Replaying a table through the SDK gives each viewer, version by version, exactly the views
it was served live (issue 41 item 4; docs/api.md, Records), on the real service process.

Two persons and a house player play a whole match of each game with turn clocks; after every
change each person and a spectator read the table (`get_game`), and the house's moves after its
pause are waited for with a long-poll. Then `kronikas_client.replay.replay` replays the table for
each of them: its versions run from 1 to the last without a gap, and at every version where a
view was served live, the replayed view is that view.
"""

from __future__ import annotations

from typing import Any

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
from kronikas_client.events import GameView
from kronikas_client.models import (
    CheatOptions,
    CommandResult,
    CreateCheatGame,
    Created,
    CreateThirtyOneGame,
    EventPage,
    HouseSeated,
    Joined,
    JoinRequest,
    Problem,
    ThirtyOneOptions,
)
from kronikas_client.replay import ReplayError, replay

from tests.conftest import ServiceProcess
from tests.e2e.test_sdk_house import legal_moves
from tests.snippets import snippet

SDK_README = "sdk/kronikas-client/README.md"

BODIES: dict[str, CreateCheatGame | CreateThirtyOneGame] = {
    "cheat": CreateCheatGame(
        seed=4101, options=CheatOptions(turn_seconds=600, house_pause_seconds=0)
    ),
    "thirty_one": CreateThirtyOneGame(
        seed=4102, options=ThirtyOneOptions(lives=2, max_circuits=3, turn_seconds=600)
    ),
}
STEPS = 600
"""More steps (a move, or a wait for the house) than any of these matches takes."""


def table_of(url: str, kind: str) -> tuple[str, list[AuthenticatedClient]]:
    """A started table of two persons with a house player between them: its id and the
    persons' clients."""
    anyone = Client(base_url=url)
    created = create_game.sync(client=anyone, body=BODIES[kind])
    assert isinstance(created, Created), created
    game_id = created.game.id
    host = AuthenticatedClient(base_url=url, token=created.host_token)
    persons = []
    for name in ("Ilona", None, "Jenő"):
        if name is None:
            seated = seat_house_player.sync(game_id, client=host, body=JoinRequest(name="Ház"))
            assert isinstance(seated, HouseSeated), seated
            continue
        joined = join_game.sync(game_id, client=anyone, body=JoinRequest(name=name))
        assert isinstance(joined, Joined), joined
        persons.append(AuthenticatedClient(base_url=url, token=joined.token))
    assert isinstance(start_game.sync(game_id, client=host), GameView)
    return game_id, persons


def look(
    game_id: str, viewers: list[Client | AuthenticatedClient], served: list[dict[int, Any]]
) -> list[GameView]:
    """Each viewer's view now, kept by version (as JSON) in `served`."""
    views = []
    for viewer, kept in zip(viewers, served, strict=True):
        view = get_game.sync(game_id, client=viewer)
        assert isinstance(view, GameView), view
        kept[view.version] = view.to_dict()
        views.append(view)
    return views


def step(game_id: str, persons: list[AuthenticatedClient], views: list[GameView]) -> None:
    """One move by a person who may make one; else wait for the house (a long-poll)."""
    for person, view in zip(persons, views, strict=True):
        for command in legal_moves(view):
            sent = send_command.sync(game_id, client=person, body=command)
            if isinstance(sent, CommandResult):
                return
            # The house may have moved meanwhile: the rules refuse what is no longer legal.
            assert isinstance(sent, Problem) and sent.status == 409, (command, sent)
    version = min(view.version for view in views)
    page = list_events.sync(game_id, client=persons[0], after=version, wait=10)
    assert isinstance(page, EventPage) and page.events, "the house moved within its clock"


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
def test_replay_yields_the_views_each_viewer_was_served_live_at_every_version(
    service: ServiceProcess, kind: str
) -> None:
    game_id, persons = table_of(service.url, kind)
    spectator = Client(base_url=service.url)
    viewers: list[Client | AuthenticatedClient] = [*persons, spectator]
    served: list[dict[int, Any]] = [{} for _ in viewers]
    for _ in range(STEPS):
        views = look(game_id, viewers, served)
        if views[-1].status.value == "finished":
            break
        step(game_id, persons, views[:-1])
    else:
        raise AssertionError(f"the match did not end in {STEPS} steps")
    last = views[-1].version
    for viewer, live in zip(viewers, served, strict=True):
        replayed = {v: view.to_dict() for v, view in replay(viewer, game_id)}
        assert list(replayed) == list(range(1, last + 1))
        assert {v: replayed[v] for v in live} == live
    # A token given to `replay` is the viewer, whatever client carries the requests.
    first = dict((v, view.to_dict()) for v, view in replay(spectator, game_id, persons[0].token))
    assert first == {v: view.to_dict() for v, view in replay(persons[0], game_id)}
    assert len(served[-1]) > 20, "a view was served at many versions"


def test_replay_of_a_table_that_is_not_there_raises_with_the_problem(
    service: ServiceProcess,
) -> None:
    with pytest.raises(ReplayError) as refused:
        next(replay(Client(base_url=service.url), "0123456789abcdef"))
    assert refused.value.status == 404
    assert refused.value.problem is not None and refused.value.problem.code == "not_found"


def test_the_readme_replay_example_prints_each_version_of_a_played_table(
    service: ServiceProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id, persons = table_of(service.url, "thirty_one")
    spectator = Client(base_url=service.url)
    last = look(game_id, [spectator], [{}])[0].version
    code = snippet(SDK_README, "replay")
    exec(
        compile(code, "<replay>", "exec"),
        {"__name__": "snippet", "me": persons[0], "game_id": game_id},
    )
    printed = capsys.readouterr().out.splitlines()
    assert [int(line.split()[0]) for line in printed] == list(range(1, last + 1))
    hands = {line.split(" ", 2)[2] for line in printed}
    mine = get_game.sync(game_id, client=persons[0])
    assert isinstance(mine, GameView) and mine.me is not None
    assert str(mine.me.hand) in hands, "the seat's own hand, as it was"
