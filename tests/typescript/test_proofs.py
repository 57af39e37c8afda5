"""The TypeScript client's verifier (`verifyOpening`, `OpeningsChecker`, dist/ as committed) and
the Python SDK's (`kronikas_client.proofs`) answer alike on the same openings, made by the
service's own `kronikas_rules.proofs` for every deck size the games use: every opening proves its
card, one byte changed in any part of one is refused, and the collectors find the same problems."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from kronikas_client.proofs import Openings, verify

from tests.deals import DECKS, PARTS, every_case, scenarios
from tests.typescript.node import node_or_skip, package_dist, run

SCRIPT = Path(__file__).with_name("proofs.mjs")


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What the TypeScript client answers to the cases (and the cases)."""
    node, dist = node_or_skip(), package_dist()
    cases = {"cases": every_case(), "scenarios": scenarios()}
    path = tmp_path_factory.mktemp("proofs") / "cases.json"
    path.write_text(json.dumps(cases))
    done = run([node, str(SCRIPT), str(path), str(dist)])
    return cases | {"typescript": json.loads(done.stdout)}


def test_typescript_proves_every_opening_and_refuses_each_byte_changed(
    answers: dict[str, Any],
) -> None:
    cases, verified = answers["cases"], answers["typescript"]["verified"]
    assert len(verified) == len(cases)
    assert {c["deck_size"] for c in cases if c["part"] is None} == set(DECKS)
    assert {c["part"].split("[")[0] for c in cases if c["part"]} == set(PARTS)
    wrong = [(c["part"], c["deck_size"]) for c, ok in zip(cases, verified, strict=True)
             if ok != (c["part"] is None)]  # fmt: skip
    assert wrong == []


def test_python_and_typescript_agree_on_every_opening(answers: dict[str, Any]) -> None:
    cases, verified = answers["cases"], answers["typescript"]["verified"]
    python = [verify(c["opening"], c["commitment"], c["deck_size"]) for c in cases]
    assert python == verified


def test_python_and_typescript_collectors_find_the_same_problems(answers: dict[str, Any]) -> None:
    played = answers["typescript"]["scenarios"]
    for steps, typescript in zip(answers["scenarios"], played, strict=True):
        seen = Openings()
        python = [getattr(seen, call)(*args) for call, *args in steps]
        assert {"answers": python, "problems": seen.problems} == typescript
    found = [p for s in played for p in s["problems"]]
    assert len(found) >= 6  # the dishonest scenarios are found, not only the honest ones passed
