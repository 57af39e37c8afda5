"""The Grafana dashboard (docs/grafana/kronikas.json) and the operations page (docs/operations.md)
name only metric families the service has, and every family is on both: a family renamed, or
one added and forgotten, fails here instead of showing an empty panel to whoever is on call."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from kronikas import metrics

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "docs" / "grafana" / "kronikas.json"
OPERATIONS = ROOT / "docs" / "operations.md"
NAME = re.compile(r"\bkronikas_[a-z_]+\b")
SERIES = ("_bucket", "_sum", "_count")


def families() -> dict[str, str]:
    """Each family of a scrape, by the name its samples carry (`# TYPE`), with its type."""
    metrics.enable()
    text = metrics.exposition().decode()
    return dict(re.findall(r"^# TYPE (\S+) (\S+)$", text, re.MULTILINE))


def sample_names() -> set[str]:
    """Every name a sample of a scrape may have."""
    names = set()
    for name, kind in families().items():
        names |= {name + s for s in SERIES} if kind == "histogram" else {name}
    return names


def expressions(node: Any) -> list[str]:
    """Every query expression of the dashboard (and of its template variables)."""
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("expr", "query", "definition") and isinstance(value, str):
                found.append(value)
            else:
                found += expressions(value)
    elif isinstance(node, list):
        for item in node:
            found += expressions(item)
    return found


def test_every_expression_of_the_dashboard_names_a_family_the_service_has() -> None:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    known = sample_names()
    used = [name for expr in expressions(dashboard) for name in NAME.findall(expr)]
    assert used, "the dashboard should query the service's metrics"
    assert not set(used) - known, f"no such metric: {sorted(set(used) - known)}"


def test_every_family_is_on_the_dashboard_and_in_the_operations_page() -> None:
    dashboard = DASHBOARD.read_text(encoding="utf-8")
    page = OPERATIONS.read_text(encoding="utf-8")
    for name in families():
        assert name in dashboard, f"{name} is on no panel"
        assert f"`{name}`" in page, f"docs/operations.md does not describe {name}"


def test_every_family_the_operations_page_names_exists() -> None:
    known = sample_names() | set(families())  # a histogram by its family's name too
    named = set(NAME.findall(OPERATIONS.read_text(encoding="utf-8")))
    assert not named - known, f"docs/operations.md names what is not served: {named - known}"


def test_no_panel_queries_a_label_that_could_hold_a_table_id() -> None:
    dashboard = DASHBOARD.read_text(encoding="utf-8")
    for label in ("game_id", "table", "token", "path"):
        assert not re.search(rf"\b{label}\s*[=!]~?", dashboard), label
