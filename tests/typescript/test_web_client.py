"""The web table runs the TypeScript client's own compiled helpers: web/client is a link to the
package's dist/extras/, which the service (and any static server of web/) serves at /client/, so
there is one compiled output, and the web table keeps no protocol of its own."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import ServiceProcess
from tests.typescript.node import DIST, ROOT

HELPERS = ("errors.js", "follow.js", "socket.js")
"""What the web table imports from /client/ (web/api.js, web/socket.js, web/stream.js)."""


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


def test_the_web_table_keeps_no_copy_of_the_protocol() -> None:
    # The socket's and the stream's wire words are the client's: a web module of its own that
    # says `hello` or parses `Last-Event-ID` frames is a second copy of the protocol.
    words = ('"hello"', '"welcome"', "Last-Event-ID", "retry_after=")
    copies = {
        path.name: [w for w in words if w in path.read_text(encoding="utf-8")]
        for path in (ROOT / "web").glob("*.js")
    }
    assert {name: found for name, found in copies.items() if found} == {}
