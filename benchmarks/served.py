"""One service process for an attack script: this checkout's code, or another's (`--repo`), so
that the same attack can be run before and after a change (benchmarks/attacks.py)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

import httpx

from kronikas.adapters.embedded_redis import free_port

ROOT = Path(__file__).resolve().parent.parent


class Served:
    """`python -m kronikas.serve` of the checkout `repo` (this one when None: another's code goes
    ahead of the installed one) on a free loopback port, on `redis_url`, with `env` over this
    process's environment less the names in `drop`; its output in `log` (a temporary file when
    None). Ready when built: its health check answered."""

    def __init__(
        self,
        redis_url: str,
        repo: Path | None = None,
        env: dict[str, str] | None = None,
        drop: Iterable[str] = (),
        log: Path | None = None,
    ) -> None:
        repo = (repo or ROOT).resolve()
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        dropped = set(drop)
        environment = {k: v for k, v in os.environ.items() if k not in dropped}
        environment |= {"REDIS_URL": redis_url, "PORT": str(self.port), **(env or {})}
        if repo != ROOT:
            environment["PYTHONPATH"] = str(repo / "services" / "kronikas" / "src")
        self.log = log or Path(tempfile.gettempdir()) / f"kronikas-attack-{self.port}.log"
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kronikas.serve"],
                env=environment,
                cwd=repo,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise

    def _wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the service exited: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/v1/health", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"the service did not start: {self.log.read_text()[-2000:]}")

    @classmethod
    async def started(
        cls,
        redis_url: str,
        repo: Path | None = None,
        env: dict[str, str] | None = None,
        drop: Iterable[str] = (),
        log: Path | None = None,
    ) -> Served:
        """The same, built off the event loop (it waits for the service to answer)."""
        return await asyncio.to_thread(cls, redis_url, repo, env, drop, log)

    def cpu_seconds(self) -> float:
        """The CPU time the service has used, user and system."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_bytes(self) -> int:
        """The service's resident memory."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        found = re.search(r"VmRSS:\s+(\d+) kB", status)
        return int(found[1]) * 1024 if found else 0

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> Served:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
