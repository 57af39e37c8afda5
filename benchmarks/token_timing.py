"""A figure, not a test: do near-miss tokens take longer to refuse than random ones?

Tokens are looked up by their SHA-256, so a guess that shares all but its last characters with a
real token should teach an attacker nothing. This prints the median time of each kind of guess
against one table of an in-process app on a bundled Redis. `make fuzz` runs it.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import tempfile
import time

from litestar.testing import AsyncTestClient

from kronikas.adapters.embedded_redis import EmbeddedRedis
from kronikas.api.app import create_app
from kronikas.application.engines import service_games
from kronikas.config import Settings


def near_miss(token: str) -> str:
    """The token with its last two characters replaced, never the token itself."""
    while (guess := token[:-2] + secrets.token_urlsafe(2)[:2]) == token:
        pass
    return guess


async def measure(redis_url: str, rounds: int) -> tuple[float, float, int]:
    settings = Settings(redis_url=redis_url, log_level="CRITICAL", rate_per_s=100_000,
                        rate_burst=100_000, open_per_min=1_000_000,
                        allowed_hosts=("testserver.local",))  # fmt: skip
    async with AsyncTestClient(create_app(settings, games=service_games())) as client:
        created = (await client.post("/v1/games", json={"kind": "cheat"})).json()
        table = created["game"]["id"]
        token = (await client.post(f"/v1/games/{table}/players", json={"name": "A"})).json()
        real = token["token"]
        url = f"/v1/games/{table}"
        near: list[float] = []
        far: list[float] = []
        refused = 0
        for i in range(rounds):
            guesses = [(near, near_miss(real)), (far, "seat_" + secrets.token_urlsafe(24))]
            for times, guess in guesses if i % 2 else reversed(guesses):
                started = time.perf_counter()
                r = await client.get(url, headers={"Authorization": f"Bearer {guess}"})
                times.append(time.perf_counter() - started)
                refused += r.status_code == 401
    return statistics.median(near) * 1000, statistics.median(far) * 1000, refused


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data, None) as redis:
        near_ms, far_ms, refused = asyncio.run(measure(redis.url, args.rounds))
    print(
        f"token timing over {args.rounds} rounds: near-miss median {near_ms:.3f} ms, "
        f"random median {far_ms:.3f} ms, refused {refused}/{2 * args.rounds}"
    )
    return 0 if refused == 2 * args.rounds else 1


if __name__ == "__main__":
    raise SystemExit(main())
