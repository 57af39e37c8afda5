"""The web table (`web/`) in real Chromium, driven the way a person plays it.

Each test opens pages with `page_factory` (whose teardown fails the test on a console error, an
uncaught error or a request leaving the machine) and clicks, types and reads what a person would:
buttons by their names, cards by their pictures' names, messages by their roles.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Locator, Page, expect

from tests.browser.conftest import PHONE, PageFactory, Served

Shot = Callable[[Page, str], Awaitable[Path]]
TIMEOUT_MS = 15_000
NO_WEBSOCKET = "delete window.WebSocket;"
"""An init script: the page has no WebSocket, so it follows by the stream and moves over HTTP."""
CARD_NAME = re.compile(
    r"(Seven|Eight|Nine|Ten|Under|Over|King|Ace) of (Hearts|Bells|Leaves|Acorns)"
    r"|(Coloured|Pale) Chronicler"
)


# ---- driving the page ----


async def open_lobby(page: Page, url: str) -> None:
    await page.goto(url)
    await expect(page.get_by_role("button", name=re.compile(r"^Open a .* table$"))).to_be_visible()


async def create_table(
    page: Page, game: str, options: dict[str, Any], name: str, house: int = 0
) -> str:
    """Fill the lobby's form (generated from /v1/kinds) and open the table; answers its id."""
    await page.get_by_role("radio", name=re.compile(game)).check()
    if options:
        await page.get_by_text("More options").click()
    for option, value in options.items():
        field = page.locator(f"#opt-{option}")
        if isinstance(value, bool):
            await field.set_checked(value)
        else:
            await field.fill(", ".join(map(str, value)) if isinstance(value, list) else str(value))
    await page.get_by_label("Your name").fill(name)
    await page.get_by_label("House players").fill(str(house))
    await page.get_by_role("button", name=re.compile(r"^Open a .* table$")).click()
    await page.wait_for_url(re.compile(r"[?&]table=[0-9a-f]{16}"))
    await expect(page.locator(".table-main[data-version]")).to_be_attached()
    return re.search(r"table=([0-9a-f]{16})", page.url).group(1)  # type: ignore[union-attr]


async def join(page: Page, link: str, name: str) -> None:
    await page.goto(link)
    await page.get_by_label("Your name").fill(name)
    await page.get_by_role("button", name="Join").click()
    await expect(page.get_by_text(f"{name} (you)")).to_be_visible()


async def version(page: Page) -> int:
    return int(await page.locator(".table-main").get_attribute("data-version") or 0)


async def wait_version(page: Page, at_least: int) -> None:
    await page.wait_for_function(
        "v => Number(document.querySelector('.table-main')?.dataset.version) >= v",
        arg=at_least,
        timeout=TIMEOUT_MS,
    )


async def sync(*pages: Page) -> int:
    """Wait until every page shows the newest version any of them shows (the stream brings it)."""
    newest = max([await version(p) for p in pages])
    for p in pages:
        await wait_version(p, newest)
    return newest


async def status(page: Page) -> str:
    return await page.locator(".table-main").get_attribute("data-status") or ""


def button(page: Page, name: str | re.Pattern[str]) -> Locator:
    return page.get_by_role("button", name=name, exact=isinstance(name, str))


async def enabled(page: Page, name: str | re.Pattern[str]) -> bool:
    b = button(page, name)
    return await b.count() == 1 and await b.is_enabled()


async def act(page: Page, click: Callable[[], Awaitable[None]]) -> int:
    """Make a move on `page` and wait for its answer to be shown: answers the new version."""
    before = await version(page)
    await click()
    await wait_version(page, before + 1)
    return await version(page)


def cards_of(page: Page, whose: str) -> Locator:
    """A Thirty-One card row: "Your cards" or "The table’s cards"."""
    return page.get_by_role("list", name=re.compile(f"^{whose}"))


async def cards_loaded(page: Page) -> None:
    # A function, not a bare expression: Playwright polls an expression with `eval` in the
    # page, which the page's Content-Security-Policy refuses (no 'unsafe-eval') whenever the
    # first look is not already true.
    await page.wait_for_function(
        "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)"
    )


def no_raw_json(text: str) -> None:
    assert "{" not in text and "Traceback" not in text and '"status"' not in text, text


async def no_horizontal_scroll(page: Page) -> None:
    width = await page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide"  # type: ignore[index]


# ---- Cheat ----


