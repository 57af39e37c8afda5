"""Who the client is, for the limits kept per client address (docs/api.md, Rate limits).

The client is the TCP peer, unless the peer is a proxy named in `TRUSTED_PROXIES`: then it is the
right-most address in the proxy's header (`TRUSTED_PROXY_HEADER`: `X-Forwarded-For`, or
`Forwarded`) that is not itself a trusted proxy. Every address to the left of that one was written
by the client, who may write anything there, so it is never read. From a peer that is not
trusted, the headers are ignored.

An IPv6 client is its /64: one host is commonly given a whole /64, and every address in it is
one client's. An IPv4-mapped IPv6 address is its IPv4 address. Whatever the header holds, this
never fails: an entry that is not an address ends the walk at the last trusted hop.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable, Sequence
from typing import Any

from kronikas.config import Network, Settings

Address = ipaddress.IPv4Address | ipaddress.IPv6Address

MAX_HOPS = 32
"""How many entries of a header are read, from the right: more proxies than this is nonsense."""
_MAX_ENTRY = 100
"""An entry longer than this is no address (the longest IPv6 text with a port is 47 chars)."""


def client_address(scope: Any, settings: Settings) -> str:
    """The address a request's client is counted by: an IPv4 address, an IPv6 /64 (`a:b:c:d::/64`),
    or, when the peer is no IP address (a test client, a Unix socket), the peer's name."""
    client = scope.get("client")
    address, key = _peer(str(client[0]) if client else "")
    proxies = settings.trusted_proxies
    if address is not None and proxies and trusted(address, proxies):
        headers = hops(scope.get("headers", ()), settings.proxy_header)
        return bucket(forwarded_client(address, headers, proxies))
    return key


@functools.lru_cache(maxsize=4096)
def _peer(peer: str) -> tuple[Address | None, str]:
    """A peer's address and its key, each peer's worked out once (every command asks)."""
    address = parse(peer)
    if address is None:
        return None, peer[:_MAX_ENTRY] or "unknown"
    return address, bucket(address)


def trusted(address: Address, proxies: Sequence[Network]) -> bool:
    return any(address.version == net.version and address in net for net in proxies)


def forwarded_client(peer: Address, entries: list[str], proxies: Sequence[Network]) -> Address:
    """The right-most entry that is not a trusted proxy, walking left from the (trusted) peer;
    an entry that is no address stops the walk at the last trusted hop."""
    address = peer
    for entry in reversed(entries[-MAX_HOPS:]):
        hop = parse(entry)
        if hop is None:
            break
        address = hop
        if not trusted(hop, proxies):
            break
    return address


def bucket(address: Address) -> str:
    """The key of an address's buckets: IPv4 as is, IPv6 by its /64."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        prefix = ipaddress.IPv6Address(int(address) >> 64 << 64)
        return f"{prefix}/64"
    return str(address)


def parse(text: str) -> Address | None:
    """An address from a header's entry or a peer's name: `1.2.3.4`, `1.2.3.4:80`, `2001:db8::1`,
    `[2001:db8::1]:80`, quoted or not; None for anything else (`unknown`, `_hidden`, garbage)."""
    text = text.strip().strip('"').strip()
    if not text or len(text) > _MAX_ENTRY:
        return None
    if text.startswith("["):  # [v6] or [v6]:port
        text, closed, _ = text[1:].partition("]")
        if not closed:
            return None
    elif text.count(":") == 1:  # v4:port
        text = text.partition(":")[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.scope_id:
        address = ipaddress.IPv6Address(int(address))
    return address


def hops(headers: Iterable[tuple[bytes, bytes]], name: str) -> list[str]:
    """The entries of every `name` header, in order (repeated headers join, as a list does)."""
    wanted = name.encode()
    values = [value.decode("latin-1") for key, value in headers if key.lower() == wanted]
    if not values:
        return []
    entries = ",".join(values).split(",")
    if name == "forwarded":
        return [_for(element) for element in entries]
    return entries


def _for(element: str) -> str:
    """The `for=` of one `Forwarded` element (RFC 7239), or "" when it has none."""
    for pair in element.split(";"):
        key, _, value = pair.partition("=")
        if key.strip().lower() == "for":
            return value
    return ""
