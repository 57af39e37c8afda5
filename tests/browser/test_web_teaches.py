"""The web table teaches the games (issue 40): each game's rules and how to play on the page, a
one-click game against the house, a lobby in a player's words, the hand and its moves in the
first screen of a phone, cards named in words, a reason beside every greyed-out button, and the
table's version only for whoever asks. In real Chromium, at a desktop's size and a phone's."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from playwright.async_api import Page, expect

from tests.api.tables import Tables
from tests.browser.conftest import PHONE, PageFactory, Served
from tests.browser.test_web_table import (
    button,
    cards_loaded,
    cards_of,
    enabled,
    no_horizontal_scroll,
    open_lobby,
)

DESKTOP = (1280, 800)
SIZES = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
GAMES = {"cheat": "Cheat", "thirty_one": "Thirty-One"}
CODE = re.compile(r"\b(?:7|8|9|10|U|O|K|A)[HBLA]\b|\bX[CP]\b")
"""A card code as the wire writes it: never in what a button says."""


async def play_against_the_house(page: Page, url: str, title: str) -> str:
    """From the lobby, one click: a started table with this tab seated. Answers its id."""
    await open_lobby(page, url)
    await button(page, f"Play {title} against the house").click()
    await page.wait_for_url(re.compile(r"[?&]table=[0-9a-f]{16}"))
    await expect(page.locator(".table-main")).to_have_attribute("data-status", "playing")
    await expect(page.locator(".hand img.card").first).to_be_visible()
    await cards_loaded(page)
    return re.search(r"table=([0-9a-f]{16})", page.url).group(1)  # type: ignore[union-attr]


async def on_turn_at_thirty_one(page: Page, web_service: Served) -> tuple[str, str]:
    """A started two-seat Thirty-One table whose seat on turn, after the dealer kept, is this
    tab's (its token put where the page keeps it); the other seat waits. Answers id and token."""
    async with httpx.AsyncClient(base_url=web_service.url) as client:
        tables = Tables(client)
        table = await tables.ready("thirty_one", 2, seed=None)
        view = await tables.view(table)
        dealer = view["dealer"]
        r = await tables.send(table, dealer, {"type": "keep"})
        assert r.status_code == 200, r.text
        turn = r.json()["game"]["turn"]
    token = table.players[turn]
    kept = json.dumps({"token": token})
    await page.add_init_script(
        f"sessionStorage.setItem(`kronikas|${{location.origin}}|{table.id}`, {json.dumps(kept)});"
    )
    await page.goto(f"{web_service.url}/?table={table.id}")
    await expect(page.locator(".hand .card-toggle")).to_have_count(3)
    await cards_loaded(page)
    return table.id, token


async def seat_view(page: Page, web_service: Served, table: str) -> dict[str, Any]:
    """The view the service gives this tab's seat (its token is in the tab's sessionStorage)."""
    kept = await page.evaluate(
        "id => JSON.parse(sessionStorage.getItem(`kronikas|${location.origin}|${id}`))", table
    )
    r = httpx.get(
        f"{web_service.url}/v1/games/{table}",
        headers={"Authorization": f"Bearer {kept['token']}"},
    )
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()
    return view


async def button_texts(page: Page) -> list[str]:
    """What every button on the page says: its text, or its label where it has one."""
    texts: list[str] = await page.evaluate(
        "() => [...document.querySelectorAll('button')]"
        ".map(b => b.getAttribute('aria-label') || b.innerText)"
    )
    return texts


async def every_disabled_button_says_why(page: Page) -> int:
    """Each greyed-out button is described by a visible reason; answers how many there are."""
    found: list[dict[str, Any]] = await page.evaluate(
        """() => [...document.querySelectorAll('button:disabled')].map(b => {
             const ids = (b.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean);
             const why = ids.map(id => document.getElementById(id)).filter(Boolean);
             return {
               button: b.innerText,
               reason: why.map(e => e.innerText).join(' ').trim(),
               shown: why.length > 0 && why.every(e => e.checkVisibility()),
             };
           })"""
    )
    for entry in found:
        assert entry["shown"] and len(entry["reason"]) > 8, entry
    return len(found)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("kind", list(GAMES))
async def test_the_lobby_teaches_each_game_and_shows_its_rules(
    page_factory: PageFactory, web_service: Served, kind: str, size: tuple[int, int]
) -> None:
    page = await page_factory(viewport=size)
    await open_lobby(page, web_service.url)
    title = GAMES[kind]
    await page.get_by_text(f"How to play {title}", exact=True).click()
    steps = page.locator(".play-now .how-to[open] ol > li")
    assert await steps.count() >= 3
    await expect(steps.first).to_be_visible()
    await page.get_by_text(f"The full rules of {title}", exact=True).click()
    # The package's own rules, fetched from the service and drawn on the page: its title, its
    # sections, its tables.
    rules = page.locator(".play-now .rules[open] .rules-text")
    await expect(
        rules.get_by_role("heading", name=f"The rules of {title}, as Krónikás enforces them")
    ).to_be_visible()
    await expect(rules.get_by_role("heading", name="A turn", exact=True)).to_be_attached()
    assert await rules.get_by_role("table").count() >= 2
    text = await rules.inner_text()
    assert "**" not in text and "](" not in text and "| ---" not in text, "Markdown left raw"
    await no_horizontal_scroll(page)  # its wide tables scroll within the rules, not the page


