"""The TypeScript client's SeatSocket as the web table gets it (web/client/socket.js, served by
the service, under its page's policy) replayed in Chromium against every recorded seat-socket
conversation (tests/conversations): it sends exactly the recorded frames and understands exactly
the recorded answers."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PageFactory, Served, _service
from tests.conversations.record import CONVERSATIONS, GAME_ID, read
from tests.conversations.replay import Replay, expected

WALK = Path(__file__).resolve().parents[1] / "conversations" / "walk.mjs"


@pytest.fixture(scope="module")
async def replay() -> AsyncIterator[Replay]:
    async with Replay() as server:
        yield server


@pytest.fixture(scope="module")
def service(
    redis_url: str, replay: Replay, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Served]:
    """The service, serving the page; the replay's origin is in its CORS_ORIGINS, so the page's
    policy lets it open the replay's socket as it would the service's own."""
    log = tmp_path_factory.mktemp("conversations") / "service.log"
    with contextlib.contextmanager(_service)(redis_url, log, CORS_ORIGINS=replay.url) as served:
        yield served


def _walker() -> str:
    """walk.mjs as a function the page runs, with the module the service serves."""
    walk = WALK.read_text().replace("export async function walk", "async function walk")
    return f"""async ([lines, baseUrl, gameId]) => {{
      {walk}
      const {{ SeatSocket }} = await import("/client/socket.js");
      const played = new Promise((resolve) => (window.__played = resolve));
      return walk(SeatSocket, lines, {{ baseUrl, gameId, WebSocket, played }});
    }}"""


@pytest.mark.parametrize("name", sorted(CONVERSATIONS))
async def test_the_served_client_speaks_the_recorded_conversation_in_chromium(
    name: str, replay: Replay, service: Served, page_factory: PageFactory
) -> None:
    lines = read(name)
    replay.play(lines)
    page = await page_factory()
    await page.goto(f"{service.url}/")
    walking: asyncio.Task[Any] = asyncio.create_task(
        page.evaluate(_walker(), [lines, replay.url, GAME_ID])
    )
    try:
        await replay.wait()
        await page.evaluate("window.__played()")
        report = await asyncio.wait_for(walking, 30)
    finally:
        walking.cancel()
    assert report == expected(lines)


TABLE_SEAT = """async ([lines, gameId]) => {
  const { seatSocket } = await import("/socket.js");
  const hello = lines[0].send;
  const report = { answers: [], events: [], views: [], ended: null };
  let stoppedWith;
  const stopped = new Promise((resolve) => (stoppedWith = resolve));
  const seat = seatSocket(gameId, {
    token: hello.token,
    after: hello.after,
    onEvent: (event) => report.events.push(event),
    onView: (game) => report.views.push(game),
    onState: (state, detail) => state === "stopped" && stoppedWith(detail?.status ?? null),
    onFallback: () => stoppedWith("fell back to the stream"),
  });
  for (const line of lines) {
    const m = line.send;
    if (m?.type !== "command") continue;
    try {
      const answer = await seat.command(m.command, m.if_match ?? null);
      report.answers.push({ id: m.id, result: answer.body });
    } catch (err) {
      const { status, code, title, detail } = err;
      const problem = { status, code, title, detail };
      report.answers.push({ id: m.id, problem, retry_after: err.retryAfter });
    }
  }
  report.ended = await stopped;
  return report;
}"""
"""The web table's own seat link (web/socket.js: SeatSocket fitted to the page) driven through a
conversation the page could have had: it always asks for views, makes its own command ids (the
replay binds them to the recorded ones), answers as `api.command` does and ends with an ApiError."""


async def test_the_web_tables_seat_link_speaks_the_recorded_conversation(
    replay: Replay, service: Served, page_factory: PageFactory
) -> None:
    lines = read("seat_lost")
    replay.play(lines)
    page = await page_factory()
    # A page of the service whose `?api=` is the replay: the web table's modules call it.
    await page.goto(f"{service.url}/client/errors.js?api={replay.url}")
    walking: asyncio.Task[Any] = asyncio.create_task(page.evaluate(TABLE_SEAT, [lines, GAME_ID]))
    try:
        await replay.wait()
        report = await asyncio.wait_for(walking, 30)
    finally:
        walking.cancel()
    due = expected(lines)
    for answer in due["answers"]:
        if "problem" in answer:  # the page's ApiError keeps these of the problem
            answer["problem"] = {
                k: answer["problem"][k] for k in ("status", "code", "title", "detail")
            }
    assert report == due | {"ended": {4401: 401}[due["ended"]]}
