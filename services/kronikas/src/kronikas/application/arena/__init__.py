"""The arena: entrants, matchmaking on duplicate deals, ratings (docs/arena.md). `Arena` is its
façade for every transport; its wire types are in `wire`."""

from kronikas.application.arena.service import Arena
from kronikas.application.arena.wire import (
    ArenaMatch,
    EntrantCreated,
    EntrantPage,
    Leaderboard,
    LeaderboardEntry,
    PoolRating,
    QueueRequest,
    RatingChange,
    RegisterEntrant,
    SetPage,
    SetTable,
    Ticket,
)

__all__ = [
    "Arena",
    "ArenaMatch",
    "EntrantCreated",
    "EntrantPage",
    "Leaderboard",
    "LeaderboardEntry",
    "PoolRating",
    "QueueRequest",
    "RatingChange",
    "RegisterEntrant",
    "SetPage",
    "SetTable",
    "Ticket",
]
