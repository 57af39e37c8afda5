"""`CONNECTIONS_PER_ADDRESS` counts an IPv6 client by its /64 (a host may hold a whole /64 and
pick a new address for each connection) and an IPv4 client by its address; a trusted proxy is
held to no share. The worker's guard is driven here with transports as uvicorn hands them over:
a real service on this machine has only one IPv6 loopback address to connect from
(`tests/reliability/test_connections.py` drives IPv4 and the proxy from outside)."""

from __future__ import annotations

import ipaddress
from typing import Any

from kronikas.config import Settings
from kronikas.connections import Guard


class Transport:
    """What the guard asks of a transport: its peer, and to close."""

    def __init__(self, peer: str) -> None:
        self.peer = (peer, 40000, 0, 0) if ":" in peer else (peer, 40000)
        self.closed = False

    def get_extra_info(self, name: str) -> Any:
        return self.peer if name == "peername" else None

    def close(self) -> None:
        self.closed = True


def admitted(guard: Guard, *peers: str) -> list[bool]:
    return [guard.admit(Transport(peer)) is not None for peer in peers]  # type: ignore[arg-type]


def test_an_ipv6_client_is_counted_by_its_64() -> None:
    guard = Guard(Settings(connections_per_address=2))
    same_64 = ["2001:db8:0:1::a", "2001:db8:0:1::b", "2001:db8:0:1:ffff::c"]
    assert admitted(guard, *same_64) == [True, True, False]
    assert admitted(guard, "2001:db8:0:2::a", "2001:db8:0:2::b") == [True, True]
    assert admitted(guard, "192.0.2.1", "192.0.2.1", "192.0.2.2", "192.0.2.1") == [
        True,
        True,
        True,
        False,
    ]


def test_a_trusted_proxy_holds_no_share() -> None:
    proxies = (ipaddress.ip_network("2001:db8:0:9::/64"),)
    guard = Guard(Settings(connections_per_address=1, trusted_proxies=proxies))
    assert admitted(guard, *["2001:db8:0:9::1"] * 5) == [True] * 5
    assert admitted(guard, "2001:db8:0:8::1", "2001:db8:0:8::2") == [True, False]
