"""What must hold after a failover (issue 42, item 4), each check saying what it found wrong
rather than stopping at the first: every acknowledged command is in the log, read straight from
each Redis server and through each service, once; no log has a gap or a fork; no follower was
shown a version that is gone, or missed one; no request was answered a 500."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import redis

from kronikas.adapters.scripts import game_keys
from kronikas.application.access import hash_token
from kronikas.application.tables import key_hash
from tests.api.tables import Table, auth
from tests.failover.followers import Follower
from tests.failover.players import ALLOWED, NO_ANSWER, Acknowledged, Record
from tests.redis_group import RedisGroup


@dataclass
class Found:
    """The checks' findings: how many acknowledged commands were held against the logs, how many
    of them were not found there as answered (lost), and every problem in words."""

    checked: int = 0
    lost: int = 0
    problems: list[str] = field(default_factory=list)

    def problem(self, text: str) -> None:
        self.problems.append(text)


def raw_logs(group: RedisGroup, tables: list[Table]) -> dict[int, dict[str, list[dict[str, Any]]]]:
    """Each running server's copy of each table's log (its stored records), by server port."""
    copies: dict[int, dict[str, list[dict[str, Any]]]] = {}
    for server in group.servers:
        if server.process is None:
            continue
        with redis.Redis(port=server.port, socket_timeout=5) as client:
            copies[server.port] = {
                t.id: [json.loads(r) for r in client.lrange(game_keys(t.id)["log"], 0, -1)]
                for t in tables
            }
    return copies


class Unreadable(Exception):
    """The service did not answer a read 200 within `READ_DEADLINE_S` after the failover."""


READ_DEADLINE_S = 10.0


async def read(
    http: httpx.AsyncClient, url: str, token: str | None = None, **params: int
) -> dict[str, Any]:
    """A read after the failover, retried on a 5xx for a while (a service may still be moving
    to the new primary)."""
    deadline = time.monotonic() + READ_DEADLINE_S
    while True:
        r = await http.get(url, params=params, headers=auth(token))
        if r.status_code == 200:
            answer: dict[str, Any] = r.json()
            return answer
        if r.status_code < 500 or time.monotonic() > deadline:
            raise Unreadable(f"GET {url} {params}: {r.status_code} {r.text[:300]}")
        await asyncio.sleep(0.1)


async def api_log(http: httpx.AsyncClient, table: Table, token: str | None) -> list[dict[str, Any]]:
    """A table's whole log as `token`'s seat (or a spectator) reads it, page by page."""
    events: list[dict[str, Any]] = []
    while True:
        page = await read(http, f"/v1/games/{table.id}/events", token, after=len(events))
        events += page["events"]
        if not page["more"]:
            return events


def check_raw(
    found: Found, primary: int, copies: dict[int, dict[str, list[dict[str, Any]]]]
) -> None:
    """Every server holds the primary's log of each table, versions 1… without a gap."""
    for table_id, log in copies[primary].items():
        versions = [r["v"] for r in log]
        if versions != list(range(1, len(log) + 1)):
            found.problem(f"{table_id}: the primary's log has versions {versions[:5]}… (a gap)")
        for port, other in copies.items():
            if other[table_id] != log:
                found.problem(
                    f"{table_id}: server {port} holds {len(other[table_id])} records, the "
                    f"primary {primary} {len(log)}, and they differ (a fork)"
                )


async def check_api(
    found: Found,
    clients: list[httpx.AsyncClient],
    tables: list[Table],
    raw: dict[str, list[dict[str, Any]]],
) -> dict[tuple[str, int | None], list[dict[str, Any]]]:
    """Each seat's log and the spectator's are the same through each service, as long as the
    stored log, versions 1… in order; answers them by (table, seat), seat None a spectator's."""
    logs: dict[tuple[str, int | None], list[dict[str, Any]]] = {}
    for table in tables:
        for seat, token in [(None, None), *enumerate(table.players)]:
            read = [await api_log(http, table, token) for http in clients]
            if any(r != read[0] for r in read):
                found.problem(f"{table.id} seat {seat}: the services read different logs")
            versions = [e["version"] for e in read[0]]
            if versions != list(range(1, len(raw[table.id]) + 1)):
                found.problem(
                    f"{table.id} seat {seat}: versions through the API {versions[-3:]}, "
                    f"the store holds {len(raw[table.id])} (a gap, or a version gone)"
                )
            logs[(table.id, seat)] = read[0]
    return logs


