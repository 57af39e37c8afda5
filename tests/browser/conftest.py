"""Browser tests: the web table and the docs pages in real Chromium (Playwright, async API).

The async API, on pytest-asyncio's session loop (pyproject.toml), so that one pytest session runs
these and every other async test: the sync API keeps an event loop running in the main thread
while its browser is open, and the async tests after it could no longer run theirs.

Playwright's own browser download cannot be used here: the tests drive Debian's Chromium,
`/usr/bin/chromium` (or `$KRONIKAS_CHROMIUM`). `.ci/run` installs it with apt when it is missing;
elsewhere, without it, every test that asks for `chromium` (or `page_factory`) is skipped, and the
run ends with one line that says so. `make test-fast` leaves this folder out (marker `browser`).

Fixtures:

- `chromium` (session): a headless `playwright.async_api.Browser` on that Chromium.
- `web_service` (session): the real service (`python -m kronikas.serve`, `LOG_LEVEL=INFO`) on a
  free loopback port against the session's Redis, serving `web/` at `/`; `.url` is its origin
  (`http://127.0.0.1:PORT`), `.log_path` its combined stdout and stderr.
- `static_origin` (session): a plain static server (`python -m http.server`) serving `web/` on
  another free port; `.url` is that origin, `.log_path` its log.
- `web_service_cors` (session): like `web_service`, with `CORS_ORIGINS` = `static_origin.url`.
  The page loaded from the other origin finds the API through its query:
  `f"{static_origin.url}/index.html?api={web_service_cors.url}"` (no `api`: the page's own origin).
- `page_factory` (function): `await page_factory(viewport=None, **context_options) -> Page`, each
  in a new browser context; a viewport is `(width, height)` (a phone: `PHONE` = 390×844). Every
  request is routed: one to a host other than 127.0.0.1/localhost is aborted and recorded. Every
  document records its Content-Security-Policy violations (a `securitypolicyviolation` listener
  added before any script of the page runs). At teardown the test fails if any page logged a
  console error, threw an uncaught error, broke its CSP (a violation, or a console message about
  the Content Security Policy, whatever `allow` says), or if any request tried to leave the
  machine. `page_factory.console_errors`, `.page_errors`, `.csp` and `.external` are the lists;
  `page_factory.allow(regex)` ignores console errors that match (for a test that provokes one on
  purpose, such as a 404); a test that provokes a violation on purpose empties `.csp` itself.
- `shot` (function), or `from tests.browser.conftest import shot`: `await shot(page, name)` saves a
  full-page PNG as `tests/browser/artefacts/<name>.png` (the folder is ignored by git).
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from playwright.async_api import Browser, ConsoleMessage, Page, Request, Route, async_playwright

from kronikas.adapters.embedded_redis import free_port
from tests.conftest import ServiceProcess

ROOT = Path(__file__).resolve().parents[2]
WEB_DIR = ROOT / "web"
ARTEFACTS = Path(__file__).resolve().parent / "artefacts"
CHROMIUM = Path(os.environ.get("KRONIKAS_CHROMIUM", "/usr/bin/chromium"))
PHONE = (390, 844)
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}
MISSING = f"{CHROMIUM} is missing: the tests in Chromium were skipped (apt-get install chromium)"

_skipped_for_chromium: list[str] = []


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _skipped_for_chromium:
        terminalreporter.write_line(MISSING)


@dataclass
class Served:
    """A server the browser tests started: its origin and its log."""

    url: str
    log_path: Path
    process: ServiceProcess | subprocess.Popen[bytes] | None = field(default=None, repr=False)


@pytest.fixture(scope="session")
async def chromium() -> AsyncIterator[Browser]:
    """Headless Chromium (Debian's), launched once for the session."""
    if not CHROMIUM.exists():
        _skipped_for_chromium.append(CHROMIUM.as_posix())
        pytest.skip(MISSING)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--disable-dev-shm-usage"],
        )
        try:
            yield browser
        finally:
            await browser.close()


def _service(redis_url: str, log: Path, **env: str) -> Iterator[Served]:
    process = ServiceProcess(redis_url, log, LOG_LEVEL="INFO", WEB_DIR=str(WEB_DIR), **env)
    try:
        yield Served(process.url, log, process)
    finally:
        process.stop()


@pytest.fixture(scope="session")
def web_service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The real service, serving the web table at `/`, on the session's Redis."""
    yield from _service(redis_url, tmp_path_factory.mktemp("web-service") / "service.log")


