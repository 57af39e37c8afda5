"""Who the client is, for the limits kept per address (api/client.py, docs/api.md Rate limits).

The TCP peer, unless it is a trusted proxy (`TRUSTED_PROXIES`): then the right-most address in
its header (`TRUSTED_PROXY_HEADER`) that is not itself a trusted proxy. IPv6 by its /64. Hostile
bytes in those headers, from a trusted proxy or not, are never a 5xx.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from pathlib import Path

import pytest

from kronikas.api.client import client_address
from kronikas.config import Settings
from tests.conftest import ServiceProcess
from tests.reliability.test_hostile_bytes import VALUES, exchange, http, judge

PROXIES = "10.0.0.0/8, 2001:db8:ffff::/48"


def address(peer: str, headers: dict[str, str | bytes], **env: str) -> str:
    settings = Settings.from_env({"TRUSTED_PROXIES": PROXIES} | env)
    raw = [
        (name.lower().encode(), value if isinstance(value, bytes) else value.encode("latin-1"))
        for name, value in headers.items()
    ]
    return client_address({"client": (peer, 50000), "headers": raw}, settings)


def test_the_peer_is_the_client_unless_it_is_a_trusted_proxy() -> None:
    spoofed = {"X-Forwarded-For": "198.51.100.1", "Forwarded": "for=198.51.100.2"}
    assert address("203.0.113.9", spoofed) == "203.0.113.9"
    assert address("10.1.2.3", {"X-Forwarded-For": "198.51.100.1"}) == "198.51.100.1"
    # No header from a trusted proxy: the proxy itself.
    assert address("10.1.2.3", {}) == "10.1.2.3"
    # Nothing is trusted by default.
    none = Settings.from_env({})
    scope = {"client": ("10.1.2.3", 1), "headers": [(b"x-forwarded-for", b"198.51.100.1")]}
    assert none.trusted_proxies == () and client_address(scope, none) == "10.1.2.3"


def test_the_right_most_address_that_is_not_a_trusted_proxy_counts() -> None:
    # What the client wrote on the left is never read, however many hops it invents.
    chain = "1.1.1.1, 2.2.2.2, 198.51.100.7, 10.0.0.5"
    assert address("10.1.2.3", {"X-Forwarded-For": chain}) == "198.51.100.7"
    # Repeated headers join in order; ports and brackets are dropped.
    assert address("10.1.2.3", {"X-Forwarded-For": "1.1.1.1, 198.51.100.7:4711"}) == "198.51.100.7"
    # Every hop a trusted proxy: the left-most of them.
    assert address("10.1.2.3", {"X-Forwarded-For": "10.9.9.9, 10.0.0.5"}) == "10.9.9.9"
    # An entry that is no address stops the walk at the last trusted hop.
    for junk in ("unknown", "_hidden", "", "1.2.3.4.5", "x" * 500, "[::1", "::ffff:zz"):
        assert address("10.1.2.3", {"X-Forwarded-For": f"198.51.100.7, {junk}"}) == "10.1.2.3"


def test_forwarded_is_read_only_when_it_is_the_trusted_header() -> None:
    header = {
        "Forwarded": 'for=192.0.2.60;proto=http;by=203.0.113.43, For="[2001:db8:cafe::17]:4711"',
        "X-Forwarded-For": "198.51.100.99",
    }
    assert address("10.1.2.3", header, TRUSTED_PROXY_HEADER="forwarded") == "2001:db8:cafe::/64"
    assert address("10.1.2.3", header) == "198.51.100.99"
    assert address("10.1.2.3", {"Forwarded": "for=192.0.2.60"}) == "10.1.2.3"
    with pytest.raises(ValueError, match="TRUSTED_PROXY_HEADER"):
        Settings.from_env({"TRUSTED_PROXY_HEADER": "x-real-ip"})


def test_an_ipv6_client_is_its_64() -> None:
    one = address("2001:db8:1:2::a", {})
    assert one == "2001:db8:1:2::/64"
    assert address("2001:db8:1:2:ffff:ffff:ffff:ffff", {}) == one
    assert address("2001:db8:1:3::1", {}) != one
    assert address("fe80::1%eth0", {}) == "fe80::/64"
    assert address("::ffff:198.51.100.4", {}) == "198.51.100.4"
    # Through a trusted IPv6 proxy, by its header.
    via = {"X-Forwarded-For": "2001:db8:1:2::b"}
    assert address("2001:db8:ffff:1::1", via) == one


def test_trusted_proxies_are_addresses_or_blocks() -> None:
    settings = Settings.from_env({"TRUSTED_PROXIES": " 10.0.0.1 ,fd00::/8,, 192.168.0.0/16"})
    assert settings.trusted_proxies == (
        ipaddress.ip_network("10.0.0.1/32"),
        ipaddress.ip_network("fd00::/8"),
        ipaddress.ip_network("192.168.0.0/16"),
    )
    with pytest.raises(ValueError, match="TRUSTED_PROXIES"):
        Settings.from_env({"TRUSTED_PROXIES": "10.0.0.1, proxy.example"})


@pytest.mark.parametrize("name", sorted(VALUES))
def test_hostile_bytes_in_the_headers_never_fail_the_lookup(name: str) -> None:
    for header in ("forwarded", "x-forwarded-for"):
        for value in (VALUES[name], b"for=" + VALUES[name], b"1.2.3.4, " + VALUES[name]):
            for peer in ("10.1.2.3", "2001:db8:ffff::1", "testclient", ""):
                found = address(peer, {header: value}, TRUSTED_PROXY_HEADER=header)
                assert found and len(found) <= 100


@pytest.fixture(scope="module", params=["x-forwarded-for", "forwarded"])
def behind(
    request: pytest.FixtureRequest, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServiceProcess]:
    """A service that trusts every loopback peer's `request.param` header."""
    log: Path = tmp_path_factory.mktemp("client") / "service.log"
    server = ServiceProcess(
        redis_url, log, TRUSTED_PROXIES="127.0.0.0/8", TRUSTED_PROXY_HEADER=request.param
    )
    try:
        yield server
    finally:
        server.stop()


def test_hostile_forwarding_headers_from_a_trusted_proxy_are_never_a_5xx(
    behind: ServiceProcess,
) -> None:
    from collections import Counter

    tally: Counter[str] = Counter()
    created = exchange(
        behind.port,
        http("POST", b"/v1/games", [(b"Content-Type", b"application/json")], b'{"kind":"cheat"}'),
    )
    assert created.status == 201, created.body
    game = created.body.split(b'"id":"', 1)[1].split(b'"', 1)[0]
    targets = [
        ("GET", b"/v1/games"),
        ("GET", b"/v1/games/" + game),
        ("GET", b"/v1/games/" + game + b"/events"),
        ("POST", b"/v1/games/" + game + b"/commands"),
    ]
    for value in VALUES.values():
        for header in (b"X-Forwarded-For", b"Forwarded"):
            for sent in (value, b"for=" + value, b"1.2.3.4, " + value, value + b", 127.0.0.1"):
                for method, target in targets:
                    answer = exchange(behind.port, http(method, target, [(header, sent)]))
                    if answer.status < 400:
                        tally[str(answer.status)] += 1
                        continue
                    judge(answer, tally)
    assert tally["200"] > 0
    text = behind.log.read_text(errors="replace")
    assert "Traceback" not in text and "unexpected failure" not in text, text[-3000:]
