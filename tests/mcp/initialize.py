"""The first JSON-RPC request of an MCP session, as the tests that speak to `/mcp` raw send it."""

from __future__ import annotations

from typing import Any


def initialize_request(client: str = "test", version: str = "1") -> dict[str, Any]:
    """An `initialize` request from a client named `client` (at `version`)."""
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": client, "version": version},
        },
    }
