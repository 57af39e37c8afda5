"""The address ceiling: what every request from one client address costs, together, whatever
token each carries (docs/api.md, Rate limits; docs/security.md, The limits).

It protects a process's CPU from one address, as the per-address share of connections
(kronikas/connections.py) and the stream caps (`Holds`) do, and like them it is kept in the
process, per worker: with `WORKERS=n` an address may spend n ceilings. It costs no Redis command
and no round trip. A request takes from its address's ceiling first (in the process, nothing
awaited between the check and the take), then from its token's bucket in Redis (or its address's
read bucket) as before; when Redis refuses, the ceiling is given back: both or neither.

The ceilings are token buckets keyed by the address the transports name (api/client.py: IPv4 as
is, IPv6 by its /64), timed by the application's clock (`now`, ms), held in one dict in the order
they were last touched. The memory stays bounded: a bucket that has refilled is forgotten (it is
the same as none: a new one starts full; they are looked for at most once a millisecond, not at
every request), and past `CEILINGS_KEPT` addresses with a bucket short
of full, the one touched longest ago (the fullest of them but for what it took since) is forgotten
to make room.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable

CEILINGS_KEPT = 65_536
"""How many addresses' ceilings a process keeps at most (about 13 MB with IPv6 keys). To fill
them, that many addresses must each have spent within the last `burst / rate` seconds (2 s by
default); past it, the ceiling touched longest ago is forgotten, and its address starts again
from a full one."""


class Ceilings:
    """Every client address's ceiling in this process: `take` before a request's charge in the
    store, `give_back` when the store refuses it."""

    def __init__(
        self, rate_per_s: float, burst: int, now: Callable[[], int], kept: int = CEILINGS_KEPT
    ) -> None:
        if rate_per_s <= 0 or burst < 1 or kept < 1:
            raise ValueError("a ceiling needs a rate above 0, a burst and a place")
        self.rate_per_s = rate_per_s
        self.burst = burst
        self.now = now
        self.kept = kept
        self._forgot_at: int | None = None
        """When (ms) the refilled ceilings were last forgotten."""
        self._buckets: OrderedDict[str, tuple[float, int]] = OrderedDict()
        """Each address's tokens left and when (ms) they were counted, touched longest ago
        first (an OrderedDict: its oldest is found, and one moved last, in constant time)."""

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, client: str | None, n: int = 1) -> int:
        """Take `n` (at most the burst: a request dearer than a full ceiling waits for a full
        one) from `client`'s ceiling: 0 when taken, else the ms until it holds them. None, a
        caller inside the process, has no address and no ceiling."""
        if client is None:
            return 0
        now = self.now()
        buckets, burst = self._buckets, self.burst
        if now != self._forgot_at:  # once a millisecond: nothing refills in less
            self._forget(now)
        held = buckets.get(client)
        if held is None:
            tokens: float = burst
            if len(buckets) >= self.kept:  # full of spent ceilings: the stalest one goes
                buckets.popitem(last=False)
        else:
            tokens, at = held
            if now > at:
                tokens += (now - at) * self.rate_per_s / 1000
                if tokens > burst:
                    tokens = burst
            buckets.move_to_end(client)
        take = n if n < burst else burst
        if tokens < take:
            buckets[client] = (tokens, now)
            return math.ceil((take - tokens) * 1000 / self.rate_per_s)
        buckets[client] = (tokens - take, now)
        return 0

    def give_back(self, client: str | None, n: int = 1) -> None:
        """Give back what `take` took for a request the store then refused (never more than the
        burst). A ceiling forgotten since was full: nothing to give back to."""
        if client is None:
            return
        held = self._buckets.get(client)
        if held is not None:
            tokens, at = held
            self._buckets[client] = (min(self.burst, tokens + min(n, self.burst)), at)

    def _forget(self, now: int) -> None:
        """Forget the ceilings that have refilled, from the one touched longest ago on, up to the
        first that has not (those after it were touched later)."""
        self._forgot_at = now
        buckets, burst, rate = self._buckets, self.burst, self.rate_per_s
        while buckets:
            tokens, at = buckets[next(iter(buckets))]
            if tokens + (now - at) * rate / 1000 < burst:
                return
            buckets.popitem(last=False)