@pytest.mark.parametrize("size", SIZES)
async def test_the_lobby_speaks_a_players_words_and_a_lone_visitor_can_start(
    page_factory: PageFactory, web_service: Served, size: tuple[int, int]
) -> None:
    page = await page_factory(viewport=size)
    await open_lobby(page, web_service.url)
    # One click away from a game, on the first screen of a phone too.
    play = button(page, "Play Cheat against the house")
    await expect(play).to_be_in_viewport()
    box = await play.bounding_box()
    assert box and box["y"] + box["height"] <= size[1]
    for title in GAMES.values():
        await page.get_by_role("radio", name=re.compile(title)).check()
        await page.get_by_text("More options").click()
        words = await page.locator("form.create").inner_text()
        assert "null" not in words and "Leave it empty for none" not in words, words
        await page.get_by_text("More options").click()
    # The defaults are enough for one person to play: a name, Open, Start.
    await page.get_by_role("radio", name=re.compile("Thirty-One")).check()
    await page.get_by_label("Your name").fill("Ilona")
    await button(page, "Open a Thirty-One table").click()
    await page.wait_for_url(re.compile(r"[?&]table=[0-9a-f]{16}"))
    await expect(button(page, "Start")).to_be_enabled()
    await button(page, "Start").click()
    await expect(page.locator(".hand img.card")).to_have_count(3)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("kind", list(GAMES))
async def test_play_against_the_house_reaches_a_dealt_hand_with_help_beside_it(
    page_factory: PageFactory, web_service: Served, kind: str, size: tuple[int, int]
) -> None:
    page = await page_factory(viewport=size)
    await play_against_the_house(page, web_service.url, GAMES[kind])
    players = page.locator(".players .player")
    await expect(players).to_have_count(3)
    # A visitor who never typed a name plays as "Player", and that name is not kept for later.
    await expect(page.locator(".player.me")).to_contain_text("Player (you)")
    assert await page.evaluate("() => localStorage.getItem('kronikas.name')") is None
    assert await page.locator(".players .badge.house").count() == 2
    help_box = page.locator(".help-box")
    await expect(help_box.get_by_text(f"How to play {GAMES[kind]}", exact=True)).to_be_visible()
    await expect(help_box.locator(".how-to ol > li").first).to_be_visible()
    await help_box.get_by_text(f"The full rules of {GAMES[kind]}").click()
    await expect(help_box.get_by_role("heading", name=re.compile("^The rules of"))).to_be_visible()
    await no_horizontal_scroll(page)


async def test_on_a_phone_a_sixteen_card_hand_and_its_moves_fit_the_first_screen(
    page_factory: PageFactory, web_service: Served
) -> None:
    page = await page_factory(viewport=PHONE)
    await open_lobby(page, web_service.url)
    await page.get_by_label("Your name").fill("Ilona")
    await page.get_by_label("House players").fill("1")  # two players, one deck: 16 cards each
    await button(page, "Open a Cheat table").click()
    await page.wait_for_url(re.compile(r"[?&]table=[0-9a-f]{16}"))
    await button(page, "Start").click()
    await expect(page.locator(".hand .card-toggle")).to_have_count(16)
    await cards_loaded(page)
    assert await page.evaluate("scrollY") == 0
    height = PHONE[1]
    last_card = await page.locator(".hand .card-toggle").last.bounding_box()
    assert last_card and last_card["y"] + last_card["height"] <= height, last_card
    for name in ("Play", "Cheat!"):
        box = await button(page, name).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (name, box)
    # The moves stay at hand while the page is scrolled through the hand.
    bar = page.locator(".hand .actions")
    assert await bar.evaluate("e => getComputedStyle(e).position") == "sticky"


@pytest.mark.parametrize("size", SIZES)
async def test_every_greyed_out_button_says_why(
    page_factory: PageFactory, web_service: Served, size: tuple[int, int]
) -> None:
    page = await page_factory(viewport=size)
    # Before the start, alone at the table: Start waits for a second player, and says so.
    await open_lobby(page, web_service.url)
    await page.get_by_label("Your name").fill("Ilona")
    await page.get_by_label("House players").fill("0")
    await button(page, "Open a Cheat table").click()
    await page.wait_for_url(re.compile(r"[?&]table=[0-9a-f]{16}"))
    await expect(button(page, "Start")).to_be_disabled()
    assert await every_disabled_button_says_why(page) == 1
    # At play: nothing chosen yet, and no play on the pile to call.
    await button(page, "Add a house player").click()
    await button(page, "Start").click()
    await expect(page.locator(".hand .card-toggle").first).to_be_visible()
    await expect(button(page, "Clear choice")).to_be_disabled()
    assert await every_disabled_button_says_why(page) >= 1
    await expect(page.get_by_text("No card is chosen.")).to_be_visible()
    # Thirty-One, waiting for the house or choosing: whatever is greyed out says why.
    thirty_one = await page_factory(viewport=size)
    await play_against_the_house(thirty_one, web_service.url, "Thirty-One")
    await every_disabled_button_says_why(thirty_one)


