"""The idle-connection bench and the soak keep working (issue 43): a short run of each writes
every figure and its plots. Nothing is timed: the figures are only there, and sound."""

from __future__ import annotations

import json
from pathlib import Path

from tests.integration.benches import bench


def test_a_short_idle_run_holds_its_sockets_and_streams_and_writes_each_figure(
    tmp_path: Path,
) -> None:
    output = tmp_path / "idle.json"
    run = bench(
        "benchmarks.idle",
        "--connections",
        "60",
        "--seconds",
        "1",
        "--output",
        str(output),
        timeout=180,
    )
    results = json.loads(output.read_text())
    for kind in ("socket", "stream"):
        assert results[f"idle_{kind}_connections"] == 60
        assert results[f"idle_{kind}_lost"] == 0, results[f"idle_{kind}_problems"]
        assert sorted(results[f"idle_{kind}_rss_mib_steps"], key=int) == ["0", "6", "30", "60"]
        for figure in ("rss_mib_before", "rss_mib_held", "cpu_share_idle"):
            assert results[f"idle_{kind}_{figure}"] >= 0
        assert f"idle_{kind}_kib_per_connection" in results
    assert Path(results["idle_plot"]).stat().st_size > 0
    assert "idle: seat sockets one worker holds" in run.stdout


def test_a_short_soak_plays_finishes_tables_and_finds_their_ttls(tmp_path: Path) -> None:
    output = tmp_path / "soak.json"
    bench(
        "benchmarks.soak",
        *("--minutes", "0.25", "--seats", "20", "--think-s", "0.2", "--rounds", "1"),
        *("--output", str(output)),
        timeout=180,
    )
    results = json.loads(output.read_text())
    # Sockets are never cut; a move may be refused (a 503 when Redis answers late on a busy
    # machine): its table is dealt again, as any client would.
    assert results["soak_lost"] == 0, results["soak_problems"]
    assert results["soak_moves"] > 0
    assert results["soak_push_p99_ms_first"] > 0 and results["soak_push_p99_ms_last"] > 0
    assert set(results["soak_rss_growth"]) == {
        "worker 1",
        "worker 2",
        "supervisor",
        "redis",
        "generator",
    }
    assert results["soak_finished_tables"] > 0
    assert results["finished_tables_checked"] > 0
    assert results["finished_keys_without_ttl"] == 0
    assert 0 < results["finished_ttl_min_s"] <= results["finished_ttl_expected_s"]
    assert len(results["soak_samples"]) > 3
    for plot in results["soak_plots"]:
        assert Path(plot).stat().st_size > 0
