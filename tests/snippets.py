"""The code blocks of the project's Markdown, and the marks that say which of them run.

A fenced block in a language that runs (`python`, `sh`, …) carries a mark on the line before its
fence (blank lines between are allowed):

- `<!-- run: NAME -->` — a test runs it, as written, against a live service with the
  production limits; it takes the block with `snippet(path, NAME)`. A block that uses names the
  text around it gives (`url`, `token`, `game_id`, …) runs with those names bound, nothing else.
- `<!-- not run: why -->` — it is not meant to run here, and the mark says why (the make targets
  themselves, a firewall rule, an excerpt of a module).

Blocks in other languages (`json`, `nginx`, none) are data or transcripts and carry no mark.
tests/test_snippets_marked.py fails when a block that would run has no mark, or when a `run:`
name is one no test takes. The TypeScript client's README is its own part's: tests/typescript
runs its example.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNNABLE = frozenset(
    {"python", "py", "sh", "bash", "shell", "console", "js", "javascript", "ts", "typescript"}
)
"""The languages a reader could paste into a shell or an interpreter."""
ELSEWHERE = ("sdk/typescript/",)
"""Markdown whose blocks another part of the suite runs (tests/typescript)."""
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+)(?P<lang>[\w-]*)\s*$")
MARK = re.compile(r"^<!--\s*(?P<kind>run|not run):\s*(?P<what>.*?)\s*-->$")


@dataclass(frozen=True)
class Block:
    """One fenced code block: where it is, its language, its text and its mark."""

    path: str
    line: int
    lang: str
    code: str
    mark: str | None
    """`run`, `not run`, or None."""
    name: str
    """The `run:` name, or the `not run:` reason."""


def markdown_files() -> list[str]:
    """The repository's Markdown files (committed or not, never ignored), but `ELSEWHERE`."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return sorted(p for p in listed if (ROOT / p).exists() and not p.startswith(ELSEWHERE))


def blocks(path: str) -> list[Block]:
    """The fenced blocks of one Markdown file (relative to the root), in order."""
    found: list[Block] = []
    lines = (ROOT / path).read_text().splitlines()
    last_text = ""
    at = 0
    while at < len(lines):
        opened = FENCE.match(lines[at])
        if not opened:
            if lines[at].strip():
                last_text = lines[at].strip()
            at += 1
            continue
        end = at + 1
        while end < len(lines) and lines[end].strip() != opened["fence"]:
            end += 1
        indent = len(opened["indent"])
        code = "\n".join(line[indent:] for line in lines[at + 1 : end]) + "\n"
        mark = MARK.match(last_text)
        found.append(
            Block(
                path,
                at + 1,
                opened["lang"].lower(),
                code,
                mark["kind"] if mark else None,
                mark["what"] if mark else "",
            )
        )
        last_text = ""
        at = end + 1
    return found


def snippet(path: str, name: str) -> str:
    """The code of the block marked `<!-- run: NAME -->` in `path`."""
    named = [b for b in blocks(path) if b.mark == "run" and b.name == name]
    assert len(named) == 1, f"{path} has {len(named)} blocks marked run: {name}"
    return named[0].code
