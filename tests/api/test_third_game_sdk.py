"""The third game's OpenAPI document, exported through the function the export command uses,
and an SDK generated from it with openapi-python-client (`tools/gen_sdk.py`): the SDK has the
game's classes and reads its views and events (issue 26)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from kronikas.api.app import create_app
from kronikas.config import Settings
from kronikas.export_openapi import write
from tests.third_game import GAMES, KIND
from tools.gen_sdk import PACKAGE, generate

READS_THE_WIRE = textwrap.dedent(
    f"""
    from {PACKAGE} import models, events

    body = models.CreateHighCardGame.from_dict({{"kind": "{KIND}", "options": {{"rounds": 2}}}})
    assert body.to_dict()["options"]["rounds"] == 2
    assert models.Reveal().to_dict() == {{"type": "reveal"}}
    assert "{KIND}.round_dealt" in events.EVENT_CLASSES
    dealt = events.EVENT_CLASSES["{KIND}.round_dealt"].from_dict(
        {{
            "type": "{KIND}.round_dealt",
            "version": 5,
            "at": "2026-01-01T00:00:00.000Z",
            "data": {{
                "type": "round_dealt",
                "round": 1,
                "cards": ["AH", None],
                "deck": None,
                "salts": None,
                "commitment": "c",
            }},
        }}
    )
    assert dealt.data.cards == ["AH", None]
    print("read")
    """
)
"""Run in a process of its own, where the generated package is the only `{PACKAGE}`: imported
here, it would stand in for the committed SDK that other tests' modules already hold."""


def test_an_sdk_generated_from_the_third_games_document_reads_its_wire(tmp_path: Path) -> None:
    spec = tmp_path / "openapi.json"
    write(create_app(Settings(redis_url="redis://unused:6379/0"), games=GAMES), spec)
    assert "HighCardGameView" in json.loads(spec.read_text())["components"]["schemas"]
    target = tmp_path / "client"
    generate(target, spec)
    done = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            f"import sys; sys.path.insert(0, {str(target)!r})\n" + READS_THE_WIRE,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.strip() == "read", done.stderr
