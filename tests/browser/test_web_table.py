"""The web table (`web/`) in real Chromium, driven the way a person plays it.

Each test opens pages with `page_factory` (whose teardown fails the test on a console error, an
uncaught error or a request leaving the machine) and clicks, types and reads what a person would:
buttons by their names, cards by their pictures' names, messages by their roles.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import PHONE, PageFactory, Served

Shot = Callable[[Page, str], Path]
TIMEOUT_MS = 15_000
CARD_NAME = re.compile(
    r"(Seven|Eight|Nine|Ten|Under|Over|King|Ace) of (hearts|bells|leaves|acorns)"
    r" \((7|8|9|10|U|O|K|A)[HBLA]\)|(Coloured|Pale) Chronicler \(X[CP]\)"
)


# ---- driving the page ----


def open_lobby(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.get_by_role("button", name=re.compile(r"^Open a .* table$"))).to_be_visible()


def create_table(page: Page, game: str, options: dict[str, Any], name: str, house: int = 0) -> str:
    """Fill the lobby's form (generated from /v1/kinds) and open the table; answers its id."""
    page.get_by_role("radio", name=re.compile(game)).check()
    for option, value in options.items():
        field = page.locator(f"#opt-{option}")
        if isinstance(value, bool):
            field.set_checked(value)
        else:
            field.fill(", ".join(map(str, value)) if isinstance(value, list) else str(value))
    page.get_by_label("Your name").fill(name)
    page.get_by_label("House players").fill(str(house))
    page.get_by_role("button", name=re.compile(r"^Open a .* table$")).click()
    page.wait_for_url(re.compile(r"[?&]table=[0-9a-f]{16}"))
    expect(page.locator(".table-main[data-version]")).to_be_attached()
    return re.search(r"table=([0-9a-f]{16})", page.url).group(1)  # type: ignore[union-attr]


def join(page: Page, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Join").click()
    expect(page.get_by_text(f"{name} (you)")).to_be_visible()


def version(page: Page) -> int:
    return int(page.locator(".table-main").get_attribute("data-version") or 0)


def wait_version(page: Page, at_least: int) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('.table-main')?.dataset.version) >= v",
        arg=at_least,
        timeout=TIMEOUT_MS,
    )


def sync(*pages: Page) -> int:
    """Wait until every page shows the newest version any of them shows (the stream brings it)."""
    newest = max(version(p) for p in pages)
    for p in pages:
        wait_version(p, newest)
    return newest


def status(page: Page) -> str:
    return page.locator(".table-main").get_attribute("data-status") or ""


def button(page: Page, name: str | re.Pattern[str]) -> Locator:
    return page.get_by_role("button", name=name, exact=isinstance(name, str))


def enabled(page: Page, name: str | re.Pattern[str]) -> bool:
    b = button(page, name)
    return b.count() == 1 and b.is_enabled()


def act(page: Page, click: Callable[[], None]) -> int:
    """Make a move on `page` and wait for its answer to be shown: answers the new version."""
    before = version(page)
    click()
    wait_version(page, before + 1)
    return version(page)


def cards_of(page: Page, whose: str) -> Locator:
    """A Thirty-One card row: "Your cards" or "The table’s cards"."""
    return page.get_by_role("list", name=re.compile(f"^{whose}"))


def cards_loaded(page: Page) -> None:
    page.wait_for_function("[...document.images].every(i => i.complete && i.naturalWidth > 0)")


def no_raw_json(text: str) -> None:
    assert "{" not in text and "Traceback" not in text and '"status"' not in text, text


def no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width}px wide"  # type: ignore[index]


# ---- Cheat ----


def choose_cards(page: Page, count: int, keyboard: bool = False) -> None:
    """Choose the first `count` cards of the hand: by clicking, or by Tab-free keyboard presses."""
    cards = page.locator(".hand .card-toggle")
    for i in range(min(count, cards.count())):
        card = cards.nth(i)
        if keyboard:
            card.focus()
            page.keyboard.press("Space" if i % 2 == 0 else "Enter")
        else:
            card.click()
        expect(cards.nth(i)).to_have_attribute("aria-pressed", "true")


