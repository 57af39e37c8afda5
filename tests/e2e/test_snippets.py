"""The READMEs' and docs' code, run as written (tests/snippets.py: how blocks are marked) against
a live service with the production limits — every rate, open and read limit at its default, as a
newcomer's `make run` or the image has them — on a Redis of its own, so no other test's requests
share its buckets. A block run "with names bound" gets the names its text gives it (`url`,
`token`, `game_id`, …), nothing more (but `print`, where two threads print at once); the curl
tour's `http://localhost:8000` is the service's address."""

from __future__ import annotations

import json
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from kronikas_client import AuthenticatedClient
from kronikas_client.api.games import get_game
from kronikas_client.events import parse_event

from kronikas.adapters.embedded_redis import EmbeddedRedis
from tests.conftest import ServiceProcess
from tests.snippets import ROOT, snippet

README = "README.md"
SDK_README = "sdk/kronikas-client/README.md"
API = "docs/api.md"
TOUR_ORIGIN = "http://localhost:8000"
BOTS_S = 300
"""How long two README bots may take over one table (each waits out its 429s)."""


class Live:
    """The service the snippets run against, and tables made on it the way a user makes them."""

    def __init__(self, service: ServiceProcess) -> None:
        self.service = service
        self.origin = f"http://localhost:{service.port}"
        self.http = httpx.Client(base_url=self.origin, timeout=30)

    def answered(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """A request of the test's own, made again after a 429 as its `Retry-After` says."""
        while True:
            r = self.http.request(method, path, **kwargs)
            if r.status_code != 429:
                assert r.status_code < 400, r.text
                return r
            time.sleep(float(r.headers["retry-after"]))

    def create(self, kind: str, options: dict[str, Any] | None = None) -> tuple[str, str]:
        """A new table of `kind`: its id and its host token."""
        body = {"kind": kind, "options": options or {}}
        created = self.answered("POST", "/v1/games", json=body).json()
        return created["game"]["id"], created["host_token"]

    def join(self, game: str, name: str) -> str:
        return str(
            self.answered("POST", f"/v1/games/{game}/players", json={"name": name}).json()["token"]
        )

    def start(self, game: str, host: str) -> None:
        self.answered(
            "POST", f"/v1/games/{game}/start", headers={"Authorization": f"Bearer {host}"}
        )

    def view(self, game: str, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return dict(self.answered("GET", f"/v1/games/{game}", headers=headers).json())

    def events(self, game: str) -> list[dict[str, Any]]:
        """Every event of a table, as a spectator sees them, page after page."""
        seen: list[dict[str, Any]] = []
        while True:
            page = self.answered(
                "GET", f"/v1/games/{game}/events", params={"after": len(seen)}
            ).json()
            seen += page["events"]
            if not page["more"]:
                return seen


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    where = tmp_path_factory.mktemp("snippets")
    with EmbeddedRedis(where / "redis") as redis:
        service = ServiceProcess(redis.url, where / "service.log", production=True)
        live = Live(service)
        try:
            yield live
        finally:
            live.http.close()
            service.stop()


def run_bound(code: str, **names: Any) -> None:
    """Run a block in a fresh namespace holding only `names` (what its text gives it)."""
    exec(compile(code, "<snippet>", "exec"), {"__name__": "snippet", **names})


# -- the SDK README's bot --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played(live: Live, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two copies of the SDK README's bot, saved as `bot.py` and run as the README says
    (`python bot.py URL GAME_ID NAME`), at one Cheat table the host starts once both sit."""
    folder = tmp_path_factory.mktemp("bot")
    (folder / "bot.py").write_text(snippet(SDK_README, "sdk-bot"))
    game, host = live.create("cheat", {"reveal": "match_end"})
    bots = [
        subprocess.Popen(
            [sys.executable, "bot.py", live.origin, game, name],
            cwd=folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("Ilona", "Bence")
    ]
    try:
        deadline = time.monotonic() + 60
        while len(live.view(game)["players"]) < 2:
            assert time.monotonic() < deadline, "the bots did not sit down"
            assert all(b.poll() is None for b in bots), [b.communicate() for b in bots]
            time.sleep(0.05)
        live.start(game, host)
        outputs = [b.communicate(timeout=BOTS_S) for b in bots]
    finally:
        for bot in bots:
            if bot.poll() is None:
                bot.kill()
                bot.wait()
    return {
        "game": game,
        "host": host,
        "codes": [b.returncode for b in bots],
        "out": [o for o, _ in outputs],
        "err": [e for _, e in outputs],
    }


def test_two_readme_bots_play_a_table_to_its_end_without_a_refusal(
    live: Live, played: dict[str, Any]
) -> None:
    assert played["codes"] == [0, 0], played["err"]
    assert played["err"] == ["", ""], played["err"]  # no "refused (rate_limited)", nothing
    winners = live.view(played["game"])["winners"]
    assert winners
    assert played["out"] == [f"winners: {winners}\n"] * 2


def test_the_readme_bot_is_under_40_lines_and_passes_mypy_strict(tmp_path: Path) -> None:
    code = snippet(SDK_README, "sdk-bot")
    heading = re.search(r"^## A bot in under (\d+) lines$", (ROOT / SDK_README).read_text(), re.M)
    assert heading is not None
    assert len([line for line in code.splitlines() if line.strip()]) < int(heading[1])
    (tmp_path / "bot.py").write_text(code)
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "bot.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


# -- on the table the bots played ------------------------------------------------------------------


def test_the_fair_deal_checks_pass_on_a_played_table(live: Live, played: dict[str, Any]) -> None:
    # The table opens every deal at its end (`reveal: "match_end"`): the host, who sees what a
    # spectator sees, is shown every card of every deal, and checks them all.
    game, host = played["game"], played["host"]
    said: list[str] = []
    run_bound(
        snippet(README, "fair-deal"), B=f"{live.origin}/v1", G=game, token=host, print=said.append
    )
    events = live.events(game)
    dealt = [e["data"] for e in events if e["type"].endswith(".round_dealt")]
    assert said == [f"{sum(d['deck_size'] for d in dealt)} cards proven"]
    names: dict[str, Any] = {"__name__": "snippet"}
    exec(compile(snippet(API, "check-round"), "<check-round>", "exec"), names)
    roots = {d["round"]: (d["commitment"], d["deck_size"]) for d in dealt}
    opened = next(e for e in events if e["type"].endswith(".deals_opened"))["data"]["openings"]
    assert all(names["check_opening"](o, *roots[o["round"]]) for o in opened)
    salt = opened[0]["salt"]
    other = opened[0] | {"salt": ("1" if salt[0] == "0" else "0") + salt[1:]}  # must fail
    assert not names["check_opening"](other, *roots[other["round"]])


# -- the seat socket, and the stream of the table it played ----------------------------------------


@pytest.fixture(scope="module")
def socketed(live: Live) -> dict[str, Any]:
    """The socket example run for each seat of a new Cheat table at once, as two players
    would: its table, the seats' tokens, and what the examples printed."""
    game, host = live.create("cheat")
    tokens = [live.join(game, name) for name in ("Ilona", "Bence")]
    live.start(game, host)
    failures: queue.Queue[BaseException] = queue.Queue()
    printed: queue.Queue[str] = queue.Queue()

    def seat(token: str) -> None:
        try:
            run_bound(
                snippet(SDK_README, "socket"),
                url=live.origin,
                token=token,
                game_id=game,
                print=lambda *parts: printed.put(" ".join(map(str, parts))),
            )
        except BaseException as failed:
            failures.put(failed)

    seats = [threading.Thread(target=seat, args=(t,), daemon=True) for t in tokens]
    for thread in seats:
        thread.start()
    for thread in seats:
        thread.join(BOTS_S)
    return {
        "game": game,
        "tokens": tokens,
        "ended": not any(t.is_alive() for t in seats),
        "failures": list(failures.queue),
        "printed": list(printed.queue),
    }


def test_the_socket_example_plays_each_seat_of_a_table_to_its_end(
    live: Live, socketed: dict[str, Any]
) -> None:
    assert socketed["ended"], "a seat's socket example did not end"
    assert not socketed["failures"], socketed["failures"]
    final = live.view(socketed["game"])
    assert final["status"] == "finished" and final["winners"]
    last = [p for p in socketed["printed"] if p.startswith(f"{final['version']} cheat.")]
    assert len(last) == 2, socketed["printed"][-6:]  # each seat saw the last event, and ended


def test_the_stream_examples_follow_a_played_table(
    live: Live, socketed: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    game, token = socketed["game"], socketed["tokens"][0]  # a seat: it sees its own cards
    versions = [e["version"] for e in live.events(game)]
    names: dict[str, Any] = {"url": live.origin, "token": token, "game_id": game}
    code = snippet(SDK_README, "stream")
    namespace = {"__name__": "snippet", **names}
    exec(compile(code, "<stream>", "exec"), namespace)
    printed = capsys.readouterr().out.splitlines()
    assert [int(line.split()[0]) for line in printed] == versions
    # The async twin it defines, as its text shows it called.
    import asyncio

    with AuthenticatedClient(base_url=live.origin, token=token) as me:
        asyncio.run(namespace["follow"](me, game, versions[-3]))
    printed = capsys.readouterr().out.splitlines()
    assert [int(line.split()[0]) for line in printed] == versions[-2:]

    played_events = [e for e in live.events(game) if e["type"] == "cheat.cards_played"]
    for raw in played_events[:3]:
        run_bound(snippet(SDK_README, "match-event"), event=parse_event(raw))
    said = capsys.readouterr().out.splitlines()
    assert said == [
        f"seat {e['data']['seat']} put {e['data']['count']} down as {e['data']['rank']}"
        for e in played_events[:3]
    ]


# -- errors ----------------------------------------------------------------------------------------


def test_the_error_example_reads_a_refused_swap(
    live: Live, capsys: pytest.CaptureFixture[str]
) -> None:
    game, host = live.create("thirty_one")
    tokens = [live.join(game, name) for name in ("Ilona", "Bence")]
    live.start(game, host)
    waiting = next(
        t for t in tokens if live.view(game, t)["turn"] != live.view(game, t)["me"]["seat"]
    )
    with AuthenticatedClient(base_url=live.origin, token=waiting) as me:
        view = get_game.sync(game, client=me)
        before = live.view(game)["version"]
        run_bound(snippet(SDK_README, "errors"), game_id=game, me=me, view=view)
    said = capsys.readouterr().out.strip()
    assert live.view(game)["version"] == before  # refused: nothing changed
    again = live.http.post(
        f"/v1/games/{game}/commands",
        json={"type": "swap", "give": "7H", "take": "AL"},
        headers={"Authorization": f"Bearer {waiting}"},
    )
    assert again.status_code == 409, again.text
    assert said == again.json()["detail"]  # the 409's case: its detail, in words


# -- the curl tour ---------------------------------------------------------------------------------


def test_the_curl_tour_runs_as_written(live: Live) -> None:
    tour = snippet(README, "curl-tour").replace(TOUR_ORIGIN, live.origin)
    assert live.origin in tour
    shell = subprocess.Popen(
        ["bash", "-c", tour],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert shell.stdout is not None
        for line in shell.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    out: list[str] = []
    try:
        deadline = time.monotonic() + 60
        # The tour ends in `curl -N …/stream`, which follows the table until Ctrl-C: read until
        # the stream has shown the call, then end it as a reader would.
        while not any(line.startswith("data:") and '"cheat.cheat_called"' in line for line in out):
            assert time.monotonic() < deadline, "".join(out)
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, "".join(out) + (shell.stderr.read() if shell.stderr else "")
            out.append(line)
    finally:
        import os
        import signal

        # SIGTERM, not Ctrl-C's SIGINT, which a shell waiting on its command may not act on
        # (and a run started in the background ignores).
        os.killpg(shell.pid, signal.SIGTERM)
        try:
            shell.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(shell.pid, signal.SIGKILL)
            shell.wait(10)
            raise
    text = "".join(out)
    assert shell.stderr is not None
    assert "curl: (" not in shell.stderr.read()  # (its progress meter aside: no curl error)
    values = list(json_values(text[: text.index("\nid: 1\n")]))  # jq's, before the stream
    started, looked, moved, called, page = values[:5]
    assert started["status"] == "playing" and started["turn"] is not None
    assert looked["me"]["hand"] and "play" in looked["legal"]
    assert moved["version"] == 5  # created, two joins, the deal: then this play
    assert [e["type"] for e in moved["events"]] == ["cheat.cards_played"]
    assert [e["type"] for e in called] == ["cheat.cheat_called", "cheat.pile_taken"]
    assert [e["version"] for e in page["events"]] == [6, 7]
    assert "id: 6" in text  # the stream followed the table to the call


def json_values(text: str) -> Iterator[Any]:
    """The JSON values `jq` printed one after another."""
    decoder = json.JSONDecoder()
    at = 0
    while (at := _skip(text, at)) < len(text):
        value, at = decoder.raw_decode(text, at)
        yield value


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at