@pytest.mark.parametrize("size", SIZES)
async def test_cards_are_named_in_words_in_every_button_and_line(
    page_factory: PageFactory, web_service: Served, size: tuple[int, int]
) -> None:
    page = await page_factory(viewport=size)
    table, _ = await on_turn_at_thirty_one(page, web_service)
    assert await enabled(page, "Swap one card")
    await cards_of(page, "Your cards").get_by_role("button").first.click()
    await cards_of(page, "The table’s cards").get_by_role("button").first.click()
    swap = page.locator('.hand .actions button[data-key="swap"]')
    said = await swap.inner_text()
    assert re.fullmatch(r"Swap the .+ of \w+ for the .+ of \w+( \(scores [\d.]+\))?", said) or (
        "Chronicler" in said
    ), said
    texts = await button_texts(page)
    assert texts and not [t for t in texts if CODE.search(t)], texts
    log = await page.locator(".log").inner_text()
    assert not CODE.search(log), log
    alts: list[str] = await page.evaluate("() => [...document.images].map(i => i.alt)")
    assert not [a for a in alts if CODE.search(a)], alts
    # What the hand scores, and what the swap would make it, is the service's word (the seat's
    # `me`), never the page's own reckoning: shown where the view says it, absent where not.
    me = (await seat_view(page, web_service, table))["me"]
    heading = await page.locator(".hand h2").inner_text()
    if "score" in me:
        assert f"(scores {me['score']:g})" in heading, (heading, me["score"])
    else:
        assert "scores" not in heading, heading
    if "swaps" not in me:
        assert "scores" not in said, said


async def test_the_version_is_shown_only_when_asked_for(
    page_factory: PageFactory, web_service: Served
) -> None:
    page = await page_factory(viewport=PHONE)
    await play_against_the_house(page, web_service.url, "Cheat")
    version = await page.locator(".table-main").get_attribute("data-version")
    head = await page.locator(".head").inner_text()
    assert "version" not in head.lower(), head
    shown = page.get_by_test_id("version")
    await expect(shown).to_be_hidden()
    await page.get_by_text("About this table").click()
    await expect(shown).to_be_visible()
    assert int(await shown.inner_text()) >= int(version or 0) > 0


async def test_the_rules_route_answers_the_page_and_a_404_for_another_kind(
    web_service: Served,
) -> None:
    async with httpx.AsyncClient(base_url=web_service.url) as client:
        kinds = (await client.get("/v1/kinds")).json()["kinds"]
        for kind in [k["kind"] for k in kinds]:
            r = await client.get(f"/v1/kinds/{kind}/rules")
            assert r.status_code == 200 and r.text.startswith("# The rules of")
        missing = await client.get("/v1/kinds/no_such_game/rules")
        assert missing.status_code == 404
        assert json.loads(missing.text)["code"] == "not_found"


async def test_the_markdown_reader_draws_text_never_markup(
    page_factory: PageFactory, web_service: Served
) -> None:
    """The rules are drawn as elements made from text: markup in them shows as written, and a
    link leads only to a heading of the rules themselves."""
    page = await page_factory()
    await open_lobby(page, web_service.url)
    drawn: dict[str, Any] = await page.evaluate(
        """async () => {
          const { markdown } = await import("/markdown.js");
          const box = document.createElement("div");
          box.append(...markdown([
            "# Title <img src=x onerror=window.__owned=1>",
            "",
            "- one **bold `code`**",
            "  goes on",
            "  - nested [to the title](#title-img-srcx-onerrorwindow__owned1)",
            "- two [away](javascript:window.__owned=2) and [page](api.md#x)",
            "",
            "| a | b |",
            "|---|---|",
            "| <script>window.__owned=3</script> | `x` |",
          ].join("\\n"), { prefix: "t-" }));
          document.body.append(box);
          await new Promise((r) => setTimeout(r, 50));
          return {
            owned: window.__owned ?? null,
            tags: [...box.querySelectorAll("*")].map((e) => e.tagName.toLowerCase()),
            hrefs: [...box.querySelectorAll("a")].map((a) => a.getAttribute("href")),
            text: box.innerText,
            nested: box.querySelectorAll("ul ul li").length,
          };
        }"""
    )
    assert drawn["owned"] is None
    assert not {"img", "script"} & set(drawn["tags"]), drawn["tags"]
    assert {"h3", "ul", "li", "strong", "code", "table", "th", "td"} <= set(drawn["tags"])
    assert drawn["hrefs"] == ["#t-title-img-srcx-onerrorwindow__owned1"], drawn["hrefs"]
    assert "<img src=x" in drawn["text"] and "<script>" in drawn["text"]
    assert "one bold code goes on" in drawn["text"] and drawn["nested"] == 1