def test_two_people_play_a_whole_cheat_match(
    web_service: Served, page_factory: PageFactory, shot: Shot
) -> None:
    # The refusal below is a real 422 from the service; Chromium logs any 4xx answer.
    page_factory.allow(r"status of 422")
    ilona = page_factory()
    bence = page_factory(PHONE)
    urls: list[str] = []
    for page in (ilona, bence):
        page.on("request", lambda request: urls.append(request.url))

    open_lobby(ilona, f"{web_service.url}/")
    create_table(ilona, "Cheat", {"max_play": 4, "rounds": 1, "decks": 1}, "Ilona")
    link = ilona.locator("#share").input_value()
    assert "token" not in link and re.search(r"/\?table=[0-9a-f]{16}$", link), link

    join(bence, link, "Bence")
    sync(ilona, bence)
    expect(ilona.locator(".player")).to_have_count(2)
    act(ilona, button(ilona, "Start").click)
    sync(ilona, bence)
    for page in (ilona, bence):
        expect(page.locator(".hand .card-toggle")).to_have_count(16)
        expect(page.get_by_test_id("rank")).to_have_text("sevens")

    pages = {"Ilona": ilona, "Bence": bence}
    refused = called = reloaded = False
    moves = 0
    for _ in range(120):
        sync(ilona, bence)
        if status(ilona) == "finished":
            break
        mover = next(
            (p for p in pages.values() if enabled(p, "Accept") or enabled(p, re.compile("^Play"))),
            None,
        )
        caller = next((p for p in pages.values() if enabled(p, "Cheat!")), None)
        assert mover is not None, "nobody may move"

        if not refused:
            # A person presses Play with no card chosen: the service refuses, the page says why.
            button(mover, "Play").click()
            alert = mover.get_by_role("alert")
            expect(alert).to_contain_text("Choose one or more cards from your hand first.")
            expect(alert).to_contain_text("Unprocessable Content")
            no_raw_json(alert.inner_text())
            shot(mover, "cheat-refusal")
            refused = True
            continue

        if caller is not None and not called and moves >= 1:
            # "Cheat!" on the last play: the cards are turned up for both, someone takes the pile.
            act(caller, button(caller, "Cheat!").click)
            sync(ilona, bence)
            for page in pages.values():
                expect(page.get_by_test_id("last-call")).to_contain_text("called “Cheat!”")
                expect(page.get_by_test_id("last-call")).to_contain_text("took the pile")
                expect(
                    page.get_by_role("list", name="The cards turned up").get_by_role("img")
                ).not_to_have_count(0)
            called = True
            shot(ilona, "cheat-after-call")
        elif enabled(mover, "Accept"):
            act(mover, button(mover, "Accept").click)
        else:
            choose_cards(mover, 4, keyboard=moves % 3 == 1)
            play = button(mover, re.compile(r"^Play \d cards? as "))
            expect(play).to_be_enabled()
            act(mover, play.click)
            expect(mover.get_by_role("alert")).to_have_count(0)
        moves += 1

        if moves == 3 and not reloaded:
            # A reload puts Bence back in his seat, following the stream from where it was.
            sync(ilona, bence)
            shot(bence, "cheat-in-progress-phone")
            shot(ilona, "cheat-in-progress")
            hand = bence.locator(".hand .card-toggle").count()
            log = bence.locator(".log li").all_inner_texts()
            seen = version(bence)
            bence.reload()
            expect(bence.get_by_text("Bence (you)")).to_be_visible()
            expect(bence.locator(".hand .card-toggle")).to_have_count(hand)
            assert bence.locator(".log li").all_inner_texts() == log
            expect(bence.locator(".connection")).to_have_text("live")
            assert urls[-1].endswith(f"/stream?after={seen}") or any(
                u.endswith(f"/stream?after={seen}") for u in urls
            )
            reloaded = True
    else:
        pytest.fail("the match did not end")

    assert refused and called and reloaded
    for page in pages.values():
        expect(page.locator(".winners")).to_contain_text("The match is over")
        expect(page.get_by_role("region", name="Round 1 results")).to_contain_text("1st")
        expect(page.locator(".log")).to_contain_text("The match is over.")
        cards_loaded(page)
    shot(ilona, "cheat-finished")
    shot(bence, "cheat-finished-phone")
    # Tokens travel in the Authorization header only, never in a URL.
    assert not [u for u in urls if re.search(r"token=|seat_|host_", u)]
    assert any("/stream?after=" in u for u in urls)


