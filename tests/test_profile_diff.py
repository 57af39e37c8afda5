"""`benchmarks/profile_diff.py` reads py-spy's raw samples and puts each function's share of a
side's samples into µs a move (no profiler is run here, and no time is asserted)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.profile_diff import Profile, perf_samples, report

ROOT = "main (kronikas/serve.py:1);loop (asyncio/runners.py:86)"
BEFORE = f"{ROOT};move (kronikas/a.py:10) 60\n{ROOT} 40\n"
AFTER = (
    f"{ROOT};move (kronikas/a.py:12) 60\n"
    f"{ROOT};move (kronikas/a.py:12);guard (kronikas/b.py:3) 20\n"
    f"{ROOT} 40\n"
)


def test_a_function_s_share_of_the_samples_is_its_share_of_the_cpu_a_move() -> None:
    after = Profile()
    after.add(AFTER, cpu_s=0.012, moves=100)  # 120 µs a move, 120 samples
    assert after.samples == 120
    assert after.own["guard (kronikas/b.py)"] == 20  # line numbers dropped: they move
    assert after.total["move (kronikas/a.py)"] == 80  # its own and its callee's
    assert after.files["kronikas/a.py"] == 60
    assert round(after.us_a_move(after.own["guard (kronikas/b.py)"]), 6) == 20.0


def test_the_report_lists_what_changed_and_marks_code_only_one_side_has() -> None:
    sides = {"A": Profile(), "B": Profile()}
    sides["A"].add(BEFORE, cpu_s=0.010, moves=100)
    sides["B"].add(AFTER, cpu_s=0.012, moves=100)
    text = report(Path("a"), Path("b"), sides, [sides], top=5, rate=1000)
    lines = text.splitlines()
    assert lines[0] == "A = a, B = b: 1 rounds"
    assert "B / A service CPU a move: pooled 1.200" in text
    guard = next(line for line in lines if line.endswith("guard (kronikas/b.py) (B only)"))
    assert guard.split()[:3] == ["0.00", "20.00", "+20.00"]
    # A frame under every sample (the loop, `main`) is no row of its own.
    assert not any(line.endswith("main (kronikas/serve.py)") for line in lines)


PERF_REPORT = """\
# Samples: 1K of event 'cpu-clock'
#
# Overhead       Samples  Shared Object         Symbol
# ........  ............  ....................  ..............................
#
    25.93%           487  libpython3.11.so.1.0  [.] _PyEval_EvalFrameDefault
     4.37%            82  [kernel.kallsyms]     [k] finish_task_switch.isra.0
"""


def test_perf_s_report_is_read_as_flat_frames_by_object() -> None:
    raw = perf_samples(PERF_REPORT)
    assert raw == (
        "_PyEval_EvalFrameDefault (libpython3.11.so.1.0) 487\n"
        "finish_task_switch.isra.0 ([kernel.kallsyms]) 82\n"
    )
    profile = Profile()
    profile.add(raw, cpu_s=0.0569, moves=1000)
    assert profile.files == {"libpython3.11.so.1.0": 487, "[kernel.kallsyms]": 82}
