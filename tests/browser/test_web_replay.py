"""The replay of a finished table (`web/replay.html`) in real Chromium.

A short seeded match is played to its end over HTTP; its table's page links to the replay, which
a seat opens as itself and a spectator as a spectator. Each steps through every version, with the
buttons and the keyboard, and what the page shows at each step is compared with the view the
service says it served that viewer then (`GET /v1/games/{id}/views`) and with the openings of the
step's event in the viewer's record (`GET /v1/games/{id}/record`). A record with one opening
corrupted shows the page's warning at that step, and only there.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.async_api import Page, Route, expect

from tests.api.tables import Table, Tables, auth
from tests.browser.conftest import PHONE, PageFactory, Served
from tests.browser.test_web_table import no_horizontal_scroll

TIMEOUT_MS = 15_000
RANKS = {"7": "Seven", "8": "Eight", "9": "Nine", "10": "Ten"}
RANKS |= {"U": "Under", "O": "Over", "K": "King", "A": "Ace"}
SUITS = {"H": "Hearts", "B": "Bells", "L": "Leaves", "A": "Acorns"}
CHRONICLERS = {"XC": "Coloured Chronicler", "XP": "Pale Chronicler"}
CODE = re.compile(r"^(?:(?:10|[789UOKA])[HBLA]|X[CP])$")
SHORT = {
    "cheat": {"rounds": 1, "max_plays": 20, "house_pause_seconds": 0},
    "thirty_one": {"lives": 0},
}
"""Options for a short match of each kind: one round."""

SNAPSHOT = """(version) => {
  const main = document.querySelector(".table-main.replay");
  const proofs = document.querySelector("[data-testid=step-proofs]");
  if (!main || Number(main.dataset.version) !== version || !proofs?.dataset.failed) return null;
  const lists = {};
  for (const ul of main.querySelectorAll("ul.cards[aria-label]"))
    lists[ul.getAttribute("aria-label")] = [...ul.querySelectorAll("img")].map((i) => i.alt);
  return {
    status: main.dataset.status,
    count: document.querySelector("[data-testid=step-count]").textContent,
    words: document.querySelector("[data-testid=step-words]").textContent,
    proofs: proofs.textContent,
    failed: Number(proofs.dataset.failed),
    lists,
    cards: [...main.querySelectorAll("img.card")].map((i) => i.alt),
    players: Object.fromEntries(
      [...main.querySelectorAll("li.player")].map((li) => [li.dataset.seat, li.textContent]),
    ),
    moves: main.querySelectorAll(".actions button, .card-toggle").length,
    text: main.innerText,
  };
}"""
"""What the page shows at a step, once that step and its proofs are drawn (else null)."""


def card_name(code: str) -> str:
    return CHRONICLERS.get(code) or f"{RANKS[code[:-1]]} of {SUITS[code[-1]]}"


def codes_in(value: Any) -> Iterator[str]:
    """Every card code anywhere in a view."""
    if isinstance(value, str) and CODE.match(value):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from codes_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from codes_in(item)


async def pages(client: httpx.AsyncClient, path: str, token: str | None, key: str) -> list[Any]:
    """Every item of a paged read (`after`, `more`), as `token` (or a spectator) reads it."""
    items: list[Any] = []
    while True:
        r = await client.get(f"{path}?after={len(items)}", headers=auth(token))
        assert r.status_code == 200, r.text
        body = r.json()
        items += body[key]
        if not body["more"] or not body[key]:
            return items


async def finished_match(
    client: httpx.AsyncClient, kind: str, options: dict[str, Any] | None = None
) -> Table:
    tables = Tables(client)
    table = await tables.create(kind, SHORT[kind] | (options or {}), seed=41)
    await tables.join(table, "Ilona")
    await tables.join(table, "Bence")
    await tables.start(table)
    await tables.play_to_end(table, random.Random(41))
    return table


async def hold_seat(page: Page, served: Served, table: Table, token: str | None) -> None:
    """This tab holds `token`'s seat, as the table's page keeps it (or none)."""
    if token:
        key = json.dumps(f"kronikas|{served.url}|{table.id}")
        await page.context.add_init_script(
            f"sessionStorage.setItem({key}, {json.dumps(json.dumps({'token': token}))})"
        )


async def shown(page: Page, version: int) -> dict[str, Any]:
    handle = await page.wait_for_function(SNAPSHOT, arg=version, timeout=TIMEOUT_MS)
    snapshot: dict[str, Any] = await handle.json_value()
    return snapshot


def compare(
    snapshot: dict[str, Any], view: dict[str, Any], event: dict[str, Any], last: int
) -> None:
    """The page at a step shows that step's served view, its event in words and its openings."""
    version = view["version"]
    assert snapshot["count"] == f"Step {version} of {last}"
    assert snapshot["status"] == view["status"]
    assert snapshot["words"] and "{" not in snapshot["words"], snapshot["words"]
    assert snapshot["moves"] == 0, "a replay offers no move"
    for player in view["players"]:
        assert player["name"] in snapshot["players"][str(player["seat"])]
    assert len(snapshot["players"]) == len(view["players"])

    # No card the served view does not hold; the hand and the face-up cards as it holds them.
    faces = [alt for alt in snapshot["cards"] if alt != "a card face down"]
    assert set(faces) <= {card_name(c) for c in codes_in(view)}, (faces, view)
    lists = snapshot["lists"]
    playing = view["status"] != "open"
    if view["me"] is not None and playing and (view["kind"] == "cheat" or view["me"]["hand"]):
        assert lists["Your cards"] == [card_name(c) for c in view["me"]["hand"]]
    else:
        assert "Your cards" not in lists
    if view.get("cheat"):
        call = view["cheat"].get("last_call")
        if call:
            assert lists["The cards turned up"] == [card_name(c) for c in call["cards"]]
        assert f"Pile: {view['cheat']['pile_size']} card" in snapshot["text"]
    if view.get("thirty_one"):
        assert lists["The table’s cards"] == [card_name(c) for c in view["thirty_one"]["table"]]

    # The step's openings, each named, and each checked.
    assert snapshot["failed"] == 0, snapshot["proofs"]
    openings = (event["data"] or {}).get("openings") or []
    for opening in openings:
        assert card_name(opening["card"]) in snapshot["proofs"]
    if not openings:
        assert "No card is opened at this step." in snapshot["proofs"]


