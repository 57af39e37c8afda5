"""The collector's pace: young and middle passes on a clock as well as on CPython's count.

CPython starts a young pass when the objects it tracks that were made, less those freed (any
of them, however old), pass its first threshold (`GC_THRESHOLDS` in api/app.py). A worker whose
fold cache is full frees an old table's objects for each table it takes in, and each move frees
the state it replaces, so that count barely rises while the young generation grows: late in an
8-minute soak a young pass came once in six seconds and walked everything made since (23 ms of
CPU at its median, 68 at most), and a middle pass everything since its last (124–185 ms), while
in the first minutes, the cache not yet full, they took 7 and 24 (docs/performance.md, issue 43).

On a clock the generations stay as small as a fraction of a second's work, however much the
process frees: every `pace_s` a young pass, and every `middle`-th of them a middle one. Each
walks only what was made since its last, so that the passes that come on the clock replace the
larger ones that would have come later; CPython's own passes still come on its count. The clock
is the event loop's (`call_later`): a pass runs between two callbacks, never inside one.
"""

from __future__ import annotations

import asyncio
import gc

MIDDLE_EVERY = 10
"""Young passes on the clock between two middle ones."""


class Pacer:
    """Passes of the collector on the event loop's clock, every `pace_s` seconds (a middle pass
    every `middle`-th time) from `start` until `stop`."""

    def __init__(self, pace_s: float, middle: int = MIDDLE_EVERY) -> None:
        if pace_s <= 0 or middle < 1:
            raise ValueError("a pace is a positive number of seconds, every middle pass ≥ 1")
        self.pace_s = pace_s
        self.middle = middle
        self.passes = 0
        """The passes made on the clock so far."""
        self._next: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """Pace the collector from now on, on the running loop."""
        loop = asyncio.get_running_loop()
        self._next = loop.call_later(self.pace_s, self._pass, loop)

    def stop(self) -> None:
        """No more passes on the clock."""
        if self._next is not None:
            self._next.cancel()
            self._next = None

    def _pass(self, loop: asyncio.AbstractEventLoop) -> None:
        self.passes += 1
        gc.collect(1 if self.passes % self.middle == 0 else 0)
        if self._next is not None:
            self._next = loop.call_later(self.pace_s, self._pass, loop)
