"""The arena's fold as one value, so that the log's head can be trimmed (`ArenaStore.compact`):
a process that starts, or fell behind the trimmed head, starts from the snapshot and folds the
log's rest. Every process may write one; the store keeps the newest."""

from __future__ import annotations

import msgspec

from kronikas.application.arena.log import ArenaState, InPlay, Match, Rated, Waiting


class _Pool(msgspec.Struct, frozen=True):
    kind: str
    players: int
    ratings: dict[str, Rated]


class _Snapshot(msgspec.Struct, frozen=True):
    version: int
    waiting: dict[str, Waiting]
    seated: dict[str, tuple[str, int]]
    in_play: dict[str, InPlay]
    pools: list[_Pool]
    revoked: list[str]
    recent: dict[str, list[Match]]
    """Each entrant's latest matches, newest first."""


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(_Snapshot).decode


def snapshot(state: ArenaState) -> bytes:
    """The fold as JSON."""
    return _encode(
        _Snapshot(
            state.version,
            state.waiting,
            state.seated,
            state.in_play,
            [_Pool(kind, players, pool) for (kind, players), pool in state.ratings.items()],
            sorted(state.revoked),
            {entrant: list(played) for entrant, played in state.recent.items()},
        )
    )


def restore(raw: bytes) -> ArenaState:
    """The fold a snapshot holds."""
    held = _decode(raw)
    state = ArenaState(
        held.version,
        dict(held.waiting),
        dict(held.seated),
        dict(held.in_play),
        {(p.kind, p.players): dict(p.ratings) for p in held.pools},
        set(held.revoked),
    )
    for entrant, played in held.recent.items():
        state.played(entrant).extend(played)
    return state