def test_a_stale_move_is_refused_in_words(web_service: Served, page_factory: PageFactory) -> None:
    """A second tab of the same seat whose connection dropped sends a move the table has left."""
    page_factory.allow(r"status of 412|ERR_FAILED")
    ilona = page_factory()
    bence = page_factory()
    open_lobby(ilona, f"{web_service.url}/")
    table = create_table(ilona, "Cheat", {"max_play": 2}, "Ilona")
    join(bence, ilona.locator("#share").input_value(), "Bence")
    sync(ilona, bence)
    act(ilona, button(ilona, "Start").click)
    sync(ilona, bence)
    mover = ilona if enabled(ilona, re.compile("^Play")) else bence

    # The same seat in another tab (its sessionStorage copied), whose stream cannot connect.
    key = json.dumps(f"kronikas|{web_service.url}|{table}")  # per API and table
    kept = mover.evaluate(f"sessionStorage.getItem({key})")
    offline = page_factory()
    offline.context.add_init_script(f"sessionStorage.setItem({key}, {json.dumps(kept)})")
    offline.route(re.compile(r"/v1/games/[0-9a-f]+/stream"), lambda route: route.abort())
    offline.goto(mover.url)
    expect(offline.locator(".connection")).to_contain_text("reconnecting")
    at = version(offline)

    act(mover, lambda: (choose_cards(mover, 1), button(mover, re.compile("^Play 1 card")).click()))
    assert version(offline) == at  # it heard nothing

    choose_cards(offline, 1)
    button(offline, re.compile(r"^Play 1 card as ")).click()
    alert = offline.get_by_role("alert")
    expect(alert).to_contain_text("The table moved on before your move arrived")
    expect(alert).to_contain_text("Precondition Failed")
    no_raw_json(alert.inner_text())
    wait_version(offline, at + 1)  # and it looked at the table again
    expect(button(offline, re.compile("^Play"))).to_be_disabled()


def test_the_option_form_follows_the_kinds(web_service: Served, page_factory: PageFactory) -> None:
    """Every option of /v1/kinds has a field with its default; a refused table keeps the input."""
    page_factory.allow(r"status of 422")
    kinds = httpx.get(f"{web_service.url}/v1/kinds").json()["kinds"]
    page = page_factory()
    open_lobby(page, f"{web_service.url}/")
    for kind in kinds:
        page.locator(f'input[name="kind"][value="{kind["kind"]}"]').check()
        for option in kind["options"]:
            field = page.locator(f"#opt-{option['name']}")
            expect(field).to_have_attribute("aria-describedby", f"help-opt-{option['name']}")
            if option["type"] == "boolean":
                assert field.is_checked() == option["default"]
            elif option["type"] == "integer_list":
                expect(field).to_have_value(", ".join(map(str, option["default"])))
            else:
                expect(field).to_have_value(
                    "" if option["default"] is None else str(option["default"])
                )

    page.locator('input[name="kind"][value="cheat"]').check()
    page.locator("#opt-place_points").fill("5, x")
    button(page, "Open a Cheat table").click()
    expect(page.get_by_role("alert")).to_contain_text("write whole numbers separated by commas")
    page.locator("#opt-place_points").fill("5, 101")
    page.locator("#opt-rounds").fill("7")
    button(page, "Open a Cheat table").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Unprocessable Content")
    no_raw_json(alert.inner_text())
    expect(page.locator("#opt-place_points")).to_have_value("5, 101")
    expect(page.locator("#opt-rounds")).to_have_value("7")
    expect(button(page, "Open a Cheat table")).to_be_enabled()


