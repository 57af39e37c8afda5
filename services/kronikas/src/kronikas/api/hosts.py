"""The names the service answers to (`ALLOWED_HOSTS`): the `Host` check every request and every
socket upgrade passes before anything else reads it, against DNS rebinding (docs/security.md).

A page on another site can make a visitor's browser reach the service through a name of the
page's own that it rebinds to the service's address (a loopback or private address the page could
not reach otherwise): the browser then holds the page and the service as one origin, sends no
`Origin` a check could refuse, or sends that name as both `Origin` and `Host`. Only the `Host`
tells such a request apart, so the service answers the names it serves and refuses the others,
on every route at once (the API, the web table's files, the docs pages, `/mcp`, the seat socket,
whose own-origin rule compares an `Origin` to the `Host`, so it only ever sees a served name):

- `ALLOWED_HOSTS` set: the names listed (`cards.example`; `*.cards.example` for every name under
  it, not itself; `*` for any name), and the loopback names;
- unset, listening on loopback (`HOST` 127.0.0.1, ::1, localhost) with no `TRUSTED_PROXIES`: the
  loopback names only (`make run`: nothing else can reach it but a rebound name);
- unset otherwise: any name (a proxy in front, or a service reached by addresses and names no
  setting names yet; docs/security.md tells operators to set it).

The loopback names (`localhost`, 127.0.0.0/8, ::1) are always served: a rebound name arrives as
itself, never as one of them, and the container's health check asks for 127.0.0.1. Any port is
served. A `Host` that names no host (a user part, a path, bytes outside a name) or a request with
none is refused unless any name is served. The refusal is 421 `misdirected_request`, as
problem+json; an upgrade gets the same answer where the server can send one, else a close 1008.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field
from typing import Any

from litestar.types import Scope

from kronikas.api.problems import Problem, send_problem
from kronikas.config import Settings

LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})
"""The loopback names a service on loopback listens as (`HOST`), and a browser names it by."""

_HOST = re.compile(
    r"\[(?P<v6>[0-9A-Fa-f:.]{2,45})\](?::[0-9]{0,5})?|(?P<name>[A-Za-z0-9._-]{1,253})(?::[0-9]{0,5})?"
)

_KNOWN_MAX = 256

MISDIRECTED = "This host name is not served here (see ALLOWED_HOSTS)."


def host_name(value: str) -> str | None:
    """The name a `Host` header (`name`, `name:port`, `[v6]:port`) names: lower-case, without
    its port or a trailing dot, an IPv6 address in its short form; None when it names none."""
    found = _HOST.fullmatch(value)
    if found is None:
        return None
    if (v6 := found["v6"]) is not None:
        try:
            return str(ipaddress.IPv6Address(v6))
        except ValueError:
            return None
    name: str = found["name"].lower().removesuffix(".")
    return name or None


def is_loopback(name: str) -> bool:
    """Whether `name` (a host name as `host_name` gives it, or `HOST`) names the loopback
    interface: `localhost`, or an address of 127.0.0.0/8 or ::1."""
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Hosts:
    """The `Host` names one service answers to."""

    any: bool
    """Whether every name is served (then a request without a `Host` is too)."""
    names: frozenset[str] = frozenset()
    """The names served besides the loopback ones."""
    suffixes: tuple[str, ...] = ()
    """`.cards.example` for `*.cards.example`: the names that end so are served."""
    _known: dict[bytes, bool] = field(default_factory=dict, compare=False, repr=False)
    """The `Host` values judged already (a few per service: a name, with or without a port)."""

    @classmethod
    def of(cls, settings: Settings) -> Hosts:
        """What `settings` serve (`ALLOWED_HOSTS`, `HOST`, `TRUSTED_PROXIES`)."""
        listed = settings.allowed_hosts
        if "*" in listed:
            return cls(any=True)
        if not listed:
            alone = is_loopback(settings.host.strip("[]")) and not settings.trusted_proxies
            return cls(any=not alone)
        names = frozenset(n for n in listed if not n.startswith("*."))
        suffixes = tuple(n[1:] for n in listed if n.startswith("*."))
        return cls(any=False, names=names, suffixes=suffixes)

    def serves(self, host: str | None) -> bool:
        """Whether a request whose `Host` header is `host` (None: it sent none) is answered."""
        if self.any:
            return True
        name = host_name(host) if host is not None else None
        if name is None:
            return False
        return (
            name in self.names
            or is_loopback(name)
            or any(name.endswith(suffix) for suffix in self.suffixes)
        )

    def allows(self, scope: Scope) -> bool:
        """Whether the request or upgrade of `scope` names a served host: every `Host` header
        it sent (a second one may not name another), and at least one unless any name is."""
        if self.any:
            return True
        seen = False
        for name, value in scope["headers"]:
            if name == b"host":
                if (served := self._known.get(value)) is None:
                    served = self.serves(value.decode("latin-1"))
                    if len(self._known) >= _KNOWN_MAX:
                        self._known.clear()
                    self._known[value] = served
                if not served:
                    return False
                seen = True
        return seen


async def misdirected(scope: Any, receive: Any, send: Any) -> None:
    """The answer to a request or upgrade for a name that is not served: 421 problem+json."""
    state = scope.get("state") or {}
    problem = Problem(
        status=421,
        code="misdirected_request",
        title="Misdirected Request",
        detail=MISDIRECTED,
        request_id=state.get("request_id"),
    )
    await send_problem(scope, send, problem)
