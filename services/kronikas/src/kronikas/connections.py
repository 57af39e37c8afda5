"""The connection guard: each client address's share of a worker's connections, and a bounded
request head (docs/security.md, The limits).

uvicorn alone counts every connection toward one `limit_concurrency` and answers past it with a
plain 503, to everyone; it never times out a connection that has sent nothing or half a request;
and its parser (httptools) joins the fragments of a header with `bytes +=`, so a 120 MB header
sent in pieces costs seconds of CPU. This is uvicorn's httptools protocol with a guard around it:

- Open connections are counted per client address (`api/client.py` `bucket`: IPv4 as is, IPv6
  by its /64). An address holding `CONNECTIONS_PER_ADDRESS` has its next connection closed at
  once, before anything is read: an answer written then would race the request the client is
  still sending, and the reset that follows a close with unread bytes would often destroy it.
  Idle keep-alive connections, event streams and seat sockets count until they close. A peer in
  `TRUSTED_PROXIES` is not capped: every client behind it shares its address, and the proxy
  bounds its clients (docs/security.md, Behind a proxy).
- At `MAX_CONNECTIONS`, a new connection takes the place of an idle one (waiting for a request
  head) of the address holding the most, when that address holds more than the newcomer's would;
  else the newcomer is closed at once. So the cap never starves the addresses with few
  connections: the biggest holder pays.
- A request head must arrive whole within `HEAD_TIMEOUT_S` of the connection (or, on a kept-alive
  one, of its first byte); else the connection is closed (slowloris).
- A request head (request line and headers) is at most `MAX_HEAD_BYTES`: past it, a 431
  problem+json with `Connection: close`, as soon as the bound is passed. The parser is given
  whole lines only, so a line sent in many fragments is joined once, here, in a bytearray: the
  cost is linear in what was read.

And one thing for speed, not safety: uvicorn writes an answer's status line and headers, then its
body, two system calls and two segments. An answer whose length is known (a move's, a view's) is
written once, head and body together (`OneWrite`); streams are written as they come.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from typing import Any

import msgspec
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import (
    STATUS_LINE,
    HttpToolsProtocol,
    RequestResponseCycle,
)
from uvicorn.server import ServerState

from kronikas.api.client import bucket, parse, trusted
from kronikas.api.problems import PROBLEM_JSON, Problem
from kronikas.config import Settings

log = logging.getLogger("kronikas.connections")

_EVICTION_CANDIDATES = 8
"""Addresses holding the most connections looked at for an idle one when the worker is full."""
_LOG_EVERY_S = 60.0
"""Refusals are counted and logged in one line at most this often: an attack is not a log flood."""


class Slot:
    """One open connection of an address."""

    __slots__ = ("key", "owner", "released", "transport")

    def __init__(self, key: str, transport: asyncio.BaseTransport) -> None:
        self.key = key
        self.transport = transport
        self.owner: GuardedProtocol | None = None
        """The HTTP protocol serving it; None once it is a seat socket (never idle)."""
        self.released = False

    @property
    def idle(self) -> bool:
        """Waiting for a request head: nothing asked yet, or kept alive between requests."""
        return self.owner is not None and self.owner.idle


class Guard:
    """One worker's connections by client address. Called as uvicorn's `http=` protocol factory:
    `Guard(settings)(config, server_state, app_state)` is one connection's protocol."""

    def __init__(self, settings: Settings) -> None:
        self.per_address = settings.connections_per_address
        self.total_cap = settings.max_connections
        self.head_timeout_s = settings.head_timeout_s
        self.max_head = settings.max_head_bytes
        self.proxies = settings.trusted_proxies
        self.held: dict[str, dict[Slot, None]] = {}
        """Each address's open connections, oldest first."""
        self.by_size: dict[int, dict[str, None]] = {}
        """The addresses holding each number of connections, so the biggest is found at once."""
        self.top = 0
        self.total = 0
        self.refused: dict[str, int] = {}
        self._logged_at = 0.0
        self._ws_classes: dict[type[asyncio.Protocol], type[asyncio.Protocol]] = {}
        self.head_too_large = _head_too_large(self.max_head)

    def __call__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> asyncio.Protocol:
        return GuardedProtocol(self, config, server_state, app_state, _loop)

    def key(self, peer: Any) -> tuple[str, bool]:
        """A peer's address key, and whether the per-address cap applies to it."""
        host = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        address = parse(host)
        if address is None:
            return host[:100] or "unknown", True
        return bucket(address), not (self.proxies and trusted(address, self.proxies))

    def admit(self, transport: asyncio.BaseTransport) -> Slot | None:
        """A slot for a new connection, or None: it is to be closed at once."""
        key, capped = self.key(transport.get_extra_info("peername"))
        mine = self.held.get(key)
        count = len(mine) if mine else 0
        if capped and count >= self.per_address:
            self.note("over_address_cap")
            return None
        if self.total >= self.total_cap and not self._evict_for(count):
            self.note("over_total_cap")
            return None
        slot = Slot(key, transport)
        self.held.setdefault(key, {})[slot] = None
        self._resized(key, count, count + 1)
        self.total += 1
        return slot

    def _evict_for(self, count: int) -> bool:
        """Close an idle connection of an address holding the most, if that is more than
        `count + 1` (what the newcomer's address would hold): True when one was closed. A few of
        the biggest holders are looked at, no more: a full worker stays cheap to connect to."""
        if self.top <= count + 1:
            return False
        for key in itertools.islice(self.by_size[self.top], _EVICTION_CANDIDATES):
            for slot in self.held[key]:
                if slot.idle:
                    self.release(slot)
                    slot.transport.close()
                    self.note("evicted")
                    return True
        return False

    def release(self, slot: Slot) -> None:
        if slot.released:
            return
        slot.released = True
        held = self.held[slot.key]
        del held[slot]
        self._resized(slot.key, len(held) + 1, len(held))
        if not held:
            del self.held[slot.key]
        self.total -= 1

    def _resized(self, key: str, old: int, new: int) -> None:
        if old:
            group = self.by_size[old]
            del group[key]
            if not group:
                del self.by_size[old]
        if new:
            self.by_size.setdefault(new, {})[key] = None
            self.top = max(self.top, new)
        while self.top and self.top not in self.by_size:
            self.top -= 1

    def note(self, what: str) -> None:
        """Count a refusal; log the counts at most once every `_LOG_EVERY_S`."""
        self.refused[what] = self.refused.get(what, 0) + 1
        now = time.monotonic()
        if now - self._logged_at >= _LOG_EVERY_S:
            self._logged_at = now
            log.warning("connections refused or closed by the guard", extra=dict(self.refused))
            self.refused.clear()

    def counted(self, ws_class: type[asyncio.Protocol]) -> type[asyncio.Protocol]:
        """`ws_class`, releasing the slot of the connection it took over when it closes."""
        if ws_class not in self._ws_classes:
            guard = self

            class Counted(ws_class):  # type: ignore[valid-type,misc]
                guard_slot: Slot | None = None

                def connection_lost(self, exc: Exception | None) -> None:
                    try:
                        super().connection_lost(exc)
                    finally:
                        if self.guard_slot is not None:
                            guard.release(self.guard_slot)

            self._ws_classes[ws_class] = Counted
        return self._ws_classes[ws_class]


