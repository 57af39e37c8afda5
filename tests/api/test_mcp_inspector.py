"""A browser MCP client against the service as `docker compose up` runs it (docs/api.md, the MCP
endpoint; docs/security.md, Browsers and MCP clients): the MCP Inspector's page
(`http://localhost:6274`) connects straight to `http://localhost:8000/mcp` once its origin is
in `CORS_ORIGINS` — the one setting, passed on by docker-compose.yml — and gets the CORS answers
a browser needs; without it, and for any other origin or host name, it is refused as before.

The service's environment is the compose file's, read and filled in as Compose does from the
user's shell; only `REDIS_URL` is the suite's Redis."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import yaml
from litestar import Litestar
from litestar.testing import AsyncTestClient

from kronikas.api.app import create_app
from kronikas.config import Settings
from tests.apps import ENGINES
from tests.mcp.initialize import initialize_request

Client = AsyncTestClient[Litestar]

ROOT = Path(__file__).resolve().parents[2]
INSPECTOR = "http://localhost:6274"
"""The MCP Inspector's page (`npx @modelcontextprotocol/inspector` serves it on port 6274)."""
SERVICE_HOST = "localhost:8000"
"""The `Host` of `http://localhost:8000/mcp`, the URL the docs give the Inspector."""
SHELL = {"REDIS_PASSWORD": "0123456789abcdef"}
"""What `docker compose up` requires of every user's environment."""
INITIALIZE = initialize_request("inspector-client", "0.17.2")
VARIABLE = re.compile(r"\$\{(?P<name>\w+)(?:(?P<op>:[-?])(?P<word>[^}]*))?\}")


def compose_environment(shell: Mapping[str, str]) -> dict[str, str]:
    """The `api` service's environment in docker-compose.yml, as Compose fills it in from
    `shell` (`${X:-default}`, `${X:?error}`, `${X}`; `$$` is a `$`)."""

    def value(match: re.Match[str]) -> str:
        name, op, word = match["name"], match["op"], match["word"]
        if op == ":?" and not shell.get(name):
            raise KeyError(f"docker compose requires {name}: {word}")
        return shell.get(name) or (word if op == ":-" else "")

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    environment: dict[str, Any] = compose["services"]["api"]["environment"]
    return {
        name: VARIABLE.sub(value, str(raw)).replace("$$", "$") for name, raw in environment.items()
    }


@asynccontextmanager
async def composed(redis_url: str, **shell: str) -> AsyncIterator[Client]:
    """The service with the compose file's environment for a user's `shell`."""
    env = compose_environment(SHELL | shell) | {"REDIS_URL": redis_url, "LOG_LEVEL": "CRITICAL"}
    settings = Settings.from_env(env)
    assert settings.host == "0.0.0.0"  # as in the image: the loopback origins are not let in
    async with AsyncTestClient(create_app(settings, games=ENGINES)) as client:
        yield client


async def preflight(client: Client, origin: str) -> Any:
    """The browser's question before the Inspector's first POST (the MCP TypeScript SDK sends
    `Content-Type` and, once initialized, `Mcp-Protocol-Version`; `Authorization` when set)."""
    return await client.options(
        "/mcp",
        headers={
            "Host": SERVICE_HOST,
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type,mcp-protocol-version",
        },
    )


async def post(client: Client, body: dict[str, Any], origin: str, **headers: str) -> Any:
    return await client.post(
        "/mcp",
        json=body,
        headers={
            "Host": SERVICE_HOST,
            "Origin": origin,
            "Accept": "application/json, text/event-stream",
        }
        | headers,
    )


async def test_the_inspector_connects_with_its_origin_in_cors_origins(redis_url: str) -> None:
    async with composed(redis_url, CORS_ORIGINS=INSPECTOR) as service:
        asked = await preflight(service, INSPECTOR)
        assert asked.status_code in (200, 204), asked.text
        assert asked.headers["access-control-allow-origin"] == INSPECTOR
        assert "POST" in asked.headers["access-control-allow-methods"]
        allowed = {
            h.strip().lower() for h in asked.headers["access-control-allow-headers"].split(",")
        }
        assert {"authorization", "content-type", "mcp-protocol-version"} <= allowed

        started = await post(service, INITIALIZE, INSPECTOR)
        assert started.status_code == 200, started.text
        assert started.headers["access-control-allow-origin"] == INSPECTOR
        assert started.json()["result"]["serverInfo"]["name"] == "kronikas"
        version = started.json()["result"]["protocolVersion"]
        listed = await post(
            service,
            {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            INSPECTOR,
            **{"Mcp-Protocol-Version": version},
        )
        assert listed.status_code == 200, listed.text
        assert listed.headers["access-control-allow-origin"] == INSPECTOR
        assert listed.json()["result"]["tools"]


async def test_without_the_setting_the_inspector_is_refused(redis_url: str) -> None:
    async with composed(redis_url) as service:
        assert "access-control-allow-origin" not in (await preflight(service, INSPECTOR)).headers
        refused = await post(service, INITIALIZE, INSPECTOR)
        assert refused.status_code == 403
        assert refused.json()["code"] == "forbidden"


async def test_the_setting_lets_in_that_origin_alone_and_only_served_names(
    redis_url: str,
) -> None:
    async with composed(redis_url, CORS_ORIGINS=INSPECTOR) as service:
        for origin in ("http://localhost:6275", "http://evil.example", "null"):
            asked = await preflight(service, origin)
            assert "access-control-allow-origin" not in asked.headers, origin
            refused = await post(service, INITIALIZE, origin)
            assert refused.status_code == 403, origin
            assert refused.json()["code"] == "forbidden"
        # A page that rebinds a name of its own to the machine is still refused by its `Host`.
        rebound = await service.post(
            "/mcp",
            json=INITIALIZE,
            headers={"Host": "evil.example:8000", "Origin": INSPECTOR},
        )
        assert rebound.status_code == 421
        assert rebound.json()["code"] == "misdirected_request"


async def test_a_star_lets_every_origin_in_as_the_preflight_says(redis_url: str) -> None:
    """`CORS_ORIGINS=*`: the preflight allows any origin, so the POST after it must be let in too
    (it was refused 403 once, after a preflight that said yes), on served names alone."""
    async with composed(redis_url, CORS_ORIGINS="*") as service:
        for origin in ("http://elsewhere.example", "https://a.example:8443", INSPECTOR):
            asked = await preflight(service, origin)
            assert asked.headers["access-control-allow-origin"] in ("*", origin), origin
            started = await post(service, INITIALIZE, origin)
            assert started.status_code == 200, (origin, started.text)
            assert started.json()["result"]["serverInfo"]["name"] == "kronikas"
        rebound = await service.post(
            "/mcp",
            json=INITIALIZE,
            headers={"Host": "evil.example:8000", "Origin": "http://evil.example:8000"},
        )
        assert rebound.status_code == 421
