"""The collector's passes on a clock (kronikas/collector.py): garbage that CPython's count of
objects made less those freed never reaches its threshold for is still collected, young passes
come on the clock with a middle one every `middle`-th, and none after `stop`."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable, Iterator
from types import SimpleNamespace

import pytest
from litestar.testing import AsyncTestClient

from kronikas import collector
from kronikas.api.app import create_app
from kronikas.collector import Pacer
from kronikas.config import Settings
from tests.apps import ENGINES, settings


class Cycle:
    """An object that refers to itself: garbage only a pass of the collector frees."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def count_never_reached() -> Iterator[None]:
    """CPython's own passes out of the way: its thresholds beyond what a test allocates."""
    before = gc.get_threshold()
    gc.set_threshold(1_000_000_000, 1_000_000_000, 1_000_000_000)
    try:
        yield
    finally:
        gc.set_threshold(*before)


async def _until(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    """Wait on the loop until `condition()` holds (a loaded machine may be slow to get there)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not condition():
        assert loop.time() < end, "the pacer made no pass"
        await asyncio.sleep(0.005)


@pytest.mark.usefixtures("count_never_reached")
async def test_garbage_is_collected_on_the_clock_without_the_count() -> None:
    pacer = Pacer(0.01)
    dead = weakref.ref(Cycle())  # unreachable at once, but for its own cycle
    assert dead() is not None  # the count is far from its threshold: no pass freed it
    pacer.start()
    try:
        await _until(lambda: dead() is None)
    finally:
        pacer.stop()
    assert pacer.passes >= 1


async def test_young_passes_on_the_clock_and_a_middle_one_every_middle_th(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[int] = []

    def collect(generation: int = 2) -> int:
        made.append(generation)
        return gc.collect(generation)

    monkeypatch.setattr(collector, "gc", SimpleNamespace(collect=collect))
    pacer = Pacer(0.005, middle=3)
    pacer.start()
    try:
        await _until(lambda: pacer.passes >= 6)
    finally:
        pacer.stop()
    assert made[:6] == [0, 0, 1, 0, 0, 1]


@pytest.mark.usefixtures("count_never_reached")
async def test_no_pass_after_stop() -> None:
    pacer = Pacer(0.005)
    pacer.start()
    await _until(lambda: pacer.passes >= 2)
    pacer.stop()
    stopped_at = pacer.passes
    await asyncio.sleep(0.1)  # twenty paces: none comes
    assert pacer.passes == stopped_at


def test_a_pace_is_positive() -> None:
    with pytest.raises(ValueError):
        Pacer(0)
    with pytest.raises(ValueError):
        Pacer(0.1, middle=0)


def test_gc_pace_ms_setting() -> None:
    assert Settings.from_env({}).gc_pace_ms == 50
    assert Settings.from_env({"GC_PACE_MS": "0"}).gc_pace_ms == 0
    assert Settings.from_env({"GC_PACE_MS": "250"}).gc_pace_ms == 250
    for bad in ("-1", "fast", "60001"):
        with pytest.raises(ValueError, match="GC_PACE_MS"):
            Settings.from_env({"GC_PACE_MS": bad})


async def test_the_app_paces_the_collector_as_set(redis_url: str) -> None:
    """`GC_PACE_MS`: the app's worker paces its collector from start-up to shut-down; 0: not."""
    paced = create_app(settings(redis_url, gc_pace_ms=5), games=ENGINES)
    async with AsyncTestClient(paced):
        pacer = paced.state.pacer
        await _until(lambda: pacer.passes >= 2)
    stopped_at = pacer.passes
    await asyncio.sleep(0.05)
    assert pacer.passes == stopped_at
    still = create_app(settings(redis_url, gc_pace_ms=0), games=ENGINES)
    async with AsyncTestClient(still):
        assert still.state.get("pacer") is None
