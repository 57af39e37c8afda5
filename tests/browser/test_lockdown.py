"""The pages are locked down: their security headers, the `?api=` rule, and CSP violations seen.

The headers are read on an app in this process (every file of `web/`, the docs pages and their
assets) with `CORS_ORIGINS` set; the rest in Chromium, on the real service.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from playwright.async_api import expect

from kronikas.api import docs_pages
from kronikas.api.app import create_app
from kronikas.config import Settings
from tests.apps import ENGINES, TEST_HOST
from tests.browser.conftest import WEB_DIR, PageFactory, Served, requests_of

ALLOWED = ("http://127.0.0.1:5173", "https://cards.example.org")
"""The CORS_ORIGINS of the app below: both must be in every page's `connect-src`."""
NOT_ORIGINS = ("*", "http://evil.example/path", "http://x.example; script-src *")
"""Also in CORS_ORIGINS: none of them is an origin, none may reach the policy."""

FIXED = {
    "default-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "frame-ancestors": ["'none'"],
}


def policy(header: str) -> dict[str, list[str]]:
    """A Content-Security-Policy header as {directive: sources}; a directive appears once."""
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        name, *sources = part.split()
        assert name not in directives, f"{name} twice in {header}"
        directives[name] = sources
    return directives


def inline(html: str, tag: str) -> list[str]:
    """The CSP hash sources of the page's inline elements `tag` (scripts without `src`)."""
    found = re.findall(rf"<{tag}\b([^>]*)>(.*?)</{tag}>", html, re.DOTALL | re.IGNORECASE)
    return [
        "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"
        for attributes, text in found
        if "src=" not in attributes
    ]


def assert_locked_down(r: Any, where: str) -> dict[str, list[str]]:
    """The headers every page and page file carries; answers the parsed policy."""
    assert r.headers["referrer-policy"] == "no-referrer", where
    assert r.headers["x-content-type-options"] == "nosniff", where
    csp = policy(r.headers["content-security-policy"])
    for name, sources in FIXED.items():
        assert csp.get(name) == sources, (where, name, csp.get(name))
    assert csp["connect-src"][:3] == ["'self'", *ALLOWED], where
    scripts = csp["script-src"]
    assert scripts[0] == "'self'" and all(s.startswith("'sha256-") for s in scripts[1:]), where
    return csp


@pytest.fixture
def client(redis_url: str) -> Iterator[TestClient[Litestar]]:
    settings = Settings(
        redis_url=redis_url,
        log_level="CRITICAL",
        web_dir=str(WEB_DIR),
        cors_origins=(*ALLOWED, *NOT_ORIGINS),
        allowed_hosts=(TEST_HOST,),
    )
    with TestClient(create_app(settings, games=ENGINES)) as c:
        yield c


