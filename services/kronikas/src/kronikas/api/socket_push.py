"""A seat socket's push: the changes its viewer is owed, sent as they come (docs/api.md, The
seat socket).

As for the stream (api/sse.py), a change is pushed in the change feed's own callback (the
waiter's `push`, `Push.__call__`) when the table held here has the events, its frame made once
from the JSON every viewer of that seat shares; the pushing task (`Push.run`) is woken only for
a gap, a page or more, or the end of the viewer's seat, and reads a page only once the one
before it is sent, so a catch-up never queues pages. A command's own events come in its
`result`: the push skips them, and sends first whatever came before them that the socket has
not seen (every version once, in order).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import msgspec

from kronikas.api.socket_gate import INTERNAL, SLOW_READER, UNAUTHORIZED
from kronikas.api.socket_outbox import Outbox
from kronikas.api.sse import SLOW_CHECK_S
from kronikas.application.errors import ApiError, Unauthorized
from kronikas.application.games import Answer, Delivered, Session

log = logging.getLogger("kronikas.socket")

_RETRY_S = (0.1, 2.0)
"""The push's first and longest wait before it reads again while the store does not answer."""
_encoder = msgspec.json.Encoder()


class Push:
    """The events (and, with `views`, the views) one socket's session is owed, into its outbox;
    `close` ends the socket, `closing` tells whether it is ending."""

    def __init__(
        self,
        session: Session,
        outbox: Outbox,
        views: bool,
        close: Callable[[int, str], None],
        closing: Callable[[], bool],
    ) -> None:
        self.session, self.outbox, self.views = session, outbox, views
        self.close, self.closing = close, closing
        self.loop = asyncio.get_running_loop()
        self.commanding = False
        """A command is on its way: the push leaves the table's changes to its end."""
        self.owed = False
        """A change came while a command was on its way."""
        self.resumed: asyncio.Future[None] | None = None
        """The pushing task's wait for a command's end."""

    def __call__(self) -> bool:
        """The waiter's `push`, in the change feed's callback: the change served here when the
        table held here has it (True); else the pushing task is woken (False)."""
        if self.closing():
            return True
        if self.commanding:
            self.owed = True
            return True
        try:
            events = self.session.at_hand()
            if events is None:
                return False
            if events:
                self.events(events)
        except Exception:  # the task meets it again, where it can end the socket
            log.debug("a push failed", exc_info=True)
            return False
        return True

    async def run(self) -> None:
        """The pushing task: what the push could not serve (a gap, a page, a read), until the
        socket closes; its viewer's player gone closes it (4401)."""
        session = self.session
        wait = _RETRY_S[0]
        while not self.closing():
            draining = self.outbox.draining
            if draining is not None:  # the next page once this one is sent: none piles up
                await self._drained(draining)
                continue
            try:
                events = await session.next()
            except Unauthorized:
                self.close(UNAUTHORIZED, "unauthorized")
                return
            except ApiError:  # the store is away: the push resumes when it is back
                await asyncio.sleep(wait)
                wait = min(wait * 2, _RETRY_S[1])
                continue
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a socket's push failed")
                self.close(INTERNAL, "internal")
                return
            wait = _RETRY_S[0]
            if self.commanding:  # its result says what it did: the rest after it
                self.resumed = resumed = self.loop.create_future()
                await resumed
                continue
            if events:
                self.events(events)
                # Not held across the next wait: an idle socket kept its last page (its catch-up,
                # several KB) for as long as it idled.
                events = None

    async def _drained(self, draining: asyncio.Task[None]) -> None:
        """Wait for a send that waits for the client; meanwhile, every `SLOW_CHECK_S`, close the
        socket (4508) once what waits and what it is owed come to more than `OUTBOX_BYTES`."""
        while not draining.done():
            await asyncio.wait((draining,), timeout=SLOW_CHECK_S)
            if draining.done() or self.closing():
                return
            owed = self.session.owed_bytes()
            if owed is None or self.outbox.behind(owed):
                self.close(SLOW_READER, "slow_reader")
                return

    def events(self, events: list[Delivered]) -> None:
        """An `events` message of those not sent yet (and the view after them, if asked)."""
        session = self.session
        after = session.after
        if events[0].version <= after:
            events = [e for e in events if e.version > after]
            if not events:
                return
        last = events[-1].version
        session.after = last
        joined = b",".join([e.json for e in events])
        self.outbox.put((b'{"type":"events","events":[%b],"version":%d}' % (joined, last)).decode())
        if self.views:
            view = session.view_at(last)
            if view is not None:
                self.outbox.put((b'{"type":"view","game":%b,"version":%d}' % (view, last)).decode())

    async def result(self, id: str, answer: Answer) -> None:
        """A command's `result`: first the versions before its events that this socket has
        not seen; its events are then skipped by the push."""
        session = self.session
        body, version, first = answer  # a command's answer says where its events start
        if first and version > session.after:
            try:
                while session.after < first - 1:
                    owed = await session.until(first - 1)
                    if not owed:
                        break
                    self.events(owed)
            except Unauthorized:
                pass  # its player left, by this very command maybe: the answer is owed all the same
            session.after = max(session.after, version)
        self.outbox.put(
            (b'{"type":"result","id":%b,"result":%b}' % (_encoder.encode(id), body)).decode()
        )

    def resume(self) -> None:
        """After a command: the changes that came meanwhile are pushed now (or by the task)."""
        self.commanding = False
        resumed, self.resumed = self.resumed, None
        if resumed is not None and not resumed.done():
            resumed.set_result(None)
        if self.owed:
            self.owed = False
            if not self():  # not at hand: the task reads (rare: a gap, a page)
                self.session.wake()