# ---- from another origin, and at phone width ----


def test_the_page_works_from_another_origin(
    web_service_cors: Served, static_origin: Served, page_factory: PageFactory, shot: Shot
) -> None:
    page = page_factory()
    other = page_factory()
    open_lobby(page, f"{static_origin.url}/index.html?api={web_service_cors.url}")
    create_table(page, "Thirty-One", {"lives": 1}, "Ilona")
    assert page.url.startswith(static_origin.url)
    link = page.locator("#share").input_value()
    assert link.startswith(static_origin.url) and "api=" in link, link

    # The lobby (read across origins too) lists the table; a second person joins from it.
    open_lobby(other, f"{static_origin.url}/index.html?api={web_service_cors.url}")
    other.get_by_role("link", name=re.compile("Thirty-One table")).first.click()
    other.get_by_label("Your name").fill("Bence")
    button(other, "Join").click()
    expect(other.get_by_text("Bence (you)")).to_be_visible()
    sync(page, other)
    act(page, button(page, "Start").click)
    sync(page, other)
    for p in (page, other):
        expect(cards_of(p, "The table’s cards").get_by_role("img")).to_have_count(3)
        expect(p.locator(".connection")).to_have_text("live")
    dealer = page if enabled(page, "Keep my hand") else other
    act(dealer, button(dealer, "Keep my hand").click)
    sync(page, other)
    cards_loaded(page)
    shot(page, "other-origin-thirty-one")


def test_phone_width_has_no_horizontal_scroll(
    web_service: Served, page_factory: PageFactory, shot: Shot
) -> None:
    page = page_factory(PHONE)
    other = page_factory(PHONE)
    open_lobby(page, f"{web_service.url}/")
    no_horizontal_scroll(page)
    shot(page, "phone-lobby")
    create_table(page, "Cheat", {"chroniclers": True}, "Ilona with a long name to wrap")
    no_horizontal_scroll(page)
    join(other, page.locator("#share").input_value(), "Bence")
    sync(page, other)
    no_horizontal_scroll(page)
    shot(page, "phone-open-table")
    act(page, button(page, "Start").click)
    sync(page, other)
    cards_loaded(page)
    no_horizontal_scroll(page)
    shot(page, "phone-cheat")
    # Keyboard play: the cards are buttons that Space and Enter toggle, with a visible focus.
    first = page.locator(".hand .card-toggle").first
    first.focus()
    page.keyboard.press("Enter")
    expect(first).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".hand .card-toggle").first).to_be_focused()
    page.keyboard.press("Space")
    expect(page.locator(".hand .card-toggle").first).to_have_attribute("aria-pressed", "false")
    # Every card has its name and code as text for a screen reader.
    labels = page.locator(".hand .card-toggle").evaluate_all(
        "buttons => buttons.map(b => b.getAttribute('aria-label'))"
    )
    assert labels and all(CARD_NAME.fullmatch(label) for label in labels), labels


# ---- Thirty-One ----