async def choose_cards(page: Page, count: int, keyboard: bool = False) -> None:
    """Choose the first `count` cards of the hand: by clicking, or by Tab-free keyboard presses."""
    cards = page.locator(".hand .card-toggle")
    for i in range(min(count, await cards.count())):
        card = cards.nth(i)
        if keyboard:
            await card.focus()
            await page.keyboard.press("Space" if i % 2 == 0 else "Enter")
        else:
            await card.click()
        await expect(cards.nth(i)).to_have_attribute("aria-pressed", "true")


async def test_two_people_play_a_whole_cheat_match(
    web_service: Served, page_factory: PageFactory, shot: Shot
) -> None:
    # The refusal below is a real 422 from the service; Chromium logs any 4xx answer.
    page_factory.allow(r"status of 422")
    ilona = await page_factory()
    bence = await page_factory(PHONE)
    urls: list[str] = []
    for page in (ilona, bence):
        page.on("request", lambda request: urls.append(request.url))
        # The stream and HTTP, as without WebSocket (the socket: test_web_socket.py).
        await page.context.add_init_script(NO_WEBSOCKET)

    await open_lobby(ilona, f"{web_service.url}/")
    await create_table(ilona, "Cheat", {"max_play": 4, "rounds": 1, "decks": 1}, "Ilona")
    link = await ilona.locator("#share").input_value()
    assert "token" not in link and re.search(r"/\?table=[0-9a-f]{16}$", link), link

    await join(bence, link, "Bence")
    await sync(ilona, bence)
    await expect(ilona.locator(".player")).to_have_count(2)
    await act(ilona, button(ilona, "Start").click)
    await sync(ilona, bence)
    for page in (ilona, bence):
        await expect(page.locator(".hand .card-toggle")).to_have_count(16)
        await expect(page.get_by_test_id("rank")).to_have_text("sevens")

    pages = {"Ilona": ilona, "Bence": bence}
    refused = called = reloaded = False
    moves = 0
    for _ in range(120):
        await sync(ilona, bence)
        if await status(ilona) == "finished":
            break
        mover = caller = None
        for p in pages.values():
            if await enabled(p, "Accept") or await enabled(p, re.compile("^Play")):
                mover = mover or p
            if await enabled(p, "Cheat!"):
                caller = caller or p
        assert mover is not None, "nobody may move"

        if not refused:
            # A person presses Play with no card chosen: the service refuses, the page says why.
            await button(mover, "Play").click()
            alert = mover.get_by_role("alert")
            await expect(alert).to_contain_text("Choose one or more cards from your hand first.")
            await expect(alert).to_contain_text("Unprocessable Content")
            no_raw_json(await alert.inner_text())
            await shot(mover, "cheat-refusal")
            refused = True
            continue

        if caller is not None and not called and moves >= 1:
            # "Cheat!" on the last play: the cards are turned up for both, someone takes the pile.
            await act(caller, button(caller, "Cheat!").click)
            await sync(ilona, bence)
            for page in pages.values():
                await expect(page.get_by_test_id("last-call")).to_contain_text("called “Cheat!”")
                await expect(page.get_by_test_id("last-call")).to_contain_text("took the pile")
                await expect(
                    page.get_by_role("list", name="The cards turned up").get_by_role("img")
                ).not_to_have_count(0)
            called = True
            await shot(ilona, "cheat-after-call")
        elif await enabled(mover, "Accept"):
            await act(mover, button(mover, "Accept").click)
        else:
            await choose_cards(mover, 4, keyboard=moves % 3 == 1)
            play = button(mover, re.compile(r"^Play \d cards? as "))
            await expect(play).to_be_enabled()
            await act(mover, play.click)
            await expect(mover.get_by_role("alert")).to_have_count(0)
        moves += 1

        if moves == 3 and not reloaded:
            # A reload puts Bence back in his seat, following the stream from where it was.
            await sync(ilona, bence)
            await shot(bence, "cheat-in-progress-phone")
            await shot(ilona, "cheat-in-progress")
            hand = await bence.locator(".hand .card-toggle").count()
            log = await bence.locator(".log li").all_inner_texts()
            seen = await version(bence)
            await bence.reload()
            await expect(bence.get_by_text("Bence (you)")).to_be_visible()
            await expect(bence.locator(".hand .card-toggle")).to_have_count(hand)
            assert await bence.locator(".log li").all_inner_texts() == log
            await expect(bence.locator(".connection")).to_have_text("live")
            assert urls[-1].endswith(f"/stream?after={seen}") or any(
                u.endswith(f"/stream?after={seen}") for u in urls
            )
            reloaded = True
    else:
        pytest.fail("the match did not end")

    assert refused and called and reloaded
    for page in pages.values():
        await expect(page.locator(".winners")).to_contain_text("The match is over")
        await expect(page.get_by_role("region", name="Round 1 results")).to_contain_text("1st")
        await expect(page.locator(".log")).to_contain_text("The match is over.")
        await cards_loaded(page)
    await shot(ilona, "cheat-finished")
    await shot(bence, "cheat-finished-phone")
    # Tokens travel in the Authorization header only, never in a URL.
    assert not [u for u in urls if re.search(r"token=|seat_|host_", u)]
    assert any("/stream?after=" in u for u in urls)


