"""Tables over HTTP: kinds, create, lobby, join, start, views (docs/api.md)."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from kronikas.application.wire import utc_now
from tests.api.tables import Tables, auth

Client = AsyncTestClient[Litestar]
PROBLEM = "application/problem+json"


def assert_problem(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith(PROBLEM)
    problem: dict[str, Any] = r.json()
    assert problem["code"] == code
    assert problem["status"] == status
    assert problem["detail"]
    return problem


async def test_kinds_describe_both_games_and_every_option(client: Client) -> None:
    r = await client.get("/v1/kinds")
    assert r.status_code == 200
    kinds = {k["kind"]: k for k in r.json()["kinds"]}
    assert (kinds["cheat"]["min_players"], kinds["cheat"]["max_players"]) == (2, 8)
    assert (kinds["thirty_one"]["min_players"], kinds["thirty_one"]["max_players"]) == (2, 9)
    cheat = {o["name"]: o for o in kinds["cheat"]["options"]}
    assert cheat["decks"].items() >= {"type": "integer", "default": 1, "maximum": 2}.items()
    assert cheat["max_play"]["default"] == 4 and cheat["max_play"]["maximum"] == 4
    assert cheat["rounds"]["minimum"] == 1 and cheat["rounds"]["maximum"] == 100
    assert cheat["place_points"]["default"] == [4, 3, 2]
    assert (cheat["place_points"]["min_items"], cheat["place_points"]["max_items"]) == (1, 8)
    assert cheat["chroniclers"] == cheat["chroniclers"] | {"type": "boolean", "default": False}
    assert cheat["max_plays"].items() >= {"type": "integer", "default": 300}.items()
    assert (cheat["max_plays"]["minimum"], cheat["max_plays"]["maximum"]) == (20, 10_000)
    assert "nullable" not in cheat["max_plays"]
    thirty_one = {o["name"]: o for o in kinds["thirty_one"]["options"]}
    assert (thirty_one["lives"]["default"], thirty_one["lives"]["maximum"]) == (3, 10)
    assert thirty_one["max_circuits"]["nullable"] is True
    assert thirty_one["max_circuits"]["default"] == 20
    circuits = thirty_one["max_circuits"]
    assert (circuits["minimum"], circuits["maximum"]) == (1, 100)
    assert thirty_one["chronicler"]["default"] is False


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
async def test_create_answers_201_with_host_token_and_open_view(client: Client, kind: str) -> None:
    r = await client.post("/v1/games", json={"kind": kind})
    assert r.status_code == 201
    body = r.json()
    assert len(body["host_token"]) >= 32
    game = body["game"]
    assert game["kind"] == kind and game["status"] == "open" and game["version"] == 1
    assert game["seeded"] is False and game["round"] == 0 and game["players"] == []
    assert game["me"] is None and game["legal"] is None and game["winners"] == []
    for field in ("dealer", "turn", kind, "last_round"):
        assert field in game
    assert ({"cheat", "thirty_one"} - {kind}).isdisjoint(game), "no key of another game's"


async def test_a_seed_says_seeded(tables: Tables, client: Client) -> None:
    table = await tables.create("cheat", seed=42)
    assert (await tables.view(table))["seeded"] is True


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "poker"},
        {"options": {}},
        {"kind": "cheat", "options": {"decks": 3}},
        {"kind": "cheat", "options": {"max_play": 0}},
        {"kind": "cheat", "options": {"max_play": 5}},
        {"kind": "cheat", "options": {"rounds": 101}},
        {"kind": "cheat", "options": {"place_points": []}},
        {"kind": "cheat", "options": {"place_points": [1] * 9}},
        {"kind": "cheat", "options": {"place_points": [101]}},
        {"kind": "cheat", "options": {"chroniclers": "yes"}},
        {"kind": "cheat", "options": {"max_plays": 19}},
        {"kind": "cheat", "options": {"max_plays": 10_001}},
        {"kind": "cheat", "options": {"max_plays": None}},
        {"kind": "cheat", "options": {"max_plays": "300"}},
        {"kind": "cheat", "options": {"max_plays": 300.5}},
        {"kind": "cheat", "options": {"lives": 3}},
        {"kind": "thirty_one", "options": {"lives": 11}},
        {"kind": "thirty_one", "options": {"lives": -1}},
        {"kind": "thirty_one", "options": {"max_circuits": 0}},
        {"kind": "thirty_one", "options": {"max_circuits": 101}},
        {"kind": "thirty_one", "options": {"max_circuits": "20"}},
        {"kind": "thirty_one", "options": {"chronicler": 1}},
        {"kind": "thirty_one", "options": {"decks": 2}},
        {"kind": "cheat", "seed": -1},
        {"kind": "cheat", "seed": "x"},
        {"kind": "cheat", "extra": True},
    ],
)
async def test_bad_table_is_422_with_a_precise_detail(client: Client, body: Any) -> None:
    problem = assert_problem(await client.post("/v1/games", json=body), 422, "invalid_request")
    assert "Validation failed" not in problem["detail"]


async def test_lobby_lists_newest_first_filters_and_pages(tables: Tables, client: Client) -> None:
    made = [await tables.create("thirty_one") for _ in range(3)]
    started = await tables.ready("thirty_one", 2)
    r = await client.get("/v1/games", params={"kind": "thirty_one", "limit": 2})
    assert r.status_code == 200
    page = r.json()
    assert [g["id"] for g in page["games"]] == [started.id, made[2].id]
    assert page["more"] is True and page["limit"] == 2 and page["offset"] == 0
    assert page["games"][0]["status"] == "playing" and page["games"][0]["players"] == 2
    assert page["games"][0]["max_players"] == 9
    r = await client.get("/v1/games", params={"kind": "thirty_one", "status": "open", "limit": 3})
    ids = [g["id"] for g in r.json()["games"]]
    assert ids == [made[2].id, made[1].id, made[0].id]
    r = await client.get(
        "/v1/games", params={"kind": "thirty_one", "status": "open", "offset": 1, "limit": 1}
    )
    assert [g["id"] for g in r.json()["games"]] == [made[1].id]
    r = await client.get("/v1/games", params={"kind": "cheat", "limit": 100})
    assert all(g["kind"] == "cheat" for g in r.json()["games"])


async def test_lobby_lists_tables_made_in_one_millisecond_in_the_order_they_were_made(
    tables: Tables, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = utc_now()
    monkeypatch.setattr("kronikas.application.commands.utc_text", lambda ms: now)
    made = [await tables.create("cheat") for _ in range(40)]
    monkeypatch.undo()
    r = await client.get("/v1/games", params={"kind": "cheat", "status": "open", "limit": 40})
    games = r.json()["games"]
    assert [g["id"] for g in games] == [t.id for t in reversed(made)]
    assert {g["created_at"] for g in games} == {now}
    r = await client.get("/v1/games", params={"kind": "cheat", "offset": 30, "limit": 10})
    assert [g["id"] for g in r.json()["games"]] == [t.id for t in reversed(made[:10])]


@pytest.mark.parametrize(
    "params", [{"kind": "poker"}, {"status": "over"}, {"limit": 0}, {"limit": 101}, {"offset": -1}]
)
async def test_bad_lobby_parameter_is_422(client: Client, params: dict[str, Any]) -> None:
    assert_problem(await client.get("/v1/games", params=params), 422, "invalid_request")


async def test_join_answers_201_with_token_and_own_view(tables: Tables, client: Client) -> None:
    table = await tables.create("cheat")
    first = await tables.join(table, "Ilona")
    second = await tables.join(table, "Bence")
    assert (first["seat"], second["seat"]) == (0, 1)
    assert first["token"] != second["token"] and len(second["token"]) >= 32
    game = second["game"]
    assert game["me"]["seat"] == 1 and game["me"]["id"] == second["player_id"]
    assert [p["name"] for p in game["players"]] == ["Ilona", "Bence"]
    assert game["version"] == 3


@pytest.mark.parametrize("name", ["", "x" * 33, "a\nb", "tab\there", "   ", "\x00"])
async def test_join_with_a_bad_name_is_422(tables: Tables, client: Client, name: str) -> None:
    table = await tables.create("cheat")
    r = await client.post(f"/v1/games/{table.id}/players", json={"name": name})
    assert_problem(r, 422, "invalid_request")
    assert (await tables.view(table))["players"] == []


async def test_join_accepts_32_printable_characters(tables: Tables, client: Client) -> None:
    table = await tables.create("cheat")
    joined = await tables.join(table, "Ő" * 31 + "!")
    assert joined["game"]["players"][0]["name"] == "Ő" * 31 + "!"


async def test_join_beyond_the_seats_is_409_game_full(tables: Tables, client: Client) -> None:
    table = await tables.create("cheat")
    for _ in range(4):
        await tables.join(table)
    r = await client.post(f"/v1/games/{table.id}/players", json={"name": "fifth"})
    assert_problem(r, 409, "game_full")
    table9 = await tables.create("thirty_one")
    for _ in range(9):
        await tables.join(table9)
    r = await client.post(f"/v1/games/{table9.id}/players", json={"name": "tenth"})
    assert_problem(r, 409, "game_full")


async def test_join_after_the_start_is_409_game_not_open(tables: Tables, client: Client) -> None:
    table = await tables.ready("cheat", 2)
    r = await client.post(f"/v1/games/{table.id}/players", json={"name": "late"})
    assert_problem(r, 409, "game_not_open")


async def test_unknown_table_is_404(client: Client) -> None:
    assert_problem(await client.get("/v1/games/nosuchtable"), 404, "not_found")
    r = await client.post("/v1/games/nosuchtable/players", json={"name": "x"})
    assert_problem(r, 404, "not_found")
    assert_problem(await client.get("/v1/games/nosuchtable/events"), 404, "not_found")


async def test_start_needs_the_host_token(tables: Tables, client: Client) -> None:
    table = await tables.create("cheat")
    await tables.join(table)
    await tables.join(table)
    url = f"/v1/games/{table.id}/start"
    assert_problem(await client.post(url), 401, "unauthorized")
    assert_problem(await client.post(url, headers=auth("forged")), 401, "unauthorized")
    assert_problem(
        await client.post(url, headers={"Authorization": "Basic x"}), 401, "unauthorized"
    )
    assert_problem(await client.post(url, headers=auth(table.players[0])), 403, "forbidden")
    other = await tables.create("cheat")
    assert_problem(await client.post(url, headers=auth(other.host)), 401, "unauthorized")
    assert (await tables.view(table))["status"] == "open"
    view = await tables.start(table)
    assert view["status"] == "playing" and view["round"] == 1 and view["me"] is None
    assert_problem(await client.post(url, headers=auth(table.host)), 409, "game_not_open")


async def test_start_with_one_player_is_409(tables: Tables, client: Client) -> None:
    table = await tables.create("thirty_one")
    await tables.join(table)
    r = await client.post(f"/v1/games/{table.id}/start", headers=auth(table.host))
    assert_problem(r, 409, "illegal_move")
    assert (await tables.view(table))["status"] == "open"


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
async def test_each_seat_sees_only_its_own_hand(tables: Tables, kind: str) -> None:
    table = await tables.ready(kind, 3)
    spectator = await tables.view(table)
    assert spectator["me"] is None and spectator["legal"] is None
    hands = []
    for seat, token in enumerate(table.players):
        view = await tables.view(table, token)
        assert view["me"]["seat"] == seat
        assert isinstance(view["legal"], list)
        hands.append(set(view["me"]["hand"]))
        assert view["players"][seat]["hand_size"] == len(view["me"]["hand"])
    host = await tables.view(table, table.host)
    assert host["me"] is None and host["legal"] is None
    assert not (hands[0] & hands[1]) and not (hands[1] & hands[2])


async def test_views_carry_an_etag_of_the_version(tables: Tables, client: Client) -> None:
    table = await tables.ready("cheat", 2)
    r = await client.get(f"/v1/games/{table.id}")
    assert r.headers["etag"] == f'"{r.json()["version"]}"'


async def test_no_cache_may_keep_an_answer_that_shows_a_hand_or_a_token(
    tables: Tables, client: Client
) -> None:
    """A view's `ETag` is its version, the same for every viewer: a cache that ignored
    `Authorization` could hand one seat's hand to another. Every answer of the API's tables
    says `no-store` (the command lane's too)."""
    table = await tables.ready("thirty_one", 2, seed=3)
    seat = (await tables.view(table))["turn"]
    created = await client.post("/v1/games", json={"kind": "cheat"})
    answers = [
        created,
        await client.post(f"/v1/games/{created.json()['game']['id']}/players", json={"name": "A"}),
        await client.get(f"/v1/games/{table.id}", headers=auth(table.players[seat])),
        await client.get(f"/v1/games/{table.id}/events", headers=auth(table.players[seat])),
        await client.post(
            f"/v1/games/{table.id}/commands",
            json={"type": "keep"},
            headers=auth(table.players[seat]),
        ),
    ]
    assert [r.headers.get("cache-control") for r in answers] == ["no-store"] * len(answers), [
        (r.request.url.path, r.status_code) for r in answers
    ]