def test_two_people_play_thirty_one_to_the_end(
    web_service: Served, page_factory: PageFactory, shot: Shot
) -> None:
    ilona = page_factory()
    bence = page_factory(PHONE)
    open_lobby(ilona, f"{web_service.url}/")
    create_table(ilona, "Thirty-One", {"lives": 0}, "Ilona")
    join(bence, ilona.locator("#share").input_value(), "Bence")
    sync(ilona, bence)
    act(ilona, button(ilona, "Start").click)
    pages = (ilona, bence)
    swapped = shown = False
    for _ in range(60):
        sync(*pages)
        if status(ilona) == "finished":
            break
        mover = next(p for p in pages if p.locator(".hand .actions button:enabled").count())
        if enabled(mover, "Keep my hand"):
            act(mover, button(mover, "Keep my hand").click)
        elif enabled(mover, "Swap one card") and enabled(mover, "Show") and not swapped:
            # A swap without both cards chosen is not sent: the page says what is missing.
            button(mover, "Swap one card").click()
            expect(mover.get_by_role("alert")).to_contain_text(
                "Choose one card of your hand and one card of the table"
            )
            cards_of(mover, "Your cards").get_by_role("button").first.click()
            cards_of(mover, "The table’s cards").get_by_role("button").first.click()
            given = (
                cards_of(mover, "Your cards").get_by_role("button").first.get_attribute("data-card")
            )
            act(mover, button(mover, re.compile(r"^Swap \S+ for \S+$")).click)
            table_cards = cards_of(mover, "The table’s cards")
            expect(
                table_cards.get_by_role("img", name=re.compile(re.escape(f"({given})")))
            ).to_have_count(1)
            swapped = True
        elif enabled(mover, "Show"):
            act(mover, button(mover, "Show").click)
            sync(*pages)
            for p in pages:
                expect(p.locator(".middle")).to_contain_text("last circuit")
            if not shown:
                shot(bence, "thirty-one-last-circuit-phone")
                shot(ilona, "thirty-one-last-circuit")
                shown = True
        elif enabled(mover, "Pass"):
            act(mover, button(mover, "Pass").click)
    else:
        pytest.fail("the match did not end")
    for p in pages:
        expect(p.locator(".winners")).to_contain_text("The match is over")
        expect(p.get_by_role("region", name=re.compile(r"^Round \d+ results"))).to_contain_text(
            "out"
        )
        cards_loaded(p)
    shot(ilona, "thirty-one-finished")
    shot(bence, "thirty-one-finished-phone")


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


def test_the_host_seats_the_house_and_a_player_leaves_before_the_start(
    web_service: Served, page_factory: PageFactory, shot: Shot
) -> None:
    if not house_players_supported(web_service.url):
        pytest.skip("the service has no turn clocks or house players yet (issue 16)")
    ilona = page_factory()
    bence = page_factory(PHONE)
    open_lobby(ilona, f"{web_service.url}/")
    create_table(ilona, "Cheat", {}, "Ilona")
    act(ilona, button(ilona, "Add a house player").click)
    expect(ilona.locator(".player .badge.house")).to_have_count(1)
    join(bence, ilona.locator("#share").input_value(), "Bence")
    sync(ilona, bence)
    expect(ilona.locator(".player")).to_have_count(3)
    shot(bence, "open-table-with-house-phone")

    # Before the start, leaving frees the seat: Bence watches, and may sit down again.
    act(bence, button(bence, "Leave the table").click)
    expect(bence.get_by_role("status").filter(has_text="You left the table.")).to_be_visible()
    expect(bence.get_by_label("Your name")).to_be_visible()
    sync(ilona, bence)
    expect(ilona.locator(".player")).to_have_count(2)
    expect(ilona.locator(".log")).to_contain_text("Bence left the table.")
    act(ilona, button(ilona, "Start").click)
    sync(ilona, bence)
    expect(bence.locator(".hand")).to_have_count(0)  # a spectator has no hand
    expect(ilona.locator(".hand .card-toggle")).not_to_have_count(0)


