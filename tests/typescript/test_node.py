"""The TypeScript client in use: Node's own test runner plays whole games through the package
alone against the real service, and checks the socket and follow helpers (issue 28). The README's
example runs from the packed package, in test_package.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ServiceProcess
from tests.typescript.node import PACKAGE, node_or_skip, package_dist, run


@pytest.fixture(scope="module")
def dist() -> Path:
    return package_dist()


def test_random_players_finish_a_game_of_each_kind_with_the_package_alone(
    dist: Path, service: ServiceProcess
) -> None:
    node = node_or_skip()
    done = run(
        [node, "--test", "--test-reporter=tap", "test/play.test.mjs"],
        env={"KRONIKAS_URL": service.url},
        timeout=600,
    )
    assert "# pass 3" in done.stdout and "# skipped 0" in done.stdout, done.stdout


def test_the_socket_and_follow_helpers_keep_their_promises_offline(dist: Path) -> None:
    node = node_or_skip()
    offline = (PACKAGE / "test").glob("*.test.mjs")
    tests = sorted(p.name for p in offline if p.name != "play.test.mjs")
    assert tests, "no offline tests found"
    done = run([node, "--test", "--test-reporter=tap", *(f"test/{t}" for t in tests)], timeout=300)
    assert "# fail 0" in done.stdout, done.stdout
