"""Commands, versions, idempotency and events over HTTP (docs/api.md)."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from kronikas_rules import proofs
from tests.api.tables import Table, Tables, auth
from tests.api.test_tables import assert_problem

Client = AsyncTestClient[Litestar]


async def cheat_at_turn(tables: Tables) -> tuple[Table, int, dict[str, Any]]:
    """A started two-player Cheat table, the seat on turn and its view."""
    table = await tables.ready("cheat", 2, seed=5)
    turn = (await tables.view(table))["turn"]
    return table, turn, await tables.view(table, table.players[turn])


async def test_a_play_answers_version_events_and_the_movers_view(tables: Tables) -> None:
    table, turn, view = await cheat_at_turn(tables)
    card = view["me"]["hand"][0]
    r = await tables.send(table, turn, {"type": "play", "cards": [card]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["version"] == view["version"] + len(body["events"])
    assert [e["version"] for e in body["events"]] == list(
        range(view["version"] + 1, body["version"] + 1)
    )
    played = body["events"][0]
    assert played["type"] == "cheat.cards_played" and played["data"]["cards"] == [card]
    assert body["game"]["me"]["hand"] == view["me"]["hand"][1:]
    assert r.headers["etag"] == f'"{body["version"]}"'
    other = await tables.view(table, table.players[1 - turn])
    assert other["cheat"]["last_play"] == {"seat": turn, "count": 1, "rank": "7"}
    assert set(other["legal"]) == {"play", "call", "leave"}


async def test_other_seats_see_the_play_without_its_cards(tables: Tables, client: Client) -> None:
    table, turn, view = await cheat_at_turn(tables)
    await tables.send(table, turn, {"type": "play", "cards": view["me"]["hand"][:2]})
    for token in (table.players[1 - turn], None, table.host):
        r = await client.get(
            f"/v1/games/{table.id}/events", params={"after": view["version"]}, headers=auth(token)
        )
        event = r.json()["events"][0]
        assert event["type"] == "cheat.cards_played"
        assert event["data"]["cards"] is None and event["data"]["count"] == 2


@pytest.mark.parametrize(
    "command",
    [
        {"type": "fold"},
        {"type": "swap", "give": "7H", "take": "8H"},
        {"type": "play", "cards": ["7H"], "extra": 1},
        {"type": "play", "cards": ["ZZ"]},
        {"type": "play", "cards": ["7h"]},
        {"type": "play", "cards": []},
        {"type": "play", "cards": ["7H"] * 5},
        {"type": "play", "cards": ["7H"] * 10_000},
        {"type": "play"},
        {"cards": ["7H"]},
        [],
        "play",
    ],
)
async def test_malformed_commands_are_422_and_change_nothing(tables: Tables, command: Any) -> None:
    table, turn, view = await cheat_at_turn(tables)
    r = await tables.send(table, turn, command)
    assert_problem(r, 422, "invalid_request")
    assert (await tables.view(table))["version"] == view["version"]


async def test_commands_need_a_player_token_of_this_table(tables: Tables, client: Client) -> None:
    table, turn, view = await cheat_at_turn(tables)
    other, _, _ = await cheat_at_turn(tables)
    url = f"/v1/games/{table.id}/commands"
    play = {"type": "play", "cards": view["me"]["hand"][:1]}
    assert_problem(await client.post(url, json=play), 401, "unauthorized")
    assert_problem(await client.post(url, json=play, headers=auth("x" * 43)), 401, "unauthorized")
    truncated = auth(table.players[turn][:-1])
    assert_problem(await client.post(url, json=play, headers=truncated), 401, "unauthorized")
    stolen = auth(other.players[turn])
    assert_problem(await client.post(url, json=play, headers=stolen), 401, "unauthorized")
    assert_problem(await client.post(url, json=play, headers=auth(table.host)), 403, "forbidden")
    assert (await tables.view(table))["version"] == view["version"]


async def test_refusals_are_409_with_their_code_and_change_nothing(tables: Tables) -> None:
    table, turn, view = await cheat_at_turn(tables)
    waiting = 1 - turn
    r = await tables.send(table, waiting, {"type": "play", "cards": ["7H"]})
    assert_problem(r, 409, "not_your_turn")
    missing = next(c for c in ("7H", "8H", "9H", "AA", "KB") if c not in view["me"]["hand"])
    r = await tables.send(table, turn, {"type": "play", "cards": [missing]})
    assert_problem(r, 409, "illegal_move")
    r = await tables.send(table, turn, {"type": "accept"})
    assert r.status_code == 409
    assert (await tables.view(table))["version"] == view["version"]
    await tables.send(table, turn, {"type": "play", "cards": view["me"]["hand"][:1]})
    r = await tables.send(table, turn, {"type": "call"})
    assert_problem(r, 409, "illegal_move")


async def test_if_match_applies_only_at_that_version(tables: Tables) -> None:
    table, turn, view = await cheat_at_turn(tables)
    version = view["version"]
    play = {"type": "play", "cards": view["me"]["hand"][:1]}
    stale = await tables.send(table, turn, play, **{"If-Match": f'"{version - 1}"'})
    assert_problem(stale, 412, "version_mismatch")
    # Stale is 412 even when the move would be illegal anyway.
    r = await tables.send(table, 1 - turn, {"type": "accept"}, **{"If-Match": f'"{version - 1}"'})
    assert_problem(r, 412, "version_mismatch")
    future = await tables.send(table, turn, play, **{"If-Match": f'"{version + 5}"'})
    assert_problem(future, 412, "version_mismatch")
    assert_problem(
        await tables.send(table, turn, play, **{"If-Match": "soon"}), 422, "invalid_request"
    )
    ok = await tables.send(table, turn, play, **{"If-Match": f'"{version}"'})
    assert ok.status_code == 200


async def test_a_weak_tag_in_if_match_is_the_same_version(tables: Tables) -> None:
    """`W/"12"` (as a cache hands back an ETag it weakened) is accepted as `"12"`: applied at
    that version, 412 at any other."""
    table, turn, view = await cheat_at_turn(tables)
    version = view["version"]
    play = {"type": "play", "cards": view["me"]["hand"][:1]}
    stale = await tables.send(table, turn, play, **{"If-Match": f'W/"{version - 1}"'})
    assert_problem(stale, 412, "version_mismatch")
    ok = await tables.send(table, turn, play, **{"If-Match": f'W/"{version}"'})
    assert ok.status_code == 200, ok.text
    assert ok.json()["version"] > version


async def test_idempotent_retry_gets_the_first_answer_and_changes_nothing(tables: Tables) -> None:
    table, turn, view = await cheat_at_turn(tables)
    play = {"type": "play", "cards": view["me"]["hand"][:1]}
    first = await tables.send(table, turn, play, **{"Idempotency-Key": "move-1"})
    assert first.status_code == 200
    again = await tables.send(table, turn, play, **{"Idempotency-Key": "move-1"})
    assert again.status_code == 200
    assert again.content == first.content
    assert (await tables.view(table))["version"] == first.json()["version"]
    other_body = {"type": "play", "cards": view["me"]["hand"][1:2]}
    reused = await tables.send(table, turn, other_body, **{"Idempotency-Key": "move-1"})
    assert_problem(reused, 422, "invalid_request")
    # The key belongs to the token: another seat's same key is its own.
    r = await tables.send(table, 1 - turn, {"type": "call"}, **{"Idempotency-Key": "move-1"})
    assert r.status_code == 200


@pytest.mark.parametrize("params", [{"wait": 31}, {"wait": -1}, {"after": -1}, {"after": 2**40}])
async def test_event_parameters_out_of_range_are_422(
    tables: Tables, client: Client, params: dict[str, Any]
) -> None:
    table = await tables.create("cheat")
    r = await client.get(f"/v1/games/{table.id}/events", params=params)
    assert_problem(r, 422, "invalid_request")


async def test_events_are_gapless_and_redacted_per_seat(tables: Tables, client: Client) -> None:
    table = await tables.ready("thirty_one", 3, {"lives": 0})
    await tables.play_to_end(table, random.Random(3))
    pages = {}
    for seat, token in enumerate([*table.players, None]):
        r = await client.get(f"/v1/games/{table.id}/events", headers=auth(token))
        events = r.json()["events"]
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))
        pages[seat] = events
    assert len({len(p) for p in pages.values()}) == 1
    for seat in range(3):
        deal = next(e for e in pages[seat] if e["type"] == "thirty_one.round_dealt")
        assert deal["data"]["deck"] is None and deal["data"]["salt"] is None
        hands = deal["data"]["hands"]
        assert [h is not None for h in hands] == [s == seat for s in range(3)]


async def test_every_deal_is_committed_and_each_card_opened_only_to_who_may_know_it(
    tables: Tables, client: Client
) -> None:
    """Over HTTP: each seat's copy of each deal opens its own hand against the deal's
    commitment and nothing else; no deck is revealed; with `reveal: "match_end"` one event
    after the match's end opens every position of every deal to everyone."""
    options = {"rounds": 2, "chroniclers": True, "reveal": "match_end"}
    table = await tables.ready("cheat", 3, options, seed=11)
    await tables.play_to_end(table, random.Random(5))
    seen: dict[int | None, list[dict[str, Any]]] = {}
    for seat, token in [(None, None), *enumerate(table.players)]:
        headers = auth(token) if token else {}
        r = await client.get(f"/v1/games/{table.id}/events", headers=headers)
        seen[seat] = r.json()["events"]
    assert not any(e["type"] == "cheat.deck_revealed" for e in seen[None])
    deals = {e["version"]: e["data"] for e in seen[None] if e["type"] == "cheat.round_dealt"}
    assert [d["round"] for d in deals.values()] == [1, 2]
    roots = {d["round"]: (d["commitment"], d["deck_size"]) for d in deals.values()}
    assert all(d["scheme"] == "merkle-sha256" and d["openings"] is None for d in deals.values())

    def checked(opening: dict[str, Any]) -> tuple[int, int, str]:
        commitment, size = roots[opening["round"]]
        assert proofs.verify(msgspec.convert(opening, proofs.Opening), commitment, size)
        return opening["round"], opening["position"], opening["card"]

    for seat in range(3):
        for e in seen[seat]:
            if e["type"] == "cheat.round_dealt":
                data = e["data"]
                assert [i for i, h in enumerate(data["hands"]) if h is not None] == [seat]
                opened = [checked(o) for o in data["openings"]]
                assert [card for _, _, card in opened] == data["hands"][seat]
                n, dealer = 3, data["dealer"]
                assert sorted(p for _, p, _ in opened) == [
                    i
                    for i in range(data["deck_size"] - data["set_aside"])
                    if (dealer + 1 + i) % n == seat
                ]
    ended, last = seen[None][-1], seen[None][-2]
    assert ended["type"] == "cheat.match_ended" and ended["final"] is True  # nothing follows it
    assert last["type"] == "cheat.deals_opened" and "final" not in last
    every = {checked(o) for o in last["data"]["openings"]}
    assert {(r, p) for r, p, _ in every} == {(r, p) for r in (1, 2) for p in range(34)}
    assert all(seen[seat][-2] == last for seat in range(3))


