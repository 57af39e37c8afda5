"""The web table checks every opening of a card it receives in live play, in Chromium: the cards it
shows are proven against their deal's commitment (the count beside the table's details), and a
card that does not check puts a word on the page (web/proofs.js, the TypeScript client's
OpeningsChecker)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.async_api import Page, Route, expect

from tests.browser.conftest import PageFactory, Served
from tests.browser.test_web_table import NO_WEBSOCKET, act, button, create_table, open_lobby

VIEW = re.compile(r"/v1/games/[0-9a-f]{16}$")
"""A table's view over HTTP (not its events, stream or socket)."""
FAILED = "A card does not check against its deal"


async def proven(page: Page) -> int:
    return int(await page.get_by_test_id("proven").text_content() or 0)


async def hand_shown(page: Page) -> None:
    await page.wait_for_function(
        "() => document.querySelectorAll('.hand img, .hand .card-toggle').length > 0",
        timeout=30_000,
    )


@pytest.mark.parametrize(("game", "at_least"), [("Cheat", 16), ("Thirty-One", 6)])
async def test_the_cards_a_seat_is_shown_are_proven_and_nothing_is_said(
    web_service: Served, page_factory: PageFactory, game: str, at_least: int
) -> None:
    page = await page_factory()
    await open_lobby(page, f"{web_service.url}/")
    await create_table(page, game, {"turn_seconds": 120}, "Ilona", house=1)
    await act(page, button(page, "Start").click)
    await hand_shown(page)
    # Its hand (16 Cheat cards of 32 between two; Thirty-One's 3, and the table's 3).
    await page.wait_for_function(
        "n => Number(document.querySelector('[data-testid=proven]')?.textContent) >= n",
        arg=at_least,
        timeout=15_000,
    )
    await expect(page.get_by_test_id("proofs")).to_be_empty()
    await expect(page.get_by_role("alert")).to_have_count(0)


async def test_an_opening_that_does_not_check_is_said_on_the_page(
    web_service: Served, page_factory: PageFactory
) -> None:
    page = await page_factory()
    # Without a socket the page reads each view over HTTP, where the test changes it.
    await page.context.add_init_script(NO_WEBSOCKET)
    forged: list[dict[str, object]] = []

    async def forge(route: Route) -> None:
        """The view as served, one byte of its first opening's salt changed."""
        answer = await route.fetch()
        view = await answer.json()
        if route.request.method == "GET" and view.get("openings"):
            opening = view["openings"][0]
            salt = opening["salt"]
            opening["salt"] = ("1" if salt[0] == "0" else "0") + salt[1:]
            forged.append(opening)
        await route.fulfill(response=answer, body=json.dumps(view))

    await page.route(VIEW, forge)
    await open_lobby(page, f"{web_service.url}/")
    await create_table(page, "Cheat", {"turn_seconds": 120}, "Ilona", house=1)
    await act(page, button(page, "Start").click)
    await hand_shown(page)
    alert = page.get_by_role("alert")
    await expect(alert).to_contain_text(FAILED)
    assert forged
    first = forged[0]
    await expect(alert).to_contain_text(
        f"round {first['round']}, position {first['position']}: the opening of {first['card']}"
        " does not prove it"
    )
    assert await proven(page) > 0  # the openings that came unchanged still check
