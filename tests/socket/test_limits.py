"""The seat socket's limits, from outside: open sockets count with streams and long-polls against
`STREAMS_PER_TOKEN` and `STREAMS_PER_ADDRESS`; `hello` and commands are charged to the token's
bucket as HTTP's reads and commands are (a recorded id is answered before the limit); a message
over `MAX_BODY_BYTES` closes 1009, a binary one 1003."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from websockets.asyncio.client import ClientConnection

from tests.api.tables import Tables, auth
from tests.conftest import ServiceProcess, serving
from tests.socket.wire import closed, greeted, next_of, opened, say, versions_until

PER_TOKEN, PER_ADDRESS = 2, 5


@pytest.fixture(scope="module")
def capped(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    """A service with few places a token and an address, and small messages."""
    log = tmp_path_factory.mktemp("capped") / "service.log"
    with serving(
        redis_url,
        log,
        STREAMS_PER_TOKEN=str(PER_TOKEN),
        STREAMS_PER_ADDRESS=str(PER_ADDRESS),
        MAX_BODY_BYTES="1024",
    ) as server:
        yield server


@pytest.fixture(scope="module")
def limited(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    """A service whose tokens may make 6 requests at once, and one more a second."""
    log = tmp_path_factory.mktemp("limited") / "service.log"
    with serving(redis_url, log, RATE_LIMIT_BURST="6", RATE_LIMIT_PER_S="1") as server:
        yield server


async def close_code_at_hello(url: str, game_id: str, token: str | None) -> tuple[int, str]:
    """Open a socket and say hello: the close code when it is refused, else (0, "")."""
    async with opened(url, game_id) as ws:
        await say(ws, {"type": "hello", "token": token})
        try:
            await next_of(ws, "welcome")
        except Exception:
            return await closed(ws)
        return 0, ""


@contextlib.asynccontextmanager
async def held(
    url: str, game_id: str, token: str | None, count: int
) -> AsyncIterator[list[ClientConnection]]:
    """`count` sockets greeted, each let in (a place a socket closed just before gives back a
    moment after its close: a refusal is tried again for a while)."""
    async with contextlib.AsyncExitStack() as stack:
        sockets: list[ClientConnection] = []
        for _ in range(count):
            for _ in range(100):
                ws = await stack.enter_async_context(opened(url, game_id))
                await say(ws, {"type": "hello", "token": token})
                message = json.loads(str(await ws.recv()))
                if message["type"] == "welcome":
                    sockets.append(ws)
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("a socket was refused")
        yield sockets


async def test_sockets_count_with_streams_against_each_token_s_cap(
    capped: ServiceProcess,
) -> None:
    async with httpx.AsyncClient(base_url=capped.url, timeout=30) as http:
        table = await Tables(http).ready("cheat", 2)
        token = table.players[0]
        async with held(capped.url, table.id, token, PER_TOKEN):
            assert await close_code_at_hello(capped.url, table.id, token) == (
                4429,
                "rate_limited retry_after=5",
            )
            r = await http.get(f"/v1/games/{table.id}/stream", headers=auth(token))
            assert r.status_code == 429 and r.json()["code"] == "rate_limited"
            # another token of the same table has places of its own
            async with held(capped.url, table.id, table.players[1], 1):
                pass
        async with http.stream("GET", f"/v1/games/{table.id}/stream", headers=auth(token)) as r:
            assert r.status_code == 200  # a stream holds one of the token's places...
            async with held(capped.url, table.id, token, PER_TOKEN - 1):
                # ...and a socket the last one
                assert (await close_code_at_hello(capped.url, table.id, token))[0] == 4429


async def test_sockets_count_against_each_address_s_cap(capped: ServiceProcess) -> None:
    async with httpx.AsyncClient(base_url=capped.url, timeout=30) as http:
        table = await Tables(http).ready("cheat", 2)
        async with held(capped.url, table.id, None, PER_ADDRESS):
            assert await close_code_at_hello(capped.url, table.id, None) == (
                4429,
                "rate_limited retry_after=5",
            )
            now = (await Tables(http).view(table))["version"]  # a long-poll that must wait
            r = await http.get(f"/v1/games/{table.id}/events", params={"after": now, "wait": 1})
            assert r.status_code == 429


async def test_a_message_over_the_size_limit_closes_1009_and_binary_1003(
    capped: ServiceProcess,
) -> None:
    async with httpx.AsyncClient(base_url=capped.url, timeout=30) as http:
        table = await Tables(http).ready("cheat", 2)
        now = (await Tables(http).view(table))["version"]
    token = table.players[0]
    async with greeted(capped.url, table.id, token, now) as (ws, welcome):
        assert welcome["max_bytes"] == 1024
        head = '{"type":"command","id":"s-1","command":{"type":"call"},"x":"'
        fits = head + "y" * (1024 - len(head) - 2) + '"}'
        assert len(fits.encode()) == 1024
        await ws.send(fits)  # at the limit: read, and refused for what it says
        assert (await next_of(ws, "problem"))["problem"]["code"] == "invalid_request"
        await ws.send(fits.replace('"x":"', '"x":"y'))
        assert (await closed(ws))[0] == 1009  # uvicorn refuses the frame itself (ws_max_size)
    async with greeted(capped.url, table.id, token) as (ws, _):
        await ws.send(b'{"type":"ping"}')
        assert await closed(ws) == (1003, "binary")


async def test_commands_are_charged_to_the_token_s_bucket(limited: ServiceProcess) -> None:
    async with httpx.AsyncClient(base_url=limited.url, timeout=30) as http:
        tables = Tables(http)
        table = await tables.ready("cheat", 2)
        spectator = await tables.view(table)
        seat = spectator["turn"]
        token = table.players[seat]
        view = await tables.view(table, token)  # the token's first request
        play = {"type": "play", "cards": view["me"]["hand"][:1]}
        async with greeted(limited.url, table.id, token, view["version"]) as (ws, _):  # 2nd
            await say(ws, {"type": "command", "id": "ok", "command": play})  # 3rd, accepted
            result = await next_of(ws, "result")
            codes = []
            while "rate_limited" not in codes:  # refused commands pay too, until it is empty
                assert len(codes) < 20, codes
                await say(ws, {"type": "command", "id": f"no-{len(codes)}", "command": {}})
                problem = await next_of(ws, "problem")
                codes.append(problem["problem"]["code"])
            assert codes[:2] == ["invalid_request"] * 2
            assert problem["id"] == f"no-{len(codes) - 1}"
            assert problem["problem"]["status"] == 429
            assert isinstance(problem["retry_after"], int) and problem["retry_after"] >= 1
            # a recorded id pays as any command: answered its first result while the bucket
            # holds one (a request a second comes back), a 429 once it is spent
            for _ in range(20):
                await say(ws, {"type": "command", "id": "ok", "command": play})
                again = await next_of(ws, "result", "problem")
                if again["type"] == "problem":
                    break
                assert again == result
            assert again["id"] == "ok" and again["problem"]["code"] == "rate_limited", again
            assert isinstance(again["retry_after"], int) and again["retry_after"] >= 1
            # and a hello with the bucket empty is refused (it refills a request a second:
            # empty it again, should one have come in between)
            for _ in range(10):
                code, reason = await close_code_at_hello(limited.url, table.id, token)
                if code:
                    break
                for n in range(3):
                    await say(ws, {"type": "command", "id": f"again-{n}", "command": {}})
                    await next_of(ws, "problem")
            assert code == 4429 and reason.startswith("rate_limited retry_after="), code
        # the socket's pushes are not charged: another token's socket hears every move
        other = table.players[1 - seat]
        async with greeted(limited.url, table.id, other) as (ws, welcome):
            assert [e["version"] for e in await versions_until(ws, welcome["version"])] == list(
                range(1, welcome["version"] + 1)
            )