def test_every_file_of_the_web_table_carries_the_pages_headers(client: TestClient[Any]) -> None:
    paths = ["/", "/?table=0123456789abcdef&api=javascript:alert(1)"] + [
        "/" + p.relative_to(WEB_DIR).as_posix()
        for p in sorted(WEB_DIR.rglob("*"))
        if p.is_file() and not p.name.startswith(".") and p.suffix != ".md"
    ]
    assert len(paths) > 10
    for path in paths:
        r = client.get(path)
        assert r.status_code == 200, path
        csp = assert_locked_down(r, path)
        assert csp["style-src"] == ["'self'"], path
        # The web table also opens the seat socket: the page's host and CORS_ORIGINS as ws(s).
        assert csp["connect-src"][3:] == [
            "ws://testserver.local",
            "wss://testserver.local",
            "ws://127.0.0.1:5173",
            "wss://cards.example.org",
        ], path
        if r.headers["content-type"].startswith("text/html"):
            assert csp["script-src"] == ["'self'", *inline(r.text, "script")], path
        else:
            assert csp["script-src"] == ["'self'"], path
        # A revalidation (304) says the same: the browser keeps the headers of its copy.
        again = client.get(path, headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304
        assert again.headers["content-security-policy"] == r.headers["content-security-policy"]


def test_an_inline_script_is_allowed_by_its_hash_alone(redis_url: str, tmp_path: Any) -> None:
    (tmp_path / "index.html").write_text(
        "<!doctype html><script>window.one = 1;</script><script src='app.js'></script>"
        "<script type='module'>window.two = 2;</script>"
    )
    settings = Settings(
        redis_url=redis_url,
        log_level="CRITICAL",
        web_dir=str(tmp_path),
        allowed_hosts=(TEST_HOST,),
    )
    with TestClient(create_app(settings, games=ENGINES)) as c:
        csp = policy(c.get("/").headers["content-security-policy"])
    assert csp["script-src"] == [
        "'self'",
        "'sha256-" + base64.b64encode(hashlib.sha256(b"window.one = 1;").digest()).decode() + "'",
        "'sha256-" + base64.b64encode(hashlib.sha256(b"window.two = 2;").digest()).decode() + "'",
    ]
    assert csp["connect-src"] == ["'self'", "ws://testserver.local", "wss://testserver.local"]


def test_the_docs_pages_carry_the_pages_headers_with_their_inline_scripts_hashed(
    client: TestClient[Any],
) -> None:
    for path in ("/schema", "/schema/swagger"):
        r = client.get(path)
        assert r.status_code == 200, path
        csp = assert_locked_down(r, path)
        hashes = inline(r.text, "script")
        assert hashes, path  # both pages start their renderer with an inline script
        assert csp["script-src"] == ["'self'", *hashes], path
        if path == "/schema":
            # Scalar adds style elements as it runs: inline styles on its page alone.
            assert csp["style-src"] == ["'self'", "'unsafe-inline'"]
        else:
            assert csp["style-src"] == ["'self'", *inline(r.text, "style")], path
    for asset in (
        "favicon.svg",
        "scalar.css",
        f"{docs_pages.SCALAR}/standalone.js",
        f"{docs_pages.SWAGGER_UI}/swagger-ui-bundle.js",
    ):
        r = client.get(f"{docs_pages.ASSETS_PATH}/{asset}")
        assert r.status_code == 200, asset
        csp = assert_locked_down(r, asset)
        assert csp["script-src"] == ["'self'"] and csp["style-src"] == ["'self'"], asset


def test_no_page_allows_inline_script_or_eval(client: TestClient[Any]) -> None:
    for path in ("/", "/app.js", "/schema", "/schema/swagger", "/schema/assets/favicon.svg"):
        header = client.get(path).headers["content-security-policy"]
        scripts = policy(header)["script-src"]
        assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts, path
        assert "*" not in header.split() and "evil" not in header, path


# ---- in Chromium ----

BAD_API = [
    "javascript:alert(1)",
    "javascript:alert(document.domain)//",
    "data:text/html,<script>alert(1)</script>",
    "/v1/elsewhere",
    "//evil.example",
    "not a url at all",
    "ftp://127.0.0.1:21",
    "http://127.0.0.1:1/with/a/path",
]


@pytest.mark.parametrize("bad", BAD_API)
async def test_an_api_that_is_not_an_http_origin_is_ignored(
    web_service: Served, page_factory: PageFactory, bad: str
) -> None:
    page = await page_factory()
    seen = requests_of(page)
    await page.goto(f"{web_service.url}/?api={quote(bad, safe='')}")
    await expect(page.get_by_role("button", name=re.compile(r"^Open a .* table$"))).to_be_visible()
    await expect(page.locator(".tables, .panel .quiet").first).to_be_visible()
    # The page talks to its own origin only…
    fetched = [u for u in seen if "/v1/" in u]
    assert fetched, seen
    assert {urlsplit(u).netloc for u in seen} == {urlsplit(web_service.url).netloc}, seen
    # …and writes the value nowhere: no link, no source, no text, no form value.
    written = await page.evaluate(
        """() => [
          ...[...document.querySelectorAll("[href], [src], [action]")].map(
            (e) => e.getAttribute("href") ?? e.getAttribute("src") ?? e.getAttribute("action")),
          ...[...document.querySelectorAll("input")].map((i) => i.value),
          document.body.innerText,
        ]"""
    )
    for value in written:
        assert bad not in value and "javascript:" not in value.lower(), value
    assert await page.locator("#api-docs").get_attribute("href") == f"{web_service.url}/schema"
    assert await page.locator("#home").get_attribute("href") == "/"


async def test_a_violation_of_the_policy_fails_the_test(
    web_service: Served, page_factory: PageFactory
) -> None:
    """The listener sees a blocked inline script (so a real one would fail the test), and the
    page did not run it: the policy is the service's, as the browser reads it."""
    page = await page_factory()
    response = await page.goto(f"{web_service.url}/")
    assert response is not None
    assert "frame-ancestors 'none'" in (await response.all_headers())["content-security-policy"]
    await page.evaluate(
        """() => {
          const s = document.createElement("script");
          s.textContent = "window.injected = true;";
          document.body.append(s);
        }"""
    )
    for _ in range(100):
        if page_factory.csp:
            break
        await asyncio.sleep(0.05)
    assert await page.evaluate("window.injected") is None
    assert any("script-src" in v for v in page_factory.csp), page_factory.csp
    page_factory.csp.clear()  # provoked on purpose: the teardown would fail the test
