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