def _head_too_large(limit: int) -> bytes:
    problem = Problem(
        status=431,
        code="request_head_too_large",
        title="Request Header Fields Too Large",
        detail=f"The request line and headers together are over {limit} bytes.",
    )
    return msgspec.json.encode(problem)


class OneWrite:
    """A request's transport as its response cycle sees it, until the answer's head is written:
    the head of an answer with a body of known length is held, and written with the body's first
    part, in one write. Then the cycle writes to the transport itself again."""

    __slots__ = ("cycle", "held", "transport")

    def __init__(self, transport: asyncio.Transport, cycle: RequestResponseCycle) -> None:
        self.transport = transport
        self.cycle = cycle
        self.held: bytes | None = None

    def write(self, data: bytes) -> None:
        cycle = self.cycle
        if self.held is not None:  # the body's first part: the head goes with it
            cycle.transport = self.transport
            self.transport.write(self.held + data)
            return
        if cycle.response_started:  # the head (a 100 Continue comes before it, written as is)
            # (an answer to HEAD has no body written: its head goes at once)
            if (
                cycle.expected_content_length
                and not cycle.chunked_encoding
                and cycle.scope["method"] != "HEAD"
            ):
                self.held = data
                return
            cycle.transport = self.transport
        self.transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.transport, name)


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, counted by the guard, with a deadline and a bound on heads."""

    def __init__(
        self,
        guard: Guard,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.guard = guard
        self.slot: Slot | None = None
        if self.ws_protocol_class is not None:
            self.ws_protocol_class = guard.counted(self.ws_protocol_class)
        self.in_head = True
        """Between requests or reading a head: what arrives is counted toward `MAX_HEAD_BYTES`."""
        self.head_bytes = 0
        """Bytes of the current head given to the parser."""
        self.pending = bytearray()
        """Bytes of the current head held back until their line is whole."""
        self.max_head = guard.max_head
        self.head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self.slot = self.guard.admit(transport)
        if self.slot is None:
            self.transport = transport
            transport.close()
            return
        self.slot.owner = self
        super().connection_made(transport)
        self._start_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.slot is None:
            return
        self.guard.release(self.slot)
        self._stop_head_timer()
        super().connection_lost(exc)

    @property
    def idle(self) -> bool:
        return self.in_head and (self.cycle is None or self.cycle.response_complete)

    def _start_head_timer(self) -> None:
        if self.head_timer is None:
            self.head_timer = self.loop.call_later(self.guard.head_timeout_s, self._head_late)

    def _stop_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_late(self) -> None:
        self.head_timer = None
        if self.in_head and not self.transport.is_closing():
            self.guard.note("head_timeout")
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.in_head:
            if not self.pending:
                # The common case, a whole head in one read: the parser takes it as it came
                # (uvicorn's `data_received` stops the keep-alive timer).
                whole = data.find(b"\r\n\r\n")
                if whole >= 0 and self.head_bytes + whole + 4 <= self.max_head:
                    HttpToolsProtocol.data_received(self, data)
                    # a request's head may have begun behind it
                    if self.in_head and self.head_timer is None and self._head_begun():
                        self._arm()
                    return
            self._unset_keepalive_if_required()
            self._head_data(data)
        else:
            HttpToolsProtocol.data_received(self, data)
        if self.head_timer is None and (self.pending or self._head_begun()):
            self._arm()

    def _head_begun(self) -> bool:
        """The parser has begun a head and not finished it: uvicorn makes a request's scope when
        its message begins, and its cycle around that scope once its head is whole."""
        cycle = self.cycle
        return self.scope is not None and (cycle is None or cycle.scope is not self.scope)

    def _arm(self) -> None:
        """A head begun and not whole has a deadline (a head that came whole needed none)."""
        if not self.transport.is_closing() and self.transport.get_protocol() is self:
            self._start_head_timer()

    def _head_data(self, data: bytes) -> None:
        """What arrives between requests or within a head, unless a whole head came in one read
        (`data_received`): bounded, and given to the parser by whole lines."""
        end = data.rfind(b"\n")
        if end < 0:
            self.pending += data
            if self.head_bytes + len(self.pending) > self.max_head:
                self._refuse_head()
            return
        end += len(self.pending) + 1
        self.pending += data
        lines = bytes(self.pending[:end])
        del self.pending[:end]
        room = self.max_head - self.head_bytes
        if len(lines) <= room:
            self.head_bytes += len(lines)
            if not self._feed(lines):
                return
        else:
            if not self._feed(lines[:room]):
                return
            if self.in_head:
                self._refuse_head()
                return
            if not self._feed(lines[room:]):
                return
        if not self.in_head and self.pending:
            # The head ended: what follows its last line is the body, or the next request.
            rest = bytes(self.pending)
            self.pending.clear()
            self._feed(rest)

    def _feed(self, data: bytes) -> bool:
        """Give the parser `data`; False when the connection is done with (closed, or upgraded)."""
        super().data_received(data)
        return not self.transport.is_closing() and self.transport.get_protocol() is self

    def _refuse_head(self) -> None:
        self.guard.note("head_too_large")
        self.in_head = False
        self.pending.clear()
        body = self.guard.head_too_large
        content = [STATUS_LINE[431]]
        for name, value in self.server_state.default_headers:
            content.extend([name, b": ", value, b"\r\n"])
        content.extend(
            [
                b"content-type: " + PROBLEM_JSON.encode() + b"\r\n",
                b"content-length: " + str(len(body)).encode() + b"\r\n",
                b"cache-control: no-store\r\n",
                b"connection: close\r\n",
                b"\r\n",
                body,
            ]
        )
        self.transport.write(b"".join(content))
        self.transport.close()

    # The parser's hooks run on every request: uvicorn's own, called without `super()`.
    def on_headers_complete(self) -> None:
        self.in_head = False
        self._stop_head_timer()
        HttpToolsProtocol.on_headers_complete(self)

    def _start_asgi_task(self, cycle: RequestResponseCycle, app: Any) -> None:
        cycle.transport = OneWrite(self.transport, cycle)  # type: ignore[assignment]
        super()._start_asgi_task(cycle, app)

    def on_message_complete(self) -> None:
        HttpToolsProtocol.on_message_complete(self)
        # A request pipelined behind this one in the same read reaches the parser uncounted:
        # at most one read, once; its later reads are counted.
        self.in_head = True
        self.head_bytes = 0

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        upgraded = self.transport.get_protocol()
        if upgraded is not self and self.slot is not None:
            self.slot.owner = None
            upgraded.guard_slot = self.slot  # type: ignore[attr-defined]
            self.slot = None
