"""The TypeScript client's SeatSocket (the package, in Node with `ws`) replayed against every
recorded seat-socket conversation (tests/conversations): it sends exactly the recorded frames
and understands exactly the recorded answers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.conversations.record import CONVERSATIONS, GAME_ID, path_of, read
from tests.conversations.replay import Replay, expected
from tests.typescript.node import node_or_skip, package_dist

pytestmark = pytest.mark.node

REPLAY = Path(__file__).with_name("replay.mjs")


@pytest.fixture(scope="module")
def dist() -> Path:
    return package_dist()


@pytest.fixture
async def replay() -> AsyncIterator[Replay]:
    async with Replay() as server:
        yield server


@pytest.mark.parametrize("name", sorted(CONVERSATIONS))
async def test_the_typescript_client_speaks_the_recorded_conversation(
    name: str, replay: Replay, dist: Path
) -> None:
    lines = read(name)
    replay.play(lines)
    node = await asyncio.create_subprocess_exec(
        node_or_skip(),
        str(REPLAY),
        str(path_of(name)),
        replay.url,
        GAME_ID,
        str(dist),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert node.stdin is not None
    try:
        await replay.wait()
        node.stdin.write(b"played\n")
        await node.stdin.drain()
        out, err = await asyncio.wait_for(node.communicate(), 30)
    finally:
        if node.returncode is None:
            node.kill()
    assert node.returncode == 0, err.decode()
    assert json.loads(out) == expected(lines)
