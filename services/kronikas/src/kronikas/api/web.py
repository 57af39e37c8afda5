"""The web table: the files of the `web/` folder served at `/`, none of it in the OpenAPI document.

`GET /` answers `index.html` (a shared table is `/?table=<id>`); every other file of the folder is
served at its path (`/app.js`, `/cards/AH.svg`). Only regular files inside the folder with a known
type are served, never a hidden one (a path part starting with `.`); anything else, and every method
but GET and HEAD, answers the API's own 404 problem, as any unknown path does. One link may lead out
of the folder: `client`, the TypeScript client's compiled helpers the table imports (in the
repository, a link to `sdk/typescript/dist/extras/`, so the table and the package run one compiled
output): `/client/…` is served from the folder it names, by the same rules.

Answers carry `Cache-Control: no-cache` with an `ETag` and `Last-Modified`: a browser revalidates
each file and gets a 304 when it has not changed, so a new version of the page is seen at once.

Every answer also carries the pages' headers (`page_headers`, the docs pages use them too): a
Content-Security-Policy that lets scripts come from the service only (an inline script only by
the sha256 of its text, computed from the file when it is read), lets the page connect to the
service and to the origins of `CORS_ORIGINS` only (the web table's files also name their
WebSocket forms, `ws://` and `wss://`, for the seat socket), and lets no other site frame it; with
`Referrer-Policy: no-referrer` and `X-Content-Type-Options: nosniff`.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from email.utils import formatdate, parsedate_to_datetime
from pathlib import Path
from typing import Any

from litestar import HttpMethod, Request, Router, route
from litestar.exceptions import NotFoundException
from litestar.params import FromPath
from litestar.response.base import ASGIResponse

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".map": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".webp": "image/webp",
    ".gif": "image/gif",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".woff": "font/woff",
    ".txt": "text/plain; charset=utf-8",
}
"""The types served, by suffix; a file of another type is not served (a 404)."""

_ORIGIN = re.compile(
    r"https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?|https?://\[[0-9A-Fa-f:.]+\](?::[0-9]{1,5})?"
)
"""An origin as a policy may name it: a CORS_ORIGINS entry that is anything else (`*`, a path,
a stray `;` that would start another directive) is left out of `connect-src`."""

_HOST = re.compile(r"[A-Za-z0-9.-]+(?::[0-9]{1,5})?|\[[0-9A-Fa-f:.]+\](?::[0-9]{1,5})?")
"""A `Host` header a policy may name: anything else is left out (it is the client's to send)."""


def socket_sources(host: str | None, connect: Iterable[str] = ()) -> tuple[str, ...]:
    """The `ws:`/`wss:` sources the web table needs for the seat socket: the page's own host
    (both schemes: behind a proxy that ends TLS the service cannot tell which the page used,
    and `'self'` does not cover the socket in every browser) and each origin of `connect`
    (CORS_ORIGINS) in its WebSocket form (`http` → `ws`, `https` → `wss`)."""
    own = [f"ws://{host}", f"wss://{host}"] if host and _HOST.fullmatch(host) else []
    others = ["ws" + o.rstrip("/")[4:] for o in connect if _ORIGIN.fullmatch(o.rstrip("/"))]
    return tuple(dict.fromkeys([*own, *others]))


_INLINE = re.compile(rb"<(script|style)\b([^>]*)>(.*?)</\1\s*>", re.DOTALL | re.IGNORECASE)
_SRC = re.compile(rb"\ssrc\s*=", re.IGNORECASE)


def inline_hashes(html: bytes) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The CSP sources (`'sha256-…'`) of a page's inline scripts and of its inline styles."""
    scripts: list[str] = []
    styles: list[str] = []
    for tag, attributes, text in _INLINE.findall(html):
        if tag.lower() == b"script" and _SRC.search(attributes):
            continue  # a script file: 'self' lets it in, its element's text never runs
        digest = base64.b64encode(hashlib.sha256(text).digest()).decode()
        (scripts if tag.lower() == b"script" else styles).append(f"'sha256-{digest}'")
    return tuple(dict.fromkeys(scripts)), tuple(dict.fromkeys(styles))


def content_security_policy(
    connect: Iterable[str] = (),
    scripts: Iterable[str] = (),
    styles: Iterable[str] = (),
    inline_styles: bool = False,
    sockets: Iterable[str] = (),
) -> str:
    """The pages' policy: everything from the service, inline scripts only by their hashes.

    `connect` are the other origins the page may call (CORS_ORIGINS); `scripts` and `styles` the
    hashes of inline elements; `inline_styles` allows every inline style (the docs pages only:
    their renderers add style elements as they run). `'self'` also covers `ws:`/`wss:` to the
    service itself in CSP Level 3, but not in every browser: `sockets` (`socket_sources`) names
    the WebSocket origins the web table may open.
    """
    others = [o.rstrip("/") for o in connect if _ORIGIN.fullmatch(o.rstrip("/"))]
    style = ["'self'", "'unsafe-inline'"] if inline_styles else ["'self'", *styles]
    return "; ".join(
        [
            "default-src 'self'",
            " ".join(["script-src 'self'", *scripts]),
            " ".join(["style-src", *style]),
            "img-src 'self' data:",
            " ".join(["connect-src 'self'", *dict.fromkeys(others), *sockets]),
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def page_headers(
    connect: Iterable[str] = (),
    scripts: Iterable[str] = (),
    styles: Iterable[str] = (),
    inline_styles: bool = False,
    sockets: Iterable[str] = (),
) -> dict[str, str]:
    """The headers every page and page file carries (the web table's and the docs pages')."""
    return {
        "content-security-policy": content_security_policy(
            connect, scripts, styles, inline_styles, sockets
        ),
        "referrer-policy": "no-referrer",
        "x-content-type-options": "nosniff",
    }


def cors_origins(state: Mapping[str, Any]) -> tuple[str, ...]:
    """The configured CORS_ORIGINS, from the application's state (its `settings`)."""
    settings = state.get("settings")
    return tuple(getattr(settings, "cors_origins", ()) or ())


_CACHED_MAX_BYTES = 1 << 20
_CACHED_MAX_FILES = 1024


@dataclass(frozen=True)
class _File:
    stamp: tuple[int, int]
    """(mtime in ns, size): when either changes, the file is read again."""
    body: bytes
    etag: str
    last_modified: str
    mtime: float
    scripts: tuple[str, ...] = ()
    """The CSP hashes of an HTML file's inline scripts (and below, of its inline styles)."""
    styles: tuple[str, ...] = ()


class WebFiles:
    """The files of one folder, read when asked for and kept while they do not change."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root).resolve()
        self._files: dict[Path, _File] = {}

    def find(self, relative: str) -> Path | None:
        """The regular file at `relative` inside the folder, or None."""
        parts = [p for p in relative.split("/") if p]
        if not parts or any(p.startswith(".") or "\\" in p or "\x00" in p for p in parts):
            return None
        if Path(parts[-1]).suffix.lower() not in TYPES:
            return None
        try:
            path = self.root.joinpath(*parts).resolve(strict=True)
        except (OSError, RuntimeError):
            return None
        if not path.is_relative_to(self.root) or not path.is_file():
            return None
        return path

    def read(self, path: Path) -> _File | None:
        try:
            info = path.stat()
            stamp = (info.st_mtime_ns, info.st_size)
            if (known := self._files.get(path)) is not None and known.stamp == stamp:
                return known
            body = path.read_bytes()
        except OSError:
            return None
        scripts, styles = inline_hashes(body) if path.suffix.lower() == ".html" else ((), ())
        file = _File(
            stamp=stamp,
            body=body,
            etag='"' + hashlib.sha256(body).hexdigest()[:32] + '"',
            last_modified=formatdate(info.st_mtime, usegmt=True),
            mtime=info.st_mtime,
            scripts=scripts,
            styles=styles,
        )
        if len(body) <= _CACHED_MAX_BYTES:
            if len(self._files) >= _CACHED_MAX_FILES:
                self._files.clear()
            self._files[path] = file
        return file

    def answer(self, request: Request[Any, Any, Any], relative: str) -> ASGIResponse:
        """The file's answer (200, or 304 when the browser's copy is current); else a 404."""
        path = self.find(relative)
        file = self.read(path) if path is not None else None
        if path is None or file is None:
            raise NotFoundException()
        origins = cors_origins(request.app.state)
        sockets = socket_sources(request.headers.get("host"), origins)
        headers = {
            "cache-control": "no-cache",
            "etag": file.etag,
            "last-modified": file.last_modified,
            **page_headers(origins, file.scripts, file.styles, sockets=sockets),
        }
        if _not_modified(request, file):
            return ASGIResponse(status_code=304, headers=headers)
        headers["content-type"] = TYPES[path.suffix.lower()]
        if request.method == HttpMethod.HEAD:
            headers["content-length"] = str(len(file.body))
            return ASGIResponse(headers=headers, is_head_response=True)
        return ASGIResponse(body=file.body, headers=headers)


def _not_modified(request: Request[Any, Any, Any], file: _File) -> bool:
    if (tags := request.headers.get("if-none-match")) is not None:
        wanted = {t.strip().removeprefix("W/") for t in tags.split(",")}
        return "*" in wanted or file.etag in wanted
    if (since := request.headers.get("if-modified-since")) is not None:
        # A date the parser cannot read, or one no datetime can hold (year 99999999999 is an
        # OverflowError), is no date: the file is sent, as RFC 9110 says for an invalid one.
        try:
            return int(file.mtime) <= parsedate_to_datetime(since).timestamp()
        except (TypeError, ValueError, OverflowError):
            return False
    return False


_READ = [HttpMethod.GET, HttpMethod.HEAD]
_OTHER = [HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE, HttpMethod.OPTIONS]


def web_router(web_dir: str | Path) -> Router:
    """The routes of the web table, at `/`; none of them is in the OpenAPI document."""
    files = WebFiles(web_dir)
    client = WebFiles(Path(web_dir) / "client")  # its root is where the link leads

    @route("/", http_method=_READ, name="web-index", sync_to_thread=False)
    def index(request: Request[Any, Any, Any]) -> ASGIResponse:
        return files.answer(request, "index.html")

    @route("/{file_path:path}", http_method=_READ, name="web-file", sync_to_thread=False)
    def web_file(request: Request[Any, Any, Any], file_path: FromPath[str]) -> ASGIResponse:
        folder, _, inside = file_path.lstrip("/").partition("/")
        if folder == "client":
            return client.answer(request, inside)
        return files.answer(request, file_path)

    # Without these, another method on an unknown path would be 405 (a GET route matches it),
    # and OPTIONS would answer 204: they stay the 404 they were before the web table. (Registered
    # first: Litestar adds an OPTIONS handler of its own to a path that has none yet.)
    @route(["/", "/{file_path:path}"], http_method=_OTHER, name="web-other", sync_to_thread=False)
    def other() -> None:
        raise NotFoundException()

    return Router("/", route_handlers=[other, index, web_file], include_in_schema=False)
