"""The arena's fold as one value, so that the log's head can be trimmed (`ArenaStore.compact`):
a process that starts, or fell behind the trimmed head, starts from the snapshot and folds the
log's rest. Every process may write one; the store keeps the newest."""

from __future__ import annotations

import msgspec

from kronikas.application.arena.log import ArenaState, InPlay, Rated, SetRated, Waiting


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
    results: list[SetRated]
    """Finished sets, oldest first."""
    recent: dict[str, list[tuple[str, int, int]]]
    """Each entrant's latest matches, newest first: (set, table, seat)."""


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
            list(state.results.values()),
            {
                entrant: [(rated.set_id, placed.table, placed.seat) for rated, placed in played]
                for entrant, played in state.recent.items()
            },
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
        {rated.set_id: rated for rated in held.results},
    )
    for entrant, played in held.recent.items():
        matches = state.played(entrant)
        for set_id, table, seat in played:
            rated = state.results[set_id]
            placed = next(p for p in rated.placed if (p.table, p.seat) == (table, seat))
            matches.append((rated, placed))
    return state
