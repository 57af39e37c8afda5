"""Real Redis for every test: REDIS_URL, else a testcontainers Redis, else the bundled binary."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from redis.asyncio import Redis

from benchmarks import served
from kronikas.adapters.embedded_redis import EmbeddedRedis
from tests.apps import ENGINES, Client, on_same_app, settings

if TYPE_CHECKING:
    import httpx


SLOW_MODULES = {
    "tests/replicas/test_service.py": "processes",
    "tests/replicas/test_acked_behind.py": "processes",
    "tests/api/test_live.py": "processes",
    "tests/api/test_promised_headers.py": "processes",
    "tests/api/test_identity.py": "processes",
    "tests/api/test_client_address.py": "processes",
    "tests/reliability/test_hostile_bytes.py": "processes",
    "tests/reliability/test_hostile_socket.py": "processes",
    "tests/reliability/test_large_events.py": "processes",
    "tests/reliability/test_hostile_mcp.py": "processes",
    "tests/api/test_third_game_sdk.py": "processes",
    "tests/e2e/test_sdk_games.py": "processes",
    "tests/rules/test_live_adapter.py": "processes",
    "tests/rules/test_search_bot_live.py": "processes",
    "tests/e2e/test_bots_house.py": "processes",
    "tests/e2e/test_sdk_house.py": "processes",
    "tests/e2e/test_sdk_replay.py": "processes",
    "tests/e2e/test_sdk_streaming.py": "processes",
    "tests/e2e/test_sdk_socket.py": "processes",
    "tests/integration/test_clocks.py": "processes",
    "tests/sentinel/": "processes",
    "tests/integration/test_processes.py": "processes",
    "tests/integration/test_serve.py": "processes",
    "tests/reliability/test_leaks.py": "processes",
    "tests/reliability/test_leaks_membership.py": "processes",
    "tests/reliability/test_identity_ways.py": "processes",
    "tests/reliability/test_fair_limits.py": "processes",
    "tests/reliability/test_outages.py": "processes",
    "tests/reliability/test_races.py": "processes",
    "tests/reliability/test_replays.py": "processes",
    "tests/mcp/test_mcp_games.py": "processes",
    "tests/reliability/test_leaks_mcp.py": "processes",
    "tests/socket/test_contract.py": "processes",
    "tests/socket/test_limits.py": "processes",
    "tests/socket/test_processes.py": "processes",
    "tests/e2e/test_snippets.py": "processes",
    "tests/metrics/test_served.py": "processes",
    "tests/integration/test_cluster.py": "cluster",
    "tests/arena/test_on_a_cluster.py": "cluster",
    "tests/reliability/test_fuzz.py": "fuzz",
    "tests/integration/test_bench.py": "bench",
    "tests/integration/test_bench_peers.py": "bench",
    "tests/integration/test_bench_idle.py": "bench",
    "tests/test_generated.py": "generated",
    "tests/browser/": "browser",
    "tests/failover/": "failover",
    "tests/typescript/test_node.py": "node",
    "tests/typescript/test_proofs.py": "node",
    "tests/typescript/test_replay.py": "node",
    "tests/typescript/test_types.py": "node",
}
"""The modules `make test-fast` leaves out, by the marker each gets (pyproject.toml lists them):
they start service processes, a cluster or Redis servers that fail over, fuzz, run the bench, or
regenerate the SDK; a key ending in `/` is a folder, every module in it (the browser tests drive
Chromium)."""


def pytest_configure(config: pytest.Config) -> None:
    # The TypeScript client's tests (tests/typescript) run Node and its compiler: seconds each,
    # and a first `npm ci`. They skip, saying so, where Node is missing.
    config.addinivalue_line(
        "markers", "node: runs Node or tsc on the TypeScript client (left out by make test-fast)"
    )


def _slow_marker(module: str) -> str | None:
    """The marker `SLOW_MODULES` gives a module (a path relative to the root), if any."""
    if marker := SLOW_MODULES.get(module):
        return marker
    return next(
        (m for key, m in SLOW_MODULES.items() if key.endswith("/") and module.startswith(key)),
        None,
    )


FAST = os.environ.get("KRONIKAS_FAST") == "1"
"""Set by `make test-fast`: the slow modules are not even collected, and property tests draw a
quarter of their examples (`examples`). `make test` runs them all, in full."""


def examples(full: int) -> int:
    """How many examples a property test draws: all of them, or a quarter in the inner loop."""
    return max(10, full // 4) if FAST else full


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if not FAST:
        return None
    root = Path(str(config.rootpath))
    if not collection_path.is_relative_to(root):
        return None
    relative = collection_path.relative_to(root).as_posix()
    if collection_path.is_dir():
        relative += "/"
    return _slow_marker(relative) is not None or None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = Path(str(config.rootpath))
    for item in items:
        module = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else ""
        if marker := _slow_marker(module):
            item.add_marker(marker)


def _docker_answers() -> bool:
    try:
        import docker

        client = docker.from_env(timeout=2)
        client.ping()
        return True
    except Exception:
        return False


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of the real Redis this test session uses."""
    if url := os.environ.get("REDIS_URL"):
        yield url
        return
    if _docker_answers():
        from testcontainers.redis import RedisContainer

        with RedisContainer("redis:7-alpine") as container:
            host = container.get_container_host_ip()
            port = container.get_exposed_port(6379)
            yield f"redis://{host}:{port}/0"
        return
    with EmbeddedRedis(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    """An asyncio client on the session's Redis."""
    client = Redis.from_url(redis_url)
    try:
        yield client
    finally:
        with contextlib.suppress(Exception):
            await client.aclose()


@pytest.fixture(scope="session")
async def running_app(redis_url: str) -> AsyncIterator[Client]:
    """The app on the session's Redis, with the settings tests take by default, started once."""
    from litestar.testing import AsyncTestClient

    from kronikas.api.app import create_app

    async with AsyncTestClient(create_app(settings(redis_url), games=ENGINES)) as running:
        yield running


@pytest.fixture
def client(running_app: Client) -> Client:
    """A client of its own for the test (nothing to close: its transport calls the app), on
    the app the session shares. A module whose tests change the app's state or settings makes
    its own app instead."""
    return on_same_app(running_app)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    """A private bundled redis-server that a test may stop and start."""
    server = EmbeddedRedis(tmp_path / "redis").start()
    try:
        yield server
    finally:
        server.stop()


GENEROUS = served.GENEROUS | {
    "STREAMS_PER_TOKEN": "1000000",
    "MAX_CONNECTIONS": "1000000",
    "CONNECTIONS_PER_ADDRESS": "1000000",
}
"""The limits a service process gets in the tests, far above what a test sends; without them
(`production=True`) it keeps the defaults it is deployed with."""


class ServiceProcess:
    """The real service (`python -m kronikas.serve`, or `code` run with `python -c`, which
    serves on the `PORT` it is given) on a free loopback port; `python` is this one unless given.
    Its limits are the tests' generous ones, or with `production` the defaults."""

    def __init__(
        self,
        redis_url: str,
        log: Path,
        code: str | None = None,
        python: str | None = None,
        production: bool = False,
        **env: str,
    ) -> None:
        import subprocess
        import sys

        python = python or sys.executable

        from kronikas.adapters.embedded_redis import free_port

        self.log = log
        self._log_file = log.open("ab")
        # A free port is free when asked, not when the service binds it: another process may take
        # it between the two (tests run in parallel). Then the service says so, and is started
        # again on another port.
        for attempt in range(3):
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}"
            inherited = {k: v for k, v in os.environ.items() if not (production and k in GENEROUS)}
            environment = (
                inherited
                | {"REDIS_URL": redis_url, "PORT": str(self.port), "LOG_LEVEL": "WARNING"}
                | ({} if production else GENEROUS)
            )
            written = log.stat().st_size
            self.process = subprocess.Popen(
                [python, "-c", code] if code else [python, "-m", "kronikas.serve"],
                env=environment | env,
                stdout=self._log_file,
                stderr=subprocess.STDOUT,
            )
            try:
                self.wait_ready()
                return
            except BaseException:  # a service that did not come up is not left running
                self.stop(close=False)
                said = log.read_bytes()[written:]
                if attempt == 2 or b"address already in use" not in said.lower():
                    self._log_file.close()
                    raise
                os.truncate(log, written)  # the log of a service that ran holds no false start

    def wait_ready(self, timeout: float = 30) -> None:
        import time

        import httpx

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"service exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/v1/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"service did not start: {self.log.read_text()[-2000:]}")

    def stop(self, sig: int | None = None, close: bool = True) -> None:
        import signal
        import subprocess

        if self.process.poll() is None:
            self.process.send_signal(sig or signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:  # never left behind, even on a stalled machine
                self.process.kill()
                self.process.wait(20)
        if close:
            self._log_file.close()


@pytest.fixture(scope="session")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    """One real service process for the session, on the session's Redis."""
    server = ServiceProcess(redis_url, tmp_path_factory.mktemp("service") / "service.log")
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def serving(redis_url: str, log: Path, **env: str) -> Iterator[ServiceProcess]:
    """A service process for the duration of the block."""
    service = ServiceProcess(redis_url, log, **env)
    try:
        yield service
    finally:
        service.stop()


@contextlib.asynccontextmanager
async def two_processes(
    redis_url: str, logs: Path, timeout: float = 30
) -> AsyncIterator[tuple[httpx.AsyncClient, httpx.AsyncClient]]:
    """Two service processes on one Redis, and an HTTP client for each."""
    import httpx

    with serving(redis_url, logs / "a.log") as a, serving(redis_url, logs / "b.log") as b:
        async with (
            httpx.AsyncClient(base_url=a.url, timeout=timeout) as ca,
            httpx.AsyncClient(base_url=b.url, timeout=timeout) as cb,
        ):
            yield ca, cb