@pytest.mark.parametrize(
    ("kind", "reveal"), [("cheat", "never"), ("thirty_one", "never"), ("thirty_one", "match_end")]
)
async def test_a_finished_table_replays_as_each_viewer_saw_it(
    web_service: Served, page_factory: PageFactory, kind: str, reveal: str
) -> None:
    async with httpx.AsyncClient(base_url=web_service.url, timeout=30) as client:
        table = await finished_match(client, kind, {"reveal": reveal})
        seat = table.players[0]
        path = f"/v1/games/{table.id}"
        seen = {
            who: (
                await pages(client, f"{path}/views", token, "views"),
                await pages(client, f"{path}/record", token, "events"),
            )
            for who, token in (("seat", seat), ("spectator", None))
        }
    views, events = seen["seat"]
    last = len(events)
    assert [v["version"] for v in views] == list(range(1, last + 1))
    assert any((e["data"] or {}).get("openings") for e in events), "the seat was dealt cards"
    # With `reveal: "match_end"`, the step before the last (the match's end) opens every card
    # of every deal, to everyone.
    assert (events[-2]["type"].endswith(".deals_opened")) == (reveal == "match_end")

    # The seat opens its replay from the finished table's page.
    page = await page_factory()
    await hold_seat(page, web_service, table, seat)
    await page.goto(f"{web_service.url}/?table={table.id}")
    await page.get_by_role("link", name="Replay the match").click()
    await page.wait_for_url(re.compile(r"/replay\.html\?table="))
    await expect(page.get_by_text("Seen from your seat")).to_be_visible()
    compare(await shown(page, 1), views[0], events[0], last)
    for version in range(2, last + 1):  # forward by the keyboard, every step
        await page.keyboard.press("ArrowRight")
        compare(await shown(page, version), views[version - 1], events[version - 1], last)
    assert await page.get_by_role("button", name="Forward").is_disabled()
    summary = page.get_by_test_id("proofs-summary")
    await expect(summary).to_contain_text("Every card opened to you")
    await page.get_by_role("button", name="Back").click()
    compare(await shown(page, last - 1), views[-2], events[-2], last)
    await page.keyboard.press("Home")
    compare(await shown(page, 1), views[0], events[0], last)
    await page.get_by_role("button", name="Last").click()
    compare(await shown(page, last), views[-1], events[-1], last)
    assert "v=" in page.url  # the step is in the address

    # A spectator on a phone, backward by the keyboard from the last step: never a hand.
    views, events = seen["spectator"]
    watcher = await page_factory(PHONE)
    await watcher.goto(f"{web_service.url}/replay.html?table={table.id}")
    await expect(watcher.get_by_text("Seen as a spectator")).to_be_visible()
    await watcher.keyboard.press("End")
    for version in range(last, 0, -1):
        if version < last:
            await watcher.keyboard.press("ArrowLeft")
        snapshot = await shown(watcher, version)
        compare(snapshot, views[version - 1], events[version - 1], last)
        assert "Your cards" not in snapshot["lists"]
    await no_horizontal_scroll(watcher)
    await expect(watcher.get_by_test_id("proofs-summary")).to_contain_text("a spectator")


