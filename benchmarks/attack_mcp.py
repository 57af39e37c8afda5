"""An attack, not a test: what `/mcp` writes and answers for hostile input without a token.

Starts a bundled Redis and one service process (this checkout's code, or `--repo`'s), with its
default log settings (JSON lines at INFO) and read limits generous enough not to refuse the
attack (so that what is measured is what each request costs, not the limit), then from one
address, sequentially:

- 100 `prompts/get` with a 64 KB name: the bytes the service wrote to its stderr and stdout
  meanwhile (`log_bytes_prompts`), and the bytes answered (`answer_bytes_prompts`);
- one unknown method whose name is 60 KB: the bytes of its answer (`answer_bytes_method`);
- one `resources/read` of an unknown 60 KB URI: the bytes of its answer
  (`answer_bytes_resource`).

    python -m benchmarks.attack_mcp [--repo ../before] [--requests 100]

Prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import string
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from benchmarks.served import ROOT, Served
from kronikas.adapters.embedded_redis import EmbeddedRedis

HEADERS = {"Accept": "application/json, text/event-stream"}


def _letters(n: int) -> str:
    rng = secrets.SystemRandom()
    return "".join(rng.choices(string.ascii_letters, k=n))


async def _quiet(service: Served, client: httpx.AsyncClient) -> int:
    """The log's size once the service has answered a health check after what came before
    (its lines for earlier requests are written by then)."""
    await client.get(f"{service.url}/v1/health")
    return service.log.stat().st_size


async def attack(service: Served, requests: int) -> dict[str, float]:
    async with httpx.AsyncClient(timeout=60, headers=HEADERS) as client:
        url = f"{service.url}/mcp"
        name = _letters(64 * 1024 - 256)
        before = await _quiet(service, client)
        answered = 0
        started = time.perf_counter()
        for n in range(requests):
            message = {"jsonrpc": "2.0", "id": n, "method": "prompts/get", "params": {"name": name}}
            answered += len((await client.post(url, json=message)).content)
        elapsed = time.perf_counter() - started
        written = await _quiet(service, client) - before
        method = {"jsonrpc": "2.0", "id": 1, "method": _letters(60 * 1024), "params": {}}
        answer_method = len((await client.post(url, json=method)).content)
        uri = f"kronikas://rules/{_letters(60 * 1024)}"
        resource = {"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": uri}}
        answer_resource = len((await client.post(url, json=resource)).content)
    return {
        "requests": float(requests),
        "log_bytes_prompts": float(written),
        "answer_bytes_prompts": float(answered),
        "seconds_prompts": round(elapsed, 3),
        "answer_bytes_method": float(answer_method),
        "answer_bytes_resource": float(answer_resource),
    }


async def run(repo: Path | None = None, **kw: Any) -> dict[str, float]:
    """The attack on the code of `repo` (this checkout unless given); `requests`: how many
    `prompts/get` (100)."""
    requests = int(kw.get("requests", 100))
    source = (repo or ROOT).resolve()
    with tempfile.TemporaryDirectory(prefix="attack-mcp-") as tmp:
        data = Path(tmp)
        with EmbeddedRedis(data / "redis") as redis:
            # The defaults an operator runs for the log, and read limits that refuse nothing.
            generous = {"READ_LIMIT_PER_S": "1000000", "READ_LIMIT_BURST": "1000000"}
            drop = ("LOG_LEVEL", "LOG_FORMAT", "KRONIKAS_APP")
            log = data / "service.log"
            with await Served.started(redis.url, source, generous, drop, log) as service:
                return await attack(service, requests)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=None, help="serve this checkout's code")
    parser.add_argument("--requests", type=int, default=100, help="prompts/get sent (100)")
    args = parser.parse_args()
    figures = asyncio.run(run(args.repo, requests=max(1, min(args.requests, 10_000))))
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
