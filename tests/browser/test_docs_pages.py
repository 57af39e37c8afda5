"""The docs pages render the operations in Chromium with nothing loaded from another host.

`page_factory` routes every request and aborts (and records) any to a host that is not this
machine; its teardown fails the test on such a request or on any console error.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import urlsplit

import httpx
from playwright.async_api import Page, expect

from kronikas.api import docs_pages
from tests.browser.conftest import PHONE, PageFactory, Served, requests_of

Shot = Callable[[Page, str], Awaitable[Path]]
OPERATIONS = ("CreateGame", "SendCommand", "StreamEvents")
"""Summaries of operations in the document, as both pages show them."""


def _local(urls: list[str], origin: str) -> None:
    hosts = {urlsplit(u).netloc for u in urls if urlsplit(u).scheme in ("http", "https")}
    assert hosts <= {urlsplit(origin).netloc}, hosts


async def test_scalar_renders_the_operations_offline(
    web_service: Served, page_factory: PageFactory, shot: Shot
) -> None:
    page = await page_factory()
    seen = requests_of(page)
    await page.goto(f"{web_service.url}/schema")
    await expect(page.get_by_text("/v1/health").first).to_be_visible(timeout=20_000)
    await page.get_by_role("button", name="Open Group - games").click()
    for summary in OPERATIONS:
        await expect(page.get_by_text(summary, exact=True).first).to_be_visible()
    await expect(page.get_by_text("/v1/games/{game_id}/commands").first).to_be_attached()
    await page.wait_for_load_state("networkidle")
    await shot(page, "docs-scalar")
    assert any(docs_pages.SCALAR in u for u in seen)
    assert f"{web_service.url}/schema/openapi.json" in seen
    _local(seen, web_service.url)
    assert page_factory.external == []


async def test_swagger_ui_renders_the_operations_offline(
    web_service: Served, page_factory: PageFactory, shot: Shot
) -> None:
    page = await page_factory()
    seen = requests_of(page)
    await page.goto(f"{web_service.url}/schema/swagger")
    await expect(page.locator(".opblock").first).to_be_visible(timeout=20_000)
    for summary in OPERATIONS:
        await expect(page.locator(".opblock-summary-description", has_text=summary)).to_have_count(
            1
        )
    path = page.locator('.opblock-summary-path[data-path="/v1/games/{game_id}/commands"]')
    await expect(path.first).to_be_attached()
    await page.wait_for_load_state("networkidle")
    await shot(page, "docs-swagger")
    assert any(docs_pages.SWAGGER_UI in u for u in seen)
    _local(seen, web_service.url)
    assert page_factory.external == []


async def test_scalar_on_a_phone(
    web_service: Served, page_factory: PageFactory, shot: Shot
) -> None:
    page = await page_factory(PHONE)
    await page.goto(f"{web_service.url}/schema")
    await expect(page.get_by_text("Krónikás").first).to_be_attached(timeout=20_000)
    await page.wait_for_load_state("networkidle")
    await shot(page, "docs-scalar-phone")
    assert page_factory.external == []


def test_the_docs_pages_link_only_local_assets(web_service: Served) -> None:
    for path in ("/schema", "/schema/swagger"):
        html = httpx.get(f"{web_service.url}{path}").text
        assert "https://" not in html.replace("https://github.com", ""), path
        assert "cdn." not in html and "unpkg" not in html, path
    r = httpx.get(f"{web_service.url}/schema/redoc")
    assert r.status_code == 404  # not enabled: it could not be served offline


def test_the_assets_are_served_with_types_and_caching(web_service: Served) -> None:
    for path, kind in (
        (f"{docs_pages.SCALAR}/standalone.js", "javascript"),
        (f"{docs_pages.SWAGGER_UI}/swagger-ui-bundle.js", "javascript"),
        (f"{docs_pages.SWAGGER_UI}/swagger-ui.css", "text/css"),
        ("favicon.svg", "image/svg+xml"),
    ):
        r = httpx.get(f"{web_service.url}{docs_pages.ASSETS_PATH}/{path}")
        assert r.status_code == 200, path
        assert kind in r.headers["content-type"], (path, r.headers["content-type"])
        assert "max-age" in r.headers["cache-control"]
    missing = httpx.get(f"{web_service.url}{docs_pages.ASSETS_PATH}/nope.js")
    assert missing.status_code == 404
    assert missing.headers["content-type"] == "application/problem+json"
    assert missing.json()["code"] == "not_found"