async def test_an_opening_that_does_not_match_its_commitment_is_a_warning(
    web_service: Served, page_factory: PageFactory
) -> None:
    async with httpx.AsyncClient(base_url=web_service.url, timeout=30) as client:
        table = await finished_match(client, "cheat")
        seat = table.players[1]
        events = await pages(client, f"/v1/games/{table.id}/record", seat, "events")
    opened = [e["version"] for e in events if (e["data"] or {}).get("openings")]
    assert len(opened) > 1, "the seat was dealt cards, and more were opened later"
    bad = opened[-1]
    corrupted: dict[str, Any] = {}

    async def corrupt(route: Route) -> None:
        # One hex digit of one salt changed in the record's answer: the rest as served.
        response = await route.fetch()
        body = await response.json()
        for event in body["events"]:
            if event["version"] == bad:
                opening = event["data"]["openings"][0]
                salt = opening["salt"]
                opening["salt"] = salt[:-1] + ("0" if salt[-1] != "0" else "1")
                corrupted.update(opening)
        for opening in body.get("openings") or []:
            if opening["position"] == corrupted.get("position"):
                opening["salt"] = corrupted["salt"]
        await route.fulfill(response=response, json=body)

    page = await page_factory()
    await hold_seat(page, web_service, table, seat)
    await page.route(re.compile(r"/v1/games/[0-9a-f]+/record"), corrupt)
    await page.goto(f"{web_service.url}/replay.html?table={table.id}&v={bad}")
    proofs = page.get_by_test_id("step-proofs")
    warning = proofs.get_by_role("alert")
    await expect(warning).to_contain_text("A proof failed")
    await expect(warning).to_contain_text(card_name(corrupted["card"]))
    await expect(warning).to_contain_text("does not match the deal’s commitment")
    summary = page.get_by_test_id("proofs-summary").get_by_role("alert")
    await expect(summary).to_contain_text(f"step {bad} does not match")

    # The deal's openings, untouched, still hold.
    await page.goto(f"{web_service.url}/replay.html?table={table.id}&v={opened[0]}")
    await expect(page.get_by_test_id("step-proofs")).to_have_attribute("data-failed", "0")
    await expect(page.get_by_test_id("step-proofs")).to_contain_text("Proven at this step")