async def test_a_stale_move_is_refused_in_words(
    web_service: Served, page_factory: PageFactory
) -> None:
    """A second tab of the same seat whose connection dropped sends a move the table has left."""
    page_factory.allow(r"status of 412|ERR_FAILED")
    ilona = await page_factory()
    bence = await page_factory()
    await open_lobby(ilona, f"{web_service.url}/")
    table = await create_table(ilona, "Cheat", {"max_play": 2}, "Ilona")
    await join(bence, await ilona.locator("#share").input_value(), "Bence")
    await sync(ilona, bence)
    await act(ilona, button(ilona, "Start").click)
    await sync(ilona, bence)
    mover = ilona if await enabled(ilona, re.compile("^Play")) else bence

    # The same seat in another tab (its sessionStorage copied), whose stream cannot connect.
    key = json.dumps(f"kronikas|{web_service.url}|{table}")  # per API and table
    kept = await mover.evaluate(f"sessionStorage.getItem({key})")
    offline = await page_factory()
    await offline.context.add_init_script(f"sessionStorage.setItem({key}, {json.dumps(kept)})")
    await offline.context.add_init_script(NO_WEBSOCKET)  # it follows by the stream, aborted below
    await offline.route(re.compile(r"/v1/games/[0-9a-f]+/stream"), lambda route: route.abort())
    await offline.goto(mover.url)
    await expect(offline.locator(".connection")).to_contain_text("reconnecting")
    at = await version(offline)

    async def play_one() -> None:
        await choose_cards(mover, 1)
        await button(mover, re.compile("^Play 1 card")).click()

    await act(mover, play_one)
    assert await version(offline) == at  # it heard nothing

    await choose_cards(offline, 1)
    await button(offline, re.compile(r"^Play 1 card as ")).click()
    alert = offline.get_by_role("alert")
    await expect(alert).to_contain_text("The table moved on before your move arrived")
    await expect(alert).to_contain_text("Precondition Failed")
    no_raw_json(await alert.inner_text())
    await wait_version(offline, at + 1)  # and it looked at the table again
    await expect(button(offline, re.compile("^Play"))).to_be_disabled()


async def test_the_option_form_follows_the_kinds(
    web_service: Served, page_factory: PageFactory
) -> None:
    """Every option of /v1/kinds has a field with its default; a refused table keeps the input."""
    page_factory.allow(r"status of 422")
    kinds = httpx.get(f"{web_service.url}/v1/kinds").json()["kinds"]
    page = await page_factory()
    await open_lobby(page, f"{web_service.url}/")
    for kind in kinds:
        await page.locator(f'input[name="kind"][value="{kind["kind"]}"]').check()
        for option in kind["options"]:
            field = page.locator(f"#opt-{option['name']}")
            await expect(field).to_have_attribute("aria-describedby", f"help-opt-{option['name']}")
            if option["type"] == "boolean":
                assert await field.is_checked() == option["default"]
            elif option["type"] == "integer_list":
                await expect(field).to_have_value(", ".join(map(str, option["default"])))
            else:
                await expect(field).to_have_value(
                    "" if option["default"] is None else str(option["default"])
                )

    await page.locator('input[name="kind"][value="cheat"]').check()
    await page.get_by_text("More options").click()
    await page.locator("#opt-place_points").fill("5, x")
    await button(page, "Open a Cheat table").click()
    await expect(page.get_by_role("alert")).to_contain_text(
        "write whole numbers separated by commas"
    )
    await page.locator("#opt-place_points").fill("5, 101")
    await page.locator("#opt-rounds").fill("7")
    await button(page, "Open a Cheat table").click()
    alert = page.get_by_role("alert")
    await expect(alert).to_contain_text("Unprocessable Content")
    no_raw_json(await alert.inner_text())
    await expect(page.locator("#opt-place_points")).to_have_value("5, 101")
    await expect(page.locator("#opt-rounds")).to_have_value("7")
    await expect(button(page, "Open a Cheat table")).to_be_enabled()


