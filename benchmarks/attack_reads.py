"""A figure, not a test: what reads that cost much, and readers that never read, take from others.

Two attacks from one address (docs/security.md, The limits), each against a service of the
checkout at `--repo` (this one unless told) with every default limit, on a Redis of its own:

- **The read flood**: eighteen tokens from 127.0.0.2 (two eight-seat tables' players and hosts)
  each read `events?after=0` of their table, a full page of 500 events, `--rate` times a second;
  meanwhile 127.0.0.3 reads a table's view ten times a second. Figures: the other client's p50
  and p90 quiet and under the flood, the service's CPU (cores busy) during the flood, and what
  the flood got through and was refused.
- **Never-reading sockets**: `--sockets` spectator sockets (from 127.0.0.4) follow a busy table
  from its first event and never read, while its person plays `--moves` moves. Figures: the
  service's resident memory and the kernel's TCP memory (/proc/net/sockstat: both ends, the
  attacker's receive buffers included) and the service's sockets' own (`ss -tm`), each above
  what they were before the sockets opened; and how many were closed as slow readers.

The tables are made first under a service with generous limits, which then stops.

    uv run python -m benchmarks.attack_reads [--repo ../before] [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import random
import re
import secrets
import socket
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from benchmarks.served import GENEROUS, Served
from kronikas.adapters.embedded_redis import EmbeddedRedis

ROOT = Path(__file__).resolve().parents[1]
LONG = 520
"""Events each table is played to: `events?after=0` is a full page (500)."""


def at(url: str, host: int) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(
        local_address=f"127.0.0.{host}",
        limits=httpx.Limits(max_connections=None, max_keepalive_connections=100),
    )
    return httpx.AsyncClient(base_url=url, transport=transport, timeout=60)


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def made(client: httpx.AsyncClient, options: dict[str, Any], people: int) -> dict[str, Any]:
    """A started Cheat table of `people` players (and house seats to eight when fewer)."""
    r = await client.post("/v1/games", json={"kind": "cheat", "options": options})
    r.raise_for_status()
    table = {"id": r.json()["game"]["id"], "host": r.json()["host_token"], "players": []}
    for n in range(people):
        r = await client.post(f"/v1/games/{table['id']}/players", json={"name": f"P{n}"})
        r.raise_for_status()
        table["players"].append(r.json()["token"])
    for n in range(8 - people):
        r = await client.post(
            f"/v1/games/{table['id']}/house-players",
            json={"name": f"House {n}"},
            headers=auth(table["host"]),
        )
        r.raise_for_status()
    (
        await client.post(f"/v1/games/{table['id']}/start", headers=auth(table["host"]))
    ).raise_for_status()
    return table


def commands(view: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    legal = view.get("legal") or []
    hand = view["me"]["hand"]
    out: list[dict[str, Any]] = []
    if "call" in legal and rng.random() < 0.2:
        out.append({"type": "call"})
    if "play" in legal and hand:
        out.append({"type": "play", "cards": hand[:1]})
    out += [{"type": kind} for kind in ("accept", "call") if kind in legal]
    return out


async def patient(request: Any) -> httpx.Response:
    """A request, sent again after a 429 once its `Retry-After` has passed."""
    while True:
        r: httpx.Response = await request()
        if r.status_code != 429:
            return r
        await asyncio.sleep(int(r.headers.get("retry-after", "1")))


async def play(client: httpx.AsyncClient, table: dict[str, Any], until: int, moves: int) -> int:
    """Moves by whoever may make one, until the log holds `until` events or `moves` were made."""
    rng = random.Random(1)
    path = f"/v1/games/{table['id']}"
    made_moves = 0
    while made_moves < moves:
        spectator = (await patient(lambda: client.get(path))).json()
        if spectator["version"] >= until or spectator["status"] == "finished":
            break
        seats = [spectator["turn"]] if spectator["turn"] is not None else []
        seats += [s for s in range(len(table["players"])) if s not in seats]
        for seat in seats:
            if seat >= len(table["players"]):
                continue
            token = table["players"][seat]
            view = (await patient(lambda t=token: client.get(path, headers=auth(t)))).json()
            sent = False
            for command in commands(view, rng):
                r = await patient(
                    lambda c=command, t=token: client.post(
                        f"{path}/commands", json=c, headers=auth(t)
                    )
                )
                if r.status_code == 200:
                    made_moves += 1
                    sent = True
                    break
            if sent:
                break
    return made_moves


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def victim(url: str, game: str, seconds: float) -> list[float]:
    """127.0.0.3 reads a table's view ten times a second: each answer's time, in ms."""
    took: list[float] = []
    async with at(url, 3) as client:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            started = time.perf_counter()
            r = await client.get(f"/v1/games/{game}")
            took.append((time.perf_counter() - started) * 1000)
            assert r.status_code == 200, r.text
            await asyncio.sleep(max(0.0, 0.1 - took[-1] / 1000))
    return took


async def flooder(
    client: httpx.AsyncClient, game: str, token: str, rate: float, seconds: float, got: Counter[int]
) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        r = await client.get(f"/v1/games/{game}/events", params={"after": 0}, headers=auth(token))
        got[r.status_code] += 1
        await asyncio.sleep(max(0.0, 1 / rate - (time.monotonic() - started)))


def never_reading(port: int, game: str) -> socket.socket:
    """A spectator's seat socket from 127.0.0.4 that says `hello` (from the first event) and
    never reads again."""
    sock = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.4", 0))
    key = base64.b64encode(secrets.token_bytes(16)).decode()
    head = (
        f"GET /v1/games/{game}/socket HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    )
    sock.sendall(head.encode())
    answer = b""
    while not answer.endswith(b"\r\n\r\n"):
        answer += sock.recv(1)
    hello = json.dumps({"type": "hello", "token": None, "after": 0}).encode()
    mask = secrets.token_bytes(4)
    sock.sendall(
        bytes([0x81, 0x80 | len(hello)])
        + mask
        + bytes(b ^ mask[i % 4] for i, b in enumerate(hello))
    )
    return sock


def closed_slow(sock: socket.socket) -> bool:
    """Whether the server closed the socket (a slow reader's 4508, then the end of the
    connection, or the connection dropped); False when it is still open, its data read."""
    sock.settimeout(2)
    try:
        while sock.recv(1 << 16):
            pass
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    finally:
        sock.close()
    return True


def tcp_mem_bytes() -> int:
    """The kernel's TCP buffer memory, every socket's (/proc/net/sockstat `mem`, in pages)."""
    found = re.search(r"TCP:.* mem (\d+)", Path("/proc/net/sockstat").read_text())
    return int(found[1]) * 4096 if found else 0


def served_socket_bytes(port: int) -> int:
    """The send and receive queues of the service's own TCP sockets on `port` (`ss -tm`)."""
    out = subprocess.run(
        ["ss", "-tmnH", f"sport = :{port}"], capture_output=True, text=True, check=False
    ).stdout
    total = 0
    for found in re.finditer(r"skmem:\(r(\d+),rb\d+,t(\d+),tb\d+,f\d+,w(\d+)", out):
        total += int(found[1]) + int(found[2]) + int(found[3])
    return total


