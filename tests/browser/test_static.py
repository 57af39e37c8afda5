"""The web table's files served at `/`, and no query string in any log line.

The mechanics (types, revalidation, what is never served) are checked on an app in this process
with a folder of its own; the real `web/` and the logs on the real service process.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient

from kronikas.api.app import WithoutQueryStrings, create_app
from kronikas.api.openapi import export
from kronikas.config import Settings, source_web_dir
from tests.apps import ENGINES, TEST_HOST
from tests.browser.conftest import WEB_DIR, Served
from tests.conftest import serving

FILES = {
    "index.html": ("<!doctype html><title>Krónikás</title>", "text/html; charset=utf-8"),
    "app.js": ("export const x = 1;\n", "text/javascript; charset=utf-8"),
    "style.css": ("body { margin: 0 }\n", "text/css; charset=utf-8"),
    "cards/AH.svg": ('<svg xmlns="http://www.w3.org/2000/svg"/>', "image/svg+xml"),
}
NOT_SERVED = [
    ("GET", "/nope"),
    ("GET", "/v1/nope"),
    ("GET", "/v1/games/0123456789abcdef/nope"),
    ("GET", "/cards/NOPE.svg"),
    ("GET", "/cards/"),
    ("GET", "/cards"),
    ("GET", "/..%2fpyproject.toml"),
    ("GET", "/%2e%2e/pyproject.toml"),
    ("GET", "/cards/..%2f..%2fsecret.js"),
    ("GET", "/.hidden.js"),
    ("GET", "/notes.md"),
    ("GET", "/escape.js"),
    ("HEAD", "/nope"),
    ("POST", "/"),
    ("POST", "/app.js"),
    ("PUT", "/nope"),
    ("DELETE", "/index.html"),
    ("OPTIONS", "/nope"),
]


def _settings(redis_url: str, web_dir: str | None) -> Settings:
    return Settings(
        redis_url=redis_url, log_level="CRITICAL", web_dir=web_dir, allowed_hosts=(TEST_HOST,)
    )


@pytest.fixture
def web_dir(tmp_path: Path) -> Path:
    root = tmp_path / "web"
    for name, (body, _) in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(body)
    (root / ".hidden.js").write_text("hidden")
    (root / "notes.md").write_text("not a type the table serves")
    (tmp_path / "secret.js").write_text("outside the folder")
    (root / "escape.js").symlink_to(tmp_path / "secret.js")
    return root


@pytest.fixture
def client(redis_url: str, web_dir: Path) -> Iterator[TestClient[Litestar]]:
    with TestClient(create_app(_settings(redis_url, str(web_dir)), games=ENGINES)) as c:
        yield c


def test_the_page_is_at_the_root_and_a_shared_link_gets_it_too(client: TestClient[Any]) -> None:
    for path in ("/", "/?table=0123456789abcdef", "/index.html"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert r.headers["content-type"] == "text/html; charset=utf-8"
        assert r.text == FILES["index.html"][0]


def test_each_file_with_its_type_and_revalidation(client: TestClient[Any]) -> None:
    for name, (body, kind) in FILES.items():
        r = client.get(f"/{name}")
        assert r.status_code == 200, name
        assert r.text == body
        assert r.headers["content-type"] == kind
        assert r.headers["cache-control"] == "no-cache"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["last-modified"].endswith(" GMT")
        again = client.get(f"/{name}", headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304
        assert again.content == b""
        assert again.headers["etag"] == r.headers["etag"]
        since = client.get(f"/{name}", headers={"If-Modified-Since": r.headers["last-modified"]})
        assert since.status_code == 304
        other = client.get(f"/{name}", headers={"If-None-Match": '"something-else"'})
        assert other.status_code == 200
        head = client.head(f"/{name}")
        assert head.status_code == 200
        assert head.content == b""
        assert head.headers["content-length"] == str(len(body.encode()))
        assert head.headers["etag"] == r.headers["etag"]


def test_a_changed_file_is_served_new_with_a_new_etag(
    client: TestClient[Any], web_dir: Path
) -> None:
    first = client.get("/app.js")
    (web_dir / "app.js").write_text("export const x = 2; // a longer file\n")
    second = client.get("/app.js", headers={"If-None-Match": first.headers["etag"]})
    assert second.status_code == 200
    assert "x = 2" in second.text
    assert second.headers["etag"] != first.headers["etag"]


def _problem(r: httpx.Response) -> tuple[int, str, dict[str, Any]]:
    body = json.loads(r.content) if r.content else {}
    body.pop("request_id", None)
    return r.status_code, r.headers.get("content-type", ""), body


def test_every_other_path_answers_the_api_404_as_without_the_web_table(
    client: TestClient[Any], redis_url: str
) -> None:
    with TestClient(create_app(_settings(redis_url, None), games=ENGINES)) as without:
        for method, path in NOT_SERVED:
            r = client.request(method, path)
            assert r.status_code == 404, (method, path, r.status_code)
            assert r.headers["content-type"] == "application/problem+json", (method, path)
            if method != "HEAD":
                assert r.json()["code"] == "not_found"
                assert r.json()["detail"] == "No such resource."
            # As before the web table, but for the request id that the answer now carries.
            assert _problem(r) == _problem(without.request(method, path)), (method, path)


def _raw_get(url: str, target: str) -> bytes:
    """A GET of `target` exactly as written (an HTTP client would normalize `..`)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        head = f"GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        sock.sendall(head.encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def test_paths_that_climb_out_of_the_folder_are_404_on_the_real_service(
    web_service: Served,
) -> None:
    for target in (
        "/../pyproject.toml",
        "/..%2fpyproject.toml",
        "/%2e%2e/%2e%2e/pyproject.toml",
        "/cards/../../pyproject.toml",
        "/cards/..%2f..%2fpyproject.toml",
        "//etc/passwd",
        "/%2fetc%2fpasswd",
    ):
        answer = _raw_get(web_service.url, target)
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 404"), (target, head[:40])
        assert b"application/problem+json" in head
        assert json.loads(body)["code"] == "not_found"


