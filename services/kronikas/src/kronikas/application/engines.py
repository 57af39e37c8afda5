"""The games this service runs: the rules package's. Every per-game list is built from these."""

from __future__ import annotations

from kronikas_rules.games import Registry, games

__all__ = ["Registry", "service_games"]


def service_games() -> Registry:
    """The games this service runs, by kind, in the order the kinds listing shows them (the
    rules package's `games()`: a new game is one line there). Built by the composition root
    (`kronikas.serve.app`, `export_openapi`) and handed to `create_app(games=...)`, which hands
    it down: nothing below the app factory has a registry of its own."""
    return games()
