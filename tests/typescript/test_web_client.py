"""The web table runs the TypeScript client's own compiled helpers: web/client is a link to the
package's dist/extras/, which the service (and any static server of web/) serves at /client/, so
there is one compiled output, and the web table keeps no protocol of its own."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from litestar.testing import TestClient

from kronikas.api.app import create_app
from kronikas.config import Settings
from tests.apps import ENGINES, TEST_HOST
from tests.conftest import ServiceProcess
from tests.typescript.node import DIST, ROOT

HELPERS = ("arena.js", "errors.js", "follow.js", "proofs.js", "replay.js", "socket.js")
"""What the web table imports from /client/ (web/api.js, arena.js, proofs.js, replay_data.js,
socket.js and stream.js)."""


@pytest.mark.processes
def test_the_web_table_is_served_the_packages_compiled_helpers(service: ServiceProcess) -> None:
    with httpx.Client(base_url=service.url) as client:
        for name in HELPERS:
            served = client.get(f"/client/{name}")
            assert served.status_code == 200, name
            assert served.content == (DIST / "extras" / name).read_bytes(), name


def test_the_web_folders_client_is_the_packages_dist() -> None:
    link = ROOT / "web" / "client"
    assert link.is_symlink() and link.resolve() == (DIST / "extras").resolve()
    assert all((link / name).is_file() for name in HELPERS)


def test_only_the_client_link_leads_out_of_the_web_folder(redis_url: str, tmp_path: Path) -> None:
    # web/client may name a folder elsewhere; every other link, and every link inside that
    # folder leading out of it, is still refused as before.
    (web := tmp_path / "web").mkdir()
    (web / "index.html").write_text("<!doctype html><title>t</title>")
    (helpers := tmp_path / "dist" / "extras").mkdir(parents=True)
    (helpers / "socket.js").write_text("export const socket = 1;\n")
    (tmp_path / "secret.js").write_text("outside")
    (helpers / "escape.js").symlink_to(tmp_path / "secret.js")
    (web / "client").symlink_to(helpers, target_is_directory=True)
    (web / "other").symlink_to(helpers, target_is_directory=True)
    settings = Settings(
        redis_url=redis_url, log_level="CRITICAL", web_dir=str(web), allowed_hosts=(TEST_HOST,)
    )
    with TestClient(create_app(settings, games=ENGINES)) as client:
        assert client.get("/client/socket.js").text == "export const socket = 1;\n"
        for path in ("/client/escape.js", "/other/socket.js", "/client/..%2fsecret.js"):
            assert client.get(path).status_code == 404, path


def test_the_web_table_keeps_no_copy_of_the_protocol() -> None:
    # The socket's and the stream's wire words are the client's: a web module of its own that
    # says `hello` or parses `Last-Event-ID` frames is a second copy of the protocol.
    words = ('"hello"', '"welcome"', "Last-Event-ID", "retry_after=")
    copies = {
        path.name: [w for w in words if w in path.read_text(encoding="utf-8")]
        for path in (ROOT / "web").glob("*.js")
    }
    assert {name: found for name, found in copies.items() if found} == {}