def test_the_real_service_serves_the_web_folder(web_service: Served) -> None:
    index = httpx.get(f"{web_service.url}/?table=0123456789abcdef")
    assert index.status_code == 200
    assert index.content == (WEB_DIR / "index.html").read_bytes()
    assert index.headers["content-type"] == "text/html; charset=utf-8"
    served = 0
    client = httpx.Client(base_url=web_service.url)
    for path in sorted(WEB_DIR.rglob("*")):
        if path.is_file() and not path.name.startswith(".") and path.suffix != ".md":
            relative = path.relative_to(WEB_DIR).as_posix()
            r = client.get(f"/{relative}")
            assert r.status_code == 200, relative
            assert r.content == path.read_bytes(), relative
            assert r.headers["etag"], relative
            served += 1
    client.close()
    assert served > 1


def test_the_web_routes_are_not_in_the_document(redis_url: str, web_dir: Path) -> None:
    with_web = create_app(_settings(redis_url, str(web_dir)), games=ENGINES)
    without = create_app(_settings(redis_url, None), games=ENGINES)
    assert export(with_web) == export(without)
    paths = json.loads(export(with_web))["paths"]
    assert all(p.startswith("/v1/") for p in paths), sorted(paths)


def test_the_web_folder_defaults_to_the_source_tree() -> None:
    assert source_web_dir() == str(WEB_DIR)
    assert Settings.from_env({}).web_dir == str(WEB_DIR)
    assert Settings.from_env({"WEB_DIR": "/srv/web"}).web_dir == "/srv/web"


