"""What an MCP error may say back about its request (docs/api.md, MCP: errors and limits): at
most 40 characters of any input in a row, no token-shaped value, at most 300 characters —
whatever text the SDK made of the input (quoted whole, cut short, repeated, wrapped in other
words)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from kronikas.api.mcp.bounds import MESSAGE_MAX, TOKEN_SHAPED, Inputs
from kronikas.application.errors import EXCERPT
from tests.conftest import examples

TOKEN_ALPHABET = st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
TOKENS = st.builds(
    lambda prefix, body: f"{prefix}_{body}",
    st.sampled_from(["host", "seat"]),
    st.text(TOKEN_ALPHABET, min_size=32, max_size=32),
)
VALUES = st.one_of(
    st.text(min_size=0, max_size=3000),
    st.text(st.sampled_from("ab"), min_size=30, max_size=500),  # runs that repeat
    st.builds(lambda a, t, b: a + t + b, st.text(max_size=200), TOKENS, st.text(max_size=200)),
)


def quotes(text: str, value: str) -> bool:
    run = EXCERPT + 1
    return any(text[i : i + run] in value for i in range(len(text) - run + 1))


@st.composite
def quoting(draw: st.DrawFn) -> tuple[dict[str, object], str]:
    """A request, and a text made of its values the ways an SDK's message quotes them."""
    values = draw(st.lists(VALUES, min_size=1, max_size=4))
    request = {"jsonrpc": "2.0", "id": 1, "method": values[0], "params": {"v": values[1:]}}
    parts: list[str] = []
    for value in values:
        how = draw(st.sampled_from(["whole", "repr", "head", "tail", "twice", "json"]))
        parts.append(
            {
                "whole": value,
                "repr": repr(value),
                "head": value[: draw(st.integers(0, len(value)))],
                "tail": value[draw(st.integers(0, len(value))) :],
                "twice": value + value,
                "json": json.dumps(value),
            }[how]
        )
        parts.append(draw(st.sampled_from(["", ": ", " … ", "Unknown prompt: ", "'"])))
    return request, "".join(parts)


@settings(max_examples=examples(400), deadline=None)
@given(quoting())
def test_an_error_quotes_at_most_40_characters_of_any_input_and_no_token(
    case: tuple[dict[str, object], str],
) -> None:
    request, text = case
    body = json.dumps(request).encode()
    inputs = Inputs(body, json.loads(body))
    said = inputs.bounded(text, -32602)
    assert len(said) <= MESSAGE_MAX
    for value in [request["method"], *request["params"]["v"]]:  # type: ignore[index]
        assert not quotes(said, value), (said, value[:80])
        for token in TOKEN_SHAPED.findall(value):
            assert token not in said
    assert not inputs.quoted(said)


def test_a_short_input_is_quoted_whole_and_a_long_one_as_its_first_40_characters() -> None:
    name = "kronikas://rules/" + "y" * 100
    body = json.dumps({"method": "resources/read", "params": {"uri": name}}).encode()
    inputs = Inputs(body, json.loads(body))
    assert inputs.bounded(f"Unknown resource: {name}") == f"Unknown resource: {name[:40]}…"
    assert inputs.bounded("Unknown resource: kronikas://rules/x") == (
        "Unknown resource: kronikas://rules/x"
    )
