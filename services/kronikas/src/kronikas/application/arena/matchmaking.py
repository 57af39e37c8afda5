"""Which waiting entrants make a set, and where each sits: a pure function of the arena's fold.

A pool's waiting entrants are sorted by their conservative rating (ordinal) and taken in
groups of nearest ratings, `n·n` real entrants at most (each holds one seat of the set's `n`
tables of `n` seats), never two of one owner in a group. A full group makes a set at once; a
group short of it makes one once its longest-waiting entrant has waited `fill_ms`, the empty
seats then filled by the pool's standing entrants, `House` at seat 0 and `Random` at seat 1 of
the last tables first: each appears at most once at a table and once in a hand position (table
`j`'s seat `s` holds position `(s + j) % n`), so neither is ever ranked against itself. Two
standing entrants fill at most `2n` seats: a pool of `n` ≥ 3 seats needs `n·n − 2n` real
entrants for a set (3 for three seats, 8 for four).
"""

from __future__ import annotations

from collections.abc import Callable

from kronikas.application.arena.log import ArenaState, Rated, Waiting

STANDING = ("house", "random")
"""The standing entrants of every game: the game's house policy, and a uniform random one."""


def standing_id(policy: str, kind: str) -> str:
    """The entrant id of a game's standing entrant (`house-<kind>`, `random-<kind>`)."""
    return f"{policy}-{kind}"


def standing_of(entrant_id: str) -> tuple[str, str] | None:
    """The policy and kind of a standing entrant's id, or None for any other id."""
    policy, dash, kind = entrant_id.partition("-")
    return (policy, kind) if dash and policy in STANDING and kind else None


def fill_cells(players: int) -> list[tuple[int, int, str]]:
    """The cells standing entrants fill, in order: (table, seat, policy)."""
    cells: list[tuple[int, int, str]] = []
    for table in reversed(range(players)):
        cells.append((table, 0, STANDING[0]))
        cells.append((table, 1 % players, STANDING[1]))
    return cells


def seat_set(real: list[str], kind: str, players: int) -> list[list[str]]:
    """The seats of a set of `real` entrants (at most `players²`), the rest filled."""
    n = players
    seats: list[list[str | None]] = [[None] * n for _ in range(n)]
    for table, seat, policy in fill_cells(n)[: n * n - len(real)]:
        seats[table][seat] = standing_id(policy, kind)
    queue = iter(real)
    filled: list[list[str]] = []
    for row in seats:
        filled.append([cell if cell is not None else next(queue) for cell in row])
    return filled


def form(
    state: ArenaState,
    kind: str,
    players: int,
    now_ms: int,
    fill_ms: int,
    ordinal: Callable[[Rated | None], float],
) -> list[list[list[str]]]:
    """The sets to form now in the pool (`kind`, `players`): each its seats by table."""
    n = players
    pool = state.ratings.get((kind, n), {})
    waiting: list[tuple[str, Waiting]] = [
        (e, w) for e, w in state.waiting.items() if w.kind == kind and w.players == n
    ]
    waiting.sort(key=lambda ew: (-ordinal(pool.get(ew[0])), ew[1].since_ms, ew[0]))
    formed: list[list[list[str]]] = []
    while waiting:
        group: list[tuple[str, Waiting]] = []
        rest: list[tuple[str, Waiting]] = []
        owners: set[str] = set()
        for entrant, waits in waiting:
            if len(group) < n * n and waits.owner not in owners:
                group.append((entrant, waits))
                owners.add(waits.owner)
            else:
                rest.append((entrant, waits))
        if len(group) < n * n:
            oldest = min(waits.since_ms for _, waits in group)
            if now_ms - oldest < fill_ms or len(group) < n * n - 2 * n:
                break
        formed.append(seat_set([e for e, _ in group], kind, n))
        waiting = rest
    return formed
