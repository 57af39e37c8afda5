"""The service processes the benchmarks measure, and the CPU they spend.

`Service` is a workload's (benchmarks/bench.py, alternate.py): every limit lifted, the bench's
ceiling route mounted (benchmarks/app.py). `Served` is an attack script's (benchmarks/attacks.py):
the limits as configured. Either runs this checkout's code or another's, so that the same
figure can be taken before and after a change."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import TracebackType

import httpx

from benchmarks.connection import Connection
from kronikas.adapters.embedded_redis import free_port

ROOT = Path(__file__).resolve().parent.parent
GENEROUS = {
    "RATE_LIMIT_PER_S": "100000",
    "RATE_LIMIT_BURST": "100000",
    "OPEN_LIMIT_PER_MIN": "1000000",
    "READ_LIMIT_PER_S": "1000000",
    "READ_LIMIT_BURST": "1000000",
    "ADDRESS_LIMIT_PER_S": "1000000",
    "ADDRESS_LIMIT_BURST": "1000000",
    "STREAMS_PER_ADDRESS": "1000000",
}
"""The rate and read limits lifted, so that a workload from one address measures the service,
not its limits (an attack keeps the connection caps it attacks)."""


def cpu_seconds(pid: int) -> float:
    """CPU time a process and its live children have used so far (Linux /proc; 0 where there
    is none). With `WORKERS=2` the service's process is the supervisor and the workers its
    children."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(cpu_seconds(int(child)) for child in children)


def cores_busy() -> tuple[float, float]:
    """Busy and total CPU time of the whole machine so far, in clock ticks (Linux /proc/stat)."""
    try:
        ticks = [int(t) for t in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return 0.0, 0.0
    idle = ticks[3] + ticks[4]  # idle and iowait
    return float(sum(ticks) - idle), float(sum(ticks))


class Service:
    """`python -m kronikas.serve` with `workers` workers for a workload: every limit lifted, the
    bench app's ceiling route mounted. Started when built; `ready()` waits until it answers."""

    def __init__(
        self,
        redis_url: str,
        workers: int,
        source: Path = ROOT,
        ws: str | None = None,
        settings: Mapping[str, str] | None = None,
    ) -> None:
        """The service of the checkout at `source` (this one unless told); `ws`, its
        WebSocket implementation (`SOCKET_IMPLEMENTATION`), when not the default; `settings`, more
        settings over all these (`WRITE_REPLICAS=1`, `METRICS=1`: benchmarks/alternate.py)."""
        env = os.environ | {
            "REDIS_URL": redis_url,
            "WORKERS": str(workers),
            "LOG_LEVEL": "WARNING",
            **GENEROUS,
            # The crowd opens 6,000 streams from this one address, on one worker.
            "STREAMS_PER_TOKEN": "1000000",
            "MAX_CONNECTIONS": "1000000",
            "CONNECTIONS_PER_ADDRESS": "1000000",
            "KRONIKAS_APP": "benchmarks.app:create_bench_app",
        }
        if ws is not None:
            env["SOCKET_IMPLEMENTATION"] = ws
        env |= settings or {}
        if source != ROOT:  # another checkout's code and bench app, ahead of the installed one
            paths = [source / "services" / "kronikas" / "src", source / "rules" / "src", source]
            env["PYTHONPATH"] = os.pathsep.join(str(path) for path in paths)
        self.env, self.source = env, source
        self._start()

    def _start(self) -> None:
        """Start it on a free port. (Free when asked, not when the service binds it: another
        process may take it between the two; `ready` then starts it again on another.)"""
        self.port = free_port()
        self.log = Path(tempfile.gettempdir()) / f"kronikas-bench-{self.port}.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kronikas.serve"], env=self.env | {"PORT": str(self.port)},
                cwd=self.source, stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip

    async def ready(self, attempts: int = 3) -> None:
        for _ in range(300):
            if self.process.poll() is not None:
                said = self.log.read_text()
                if attempts > 1 and "address already in use" in said.lower():
                    self._start()
                    return await self.ready(attempts - 1)
                raise RuntimeError(f"the service exited at start: {said[-2000:]}")
            try:
                conn = await Connection(self.port).open()
                status, _ = await conn.request("GET", "/v1/ready")
                conn.close()
                if status == 200:
                    return
            except OSError:
                pass
            await asyncio.sleep(0.1)
        raise RuntimeError(f"the service did not start: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(20)


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
        return cpu_seconds(self.process.pid)

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
