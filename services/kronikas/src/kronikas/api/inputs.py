"""Every header value the API reads, parsed for what it is (docs/api.md, "Size limits").

One place for both paths a request takes: the framework's routes (api/routes.py) and the command
lane ahead of it (api/lane.py). Each value is matched whole against its ASCII form before any
conversion: `str.isdigit()` is true for `¹` or `٣`, which `int()` then refuses (a 500 once).
Header values arrive decoded as Latin-1, so every byte is one character here.
"""

from __future__ import annotations

import re

from kronikas.application.errors import InvalidRequest, Unauthorized, UnsupportedMediaType
from kronikas.application.names import MARKS_PER_BASE, shown_name

_VERSION = re.compile(r"[ \t]*([0-9]{1,12})[ \t]*")
_IF_MATCH = re.compile(r'[ \t]*(?:W/)?"?([0-9]{1,12})"?[ \t]*')
_IDEMPOTENCY_KEY = re.compile(r"[\x21-\x7e]{1,128}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")
"""Tokens are `host_`/`seat_` and `secrets.token_urlsafe(24)`: this alphabet, with room."""
_BEARER = re.compile(r"(?i:bearer)[ \t]+([A-Za-z0-9_-]{1,256})[ \t]*", re.ASCII)
_LENGTH = re.compile(r"[ \t]*([0-9]{1,18})[ \t]*")

BAD_TOKEN = "The Authorization header must be `Bearer <token>`."


def last_event_id(value: str) -> int:
    """`Last-Event-ID`: a version, 1–12 ASCII digits; 422 otherwise."""
    found = _VERSION.fullmatch(value)
    if found is None:
        raise InvalidRequest("Last-Event-ID must be a version number (1–12 digits 0–9).")
    return int(found[1])


def if_match(value: str | None) -> int | None:
    """`If-Match: "<version>"` (quotes and `W/` optional), 1–12 ASCII digits; 422 otherwise."""
    if value is None:
        return None
    found = _IF_MATCH.fullmatch(value)
    if found is None:
        raise InvalidRequest('If-Match must be a version in quotes, such as "12".')
    return int(found[1])


VERSION_LIMIT = 10**12
"""The first version no way in takes: `If-Match` is 1–12 digits; the socket's `if_match` and
MCP's `expected_version` are numbers below it."""


def expected_version(value: int | None) -> int | None:
    """A version given as a number (MCP's `expected_version`), in `If-Match`'s range; 422
    otherwise, as an `If-Match` of 13 digits is."""
    if value is not None and not 0 <= value < VERSION_LIMIT:
        raise InvalidRequest("A version is a whole number of at most 12 digits.")
    return value


def idempotency_key(value: str | None) -> str | None:
    """`Idempotency-Key`: 1–128 visible ASCII characters (0x21–0x7E); 422 otherwise."""
    if value is not None and _IDEMPOTENCY_KEY.fullmatch(value) is None:
        raise InvalidRequest("Idempotency-Key must be 1–128 visible ASCII characters.")
    return value


def token(value: str) -> str:
    """A token given as `?token=`: its alphabet and length, else 401 like any unknown token."""
    if _TOKEN.fullmatch(value) is None:
        raise Unauthorized("A token is 1–256 letters, digits, `_` or `-`.")
    return value


def bearer(header: str | None) -> str | None:
    """The token of `Authorization: Bearer <token>`, None without the header; 401 when it is
    malformed or the token is not of the tokens' alphabet."""
    if header is None:
        return None
    found = _BEARER.fullmatch(header)
    if found is None:
        raise Unauthorized(BAD_TOKEN)
    return found[1]


def content_length(value: str | None) -> int | None:
    """`Content-Length` as ASCII digits (the HTTP server frames the body by it; this is the
    lane's early size check); 422 otherwise."""
    if value is None:
        return None
    found = _LENGTH.fullmatch(value)
    if found is None:
        raise InvalidRequest("Content-Length must be a number.")
    return int(found[1])


def is_json(content_type: str) -> bool:
    """Whether a `Content-Type` says `application/json`, with no parameter but `charset=utf-8`
    (names and values case-insensitive, the value quoted or not)."""
    media, *parameters = content_type.split(";")
    if media.strip(" \t").lower() != "application/json":
        return False
    for parameter in parameters:
        name, equals, value = parameter.strip(" \t").partition("=")
        if not name and not equals:
            continue  # an empty parameter, as in `application/json;`
        value = value.strip(" \t")
        if len(value) >= 2 and value[0] == value[-1] == '"':
            value = value[1:-1]
        if name.strip(" \t").lower() != "charset" or value.lower() != "utf-8":
            return False
    return True


def json_body(content_type: str | None, has_body: bool) -> None:
    """415 unless a request that has a body says `application/json` (a request with none needs
    no type). Other types are refused so a page elsewhere cannot post `text/plain` bodies,
    which browsers send without asking (no CORS preflight)."""
    if content_type is None and not has_body:
        return
    if content_type is None or not is_json(content_type):
        raise UnsupportedMediaType("The body must be JSON, sent as `application/json`.")


NAME_MAX = 32
BAD_NAME = (
    f"name must be 1–{NAME_MAX} printable characters that show: not only spaces, marks or "
    f"invisible characters, and at most {MARKS_PER_BASE} combining marks on one character."
)


def name(value: str) -> str:
    """A player's name in NFKC form, spaces trimmed and runs of them made one; 422 for a name
    that renders blank, holds an invisible or control character, stacks combining marks, or is
    not 1–32 characters once normalised (`application.names.shown_name`)."""
    return shown_name(value, NAME_MAX, BAD_NAME)