async def run(repo: Path | None = None, **kw: Any) -> dict[str, float]:
    """The figures, for the checkout at `repo` (this one when None)."""
    repo = (repo or ROOT).resolve()
    seconds = float(kw.get("seconds", 10.0))
    rate = float(kw.get("rate", 19.0))
    sockets = int(kw.get("sockets", 100))
    moves = int(kw.get("moves", 40))
    figures: dict[str, float] = {}
    with (
        tempfile.TemporaryDirectory() as data,
        EmbeddedRedis(data, None, "--appendonly", "no") as redis,
    ):
        base = {"LOG_LEVEL": "WARNING", "SOCKET_IDLE_S": "600"}
        builder = await Served.started(redis.url, repo, base | GENEROUS)
        try:
            async with at(builder.url, 9) as client:
                options = {"decks": 2, "rounds": 100, "house_pause_seconds": 0}
                eights = [await made(client, options, 8) for _ in range(2)]
                for table in eights:
                    await play(client, table, LONG, 10_000)
                busy = await made(client, options, 1)
                await play(client, busy, LONG, 10_000)
        finally:
            builder.stop()
        service = await Served.started(redis.url, repo, base)  # every default limit
        try:
            async with at(service.url, 7) as looker:
                sizes = [
                    len((await looker.get(f"/v1/games/{t['id']}/events")).json()["events"])
                    for t in (*eights, busy)
                ]
            figures["flood_page_events"] = float(min(sizes[:2]))
            quiet = await victim(service.url, busy["id"], min(seconds, 3.0))
            got: Counter[int] = Counter()
            cpu0 = service.cpu_seconds()
            async with at(service.url, 2) as abuser:
                flood = [
                    flooder(abuser, table["id"], token, rate, seconds, got)
                    for table in eights
                    for token in (table["host"], *table["players"])
                ]
                _, loud = await asyncio.gather(
                    asyncio.gather(*flood), victim(service.url, busy["id"], seconds)
                )
            figures |= {
                "service_cores_busy_flood": round((service.cpu_seconds() - cpu0) / seconds, 2),
                "other_read_p50_ms_quiet": round(statistics.median(quiet), 2),
                "other_read_p50_ms_flood": round(statistics.median(loud), 2),
                "other_read_p90_ms_flood": round(percentile(loud, 0.9), 2),
                "flood_answered_per_s": round(got[200] / seconds, 1),
                "flood_refused_per_s": round(got[429] / seconds, 1),
            }
            # Never-reading sockets on the busy table, while its person plays on.
            await asyncio.sleep(1.0)
            rss0, tcp0, own0 = (
                service.rss_bytes(),
                tcp_mem_bytes(),
                served_socket_bytes(service.port),
            )
            held = [
                await asyncio.to_thread(never_reading, service.port, busy["id"])
                for _ in range(sockets)
            ]
            async with at(service.url, 5) as person:
                await play(person, busy, 10**9, moves)
            await asyncio.sleep(2.0)  # SLOW_CHECK_S and the kernel's last sends
            figures |= {
                "never_reading_rss_mb": round((service.rss_bytes() - rss0) / 2**20, 1),
                "never_reading_kernel_tcp_mb": round((tcp_mem_bytes() - tcp0) / 2**20, 1),
                "never_reading_service_sockets_mb": round(
                    (served_socket_bytes(service.port) - own0) / 2**20, 1
                ),
            }
            slow = await asyncio.gather(*(asyncio.to_thread(closed_slow, s) for s in held))
            figures["never_reading_closed"] = float(sum(slow))
        finally:
            service.stop()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=None, help="the checkout to serve")
    parser.add_argument("--seconds", type=float, default=10.0, help="the flood's length")
    parser.add_argument("--rate", type=float, default=19.0, help="each token's reads a second")
    parser.add_argument("--sockets", type=int, default=100, help="never-reading sockets")
    parser.add_argument("--moves", type=int, default=40, help="moves made while they are open")
    args = parser.parse_args()
    figures = asyncio.run(
        run(args.repo, seconds=args.seconds, rate=args.rate, sockets=args.sockets, moves=args.moves)
    )
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
