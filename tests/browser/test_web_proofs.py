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
from tests.browser.test_web_table import (
    NO_WEBSOCKET,
    act,
    button,
    create_table,
    enabled,
    join,
    open_lobby,
    sync,
)

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


LAGGING_STREAM = """(() => {
  const real = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const answer = await real(input, init);
    const url = typeof input === "string" ? input : input.url;
    if (!url.includes("/stream") || !answer.body) return answer;
    const reader = answer.body.getReader();
    const late = new ReadableStream({
      start(into) {
        (async () => {
          for (;;) {
            const { done, value } = await reader.read();
            setTimeout(() => {
              try {
                if (done) into.close();
                else into.enqueue(value);
              } catch {} // the page stopped reading it meanwhile
            }, 700);
            if (done) return;
          }
        })().catch((err) => into.error(err));
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(late, { status: answer.status, headers: answer.headers });
  };
})();"""
"""An init script: what the table's stream sends reaches the page 0.7 s late, so a move's answer
comes before the stream's events up to it."""
RANKS = {"sevens": "7", "eights": "8", "nines": "9", "tens": "10"}
RANKS |= {"unders": "U", "overs": "O", "kings": "K", "aces": "A"}


async def able(pages: tuple[Page, ...], name: str | re.Pattern[str]) -> Page | None:
    """The first of `pages` whose button `name` is enabled; None when none."""
    for page in pages:
        if await enabled(page, name):
            return page
    return None


async def test_a_pile_taken_in_the_callers_own_answer_checks_though_its_stream_lags(
    web_service: Served, page_factory: PageFactory
) -> None:
    """A command's answer carries its view with no openings (docs/api.md): the caller who takes
    the pile holds cards whose openings come in the answer's `pile_taken`, which the page checks
    from its stream, late here. The page checks that view once the stream has brought them."""
    ilona, bence = await page_factory(), await page_factory()
    for page in (ilona, bence):
        await page.context.add_init_script(NO_WEBSOCKET)
        await page.context.add_init_script(LAGGING_STREAM)
    await open_lobby(ilona, f"{web_service.url}/")
    await create_table(ilona, "Cheat", {"max_play": 4, "rounds": 1}, "Ilona")
    await join(bence, await ilona.locator("#share").input_value(), "Bence")
    await sync(ilona, bence)
    await act(ilona, button(ilona, "Start").click)
    honest = False
    for _ in range(60):
        await sync(ilona, bence)
        caller = await able((ilona, bence), "Cheat!")
        if honest and caller is not None:
            await act(caller, button(caller, "Cheat!").click)  # an honest play: the caller takes
            await expect(caller.locator(".log")).to_contain_text("took the pile", timeout=15_000)
            await caller.wait_for_timeout(700)  # the answer's view is checked after the events
            await expect(caller.get_by_role("alert")).to_have_count(0)
            await expect(caller.get_by_test_id("proofs")).to_be_empty()
            assert await proven(caller) > 16, "its hand and the pile it took"
            return
        mover = await able((ilona, bence), re.compile("^Play"))
        assert mover is not None, "nobody may play"
        due = RANKS[(await mover.get_by_test_id("rank").inner_text()).lower()]
        cards = mover.locator(".hand .card-toggle")
        codes = [await cards.nth(i).get_attribute("data-card") for i in range(await cards.count())]
        chosen = next((i for i, c in enumerate(codes) if c and c[:-1] == due), 0)
        honest = bool(codes[chosen]) and (codes[chosen] or "")[:-1] == due
        await cards.nth(chosen).click()
        await act(mover, button(mover, re.compile(r"^Play 1 card as ")).click)
    pytest.fail("no honest play was called")