STANDARD = [r + s for s in "HBLA" for r in ("7", "8", "9", "10", "U", "O", "K", "A")]


@pytest.mark.parametrize(
    ("kind", "players", "options"),
    [
        ("cheat", 2, {}),
        ("cheat", 4, {"chroniclers": True, "max_play": 2}),
        ("cheat", 6, {"decks": 2, "rounds": 2, "place_points": [5, 3, 1, 0, 0, 0]}),
        ("thirty_one", 2, {"lives": 1}),
        ("thirty_one", 5, {"chronicler": True, "lives": 0, "max_circuits": 2}),
    ],
)
async def test_complete_games_over_http(
    tables: Tables, kind: str, players: int, options: dict[str, Any]
) -> None:
    table = await tables.ready(kind, players, options, seed=players)
    moves = await tables.play_to_end(table, random.Random(players))
    view = await tables.view(table)
    assert view["status"] == "finished" and moves > 0
    assert view["winners"] and view["turn"] is None and view["last_round"] is not None
    r = await tables.send(table, 0, {"type": "call"} if kind == "cheat" else {"type": "show"})
    assert_problem(r, 409, "game_over")


async def test_every_thirty_one_deal_opens_a_seat_its_hand_and_everyone_the_table(
    tables: Tables, client: Client
) -> None:
    table = await tables.ready("thirty_one", 4, {"lives": 0, "chronicler": True}, seed=13)
    await tables.play_to_end(table, random.Random(8))
    seen: dict[int | None, list[dict[str, Any]]] = {}
    for viewer, headers in ((None, {}), *((s, auth(t)) for s, t in enumerate(table.players))):
        r = await client.get(f"/v1/games/{table.id}/events", headers=headers)
        seen[viewer] = r.json()["events"]
        assert not any(e["type"] == "thirty_one.deck_revealed" for e in seen[viewer])
    deals = {
        e["data"]["round"]: e["data"] for e in seen[0] if e["type"] == "thirty_one.round_dealt"
    }
    assert len(deals) > 1
    for viewer, events in seen.items():
        for event in events:
            opened = event["data"].get("openings") or []
            for opening in msgspec.convert(opened, list[proofs.Opening]):
                deal = deals[opening.round]
                assert (deal["scheme"], deal["deck_size"]) == (proofs.SCHEME, 33)
                assert proofs.verify(opening, deal["commitment"], deal["deck_size"])
            if event["type"] != "thirty_one.round_dealt":
                continue
            mine = event["data"]
            assert mine["deck"] is None and mine["salts"] is None
            order, m = mine["seats"], len(mine["seats"])
            own = [order.index(viewer) + k * m for k in range(3)] if viewer in order else []
            table_at = [3 * m, 3 * m + 1, 3 * m + 2]
            assert [o["position"] for o in mine["openings"]] == [*own, *table_at]
            hand = mine["hands"][viewer] if viewer is not None else None
            assert [o["card"] for o in mine["openings"]] == [*(hand or []), *mine["table"]]


async def test_a_long_history_comes_in_pages_of_500_that_say_when_more_follow(
    tables: Tables, client: Client
) -> None:
    table = await tables.ready("cheat", 2, {"rounds": 100}, seed=3)
    view = await tables.view(table)
    while view["version"] < 520:
        seat = view["turn"]
        mine = await tables.view(table, table.players[seat])
        command = (
            {"type": "accept"}
            if "accept" in mine["legal"]
            else {"type": "play", "cards": mine["me"]["hand"][:1]}
        )
        r = await tables.send(table, seat, command)
        assert r.status_code == 200, r.text
        view = r.json()["game"]
    total = view["version"]
    seen: list[int] = []
    after, pages = 0, 0
    while True:
        r = await client.get(f"/v1/games/{table.id}/events", params={"after": after})
        page = r.json()
        pages += 1
        assert len(page["events"]) <= 500 and page["version"] == total
        seen += [e["version"] for e in page["events"]]
        if not page["more"]:
            break
        assert len(page["events"]) == 500
        after = page["events"][-1]["version"]
    assert seen == list(range(1, total + 1)) and pages == 2
    r = await client.get(f"/v1/games/{table.id}/events", params={"after": total})
    assert r.json() == {"events": [], "version": total, "more": False}