def test_no_log_line_holds_a_query_string(redis_url: str, tmp_path: Path) -> None:
    """Tokens travel in the query (EventSource cannot set headers): no log may keep one."""
    log = tmp_path / "service.log"
    secrets: list[str] = []

    def secret(name: str) -> str:
        secrets.append(f"SECRET{len(secrets)}{name}")
        return secrets[-1]

    env = {"LOG_LEVEL": "DEBUG", "WEB_DIR": str(WEB_DIR), "SSE_KEEPALIVE_S": "1"}
    with serving(redis_url, log, **env) as service:
        base = service.url
        created = httpx.post(f"{base}/v1/games", json={"kind": "cheat"}).json()
        game = created["game"]["id"]
        token = httpx.post(f"{base}/v1/games/{game}/players", json={"name": "Ilona"}).json()[
            "token"
        ]
        with httpx.stream(
            "GET",
            f"{base}/v1/games/{game}/stream",
            params={"token": token, "after": "0"},
            timeout=10,
        ) as stream:
            assert stream.status_code == 200
            next(stream.iter_raw())
        for path, params in (
            (f"/v1/games/{game}/stream", {"token": "seat_" + secret("bad-token")}),
            (f"/v1/games/{game}/events", {"after": "0", "token": secret("events")}),
            (f"/v1/games/{game}", {"token": secret("view")}),
            ("/v1/games", {"kind": secret("bad-filter")}),
            ("/nope", {"token": secret("unknown-path")}),
            ("/", {"table": secret("page")}),
            ("/app.js", {"v": secret("file")}),
            ("/schema", {"x": secret("docs")}),
        ):
            httpx.get(f"{base}{path}", params=params, timeout=10)
        _raw_get(base, f"/v1/health?token={secret('malformed')} junk")
    text = log.read_text()
    assert f"/v1/games/{game}/stream" in text, "the access log should show the path"
    assert token not in text
    for value in secrets:
        assert value not in text, value
    assert "token=" not in text
    access = [line for line in text.splitlines() if '"kronikas.access"' in line]
    assert len(access) >= 10
    assert not [line for line in access if "?" in line]


def test_the_log_formatter_drops_query_strings_and_keeps_json_valid() -> None:
    import logging

    from kronikas.api.logs import JsonFormatter

    def line(message: str, *args: object, fmt: logging.Formatter | None = None) -> str:
        record = logging.LogRecord("kronikas.access", logging.INFO, "", 0, message, args, None)
        return WithoutQueryStrings(fmt).format(record)

    assert line("GET %s 200", "/v1/games/x/stream?token=seat_abc&after=3") == (
        "GET /v1/games/x/stream 200"
    )
    assert line("a URL: http://h:1/p?q=1#f then text") == "a URL: http://h:1/p then text"
    assert line("what? nothing here?") == "what? nothing here?"
    for message, kept in (
        ('/p?token=a"b', '/p"b'),
        ("/p?t=\u00e9t\u00e9 x", "/p x"),
        ("/p?a=\\b", "/p\\b"),
        ("/p?a=1<b>", "/p<b>"),
    ):
        assert json.loads(line(message, fmt=JsonFormatter()))["msg"] == kept, message


def test_uvicorn_logs_through_the_same_formatter() -> None:
    import logging.config

    from kronikas.serve import uvicorn_log_config

    formatters = uvicorn_log_config()["formatters"]
    configurator = logging.config.DictConfigurator({})
    assert isinstance(configurator.configure_formatter(formatters["default"]), WithoutQueryStrings)
    formatter = configurator.configure_formatter(formatters["access"])
    assert isinstance(formatter, WithoutQueryStrings)
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        "",
        0,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:1", "GET", "/v1/games/x/stream?token=seat_abc", "1.1", 200),
        None,
    )
    assert "token" not in formatter.format(record)
    assert "/v1/games/x/stream" in formatter.format(record)


def test_the_client_modules_are_served_as_the_pages_own_files(web_service: Served) -> None:
    """/client/ (the TypeScript client's helpers, its dist/extras/): the headers of app.js, its
    CSP ('self' only, no other site's scripts) and its revalidation."""
    with httpx.Client(base_url=web_service.url) as client:
        page = client.get("/app.js")
        for name in ["errors.js", "follow.js", "socket.js"]:
            r = client.get(f"/client/{name}")
            assert r.status_code == 200, name
            for header in ("content-type", "cache-control", "content-security-policy"):
                assert r.headers[header] == page.headers[header], (name, header)
            for header in ("referrer-policy", "x-content-type-options"):
                assert r.headers[header] == page.headers[header], (name, header)
            assert "script-src 'self';" in r.headers["content-security-policy"]
            again = client.get(f"/client/{name}", headers={"If-None-Match": r.headers["etag"]})
            assert again.status_code == 304, name
