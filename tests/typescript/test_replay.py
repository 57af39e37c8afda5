"""The TypeScript client's replay against the real service (issue 41 item 4): Node's own test
runner plays a match of each kind with a house player and turn clocks through fetch, and the
package's `replayViews` gives each viewer, version by version, the views it was served live."""

from __future__ import annotations

from tests.conftest import ServiceProcess
from tests.typescript.node import node_or_skip, package_dist, run


def test_the_packages_replay_equals_the_views_served_live(service: ServiceProcess) -> None:
    package_dist()
    node = node_or_skip()
    done = run(
        [node, "--test", "--test-reporter=tap", "test/replay.live.mjs"],
        env={"KRONIKAS_URL": service.url},
        timeout=600,
    )
    assert "# pass 2" in done.stdout and "# skipped 0" in done.stdout, done.stdout
