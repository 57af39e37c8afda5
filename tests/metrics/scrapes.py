"""Reading `GET /metrics` in the tests: its samples, summed by name and labels."""

from __future__ import annotations

from collections.abc import Mapping

import httpx
from prometheus_client.parser import text_string_to_metric_families

Samples = Mapping[tuple[str, frozenset[tuple[str, str]]], float]


def parsed(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Each sample of a scrape, by its name and labels."""
    found: dict[tuple[str, frozenset[tuple[str, str]]], float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return found


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of the samples named `name` whose labels include `labels`."""
    wanted = set(labels.items())
    return sum(v for (n, have), v in samples.items() if n == name and wanted <= have)


def label_values(samples: Samples) -> set[str]:
    """Every label value of a scrape."""
    return {value for (_, labels) in samples for _, value in labels}


async def scrape(url: str, token: str | None = None) -> tuple[str, Samples]:
    """One scrape on a connection of its own (with several workers, any of them answers)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=url, timeout=10) as client:
        r = await client.get("/metrics", headers=headers)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    return r.text, parsed(r.text)
