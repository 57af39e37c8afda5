"""Generate the Python SDK from openapi/openapi.json (`python -m tools.gen_sdk [target]`)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "openapi" / "openapi.json"
CONFIG = ROOT / "tools" / "sdk-config.yaml"
GENERATED = "kronikas-client"
COMMITTED = ROOT / "sdk" / GENERATED
PACKAGE = "kronikas_client"
HAND_WRITTEN = (
    Path(PACKAGE) / "streaming.py",
    Path(PACKAGE) / "socket.py",
    Path(PACKAGE) / "replay.py",
    Path(PACKAGE) / "proofs.py",
    Path(PACKAGE) / "arena.py",
)
"""The SDK's hand-written modules. They live in the package itself (sdk/kronikas-client), their
one home: regeneration carries them over from the tree it replaces, and no generated module may
take one of their names."""
README = Path("README.md")
"""The SDK's own README, hand-written too: it replaces the generator's."""
# What the hand-written parts need beyond the generator's own dependencies (the seat socket's
# WebSocket client), added to the generated pyproject.toml.
EXTRA_DEPENDENCIES = ("websockets>=14.0",)
BUILD_BACKEND = ("uv_build>=0.12.0,<0.13.0", "uv_build>=0.12.0,<0.14.0")
"""The generator's build requirement, and what it becomes: the uv that `make` installs (and the
image pins) is 0.13, which warns on every install of a project that excludes it."""


def generate(target: Path, spec: Path = SPEC, hand_written: Path = COMMITTED) -> None:
    """Generate the client into `target`, replacing what was there; fail on any warning.

    The hand-written parts are read from `hand_written` (the committed package) before anything
    is replaced: each must be there, so a regeneration never drops one.
    """
    kept = {name: (hand_written / name).read_bytes() for name in HAND_WRITTEN}
    readme = (hand_written / README).read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / GENERATED
        bin_dir = Path(sys.executable).parent
        subprocess.run(
            [
                str(bin_dir / "openapi-python-client"),
                "generate",
                "--path", str(spec),
                "--config", str(CONFIG),
                "--output-path", str(out),
                "--meta", "uv",
                "--fail-on-warning",
            ],
            check=True,
            env={"PATH": f"{bin_dir}:/usr/bin:/bin", "RUFF_NO_CACHE": "true"},
        )  # fmt: skip
        for name, body in kept.items():
            assert not (out / name).exists(), f"the generator now writes {name}: rename ours"
            (out / name).write_bytes(body)
        (out / README).write_bytes(readme)
        (out / PACKAGE / "events.py").write_text(events_module(spec))
        add_dependencies(out / "pyproject.toml", EXTRA_DEPENDENCIES)
        widen_build_backend(out / "pyproject.toml", *BUILD_BACKEND)
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(out, target)


def add_dependencies(pyproject: Path, requirements: tuple[str, ...]) -> None:
    """Add requirements to the generated project's `dependencies = [...]` list."""
    text = pyproject.read_text()
    head = "dependencies = [\n"
    assert head in text, f"no dependency list in {pyproject}"
    lines = "".join(f'    "{r}",\n' for r in requirements)
    end = text.index("]", text.index(head))
    pyproject.write_text(text[:end] + lines + text[end:])


def widen_build_backend(pyproject: Path, generated: str, ours: str) -> None:
    """Replace the generated project's build requirement (it must be there to replace)."""
    text = pyproject.read_text()
    assert f'"{generated}"' in text, f"no {generated} in {pyproject}: update BUILD_BACKEND"
    pyproject.write_text(text.replace(f'"{generated}"', f'"{ours}"'))


def events_module(spec: Path) -> str:
    """`kronikas_client/events.py`: the union of every event class, and a parser by `type`.

    The document names the union (the component `GameEvent`), but the generator writes it out
    where `EventPage.events` and `CommandResult.events` use it; this names it once, from the
    component's discriminator, for the streaming helper and bots.
    """
    document = json.loads(spec.read_text())
    union = document["components"]["schemas"]["GameEvent"]
    mapping: dict[str, str] = union["discriminator"]["mapping"]
    names = {wire: ref.rsplit("/", 1)[-1] for wire, ref in sorted(mapping.items())}
    classes = sorted(set(names.values()))
    views_union = document["components"]["schemas"]["GameView"]["discriminator"]["mapping"]
    views = sorted({ref.rsplit("/", 1)[-1] for ref in views_union.values()})
    lines = [
        '"""Every event type on the wire as one union, and a parser that picks the class by',
        '`type` (written by tools/gen_sdk.py from the OpenAPI document\'s discriminator)."""',
        "",
        "from __future__ import annotations",
        "",
        "from collections.abc import Mapping",
        "from typing import Any, TypeAlias",
        "",
        "from .models import (",
        *(f"    {name}," for name in sorted({*classes, *views})),
        ")",
        "",
        "GameEvent: TypeAlias = (",
        "    " + "\n    | ".join(classes),
        ")",
        '"""One change to a table: one class per game and event type, its `data` typed."""',
        "",
        "EVENT_CLASSES: dict[str, type[GameEvent]] = {",
        *(f'    "{wire}": {name},' for wire, name in names.items()),
        "}",
        '"""The class of each event `type` on the wire (`cheat.round_dealt`, …)."""',
        "",
        "GameView: TypeAlias = (",
        "    " + "\n    | ".join(views),
        ")",
        '"""A table as its viewer sees it: one class per game, as `kind` says."""',
        "",
        "",
        "def parse_event(src: Mapping[str, Any]) -> GameEvent:",
        '    """An event from its JSON object, as the class its `type` names."""',
        '    return EVENT_CLASSES[src["type"]].from_dict(src)',
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    target = Path(argv[1]) if len(argv) > 1 else COMMITTED
    generate(target)
    print(f"generated {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