def check_acknowledged(
    found: Found,
    acknowledged: list[Acknowledged],
    raw: dict[str, list[dict[str, Any]]],
    logs: dict[tuple[str, int | None], list[dict[str, Any]]],
) -> None:
    """Each acknowledged answer's events are in the log at their versions, as the seat read
    them and as stored, its key recorded on its first event and nowhere else, and the answer's
    version is its last event's."""
    marks: dict[str, list[str]] = {}
    for table_id, log in raw.items():
        marks[table_id] = [r["i"].split(".")[1] for r in log if r.get("i")]
    for done in acknowledged:
        found.checked += 1
        table, answer = done.table, done.answer
        events = answer["events"]
        seat_log = logs.get((table.id, done.seat))
        stored = raw[table.id]
        wrong: list[str] = []
        if not events or answer["version"] != events[-1]["version"]:
            wrong.append(f"answered version {answer['version']} is not its last event's")
        for event in events:
            v = event["version"]
            if v > len(stored):
                wrong.append(f"version {v} ({event['type']}) is not stored")
            elif seat_log is not None and (v > len(seat_log) or seat_log[v - 1] != event):
                wrong.append(f"version {v} ({event['type']}) is not in the seat's log as answered")
            elif stored[v - 1]["at"] != event["at"] or stored[v - 1]["v"] != v:
                wrong.append(f"version {v} is stored otherwise: {stored[v - 1]}")
        keyed = key_hash(hash_token(table.players[done.seat]), done.key)
        if events and events[0]["version"] <= len(stored):
            first = stored[events[0]["version"] - 1]
            if not first.get("i") or first["i"].split(".")[1] != keyed:
                wrong.append(f"its key is not on its first event: {first}")
        if marks[table.id].count(keyed) != 1:
            wrong.append(f"its key is recorded {marks[table.id].count(keyed)} times")
        if wrong:
            found.lost += 1
            found.problem(f"{table.id} seat {done.seat} key {done.key}: " + "; ".join(wrong))


def check_followers(
    found: Found,
    followers: list[Follower],
    logs: dict[tuple[str, int | None], list[dict[str, Any]]],
) -> None:
    """Each follower was shown versions 1… in order, each once, each as the log holds it, up to
    the table's last."""
    for follower in followers:
        log = logs.get((follower.table_id, None))
        if log is None:
            continue
        versions = [e["version"] for e in follower.seen]
        where = f"{follower.table_id} {follower.how}"
        if versions != list(range(1, len(versions) + 1)):
            at = next(i for i, v in enumerate(versions) if v != i + 1)
            found.problem(
                f"{where}: shown versions out of order or twice: … {versions[max(0, at - 3) : at]}"
                f" then {versions[at : at + 6]} … (at the {at + 1}th event, on its "
                f"{'stream' if follower.how == 'stream' else 'poll'} #{follower.connections[at]}"
                f" of {follower.opened}; the one before on #{follower.connections[at - 1]})"
            )
        gone = [e for e in follower.seen if e["version"] > len(log) or log[e["version"] - 1] != e]
        if gone:
            found.problem(f"{where}: shown {len(gone)} event(s) the log does not hold: {gone[:2]}")
        if len(versions) < len(log):
            found.problem(f"{where}: shown up to {len(versions)} of {len(log)}")


def check_answers(found: Found, record: Record) -> None:
    """Every request was answered as a failover allows: never a 500, no 4xx but 409/412."""
    for label, n in record.answers.items():
        said = label.split(" ", 1)[1]
        if said not in NO_ANSWER and not said.startswith(ALLOWED):
            found.problem(f"{n} × {label}")


async def check_finished(
    found: Found, http: httpx.AsyncClient, tables: list[Table]
) -> dict[str, int]:
    """Every match is over; answers each table's last version as the service reads it."""
    last = {}
    for table in tables:
        view = await read(http, f"/v1/games/{table.id}")
        if view["status"] != "finished":
            found.problem(f"{table.id}: its match did not finish ({view['status']})")
        last[table.id] = view["version"]
    return last
