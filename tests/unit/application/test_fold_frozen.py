"""The folded table is a frozen value (issue 39, item 2): a new `Fold` each version, made by the
repository (application/folds.py), which keeps the table's memos (roles, latest events, keys,
seats looked up) beside it. Nothing else can change a fold, so none changes one in place."""

from __future__ import annotations

import pytest

from kronikas.application.tables import Fold
from tests.apps import ENGINES


def _fold() -> Fold:
    engine = ENGINES["cheat"]
    state = engine.initial_state(engine.options(), False)
    return Fold("0123456789abcdef", "cheat", engine, None, 1, state, 0)


def test_a_fold_cannot_be_changed_in_place() -> None:
    fold = _fold()
    with pytest.raises(AttributeError):
        fold.version = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        fold.state = None  # type: ignore[misc]


def test_a_fold_carries_no_memo() -> None:
    """Its fields are the game as folded; a mutable field would be a memo anyone could change."""
    memos = ("dict", "list", "set", "deque", "Recent", "Keys")
    for name, hint in Fold.__annotations__.items():
        assert not str(hint).startswith(memos), f"{name}: {hint}"
