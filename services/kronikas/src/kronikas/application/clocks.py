"""The turn clocks: every process watches for due deadlines and acts on them.

Deadlines live in the store, so they outlive any process: one that fell due while none ran is
acted on when one starts. The store leases each due table to one process at a time, and the
append at the expected version makes a second try lose, so each due turn is played once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from kronikas.application.commands import Commands
from kronikas.application.errors import OutcomeUnknown, Unavailable
from kronikas.application.ports import Deadlines

log = logging.getLogger("kronikas.clocks")

POLL_S = 0.25
"""How often a process looks for due deadlines: the house acts within about this of one."""
LEASE_MS = 10_000
"""How long a process holds a due table before another may take it (should it have died)."""
BATCH = 64
"""The most due tables one look takes."""
RECHECK_MS = 2_000
"""When acting found nothing due, how soon to look at the table once more before trusting it."""


class Clocks:
    """Looks for due deadlines every `POLL_S` and acts on each, as long as it runs."""

    def __init__(self, commands: Commands, deadlines: Deadlines, now: Callable[[], int]) -> None:
        self.commands = commands
        self.deadlines = deadlines
        self.now = now
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._quiet: dict[str, int] = {}
        """Tables found with nothing due, by the version they were read at."""

    async def tick(self) -> int:
        """Act on the tables due now; answers how many were taken."""
        lease, due = await self.deadlines.due(self.now(), LEASE_MS, BATCH)
        if due:
            await asyncio.gather(*(self._act(game_id, lease) for game_id in due))
        return len(due)

    async def _act(self, game_id: str, lease: int) -> None:
        try:
            acted = await self.commands.on_deadline(game_id)
        except (Unavailable, OutcomeUnknown):
            return  # the lease runs out and the table is taken again, read as it is then
        except Exception:  # one table's fault must not stop every clock
            log.exception("acting on a deadline failed", extra={"game_id": game_id})
            return
        following = acted.following
        if acted.appended:
            self._quiet.pop(game_id, None)
        elif self._quiet.pop(game_id, None) != acted.version:
            # Nothing was due. But a request arms its deadline before its append, so what was
            # read may predate an append still on its way: look once more before trusting it.
            if len(self._quiet) > 100_000:  # looks another process took over: forget them
                self._quiet.clear()
            self._quiet[game_id] = acted.version
            recheck = self.now() + RECHECK_MS
            following = recheck if following is None else min(following, recheck)
        await self.deadlines.settle(game_id, lease, following)

    async def run(self) -> None:
        """Act on due deadlines until stopped."""
        while not self._stopping:
            try:
                while await self.tick() == BATCH and not self._stopping:
                    pass  # more are due: no pause
            except Unavailable:
                log.warning("clocks: the store does not answer")
            except Exception:
                log.exception("clocks: looking for due deadlines failed")
            await asyncio.sleep(POLL_S)

    def start(self) -> None:
        if self._task is None:
            self._stopping = False
            self._task = asyncio.create_task(self.run(), name="kronikas-clocks")

    async def stop(self) -> None:
        if self._task is not None:
            # A cancellation that lands inside a Redis call can be lost there (redis-py answers
            # the call instead), so the loop also stops at its next turn.
            self._stopping = True
            self._task.cancel()
            await asyncio.wait([self._task], timeout=5)
            self._task = None
