"""Thirty-One as a PettingZoo AEC environment: `env(players=…, options=…, render_mode="ansi")`.

Spaces, decisions, rewards: the package README's "Environments" and
`kronikas_rules.envs.thirty_one`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pettingzoo import AECEnv

from kronikas_rules.envs.aec import KronikasEnv, ObsDict, wrapped


class raw_env(KronikasEnv):  # PettingZoo's classic environments name it so
    """Thirty-One, unwrapped."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "thirty_one_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        render_seat: int | None = None,
    ) -> None:
        super().__init__("thirty_one", players, options, render_mode, render_seat)


def env(**kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """Thirty-One, wrapped as PettingZoo's classic games are."""
    return wrapped(raw_env(**kwargs))