async def test_a_string_option_is_chosen_from_its_values_in_words(
    web_service: Served, page_factory: PageFactory
) -> None:
    """`reveal` is listed with its values (/v1/kinds); the form offers them in words, and the
    table opened keeps the one chosen."""
    page = await page_factory()
    await open_lobby(page, f"{web_service.url}/")
    await page.get_by_role("radio", name=re.compile("Cheat")).check()
    await page.get_by_text("More options").click()
    field = page.locator("#opt-reveal")
    await expect(field).to_have_value("never")
    await field.select_option(label="When the match ends")
    await page.get_by_label("Your name").fill("Ilona")
    await page.get_by_role("button", name="Open a Cheat table").click()
    await page.wait_for_url(re.compile(r"[?&]table=[0-9a-f]{16}"))
    game = re.search(r"table=([0-9a-f]{16})", page.url).group(1)  # type: ignore[union-attr]
    view = httpx.get(f"{web_service.url}/v1/games/{game}").json()
    assert view["options"]["reveal"] == "match_end"


# ---- from another origin, and at phone width ----


async def test_the_page_works_from_another_origin(
    web_service_cors: Served, static_origin: Served, page_factory: PageFactory, shot: Shot
) -> None:
    page = await page_factory()
    other = await page_factory()
    await open_lobby(page, f"{static_origin.url}/index.html?api={web_service_cors.url}")
    await create_table(page, "Thirty-One", {"lives": 1}, "Ilona")
    assert page.url.startswith(static_origin.url)
    link = await page.locator("#share").input_value()
    assert link.startswith(static_origin.url) and "api=" in link, link

    # The lobby (read across origins too) lists the table; a second person joins from it.
    await open_lobby(other, f"{static_origin.url}/index.html?api={web_service_cors.url}")
    await other.get_by_role("link", name=re.compile("Thirty-One table")).first.click()
    await other.get_by_label("Your name").fill("Bence")
    await button(other, "Join").click()
    await expect(other.get_by_text("Bence (you)")).to_be_visible()
    await sync(page, other)
    await act(page, button(page, "Start").click)
    await sync(page, other)
    for p in (page, other):
        await expect(cards_of(p, "The table’s cards").get_by_role("img")).to_have_count(3)
        await expect(p.locator(".connection")).to_have_text("live")
    dealer = page if await enabled(page, "Keep my hand") else other
    await act(dealer, button(dealer, "Keep my hand").click)
    await sync(page, other)
    await cards_loaded(page)
    await shot(page, "other-origin-thirty-one")


async def test_phone_width_has_no_horizontal_scroll(
    web_service: Served, page_factory: PageFactory, shot: Shot
) -> None:
    page = await page_factory(PHONE)
    other = await page_factory(PHONE)
    await open_lobby(page, f"{web_service.url}/")
    await no_horizontal_scroll(page)
    await shot(page, "phone-lobby")
    await create_table(page, "Cheat", {"chroniclers": True}, "Ilona with a long name to wrap")
    await no_horizontal_scroll(page)
    await join(other, await page.locator("#share").input_value(), "Bence")
    await sync(page, other)
    await no_horizontal_scroll(page)
    await shot(page, "phone-open-table")
    await act(page, button(page, "Start").click)
    await sync(page, other)
    await cards_loaded(page)
    await no_horizontal_scroll(page)
    await shot(page, "phone-cheat")
    # Keyboard play: the cards are buttons that Space and Enter toggle, with a visible focus.
    first = page.locator(".hand .card-toggle").first
    await first.focus()
    await page.keyboard.press("Enter")
    await expect(first).to_have_attribute("aria-pressed", "true")
    await expect(page.locator(".hand .card-toggle").first).to_be_focused()
    await page.keyboard.press("Space")
    await expect(page.locator(".hand .card-toggle").first).to_have_attribute(
        "aria-pressed", "false"
    )
    # Every card has its name and code as text for a screen reader.
    labels = await page.locator(".hand .card-toggle").evaluate_all(
        "buttons => buttons.map(b => b.getAttribute('aria-label'))"
    )
    assert labels and all(CARD_NAME.fullmatch(label) for label in labels), labels


# ---- Thirty-One ----


