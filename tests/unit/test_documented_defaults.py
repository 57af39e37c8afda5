"""The defaults docs/security.md's table of limits states are the service's own: for each setting
the table gives a default, the environment setting it to that value changes nothing, and setting
it to anything else changes something (the setting is read). A default loosened in the code and
not in the docs fails here, as does a documented default no setting reads. `REDIS_MAXMEMORY` is
docker-compose.yml's, and is found there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kronikas.config import Settings

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "security.md"
COMPOSE = {"REDIS_MAXMEMORY"}
"""Settings of docker-compose.yml, not of the service."""
DEFAULT = re.compile(r"`([A-Z][A-Z_]+)` ([0-9][0-9,]*)(?: ?(KiB|s|h|days|/s|/min))?")
UNITS = {None: 1, "/s": 1, "/min": 1, "KiB": 1024, "s": 1, "h": 3600, "days": 86400}


def documented() -> dict[str, int]:
    """Each setting of the limits table that shows a default, and that default in the
    setting's own unit (bytes, seconds, a count)."""
    rows = [line for line in DOC.read_text().splitlines() if line.startswith("| ")]
    found: dict[str, int] = {}
    for row in rows:
        cells = row.split(" | ")
        if len(cells) < 4:
            continue
        for name, number, unit in DEFAULT.findall(cells[2]):
            found[name] = int(number.replace(",", "")) * UNITS[unit or None]
    return found


def test_the_table_states_the_defaults_users_tune() -> None:
    names = set(documented())
    assert {"RATE_LIMIT_BURST", "MAX_CONNECTIONS", "OUTBOX_BYTES", "FINISHED_GAME_TTL_S"} <= names
    assert len(names) >= 15, sorted(names)


@pytest.mark.parametrize(
    ("name", "value"), sorted((n, v) for n, v in documented().items() if n not in COMPOSE)
)
def test_a_documented_default_is_the_default(name: str, value: int) -> None:
    default = Settings.from_env({})
    assert Settings.from_env({name: str(value)}) == default, f"{name} is not {value} by default"
    other = value - 1 if value > 1 else value + 1
    assert Settings.from_env({name: str(other)}) != default, f"{name} is read by no setting"


def test_the_compose_files_redis_memory_is_the_documented_one() -> None:
    compose = (ROOT / "docker-compose.yml").read_text()
    value = documented()["REDIS_MAXMEMORY"]
    setting = f"REDIS_MAXMEMORY: ${{REDIS_MAXMEMORY:-{value}mb}}"
    assert compose.count(setting) == 2  # the Redis of each profile
