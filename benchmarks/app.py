"""The service as the benchmark runs it: the real app plus a bare append route, the ceiling.

Never mounted in production: only `uvicorn --factory benchmarks.app:create_bench_app` has it.
"""

from __future__ import annotations

from typing import Any

from litestar import Litestar, Request, Response, post

from benchmarks import gc_pauses
from kronikas.api.app import create_app
from kronikas.application.engines import service_games
from kronikas.application.games import Games
from kronikas.application.ports import AppendRequest, Summary

_RECORD = b'{"v":0,"at":"2026-01-01T00:00:00.000Z","e":{"type":"bench"}}'


@post("/bench/append/{game_id:str}", operation_id="bench_append", status_code=200)
async def bench_append(request: Request[Any, Any, Any]) -> Response[bytes]:
    """One version-checked append (the same Lua script as a command), nothing else.

    Like the command route, it reads its path and query itself, past Litestar's extraction.
    """
    games: Games = request.app.state.games
    game_id, v = request.path_params["game_id"], int(request.query_params["v"])
    summary = Summary(game_id, "bench", "playing", 0, 0, 0)
    result = await games.stores.log.append(AppendRequest(game_id, v, [_RECORD], summary, 600))
    return Response(f'{{"version":{result.version}}}'.encode(), media_type="application/json")


def create_bench_app() -> Litestar:
    """The production app with the ceiling route added (and its collector's passes recorded
    when `BENCH_GC_DIR` is set: benchmarks/gc_pauses.py)."""
    gc_pauses.record_from_env()
    return create_app(extra_routes=[bench_append], games=service_games())