async def test_two_people_play_thirty_one_to_the_end(
    web_service: Served, page_factory: PageFactory, shot: Shot
) -> None:
    ilona = await page_factory()
    bence = await page_factory(PHONE)
    await open_lobby(ilona, f"{web_service.url}/")
    await create_table(ilona, "Thirty-One", {"lives": 0}, "Ilona")
    await join(bence, await ilona.locator("#share").input_value(), "Bence")
    await sync(ilona, bence)
    await act(ilona, button(ilona, "Start").click)
    pages = (ilona, bence)
    swapped = shown = False
    # After the first round both keep their dealt hands, and two hands of three tie (most
    # often at 0, under 21 in every suit) about three rounds in four; a tie at 0 lives puts
    # nobody out, so the rounds are a geometric draw: about four on average, more than 20
    # once in 200 matches. 400 moves (over 130 rounds) make a miss rarer than 1 in 10^15.
    for _ in range(400):
        await sync(*pages)
        if await status(ilona) == "finished":
            break
        mover = next(
            iter([p for p in pages if await p.locator(".hand .actions button:enabled").count()])
        )
        if await enabled(mover, "Keep my hand"):
            await act(mover, button(mover, "Keep my hand").click)
        elif await enabled(mover, "Swap one card") and await enabled(mover, "Show") and not swapped:
            # A swap without both cards chosen is not sent: the page says what is missing.
            await button(mover, "Swap one card").click()
            await expect(mover.get_by_role("alert")).to_contain_text(
                "Choose one card of your hand and one card of the table"
            )
            await cards_of(mover, "Your cards").get_by_role("button").first.click()
            await cards_of(mover, "The table’s cards").get_by_role("button").first.click()
            given = (
                await cards_of(mover, "Your cards")
                .get_by_role("button")
                .first.get_attribute("aria-label")
            )
            await act(
                mover,
                button(
                    mover, re.compile(r"^Swap the .+ for the [^()]+( \(scores [\d.]+\))?$")
                ).click,
            )
            table_cards = cards_of(mover, "The table’s cards")
            await expect(
                table_cards.get_by_role("img", name=given or "", exact=True)
            ).to_have_count(1)
            swapped = True
        elif await enabled(mover, "Show"):
            await act(mover, button(mover, "Show").click)
            await sync(*pages)
            for p in pages:
                await expect(p.locator(".middle")).to_contain_text("last circuit")
            if not shown:
                await shot(bence, "thirty-one-last-circuit-phone")
                await shot(ilona, "thirty-one-last-circuit")
                shown = True
        elif await enabled(mover, "Pass"):
            await act(mover, button(mover, "Pass").click)
    else:
        pytest.fail("the match did not end")
    for p in pages:
        await expect(p.locator(".winners")).to_contain_text("The match is over")
        await expect(
            p.get_by_role("region", name=re.compile(r"^Round \d+ results"))
        ).to_contain_text("out")
        await cards_loaded(p)
    await shot(ilona, "thirty-one-finished")
    await shot(bence, "thirty-one-finished-phone")


# ---- Thirty-One against the house (issue 16) ----


def house_players_supported(url: str) -> bool:
    """Whether the service has issue 16's clocks and house players: until then, skip."""
    kinds = httpx.get(f"{url}/v1/kinds").json()["kinds"]
    if not any(o["name"] == "turn_seconds" for k in kinds for o in k["options"]):
        return False
    created = httpx.post(f"{url}/v1/games", json={"kind": "thirty_one"}).json()
    answer = httpx.post(
        f"{url}/v1/games/{created['game']['id']}/house-players",
        headers={"Authorization": f"Bearer {created['host_token']}"},
        json={"name": "Probe"},
    )
    return answer.status_code not in (404, 405)


async def test_the_host_seats_the_house_and_a_player_leaves_before_the_start(
    web_service: Served, page_factory: PageFactory, shot: Shot
) -> None:
    if not house_players_supported(web_service.url):
        pytest.skip("the service has no turn clocks or house players yet (issue 16)")
    ilona = await page_factory()
    bence = await page_factory(PHONE)
    await open_lobby(ilona, f"{web_service.url}/")
    await create_table(ilona, "Cheat", {}, "Ilona")
    await act(ilona, button(ilona, "Add a house player").click)
    await expect(ilona.locator(".player .badge.house")).to_have_count(1)
    await join(bence, await ilona.locator("#share").input_value(), "Bence")
    await sync(ilona, bence)
    await expect(ilona.locator(".player")).to_have_count(3)
    await shot(bence, "open-table-with-house-phone")

    # Before the start, leaving frees the seat: Bence watches, and may sit down again.
    await act(bence, button(bence, "Leave the table").click)
    await expect(bence.get_by_role("status").filter(has_text="You left the table.")).to_be_visible()
    await expect(bence.get_by_label("Your name")).to_be_visible()
    await sync(ilona, bence)
    await expect(ilona.locator(".player")).to_have_count(2)
    await expect(ilona.locator(".log")).to_contain_text("Bence left the table.")
    await act(ilona, button(ilona, "Start").click)
    await sync(ilona, bence)
    await expect(bence.locator(".hand")).to_have_count(0)  # a spectator has no hand
    await expect(ilona.locator(".hand .card-toggle")).not_to_have_count(0)


