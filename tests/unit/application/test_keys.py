"""The idempotency keys a table's log records (`Keys`): each token's most recent, for a day."""

from __future__ import annotations

from kronikas.application.tables import (
    KEY_TTL_MS,
    KEYS_PER_TOKEN,
    Accepted,
    Keys,
    body_hash,
    key_hash,
    key_mark,
)
from kronikas.application.wire import ms_of, utc_text

AT = "2026-12-03T10:00:00.000Z"


def key(name: str) -> str:
    """A key as the use case scopes it: 16 characters (`key_hash`)."""
    return name.rjust(16, "0")


def fp(name: str) -> str:
    """A body's hash as the use case makes it: 16 characters (`body_hash`)."""
    return name.rjust(16, "0")


def add(keys: Keys, token: str, name: str, fingerprint: str, version: int, at: str = AT) -> None:
    keys.add(key_mark(token * 64, key(name), fp(fingerprint)), version, at)


def test_a_key_is_remembered_with_its_body_and_version_for_a_day() -> None:
    keys = Keys()
    add(keys, "a", "k1", "fp1", 7)
    at = ms_of(AT)
    assert keys.get(key("k1"), at) == Accepted(fp("fp1"), 7, at)
    assert keys.get(key("k1"), at + KEY_TTL_MS - 1) == Accepted(fp("fp1"), 7, at)
    assert keys.get(key("k1"), at + KEY_TTL_MS) is None
    assert keys.get(key("k2"), at) is None


def test_a_token_keeps_its_most_recent_keys_and_another_tokens_stay() -> None:
    keys = Keys()
    add(keys, "u", "other", "fp", 2)
    for i in range(KEYS_PER_TOKEN + 2):
        add(keys, "t", f"k{i}", "fp", 3 + i)
    now = ms_of(AT)
    assert keys.get(key("k0"), now) is None
    assert keys.get(key("k1"), now) is None
    assert keys.get(key("k2"), now) == Accepted(fp("fp"), 5, now)
    assert keys.get(key(f"k{KEYS_PER_TOKEN + 1}"), now) is not None
    assert keys.get(key("other"), now) == Accepted(fp("fp"), 2, now)


def test_a_key_accepted_again_after_its_day_is_counted_once() -> None:
    keys = Keys()
    later = utc_text(ms_of(AT) + KEY_TTL_MS)
    add(keys, "t", "k", "fp1", 2)
    add(keys, "t", "k", "fp2", 9, later)
    assert keys.get(key("k"), ms_of(later)) == Accepted(fp("fp2"), 9, ms_of(later))
    for i in range(KEYS_PER_TOKEN - 1):  # with "k", the token's 100: nothing dropped yet
        add(keys, "t", f"n{i}", "fp", 10 + i, later)
    assert keys.get(key("k"), ms_of(later)) is not None
    add(keys, "t", "last", "fp", 500, later)
    assert keys.get(key("k"), ms_of(later)) is None


def test_a_mark_is_whose_which_and_what_body_in_42_characters() -> None:
    token_hash = "0123456789abcdef" * 4
    mark = key_mark(token_hash, key_hash(token_hash, "move-1"), body_hash(b'{"type":"accept"}'))
    assert len(mark) == 42 and mark.startswith("01234567.")
    assert key_hash(token_hash, "move-1") != key_hash("f" * 64, "move-1"), "keys are a token's"
    assert "." not in key_hash(token_hash, "a.b") + body_hash(b".")
