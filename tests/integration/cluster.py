"""A real three-master Redis Cluster on loopback, from the bundled redis-server and redis-cli."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
from pathlib import Path

import redis

from kronikas.adapters.embedded_redis import EmbeddedRedis, free_port, redis_binary

BUS_OFFSET = 10_000
"""Redis 6.2 puts a node's cluster bus on its port + 10000; that port must be free too."""


def _bindable(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def cluster_port(taken: set[int]) -> int:
    """A free port whose cluster-bus port (+10000) is free and valid too."""
    for _ in range(500):
        port = free_port()
        bus = port + BUS_OFFSET
        if bus <= 65_535 and not {port, bus} & taken and _bindable(bus):
            return port
    raise RuntimeError("no free port pair for a cluster node")


class LocalCluster:
    """`masters` redis-server processes in cluster mode, joined by `redis-cli --cluster create`."""

    def __init__(self, base_dir: Path, masters: int = 3) -> None:
        self.base_dir = base_dir
        self.masters = masters
        self.nodes: list[EmbeddedRedis] = []

    @property
    def ports(self) -> list[int]:
        return [node.port for node in self.nodes]

    @property
    def url(self) -> str:
        """A URL of one node: a cluster client discovers the others from it."""
        return f"redis://127.0.0.1:{self.nodes[0].port}"

    def node_client(self, port: int) -> redis.Redis:
        """A plain (non-cluster) client of one node, to see what that node holds."""
        return redis.Redis(host="127.0.0.1", port=port)

    def start(self, timeout: float = 20.0) -> LocalCluster:
        """Start the nodes, join them, and wait until every node says `cluster_state:ok`."""
        taken: set[int] = set()
        try:
            for i in range(self.masters):
                port = cluster_port(taken)
                taken |= {port, port + BUS_OFFSET}
                # Later options override EmbeddedRedis's own (`--appendonly yes`).
                options = [
                    "--cluster-enabled", "yes",
                    "--cluster-config-file", "nodes.conf",
                    "--appendonly", "no",
                    "--save", "",
                ]  # fmt: skip
                self.nodes.append(EmbeddedRedis(self.base_dir / f"node{i}", port, *options))
                self.nodes[-1].start()
            addresses = [f"127.0.0.1:{port}" for port in self.ports]
            create = [
                redis_binary("redis-cli"),
                "--cluster", "create", *addresses,
                "--cluster-replicas", "0",
                "--cluster-yes",
            ]  # fmt: skip
            created = subprocess.run(
                create, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
            )
            if created.returncode != 0:
                raise RuntimeError(f"redis-cli --cluster create failed: {created.stdout}")
            self._wait_ok(timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_ok(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        pending = set(self.ports)
        while pending and time.monotonic() < deadline:
            for port in list(pending):
                with contextlib.suppress(redis.RedisError), self.node_client(port) as client:
                    info = client.execute_command("CLUSTER INFO")  # redis-py parses it to a dict
                    if isinstance(info, dict) and info.get("cluster_state") == "ok":
                        pending.discard(port)
            time.sleep(0.05)
        if pending:
            raise RuntimeError(f"cluster_state is not ok on ports {sorted(pending)}")

    def stop(self) -> None:
        """Stop every node; a node that fails to stop does not keep the others running."""
        nodes, self.nodes = self.nodes, []
        for node in nodes:
            with contextlib.suppress(Exception):
                node.stop()

    def __enter__(self) -> LocalCluster:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()