async def test_house_seats_take_names_nobody_at_the_table_has(
    web_service: Served, page_factory: PageFactory
) -> None:
    """Two players may not share a name (409 name_taken): a person who called themselves
    "house 1" still gets the house seats asked for, named after the ones taken."""
    page = await page_factory()
    await open_lobby(page, f"{web_service.url}/")
    await create_table(page, "Cheat", {}, "house 1", house=1)
    await expect(page.locator(".badge.house")).to_have_count(1)
    await act(page, button(page, "Add a house player").click)
    await expect(page.locator(".badge.house")).to_have_count(2)
    names = await page.locator(".player .name").all_inner_texts()
    assert names == ["house 1 (you)", "House 2", "House 3"]
    await expect(page.get_by_role("alert")).to_have_count(0)


async def test_one_person_plays_thirty_one_against_two_house_players(
    web_service: Served, page_factory: PageFactory, shot: Shot
) -> None:
    if not house_players_supported(web_service.url):
        pytest.skip("the service has no turn clocks or house players yet (issue 16)")
    page = await page_factory()
    await open_lobby(page, f"{web_service.url}/")
    await create_table(page, "Thirty-One", {"lives": 0, "turn_seconds": 120}, "Ilona", house=2)
    await expect(page.locator(".badge.house")).to_have_count(2)
    await act(page, button(page, "Start").click)

    swapped = in_progress = False
    for _ in range(200):
        await page.wait_for_function(
            "() => document.querySelector('.table-main')?.dataset.status === 'finished'"
            " || [...document.querySelectorAll('.hand .actions button')].some(b => !b.disabled)"
            " || document.querySelector('.player.me.out')",
            timeout=30_000,
        )
        if await status(page) == "finished" or await page.locator(".player.me.out").count():
            break
        await expect(page.locator(".player.turn .timer")).to_be_visible()  # the clock counts down
        if not in_progress:
            await shot(page, "thirty-one-house-in-progress")
            in_progress = True
        if await enabled(page, "Keep my hand"):
            await act(page, button(page, "Keep my hand").click)
        elif await enabled(page, "Swap one card") and await enabled(page, "Show") and not swapped:
            # (Show is not a move of the last circuit, where a swap must reach 21.)
            await cards_of(page, "Your cards").get_by_role("button").first.click()
            await cards_of(page, "The table’s cards").get_by_role("button").first.click()
            await act(
                page,
                button(
                    page, re.compile(r"^Swap the .+ for the [^()]+( \(scores [\d.]+\))?$")
                ).click,
            )
            swapped = True
        elif await enabled(page, "Show"):
            await act(page, button(page, "Show").click)
        elif await enabled(page, "Pass"):
            await act(page, button(page, "Pass").click)
    # Out or not, the house plays the match to its end.
    await page.wait_for_function(
        "() => document.querySelector('.table-main')?.dataset.status === 'finished'", timeout=60_000
    )
    await expect(page.locator(".winners")).to_contain_text("The match is over")
    await expect(page.get_by_role("region", name=re.compile(r"^Round \d+ results"))).to_be_visible()
    await cards_loaded(page)
    await shot(page, "thirty-one-house-finished")


# ---- following the stream ----


async def test_the_sse_parser_reads_frames_however_they_are_cut(
    web_service: Served, page_factory: PageFactory
) -> None:
    page = await page_factory()
    await page.goto(f"{web_service.url}/")
    cuts = await page.evaluate(
        """async () => {
          const { frameParser } = await import("./client/follow.js");
          const text = ': keep-alive\\n\\nid: 7\\nevent: cheat.passed\\n'
            + 'data: {"a":\\r\\ndata: 1}\\r\\n\\r\\nid: 8\\rdata:x\\r\\r: done\\n';
          const results = [];
          for (let size = 1; size <= text.length; size++) {
            const frames = [];
            const feed = frameParser((f) => frames.push(f));
            for (let i = 0; i < text.length; i += size) feed(text.slice(i, i + size));
            results.push(JSON.stringify(frames));
          }
          return [...new Set(results)];
        }"""
    )
    assert [json.loads(c) for c in cuts] == [
        [
            {"id": "7", "event": "cheat.passed", "data": '{"a":\n1}'},
            {"id": "8", "event": None, "data": "x"},
        ]
    ]


