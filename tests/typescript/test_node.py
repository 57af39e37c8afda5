"""The TypeScript client in use: Node's own test runner plays whole games through the package
alone against the real service, and checks the socket and follow helpers (issue 28)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ServiceProcess, serving
from tests.typescript.node import PACKAGE, bin_of, built, node_or_skip, run

README_URL = "http://127.0.0.1:8000"


@pytest.fixture(scope="module")
def dist() -> Path:
    return built()


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


def test_the_readme_example_compiles_and_plays_a_match_to_its_end(
    dist: Path, redis_url: str, tmp_path: Path
) -> None:
    """Against a service with the default limits a token meets in production: the example
    waits out the 429s a fast two-seat match draws (it once asserted against them)."""
    node = node_or_skip()
    defaults = {"RATE_LIMIT_PER_S": "20", "RATE_LIMIT_BURST": "40", "READ_LIMIT_PER_S": "30"}
    defaults |= {"READ_LIMIT_BURST": "60", "STREAMS_PER_TOKEN": "10"}
    defaults |= {"ADDRESS_LIMIT_PER_S": "100", "ADDRESS_LIMIT_BURST": "200"}  # one address
    with serving(redis_url, tmp_path / "service.log", **defaults) as service:
        _play_the_readme_example(dist, node, service)


def _play_the_readme_example(dist: Path, node: str, service: ServiceProcess) -> None:
    readme = (PACKAGE / "README.md").read_text()
    example = readme.split("```ts\n", 1)[1].split("```\n", 1)[0]
    assert len(example.splitlines()) < 70
    # Inside the package (dist/ is not committed), so that `@kronikas/client` resolves to it.
    source = dist / "readme" / "example.ts"
    source.parent.mkdir(exist_ok=True)
    source.write_text(example.replace(README_URL, service.url))
    flags = "--module nodenext --moduleResolution nodenext --target es2022 --strict"
    flags += " --lib es2022,dom --types node --skipLibCheck"
    run([bin_of("tsc"), *flags.split(), str(source)])
    done = run([node, str(source.with_suffix(".js"))], timeout=120)
    assert "winners: [" in done.stdout, done.stdout
