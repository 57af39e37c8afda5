"""The arena's pages (`web/arena.html`) in real Chromium: after the example bot played a rated
table, the leaderboard lists it among the standing entrants, its name leads to its page with its
rating and its match, and the match's link opens that table's replay, as a spectator."""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from collections.abc import Iterator

import pytest
import redis
from kronikas_bots import arena as example
from kronikas_client.arena import Arena
from playwright.async_api import expect

from tests.browser.conftest import PHONE, PageFactory, Served, _service, shot
from tests.browser.test_web_table import no_horizontal_scroll

ARENA_ENV = {
    "ARENA_FILL_SECONDS": "0",  # a lone entrant's set is filled by the standing entrants at once
    "ARENA_TICK_MS": "50",
    "ARENA_TURN_SECONDS": "5",
    "ARENA_REGISTER_PER_HOUR": "1000000",
    "ARENA_QUEUE_PER_MIN": "1000000",
}
TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def arena_web(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    store = redis.Redis.from_url(redis_url)
    keys = list(store.scan_iter(match="{arena}:*", count=1000))
    if keys:
        store.delete(*keys)  # an arena of this module's own
    store.close()
    yield from _service(
        redis_url, tmp_path_factory.mktemp("arena-web") / "service.log", **ARENA_ENV
    )


def played(url: str, name: str) -> Arena:
    """The example bot's entrant after one rated table, once its set was rated."""
    arena = example.main(url, name, "cheat", tables=1)
    for _ in range(600):
        if arena.me().matches:
            return arena
        time.sleep(0.1)
    raise AssertionError("the set was never rated")


async def test_the_leaderboard_leads_to_an_entrants_matches_and_their_replay(
    arena_web: Served, page_factory: PageFactory
) -> None:
    name = f"bot-{uuid.uuid4().hex[:8]}"
    arena = await asyncio.to_thread(played, arena_web.url, name)
    [match] = arena.me().matches

    page = await page_factory()
    await page.goto(f"{arena_web.url}/")
    await page.get_by_role("link", name="Arena").click()
    await page.wait_for_url(re.compile(r"/arena\.html"))
    board = page.locator("table.leaderboard")
    await expect(board).to_contain_text(name, timeout=TIMEOUT_MS)
    rows = board.locator("tbody tr")
    names = [await r.locator("td").nth(1).inner_text() for r in await rows.all()]
    assert any(n.startswith("House") for n in names) and any(n.startswith("Random") for n in names)
    assert await page.locator("select[name=players]").input_value() == "2"
    await shot(page, "arena-leaderboard")

    await board.get_by_role("link", name=name).click()
    await page.wait_for_url(re.compile(r"arena\.html\?entrant="))
    await expect(page.get_by_role("heading", name=name)).to_be_visible()
    await expect(page.locator("table.ratings tbody tr")).to_have_count(1)
    matches = page.locator("table.matches tbody tr")
    await expect(matches).to_have_count(1)
    assert await matches.first.get_attribute("data-table") == match.table_id
    await shot(page, "arena-entrant")

    await matches.first.get_by_role("link", name="Replay").click()
    await page.wait_for_url(re.compile(rf"replay\.html\?table={match.table_id}&as=spectator"))
    await expect(page.locator(".table-main.replay")).to_be_visible(timeout=TIMEOUT_MS)


async def test_an_unknown_entrant_is_said_so_and_the_page_fits_a_phone(
    arena_web: Served, page_factory: PageFactory
) -> None:
    page_factory.allow(r"404")
    page = await page_factory(viewport=PHONE)
    await page.goto(f"{arena_web.url}/arena.html?entrant=en_{uuid.uuid4().hex}")
    await expect(page.get_by_role("alert")).to_be_visible(timeout=TIMEOUT_MS)
    await expect(page.get_by_role("link", name="All leaderboards")).to_be_visible()
    await page.goto(f"{arena_web.url}/arena.html")
    await expect(page.locator("table.leaderboard, .arena p.quiet").first).to_be_visible()
    await no_horizontal_scroll(page)
    await shot(page, "arena-leaderboard-phone")