async def test_a_dropped_stream_resumes_after_the_last_event_seen(
    web_service: Served, page_factory: PageFactory
) -> None:
    """The stream ends after two events; the page reconnects from there, with its seat's token
    in the Authorization header and never in the URL, and logs every event once."""
    url = web_service.url
    created = httpx.post(f"{url}/v1/games", json={"kind": "cheat"}).json()
    table = created["game"]["id"]
    seat = httpx.post(f"{url}/v1/games/{table}/players", json={"name": "Ilona"}).json()
    httpx.post(f"{url}/v1/games/{table}/players", json={"name": "Bence"})
    first_two = httpx.get(f"{url}/v1/games/{table}/events").json()["events"][:2]

    streams: list[dict[str, str]] = []

    async def stream(route: Any) -> None:
        streams.append({"url": route.request.url, **await route.request.all_headers()})
        if len(streams) == 1:  # the first connection drops after two events
            body = "".join(
                f"id: {e['version']}\nevent: {e['type']}\ndata: {json.dumps(e)}\n\n"
                for e in first_two
            )
            await route.fulfill(
                status=200, headers={"Content-Type": "text/event-stream"}, body=body
            )
        else:
            await route.continue_()

    page = await page_factory()
    await page.context.add_init_script(NO_WEBSOCKET)  # the stream (the socket: test_web_socket.py)
    kept = json.dumps({"token": seat["token"], "lastSeen": 0})
    await page.context.add_init_script(
        f"sessionStorage.setItem({json.dumps(f'kronikas|{url}|{table}')}, {json.dumps(kept)})"
    )
    await page.route(re.compile(r"/v1/games/[0-9a-f]+/stream"), stream)
    await page.goto(f"{url}/?table={table}")
    await expect(page.get_by_text("Ilona (you)")).to_be_visible()
    await expect(page.locator(".log li")).to_have_count(
        3, timeout=TIMEOUT_MS
    )  # 2, then 3 after the drop
    httpx.post(
        f"{url}/v1/games/{table}/start",
        headers={"Authorization": f"Bearer {created['host_token']}"},
    )
    await expect(page.locator(".log li")).to_have_count(4, timeout=TIMEOUT_MS)
    await expect(page.locator(".log li").first).to_contain_text("Round 1")
    await expect(page.locator(".connection")).to_have_text("live")

    assert len(streams) == 2, streams
    assert streams[0]["url"].endswith("/stream?after=0") and "last-event-id" not in streams[0]
    assert streams[1]["url"].endswith("/stream?after=2") and streams[1]["last-event-id"] == "2"
    for s in streams:
        assert s["authorization"] == f"Bearer {seat['token']}"
        assert seat["token"] not in s["url"] and "token=" not in s["url"]


# ---- the seat's identity (issue 24) ----

RANK_CODES = {"Seven": "7", "Eight": "8", "Nine": "9", "Ten": "10"}
RANK_CODES |= {"Under": "U", "Over": "O", "King": "K", "Ace": "A"}
SUIT_CODES = {"Hearts": "H", "Bells": "B", "Leaves": "L", "Acorns": "A"}
CARD_WORDS = re.compile(
    r"(Seven|Eight|Nine|Ten|Under|Over|King|Ace) of (Hearts|Bells|Leaves|Acorns)"
    r"|(Coloured|Pale) Chronicler"
)


async def cards_in_log(page: Page) -> set[str]:
    """The codes of every card the page's log names."""
    text = "\n".join(await page.locator(".log li").all_inner_texts())
    return {
        f"X{m[2][0]}" if m[2] else RANK_CODES[m[0]] + SUIT_CODES[m[1]]
        for m in CARD_WORDS.findall(text)
    }


