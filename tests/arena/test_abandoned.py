"""A set formed whose tables were never opened — the process that formed it died, or its
opening failed half-way — is abandoned after `ARENA_OPEN_SECONDS`: its entrants are free to
queue again, and nothing of it is rated."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from kronikas.application.arena.sets import SetTables
from tests.arena.conftest import arena_app, bearer, queue, register
from tests.arena.test_entrants import assert_problem
from tests.arena.test_matchmaking import seated


async def test_a_set_left_unopened_is_abandoned_and_its_entrant_seated_again(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = SetTables.open
    failed: list[str] = []

    async def dies_once(self: SetTables, set_id: str, *args: Any) -> Any:
        if not failed:  # the first set's process "dies" before its tables are opened
            failed.append(set_id)
            raise ConnectionError("the process opening the set went away")
        return await opened(self, set_id, *args)

    monkeypatch.setattr(SetTables, "open", dies_once)
    async with arena_app(redis_url, arena_open_s=1, arena_turn_s=600) as client:
        entrant, token = await register(client, "Patient")
        await queue(client, token)
        for _ in range(300):  # formed, never opened: not seated, then free again
            if failed:
                break
            await asyncio.sleep(0.05)
        assert failed, "no set was formed"
        for _ in range(300):
            ticket = (await client.get("/v1/arena/queue", headers=bearer(token))).json()
            assert ticket["status"] != "seated"
            if ticket["status"] == "idle":
                break
            await asyncio.sleep(0.1)
        assert ticket == {"status": "idle"}
        # The abandoned set is nobody's result, and the entrant plays the next one.
        assert_problem(await client.get(f"/v1/arena/sets/{failed[0]}"), 404, "not_found")
        page = (await client.get(f"/v1/arena/entrants/{entrant}")).json()
        assert page["matches"] == [] and page["ratings"] == []
        await queue(client, token)
        ticket = await seated(client, token)
        assert ticket["set_id"] != failed[0]