@pytest.fixture(scope="session")
def static_origin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`web/` served by a plain static server on another origin (another port)."""
    port = free_port()
    log = tmp_path_factory.mktemp("static-origin") / "http-server.log"
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
            cwd=WEB_DIR if WEB_DIR.is_dir() else ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    served = Served(f"http://127.0.0.1:{port}", log, process)
    try:
        deadline = time.monotonic() + 20
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"http.server exited: {log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(f"{served.url}/", timeout=1)
                break
            if time.monotonic() > deadline:
                raise RuntimeError("http.server did not start")
            time.sleep(0.05)
        yield served
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture(scope="session")
def web_service_cors(
    redis_url: str, static_origin: Served, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Served]:
    """The real service, allowing calls from `static_origin` (CORS)."""
    log = tmp_path_factory.mktemp("web-service-cors") / "service.log"
    yield from _service(redis_url, log, CORS_ORIGINS=static_origin.url)


def _is_local(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about", "chrome", "chrome-extension", "devtools"):
        return True
    return (parts.hostname or "") in LOCAL_HOSTS


CSP_LISTENER = """
addEventListener("securitypolicyviolation", (e) => {
  const what = `${e.effectiveDirective} blocked ${e.blockedURI || "(inline)"}`;
  window.__kronikasCsp?.(`${what} at ${e.sourceFile || location.href}:${e.lineNumber}`);
}, true);
"""
"""Added to every document before its scripts: reports each CSP violation to the test."""


def requests_of(page: Page) -> list[str]:
    """The URL of every request the page makes from now on, in order, as it makes them."""
    seen: list[str] = []

    def record(request: Request) -> None:
        seen.append(request.url)

    page.on("request", record)
    return seen


class PageFactory:
    """Makes pages, each in its own context, and keeps what went wrong in them."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.csp: list[str] = []
        self.external: list[str] = []
        self._allowed: list[re.Pattern[str]] = []
        self._contexts: list[Any] = []

    def allow(self, pattern: str) -> None:
        """Ignore console errors whose text matches `pattern` (a regex), for this test."""
        self._allowed.append(re.compile(pattern))

    async def __call__(self, viewport: tuple[int, int] | None = None, **options: Any) -> Page:
        if viewport is not None:
            options["viewport"] = {"width": viewport[0], "height": viewport[1]}
        context = await self.browser.new_context(**options)
        self._contexts.append(context)

        async def route(route: Route) -> None:
            url = route.request.url
            if _is_local(url):
                await route.continue_()
            else:
                self.external.append(url)
                await route.abort()

        await context.route("**/*", route)
        await context.expose_binding(
            "__kronikasCsp", lambda source, text: self.csp.append(str(text))
        )
        await context.add_init_script(CSP_LISTENER)
        page = await context.new_page()

        def on_console(message: ConsoleMessage) -> None:
            where = message.location.get("url", "") if message.location else ""
            if "content security policy" in message.text.lower():
                self.csp.append(f"console: {message.text} ({where})")
            elif message.type == "error":
                self.console_errors.append(f"{message.text} ({where})")

        page.on("console", on_console)
        page.on("pageerror", lambda error: self.page_errors.append(str(error)))
        return page

    def problems(self) -> list[str]:
        console = [e for e in self.console_errors if not any(p.search(e) for p in self._allowed)]
        return (
            [f"console error: {e}" for e in console]
            + [f"page error: {e}" for e in self.page_errors]
            + [f"Content-Security-Policy violation: {c}" for c in self.csp]
            + [f"request leaving the machine (aborted): {u}" for u in self.external]
        )

    async def close(self) -> None:
        """Close every context; a route handler still running then (a request the page made
        as it closed) may fail with the closed target, which is not the test's failure."""
        for context in self._contexts:
            with contextlib.suppress(Exception):
                for page in context.pages:
                    await page.unroute_all(behavior="ignoreErrors")
                await context.unroute_all(behavior="ignoreErrors")
                await context.close()


@pytest.fixture
async def page_factory(chromium: Browser) -> AsyncIterator[PageFactory]:
    """New pages in new contexts; the test fails if any of them logged an error."""
    factory = PageFactory(chromium)
    try:
        yield factory
    finally:
        await factory.close()
    if problems := factory.problems():
        pytest.fail("\n".join(problems), pytrace=False)


async def shot(page: Page, name: str) -> Path:
    """Save a full-page screenshot as tests/browser/artefacts/<name>.png."""
    ARTEFACTS.mkdir(exist_ok=True)
    path = ARTEFACTS / f"{name}.png"
    await page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture(name="shot")
def shot_fixture() -> Callable[[Page, str], Awaitable[Path]]:
    """`await shot(page, name)`: a full-page PNG under tests/browser/artefacts/."""
    return shot
