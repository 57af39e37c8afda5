"""The web table's copy of the TypeScript client's helpers (web/client/, served at /client/) is
what `make web-client` compiles from sdk/typescript/src/extras now: the web table keeps no
protocol of its own, and no stale one."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.typescript.node import PACKAGE, ROOT, installed, run

pytestmark = pytest.mark.node

COMMITTED = ROOT / "web" / "client"
HINT = "run `make web-client` and commit web/client"


def test_the_served_client_modules_are_what_the_typescript_compiles_to(tmp_path: Path) -> None:
    installed()  # skips, in one line, where there is no Node
    run(["node", str(PACKAGE / "build-web.mjs"), str(tmp_path)])
    fresh = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    committed = {p.name: p.read_bytes() for p in COMMITTED.iterdir()}
    assert sorted(fresh) == sorted(committed), HINT
    stale = [name for name in fresh if fresh[name] != committed[name]]
    assert stale == [], HINT


def test_the_web_table_keeps_no_copy_of_the_protocol() -> None:
    # The socket's and the stream's wire words are the client's: a web module of its own that
    # says `hello` or parses `Last-Event-ID` frames is a second copy of the protocol.
    words = ('"hello"', '"welcome"', "Last-Event-ID", "retry_after=")
    copies = {
        path.name: [w for w in words if w in path.read_text(encoding="utf-8")]
        for path in (ROOT / "web").glob("*.js")
    }
    assert {name: found for name, found in copies.items() if found} == {}
