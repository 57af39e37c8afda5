"""The web table finds a game's module by the table's kind, and shows any other kind plainly.

The service knows only its own games, so a table of a kind the page has no module for is
presented by the browser itself: `page.route` answers the table's view and its stream.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from playwright.async_api import Page, Route, expect

from tests.browser.conftest import PageFactory, Served

TABLE = "0123456789abcdef"
"""A table id of the service's shape; only this test's routes answer for it."""

VIEW: dict[str, Any] = {
    "id": TABLE,
    "kind": "high_card",
    "status": "playing",
    "version": 6,
    "round": 2,
    "turn": 1,
    "dealer": 0,
    "deadline": None,
    "seeded": False,
    "options": {"rounds": 3},
    "players": [
        {"seat": 0, "name": "Ilona", "house": False, "away": False, "left": False},
        {"seat": 1, "name": "House 1", "house": True, "away": False, "left": False},
    ],
    "me": None,
    "legal": [],
    "winners": [],
    "last_round": {"round": 1, "winner": 0, "cards": ["AH", "7L"]},
    "high_card": {"shown": ["AH", "7L"], "scores": [1, 0]},
}

EVENTS: list[tuple[str, dict[str, Any]]] = [
    ("game_created", {"options": {"rounds": 3}}),
    ("player_joined", {"seat": 0, "name": "Ilona", "house": False}),
    ("player_joined", {"seat": 1, "name": "House 1", "house": True}),
    ("round_dealt", {"round": 1, "dealer": 0, "turn": 0, "table": ["AH"]}),
    ("cards_compared", {"round": 1, "cards": ["AH", "7L"], "winner": 0}),
    ("round_ended", {"round": 1, "winner": 0, "lost_life": [1], "out": []}),
]


def frames(after: int) -> str:
    """The stream's frames after `after`, as the service writes them."""
    at = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    out = []
    for version, (kind, data) in enumerate(EVENTS, start=1):
        if version <= after:
            continue
        event = {"version": version, "type": f"high_card.{kind}", "at": at, "data": data}
        out.append(f"id: {version}\nevent: high_card.{kind}\ndata: {json.dumps(event)}\n\n")
    return "".join(out)


async def present_unknown_table(page: Page) -> None:
    """Answer the view and the stream of `TABLE` as a service with a game "high_card" would."""

    async def view(route: Route) -> None:
        await route.fulfill(
            status=200,
            headers={"ETag": f'"{VIEW["version"]}"', "Cache-Control": "no-store"},
            content_type="application/json",
            body=json.dumps(VIEW),
        )

    async def stream(route: Route) -> None:
        after = int(re.search(r"[?&]after=(\d+)", route.request.url).group(1))  # type: ignore[union-attr]
        await route.fulfill(status=200, content_type="text/event-stream", body=frames(after))

    await page.route(re.compile(rf"/v1/games/{TABLE}$"), view)
    await page.route(re.compile(rf"/v1/games/{TABLE}/stream\?"), stream)


async def test_a_table_of_a_kind_the_page_does_not_know_is_shown_plainly(
    web_service: Served, page_factory: PageFactory
) -> None:
    page = await page_factory()
    await present_unknown_table(page)
    await page.goto(f"{web_service.url}/?table={TABLE}")

    main = page.locator(".table-main")
    await expect(main).to_have_attribute("data-version", "6")
    # The events by type: the seats' in their words, the game's own by their names alone.
    log = page.get_by_role("region", name="What happened").get_by_role("listitem")
    await expect(log).to_have_text(
        [
            "Round ended.",
            "Cards compared.",
            "Round dealt.",
            "House 1 sat down (the house plays this seat).",
            "Ilona sat down.",
            "The High card table was opened.",
        ]
    )
    await expect(page.get_by_role("heading", level=1)).to_have_text("High card")
    await expect(page.locator(".head")).to_contain_text("Round 2 · playing")
    plain = page.get_by_test_id("plain-table")
    await expect(plain).to_contain_text("cannot draw a High card table")
    await expect(plain.get_by_test_id("status")).to_have_text(re.compile(r"^Waiting for House 1\."))
    players = page.get_by_role("region", name="Players")
    await expect(players.get_by_role("listitem")).to_have_text(
        [re.compile(r"^Ilona"), re.compile(r"^▶ House 1 \(on turn\)house")]
    )


async def test_the_footer_names_the_games_the_page_can_draw(
    web_service: Served, page_factory: PageFactory
) -> None:
    page = await page_factory()
    await page.goto(f"{web_service.url}/")
    await expect(page.locator("footer")).to_contain_text(
        "Cheat and Thirty-One with the Hungarian deck"
    )