async def test_a_seat_that_leaves_before_the_start_is_forgotten_and_the_others_move_down(
    web_service: Served, page_factory: PageFactory
) -> None:
    """Three seats: Ilona (0) and Bence (1) in pages, Csaba (2) through the API. Ilona's token
    leaves before the start (from elsewhere, say another tab): her page says her seat is gone and
    watches; Bence's page shows him at seat 0. After the start no page's log names a card its
    viewer may not know: Bence's only his own hand's and those turned up by a call, Ilona's only
    those turned up."""
    page_factory.allow(r"status of 401")  # Ilona's page, asking with the token that left
    url = web_service.url
    created = httpx.post(f"{url}/v1/games", json={"kind": "cheat", "options": {"max_play": 1}})
    table, host = created.json()["game"]["id"], created.json()["host_token"]
    ilona, bence = await page_factory(), await page_factory()
    link = f"{url}/?table={table}"
    await join(ilona, link, "Ilona")
    await join(bence, link, "Bence")
    csaba = httpx.post(f"{url}/v1/games/{table}/players", json={"name": "Csaba"}).json()["token"]
    await sync(ilona, bence)
    for page in (ilona, bence):
        await expect(page.locator(".player")).to_have_count(3)
        await expect(page.locator(".connection")).to_have_text("live")

    def token_of_page(kept: str | None) -> str:
        return str(json.loads(kept or "{}")["token"])

    key = json.dumps(f"kronikas|{url}|{table}")
    ilona_token = token_of_page(await ilona.evaluate(f"sessionStorage.getItem({key})"))
    bence_token = token_of_page(await bence.evaluate(f"sessionStorage.getItem({key})"))
    assert "seat" not in json.loads(await bence.evaluate(f"sessionStorage.getItem({key})"))

    def command(token: str, body: dict[str, Any]) -> httpx.Response:
        r = httpx.post(
            f"{url}/v1/games/{table}/commands",
            json=body,
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200, r.text
        return r

    command(ilona_token, {"type": "leave"})
    await expect(ilona.get_by_role("alert")).to_contain_text("Your seat is gone")
    await expect(ilona.get_by_label("Your name")).to_be_visible()  # she may sit down again
    await expect(ilona.locator(".player.me")).to_have_count(0)
    await expect(ilona.locator(".player")).to_have_count(2)
    assert json.loads(await ilona.evaluate(f"sessionStorage.getItem({key})"))["token"] is None
    await expect(bence.locator(".player").first).to_have_class(re.compile(r"\bme\b"))
    await expect(bence.locator(".player.me")).to_contain_text("Bence (you)")
    await expect(bence.get_by_text("you are Bence")).to_be_visible()

    httpx.post(f"{url}/v1/games/{table}/start", headers={"Authorization": f"Bearer {host}"})
    seats = {0: bence_token, 1: csaba}
    hand = httpx.get(
        f"{url}/v1/games/{table}", headers={"Authorization": f"Bearer {bence_token}"}
    ).json()["me"]["hand"]
    # Each seat on turn plays one card, three times; then the other one calls "Cheat!".
    last = None
    for _ in range(3):
        view = httpx.get(f"{url}/v1/games/{table}").json()
        turn = view["turn"]
        mine = httpx.get(
            f"{url}/v1/games/{table}", headers={"Authorization": f"Bearer {seats[turn]}"}
        ).json()["me"]["hand"]
        command(seats[turn], {"type": "play", "cards": [mine[0]]})
        last = turn
    assert last is not None
    command(seats[1 - last], {"type": "call"})
    await sync(ilona, bence)

    events = httpx.get(f"{url}/v1/games/{table}/events").json()["events"]
    turned_up = {c for e in events if e["type"] == "cheat.cheat_called" for c in e["data"]["cards"]}
    played_by_bence = {
        c
        for e in httpx.get(
            f"{url}/v1/games/{table}/events", headers={"Authorization": f"Bearer {bence_token}"}
        ).json()["events"]
        if e["type"] == "cheat.cards_played" and e["data"]["seat"] == 0
        for c in e["data"]["cards"] or []
    }
    assert turned_up and played_by_bence
    await expect(bence.locator(".log")).to_contain_text("called “Cheat!”")
    await expect(ilona.locator(".log")).to_contain_text("called “Cheat!”")
    bence_saw, ilona_saw = await cards_in_log(bence), await cards_in_log(ilona)
    assert played_by_bence <= bence_saw  # his own plays are named to him…
    assert bence_saw <= set(hand) | turned_up, bence_saw - set(hand) - turned_up
    assert turned_up <= ilona_saw  # …and to everyone, the cards a call turned up; nothing more
    assert ilona_saw <= turned_up, ilona_saw - turned_up
