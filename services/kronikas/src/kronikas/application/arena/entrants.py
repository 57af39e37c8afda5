"""Entrants: registered with a name and the games they play, each with an entrant token (`ke_…`,
kept only as its SHA-256), revocable; the address that registered one is its owner, recorded and
never shown. Standing entrants (`House`, `Random` of each game) need no registration."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable

import msgspec

from kronikas.application.access import hash_token
from kronikas.application.arena.matchmaking import standing_of
from kronikas.application.arena.ports import ArenaStore
from kronikas.application.arena.wire import EntrantCreated
from kronikas.application.engines import Registry
from kronikas.application.errors import (
    Forbidden,
    InvalidRequest,
    NotFound,
    Unauthorized,
    quoted,
    rate_limited,
)
from kronikas.application.names import shown_name
from kronikas.application.ports import RateBuckets
from kronikas.application.wire import utc_text
from kronikas.config import Settings

NAME_MAX = 40
BAD_NAME = (
    "An entrant's name is 1 to 40 printable characters that show, not only spaces or marks, "
    "with at most 2 combining marks on one character."
)
TOKEN_PREFIX = "ke"
"""Entrant tokens start `ke_`: never mistaken for a table's `host_` or `seat_` token."""
STANDING_NAMES = {"house": "House", "random": "Random"}


class Entrant(msgspec.Struct, frozen=True):
    """An entrant as the store keeps it."""

    entrant_id: str
    name: str
    games: list[str]
    owner: str
    """A hash of the address that registered it: never shown."""
    created_at: str | None = None
    revoked: bool = False

    @property
    def standing(self) -> bool:
        return standing_of(self.entrant_id) is not None


_decode = msgspec.json.Decoder(Entrant).decode
_encode = msgspec.json.Encoder().encode


def entrant_name(value: str) -> str:
    """A name in NFKC form, spaces trimmed and runs of them made one; 422 unless 1–40
    printable characters that show, with at most two combining marks on one character (a
    seat's name's rules, `application.names.shown_name`)."""
    return shown_name(value, NAME_MAX, BAD_NAME)


def owner_of(client: str | None) -> str:
    """The owner recorded for an entrant registered from `client` (a hash, never shown)."""
    return hashlib.sha256(f"kronikas:owner:{client or ''}".encode()).hexdigest()[:24]


def standing_entrant(entrant_id: str, engines: Registry) -> Entrant | None:
    """A game's standing entrant, made when first asked for (nothing stored)."""
    found = standing_of(entrant_id)
    if found is None or found[1] not in engines:
        return None
    policy, kind = found
    return Entrant(entrant_id, STANDING_NAMES[policy], [kind], owner=f"standing:{entrant_id}")


class Entrants:
    """Register, look up, authenticate and revoke entrants."""

    def __init__(
        self,
        store: ArenaStore,
        buckets: RateBuckets,
        settings: Settings,
        engines: Registry,
        now: Callable[[], int],
    ) -> None:
        self.store, self.buckets, self.settings = store, buckets, settings
        self.engines, self.now = engines, now

    async def register(self, name: str, games: list[str], client: str | None) -> EntrantCreated:
        """A new entrant (`EntrantCreated`, its token shown this once); 429 past the address's
        registrations an hour (`ARENA_REGISTER_PER_HOUR`)."""
        name = entrant_name(name)
        kinds = list(dict.fromkeys(games))
        unknown = [k for k in kinds if k not in self.engines]
        if unknown or not kinds:
            named = quoted(unknown)
            raise InvalidRequest(f"`games` must name games of `GET /v1/kinds`, not {named}.")
        per_hour = self.settings.arena_register_per_hour
        wait = await self.buckets.take(f"arena-register:{client}", per_hour / 3600, per_hour)
        if wait:
            raise rate_limited(wait, address=True)
        entrant_id = f"en_{secrets.token_hex(8)}"
        token = f"{TOKEN_PREFIX}_{secrets.token_urlsafe(24)}"
        created_at = utc_text(self.now())
        record = Entrant(entrant_id, name, kinds, owner_of(client), created_at)
        await self.store.add_entrant(entrant_id, _encode(record), hash_token(token))
        return EntrantCreated(entrant_id, name, kinds, token, created_at)

    async def get(self, entrant_id: str) -> Entrant:
        """An entrant, standing or registered (revoked ones too); 404 for none."""
        standing = standing_entrant(entrant_id, self.engines)
        if standing is not None:
            return standing
        if len(entrant_id) > 64:
            raise NotFound("There is no such entrant.")
        raw = await self.store.entrant(entrant_id)
        if raw is None:
            raise NotFound("There is no such entrant.")
        return _decode(raw)

    async def many(self, entrant_ids: list[str]) -> dict[str, Entrant]:
        """The entrants of `entrant_ids` there are, standing or registered, in one read."""
        found = {e: s for e in entrant_ids if (s := standing_entrant(e, self.engines))}
        rest = [e for e in entrant_ids if e not in found]
        for entrant_id, raw in zip(rest, await self.store.entrants(rest), strict=True):
            if raw is not None:
                found[entrant_id] = _decode(raw)
        return found

    async def of_token(self, token: str) -> Entrant:
        """The entrant an entrant token belongs to; 401 for any other token (revoked ones)."""
        entrant_id = None
        if token.startswith(f"{TOKEN_PREFIX}_"):
            entrant_id = await self.store.entrant_of(hash_token(token))
        if entrant_id is None:
            raise Unauthorized("This needs an entrant token (`ke_…`) that is not revoked.")
        entrant = await self.get(entrant_id)
        if entrant.revoked:  # pragma: no cover - a revoked token's key is gone with it
            raise Unauthorized("This entrant was revoked.")
        return entrant

    async def revoke(self, entrant_id: str, token: str) -> Entrant:
        """Revoke an entrant by its own token: 401 for a token of none, 403 for another's."""
        entrant = await self.of_token(token)
        if entrant.entrant_id != entrant_id:
            raise Forbidden("An entrant token revokes its own entrant only.")
        revoked = msgspec.structs.replace(entrant, revoked=True)
        await self.store.revoke(entrant_id, _encode(revoked), hash_token(token))
        return revoked
