"""What `/mcp` may say back about its input (docs/api.md, MCP: errors): no error quotes more
than `EXCERPT` characters of anything the caller sent, nor a token-shaped value, and no
message is longer than `MESSAGE_MAX`; the SDK's log lines are scrubbed and cut alike
(api/mcp/sdk_logs.py).

The SDK writes its own errors (an unknown method, prompt or resource, parameters that do not
fit), and some of them quote what they refuse whole. Rather than trust each of its texts, every
error is bounded against the request it answers: each long input the text holds is cut to its
first `EXCERPT` characters, tokens are scrubbed, the whole cut to `MESSAGE_MAX`; and should the
result still hold more than `EXCERPT` characters in a row of the request (a text that quoted
the input changed, as `repr` does), it becomes the plain name of its JSON-RPC code.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from kronikas.application.errors import EXCERPT

MESSAGE_MAX = 300
"""The longest error message (and a tool error's `detail`)."""
ID_MAX = 128
"""The longest JSON-RPC `id`, as text: a longer one is refused, never echoed."""

TOKEN_SHAPED = re.compile(r"(?:host|seat)_[A-Za-z0-9_-]{8,}|ke_[A-Za-z0-9_-]{16,}")
"""Anything that looks like one of our tokens (`host_`/`seat_` then `secrets.token_urlsafe`;
an entrant's `ke_` then 32 of them: the 16 asked for keep a tool's name such as `make_move`
whole), wherever it starts: never echoed in an error nor written in a log, whatever put it
there."""

CODE_NAMES = {
    -32700: "Parse error",
    -32600: "Invalid request",
    -32601: "Method not found",
    -32602: "Invalid params",
    -32603: "Internal error",
}


def scrubbed(text: str) -> str:
    """`text` with every token-shaped word replaced: an error never echoes a token."""
    return TOKEN_SHAPED.sub("<token>", text)


def cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Inputs:
    """What a request sent, as an error could quote it: each string (object keys included) and
    number longer than `EXCERPT` characters, and the raw body."""

    def __init__(self, body: bytes, message: Any) -> None:
        self.body = body
        self.message = message

    # Worked out only for an answer that holds an error: most answers hold none.

    @functools.cached_property
    def long(self) -> list[str]:
        return sorted(set(_long_texts(self.message)), key=len, reverse=True)

    @functools.cached_property
    def haystack(self) -> str:
        return "\0".join([*self.long, self.body.decode("utf-8", errors="replace")])

    def quoted(self, text: str) -> bool:
        """Whether `text` holds more than `EXCERPT` characters in a row of the input. Any such
        run holds one of the windows of `EXCERPT // 2 + 1` characters taken every
        `EXCERPT // 2`; only when one of those is found is every run looked for."""
        run, step = EXCERPT + 1, EXCERPT // 2
        if len(text) < run:
            return False
        window = run - step
        if not any(text[i : i + window] in self.haystack for i in range(0, len(text), step)):
            return False
        return any(text[i : i + run] in self.haystack for i in range(len(text) - run + 1))

    def bounded(self, text: str, code: int | None = None) -> str:
        """`text` as an answer may say it: each long input in it cut to an excerpt, tokens
        scrubbed, at most `MESSAGE_MAX` characters, and never a longer run of the input."""
        text = text[: MESSAGE_MAX * 2]
        for value in self.long:
            text = _excerpted(text, value)
        text = cut(scrubbed(text), MESSAGE_MAX)
        if self.quoted(text):
            return CODE_NAMES.get(code or 0, "Refused")
        return text


def _excerpted(text: str, value: str) -> str:
    """`text` with each run of `value` in it (whole, or up to the end of `text`) cut to its
    first `EXCERPT` characters."""
    head = value[: EXCERPT + 1]
    start = text.find(head)
    while start >= 0:
        n, most = EXCERPT + 1, min(len(value), len(text) - start)
        while n < most and text[start + n] == value[n]:
            n += 1
        if text[start + n : start + n + 1] == "…":  # cut short before: one ellipsis is enough
            n += 1
        text = text[:start] + value[:EXCERPT] + "…" + text[start + n :]
        start = text.find(head, start + EXCERPT + 1)
    return text


def _long_texts(value: Any, depth: int = 0) -> Iterator[str]:
    if isinstance(value, str):
        if len(value) > EXCERPT:
            yield value
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int | float):
        # (a huge integer is not written out: the raw body holds its digits)
        if not isinstance(value, int) or value.bit_length() < 512:
            text = str(value)
            if len(text) > EXCERPT:
                yield text
    elif depth > 64:
        return
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _long_texts(key, depth + 1)
            yield from _long_texts(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _long_texts(item, depth + 1)
