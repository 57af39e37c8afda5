"""`make bench` keeps working: a short run prints its table and writes every figure (no timing),
the follow workload's (over SSE and HTTP, and over the seat socket), the crowd's (scaled down)
and the lobby's (on few tables) too."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from benchmarks.move_profile import Awaits, bucket
from tests.integration.benches import ROOT, bench

FIGURES = (
    "ceiling_per_s",
    "commands_per_s",
    "ratio",
    "p50_ms",
    "p99_ms",
    "flatness",
    "engine_cheat_per_s",
    "engine_thirty_one_per_s",
    *(
        f"env_{kind}_{figure}"
        for kind in ("cheat", "thirty_one")
        for figure in ("steps_per_s", "matches_per_s", "commands_per_s", "engine_per_s")
    ),
    "view_per_s",
    "two_worker_speedup",
    *(
        f"{workload}_{figure}{suffix}"
        for workload in ("follow", "socket")
        for figure in (
            "moves_per_s",
            "push_p50_ms",
            "push_p99_ms",
            "service_cpu_us_per_move",
            "redis_cpu_us_per_move",
            "redis_calls_per_move",
            "redis_commands_per_move",
            "generator_cpu_us_per_move",
            "generator_cpu_share",
        )
        for suffix in ("", "_2w", "_1t")
    ),
    # The socket's figures over HTTP's, in the same run (the targets; not asserted).
    "socket_service_cpu_ratio",
    "socket_redis_calls_ratio",
    "socket_redis_cpu_ratio",
    "socket_push_p50_ratio_1t",
    "crowd_streams",
    "crowd_rss_mib_idle",
    "crowd_rss_mib_streams",
    "crowd_kib_per_stream",
    "crowd_moves_per_s",
    "crowd_push_p50_ms",
    "crowd_push_p99_ms",
    "crowd_spectator_push_p50_ms",
    "crowd_spectator_push_p99_ms",
    "crowd_generator_cpu_share",
    # What WRITE_REPLICAS=1 (with a replica) and metrics cost, this checkout in turns.
    *(
        f"{prefix}_{figure}_{side}"
        for prefix in ("replicas", "metrics")
        for figure in (
            "moves_per_s",
            "service_cpu_us_per_move",
            "redis_cpu_us_per_move",
            "redis_calls_per_move",
            "push_p50_ms",
            "push_p99_ms",
        )
        for side in ("off", "on", "ratio")
    ),
    "lobby_page_ms_all_first",
    "lobby_page_ms_all_offset_1000",
    "lobby_page_ms_open_thirty_one_first",
    "lobby_page_ms_open_thirty_one_past_end",
    "lobby_commands_per_page_open_thirty_one_first",
    "lobby_write_ms_create",
    # The follow move's pure work in-process (benchmarks/floor.py), beside the served move's.
    "move_floor_us",
    *(f"move_floor_{part}_us" for part in ("decide", "evolve", "views", "events", "encode")),
    "socket_floor_ratio",
)
SMALL = (
    *("--crowd-tables", "20", "--crowd-spectators", "5", "--crowd-think-ms", "200"),
    *("--lobby-tables", "1500"),
)
"""A crowd of 20 tables with 5 spectators each, a move every 200 ms; a lobby of 1,500 tables."""


def test_a_short_benchmark_run_plays_without_a_refusal_and_writes_every_figure(
    tmp_path: Path,
) -> None:
    output = tmp_path / "bench-results.json"
    run = bench("benchmarks.bench", "--seconds", "1", "--output", str(output), *SMALL)
    results = json.loads(output.read_text())
    assert {key: results.get(key, 0) > 0 for key in FIGURES} == dict.fromkeys(FIGURES, True)
    assert results["command_errors"] == 0
    for workload in ("follow", "socket"):  # no move refused, no stream or socket cut
        for suffix in ("", "_2w", "_1t"):
            problems = results[f"{workload}_problems{suffix}"]
            assert results[f"{workload}_refused{suffix}"] == 0, problems
            assert results[f"{workload}_streams_lost{suffix}"] == 0, problems
    assert results["socket_service_cpu_ratio"] == (
        results["socket_service_cpu_us_per_move"] / results["follow_service_cpu_us_per_move"]
    )
    assert results["replicas_problems"] == results["metrics_problems"] == 0
    assert results["crowd_refused"] == 0, results["crowd_problems"]
    assert results["crowd_streams_lost"] == 0, results["crowd_problems"]
    assert results["crowd_streams"] == 20 * (2 + 5)
    assert results["ratio"] == results["commands_per_s"] / results["ceiling_per_s"]
    assert "commands / ceiling" in run.stdout
    assert "follow: 16 tables" in run.stdout
    assert "socket: 16 tables" in run.stdout
    assert "WRITE_REPLICAS 0 and 1 (a replica), 16 tables, in turns: moves/s" in run.stdout
    assert "METRICS off and on, 16 tables, in turns: moves/s" in run.stdout
    assert "crowd: streams one worker holds" in run.stdout
    assert "lobby: tables behind it" in run.stdout
    assert f"wrote {output}" in run.stdout


def test_the_clocks_benchmark_acts_on_every_due_table_and_counts_its_calls() -> None:
    """`python -m benchmarks.clocks` on a few tables: every deadline acted on once, and the
    calls counted where Redis counts them (the store's own line bypasses redis-py)."""
    run = bench("benchmarks.clocks", "--tables", "30")
    assert "deadlines armed: 30" in run.stdout
    due = next(line for line in run.stdout.splitlines() if line.startswith("due, "))
    assert due.startswith("due, 30 timed-out turns acted on")
    calls = float(due.split("per table ", 1)[1].split(" service calls", 1)[0])
    # At least read, arm, append and settle; on so few tables, opening the pool's connections
    # (a few commands each) adds more than the looks do.
    assert calls >= 3


def test_the_alternated_benchmark_takes_turns_and_compares_the_pairs() -> None:
    """`python -m benchmarks.alternate` with this checkout on both sides, briefly: both sides
    play, and the pairs are compared (no timing is asserted)."""
    arguments = ["--a", ".", "--b", ".", "--rounds", "2", "--seconds", "0.5"]
    run = bench("benchmarks.alternate", *arguments)
    lines = run.stdout.splitlines()
    assert lines[0].startswith("A = ., B = .: 2 rounds of 0.5 s, 1 table(s) each")
    for side in ("A", "B"):
        line = next(line for line in lines if line.startswith(f"{side}: push delay p50 "))
        moves = float(line.split(" moves/s")[0].rsplit(", ", 1)[1].replace(",", ""))
        assert moves > 0
        assert line.endswith(" moves/s, 0 refused or lost"), line
    assert any(line.startswith("B / A, the median of the pairs: push delay p50 ") for line in lines)
    assert "pairs of 2" in run.stdout


def test_the_alternated_benchmark_compares_one_checkout_in_two_environments() -> None:
    """`python -m benchmarks.alternate` with `WRITE_REPLICAS` 0 and 1 and a replica, briefly:
    each side plays with its own setting, nothing is refused, and every figure and ratio is
    printed (no timing is asserted)."""
    arguments = [
        *("--a-env", "WRITE_REPLICAS=0", "--b-env", "WRITE_REPLICAS=1", "--replica"),
        *("--rounds", "2", "--seconds", "0.5"),
    ]
    run = bench("benchmarks.alternate", *arguments)
    lines = run.stdout.splitlines()
    assert lines[0] == (
        "A = . (WRITE_REPLICAS=0), B = . (WRITE_REPLICAS=1): 2 rounds of 0.5 s, 1 table(s) each, "
        "the bench's Redis with one replica"
    )
    figure = r"(\d[\d,]*(?:\.\d+)?)"
    for side in ("A", "B"):
        line = next(line for line in lines if line.startswith(f"{side}: "))
        found = re.fullmatch(
            rf"{side}: push delay p50 {figure} ms, p99 {figure} ms \(all phases' moves\); "
            rf"medians of the phases: service CPU a move {figure} µs, Redis CPU a move "
            rf"{figure} µs, Redis calls a move {figure}, {figure} moves/s, 0 refused or lost",
            line,
        )
        assert found, line
        assert all(float(n.replace(",", "")) > 0 for n in found.groups()), line
    ratios = re.fullmatch(
        rf"B / A, the median of the pairs: push delay p50 {figure} \(B lower in \d pairs of 2\), "
        rf"service CPU a move {figure}, Redis CPU a move {figure}, moves/s {figure}, Redis calls "
        rf"a move {figure}; push delay p99, all phases' moves pooled: {figure}",
        lines[3],
    )
    assert ratios, lines[3]
    assert all(float(n) > 0 for n in ratios.groups()), lines[3]


def test_the_socket_benchmark_plays_each_transport_in_turn() -> None:
    """`python -m benchmarks.socket_follow` with the three transports, briefly: each plays its
    tables without a refusal or a lost stream or socket, and is compared with the first (no
    timing is asserted)."""
    transports = ("http", "http-keyed", "socket")
    arguments = [*(f"--transport={name}" for name in transports), "--seconds", "0.5"]
    run = bench("benchmarks.socket_follow", *arguments, "--tables", "2")
    lines = run.stdout.splitlines()
    assert lines[0].startswith("service pid ")
    assert lines[1] == "2 table(s), 1 round(s) of 0.5 s; medians of the phases:"
    for name in transports:
        line = next(line for line in lines if line.startswith(f"  {name}: service CPU a move "))
        moves = float(line.split(" moves/s")[0].rsplit(", ", 1)[1].replace(",", ""))
        assert moves > 0, line
        assert line.endswith(", 0 refused or lost"), line
    assert "(/http 1.000)" in run.stdout


def test_the_floor_measures_the_follow_move_and_its_parts() -> None:
    """`python -m benchmarks.floor` on a few moves, once: the floor and each part are there and
    positive (no timing is asserted); the glue, the floor less its parts, is there."""
    arguments = ["--json", "--repeats", "1", "--moves", "200"]
    run = bench("benchmarks.floor", *arguments, timeout=60)
    results = json.loads(run.stdout)
    parts = ("decide", "evolve", "views", "events", "encode", "record")
    positive = ["move_floor_us", *(f"move_floor_{part}_us" for part in parts)]
    assert {key: results.get(key, 0) > 0 for key in positive} == dict.fromkeys(positive, True)
    assert "move_floor_glue_us" in results


def test_the_environments_benchmark_prints_each_games_figures() -> None:
    """`python -m benchmarks.envs` briefly: both environments' steps, matches and commands a
    second, and the engines' beside them, printed (no timing is asserted)."""
    run = bench("benchmarks.envs", "--seconds", "0.3", timeout=60)
    for title in ("Cheat env (PettingZoo, random), steps/s", "Thirty-One env (PettingZoo"):
        assert title in run.stdout
    assert run.stdout.count("whole matches/s") == 2
    assert run.stdout.count("the engine alone, commands/s") == 2


def _stack(*frames: str) -> list[str]:
    """A sample's frames as py-spy's raw format writes them, under the service's loop."""
    loop = ["main (kronikas/serve.py:216)", "Runner.run (asyncio/runners.py:86)"]
    return [*loop, *frames]


@pytest.mark.parametrize(
    ("frames", "expected"),
    [
        ((), "loop"),
        (("Commands.change (kronikas/application/commands.py:228)",), "application"),
        (
            (
                "Commands.change (kronikas/application/commands.py:228)",
                "decide (kronikas_rules/cheat/decide.py:58)",
                "_play (kronikas_rules/cheat/decide.py:247)",
            ),
            "rules",
        ),
        (
            (
                "_moved (kronikas/application/commands.py:358)",
                "Composed.view (kronikas_rules/builder.py:204)",
                "view (kronikas_rules/cheat/view.py:213)",
                "Tree.openings (kronikas_rules/proofs.py:116)",
            ),
            "views",
        ),
        (
            (
                "Seen.json (kronikas/application/tables.py:134)",
                "event_json (kronikas/application/wire.py:369)",
            ),
            "encoding",
        ),
        (
            (
                "Seen.json (kronikas/application/tables.py:134)",
                "event_json (kronikas/application/wire.py:369)",
                "redact (kronikas_rules/cheat/view.py:97)",
                "wrapper (functools.py:909)",
            ),
            "views",
        ),
        (("_Wire.send (kronikas/adapters/script_line.py:141)",), "redis"),
        (("Waiter.set (kronikas/adapters/waiter.py:34)",), "application"),
        (
            (
                "Push.events (kronikas/api/socket_push.py:120)",
                "WebSocketsSansIOProtocol.send (uvicorn/protocols/websockets/x.py:432)",
            ),
            "framing",
        ),
        (("Socket._reading (kronikas/api/socket.py:241)",), "transport"),
        (("Queue.get (asyncio/queues.py:149)",), "loop"),
    ],
)
def test_a_sample_counts_in_the_bucket_of_its_innermost_frame_of_interest(
    frames: tuple[str, ...], expected: str
) -> None:
    assert bucket(_stack(*frames)) == expected


def test_a_sample_with_no_frame_of_interest_is_other() -> None:
    assert bucket(["<module> (<frozen runpy>:1)", "wrapper (functools.py:909)"]) == "other"


def test_a_coroutine_at_an_await_counts_for_the_loop() -> None:
    """A coroutine's frame at an `await` line is its task switching: the loop's (told from the
    served checkout's source), its other lines its own."""
    source = ROOT / "services/kronikas/src/kronikas/application/commands.py"
    lines = source.read_text().splitlines()
    at = next(i for i, line in enumerate(lines, 1) if "await self.appends.append(" in line)
    awaits = Awaits(ROOT)
    assert awaits("/kronikas/application/commands.py", at)
    assert not awaits("/kronikas/application/commands.py", at - 1)
    for line, expected in ((at, "loop"), (at - 1, "application")):
        frame = f"Commands.change (kronikas/application/commands.py:{line})"
        assert bucket(_stack(frame), awaits) == expected


def test_the_move_profile_buckets_a_short_run_beside_the_floor(tmp_path: Path) -> None:
    """`python -m benchmarks.move_profile` briefly, on two tables: py-spy's samples are
    bucketed and the floor set beside them (no timing is asserted). Skipped where py-spy may
    not read another process (it needs `ptrace`)."""
    output = tmp_path / "profile.json"
    arguments = [
        *("--rounds", "1", "--seconds", "0.5", "--tables", "2", "--rate", "250"),
        *("--floor-repeats", "1", "--output", str(output)),
    ]
    run = bench("benchmarks.move_profile", *arguments, timeout=120, ok=False)
    if run.returncode != 0 and "py-spy did not attach" in run.stderr:
        pytest.skip("py-spy may not read the worker here")
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    found = json.loads(output.read_text())
    socket = found["transports"]["socket"]
    assert socket["moves"] > 0 and socket["samples"] > 0
    assert set(socket["buckets_us_per_move"]) >= {"rules", "views", "encoding", "redis", "loop"}
    assert sum(socket["buckets_us_per_move"].values()) > 0
    assert not socket["problems"]
    assert found["floor"]["move_floor_us"] > 0
    assert "the worker's CPU a move" in run.stdout