def test_one_person_plays_thirty_one_against_two_house_players(
    web_service: Served, page_factory: PageFactory, shot: Shot
) -> None:
    if not house_players_supported(web_service.url):
        pytest.skip("the service has no turn clocks or house players yet (issue 16)")
    page = page_factory()
    open_lobby(page, f"{web_service.url}/")
    create_table(page, "Thirty-One", {"lives": 0, "turn_seconds": 120}, "Ilona", house=2)
    expect(page.locator(".badge.house")).to_have_count(2)
    act(page, button(page, "Start").click)

    swapped = in_progress = False
    for _ in range(200):
        page.wait_for_function(
            "() => document.querySelector('.table-main')?.dataset.status === 'finished'"
            " || [...document.querySelectorAll('.hand .actions button')].some(b => !b.disabled)"
            " || document.querySelector('.player.me.out')",
            timeout=30_000,
        )
        if status(page) == "finished" or page.locator(".player.me.out").count():
            break
        expect(page.locator(".player.turn .timer")).to_be_visible()  # the clock counts down
        if not in_progress:
            shot(page, "thirty-one-house-in-progress")
            in_progress = True
        if enabled(page, "Keep my hand"):
            act(page, button(page, "Keep my hand").click)
        elif enabled(page, "Swap one card") and enabled(page, "Show") and not swapped:
            # (Show is not a move of the last circuit, where a swap must reach 21.)
            cards_of(page, "Your cards").get_by_role("button").first.click()
            cards_of(page, "The table’s cards").get_by_role("button").first.click()
            act(page, button(page, re.compile(r"^Swap \S+ for \S+$")).click)
            swapped = True
        elif enabled(page, "Show"):
            act(page, button(page, "Show").click)
        elif enabled(page, "Pass"):
            act(page, button(page, "Pass").click)
    # Out or not, the house plays the match to its end.
    page.wait_for_function(
        "() => document.querySelector('.table-main')?.dataset.status === 'finished'", timeout=60_000
    )
    expect(page.locator(".winners")).to_contain_text("The match is over")
    expect(page.get_by_role("region", name=re.compile(r"^Round \d+ results"))).to_be_visible()
    cards_loaded(page)
    shot(page, "thirty-one-house-finished")


# ---- following the stream ----


def test_the_sse_parser_reads_frames_however_they_are_cut(
    web_service: Served, page_factory: PageFactory
) -> None:
    page = page_factory()
    page.goto(f"{web_service.url}/")
    cuts = page.evaluate(
        """async () => {
          const { frameParser } = await import("./stream.js");
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


def test_a_dropped_stream_resumes_after_the_last_event_seen(
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

    def stream(route: Any) -> None:
        streams.append({"url": route.request.url, **route.request.all_headers()})
        if len(streams) == 1:  # the first connection drops after two events
            body = "".join(
                f"id: {e['version']}\nevent: {e['type']}\ndata: {json.dumps(e)}\n\n"
                for e in first_two
            )
            route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=body)
        else:
            route.continue_()

    page = page_factory()
    kept = json.dumps({"token": seat["token"], "lastSeen": 0})
    page.context.add_init_script(
        f"sessionStorage.setItem({json.dumps(f'kronikas|{url}|{table}')}, {json.dumps(kept)})"
    )
    page.route(re.compile(r"/v1/games/[0-9a-f]+/stream"), stream)
    page.goto(f"{url}/?table={table}")
    expect(page.get_by_text("Ilona (you)")).to_be_visible()
    expect(page.locator(".log li")).to_have_count(3, timeout=TIMEOUT_MS)  # 2, then 3 after the drop
    httpx.post(
        f"{url}/v1/games/{table}/start",
        headers={"Authorization": f"Bearer {created['host_token']}"},
    )
    expect(page.locator(".log li")).to_have_count(4, timeout=TIMEOUT_MS)
    expect(page.locator(".log li").first).to_contain_text("Round 1")
    expect(page.locator(".connection")).to_have_text("live")

    assert len(streams) == 2, streams
    assert streams[0]["url"].endswith("/stream?after=0") and "last-event-id" not in streams[0]
    assert streams[1]["url"].endswith("/stream?after=2") and streams[1]["last-event-id"] == "2"
    for s in streams:
        assert s["authorization"] == f"Bearer {seat['token']}"
        assert seat["token"] not in s["url"] and "token=" not in s["url"]
