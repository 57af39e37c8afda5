"""The seat socket's messages (api/socket.py): what the server reads, and what it documents.

Every message is one JSON object in a text frame, tagged by `type`. The server decodes the
client's messages with the structs here (`ClientMessage`), keeping a command's own bytes as they
came (`msgspec.Raw`): they are its `Idempotency-Key`'s body, and must hash as HTTP's do. It writes
its own messages as bytes (api/socket.py), around JSON the use cases made already. The OpenAPI
document describes both directions with structs made for the app's games (`socket_messages`):
`SocketClientMessage` and `SocketServerMessage`, tagged unions on `type`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

import msgspec

from kronikas.api.inputs import VERSION_LIMIT
from kronikas.api.problems import Problem
from kronikas.application.wire import Wire, list_of

MODULE = __name__

TOKEN_DOC = "A seat's or the host's token; null (or left out) for a spectator."
AFTER_DOC = "Send the events after this version (the last one seen; 0: from the start)."
VIEWS_DOC = "Also send the viewer's view after each `events` message (and in `welcome`)."
ID_DOC = (
    "The command's id, chosen by the client: its `Idempotency-Key` (1–128 printable ASCII "
    "characters, `!` to `~`), per token, in the same record as HTTP's."
)
IF_MATCH_DOC = "Apply only at this version (as `If-Match`); otherwise `version_mismatch`."

Id = Annotated[str, msgspec.Meta(min_length=1, max_length=128, pattern="^[!-~]{1,128}$")]
After = Annotated[int, msgspec.Meta(ge=0, le=2**31)]
Version = Annotated[int, msgspec.Meta(ge=0, lt=VERSION_LIMIT)]


# --- What the server reads -------------------------------------------------------------------


class Hello(msgspec.Struct, tag="hello", tag_field="type", forbid_unknown_fields=True):
    token: str | None = None
    after: After = 0
    views: bool = False


class Command(msgspec.Struct, tag="command", tag_field="type", forbid_unknown_fields=True):
    id: Id
    command: msgspec.Raw
    if_match: Version | None = None


class Ping(msgspec.Struct, tag="ping", tag_field="type", forbid_unknown_fields=True):
    pass


ClientMessage = Union[Hello, Command, Ping]  # noqa: UP007
decoder: msgspec.json.Decoder[Hello | Command | Ping] = msgspec.json.Decoder(ClientMessage)


# --- What the document says --------------------------------------------------------------------


def _message(
    name: str, tag: str, doc: str, fields: list[tuple[Any, ...]], request: bool = False
) -> Any:
    made = msgspec.defstruct(
        name,
        fields,
        tag_field="type",
        tag=tag,
        frozen=True,
        forbid_unknown_fields=request,
        omit_defaults=request,  # a client may leave out what has a default
        module=MODULE,
    )
    made.__doc__ = doc
    return made


def _described(kind: Any, description: str) -> Any:
    return Annotated[kind, msgspec.Meta(description=description)]


def socket_messages(wire: Wire, command: Any) -> tuple[Any, Any]:
    """The socket's message unions for the games of `wire` (`command`: their command union):
    `SocketClientMessage` and `SocketServerMessage`, as the OpenAPI document names them."""
    hello = _message(
        "SocketHello",
        "hello",
        "The first message, within `SOCKET_HELLO_S` seconds: who is watching, and from where.",
        [
            ("token", _described(str | None, TOKEN_DOC), None),
            ("after", _described(After, AFTER_DOC), 0),
            ("views", _described(bool, VIEWS_DOC), False),
        ],
        request=True,
    )
    command_message = _message(
        "SocketCommand",
        "command",
        "A move: answered by a `result` or a `problem` with the same `id`.",
        [
            ("id", _described(Id, ID_DOC)),
            ("command", _described(command, "What `POST …/commands` takes.")),
            ("if_match", _described(Version | None, IF_MATCH_DOC), None),
        ],
        request=True,
    )
    ping = _message("SocketPing", "ping", "Keeps the socket alive; answered by `pong`.", [], True)
    events = list_of(wire.GameEvent)
    role = Literal["player", "host", "spectator"]
    welcome = _message(
        "SocketWelcome",
        "welcome",
        "The answer to `hello`; the events after its `after` follow.",
        [
            ("version", _described(int, "The table's version now.")),
            ("seat", _described(int | None, "The viewer's seat (null: not a player).")),
            ("player_id", _described(str | None, "The viewer's player id, when a player.")),
            ("role", role),
            ("heartbeat_s", _described(int, "Seconds between heartbeats while all is quiet.")),
            ("idle_s", _described(int, "Seconds of silence from the client before it is closed.")),
            ("max_bytes", _described(int, "The largest message the server takes.")),
            ("game", _described(wire.GameView | None, "The view, when `views` was asked.")),
        ],
    )
    events_message = _message(
        "SocketEvents",
        "events",
        "Events the viewer has not seen, as the stream sends them, versions without gaps.",
        [("events", events), ("version", _described(int, "The last event's version."))],
    )
    view = _message(
        "SocketView",
        "view",
        "The viewer's view after an `events` message (only when `views` was asked).",
        [("game", wire.GameView), ("version", int)],
    )
    result = _message(
        "SocketResult",
        "result",
        "A command accepted (or an idempotent replay of one): what `POST …/commands` answers.",
        [("id", str), ("result", wire.CommandResult)],
    )
    problem = _message(
        "SocketProblem",
        "problem",
        "A command refused, or a malformed message (`id` null): the problem HTTP would answer.",
        [
            ("id", _described(str | None, "The command's id; null for any other message.")),
            ("problem", Problem),
            ("retry_after", _described(int | None, "Seconds to wait (on 429 and 503).")),
        ],
    )
    heartbeat = _message(
        "SocketHeartbeat",
        "heartbeat",
        "Sent every `heartbeat_s` while nothing else was.",
        [("version", _described(int, "The latest version this socket was sent."))],
    )
    pong = _message("SocketPong", "pong", "The answer to `ping`.", [])
    client: Any = Annotated[
        _union(hello, command_message, ping),
        msgspec.Meta(description="What a client sends on `/v1/games/{id}/socket`."),
    ]
    server: Any = Annotated[
        _union(welcome, events_message, view, result, problem, heartbeat, pong),
        msgspec.Meta(description="What the server sends on `/v1/games/{id}/socket`."),
    ]
    return client, server


def _union(*members: Any) -> Any:
    return Union[members]  # noqa: UP007


__all__ = ["ClientMessage", "Command", "Hello", "Ping", "decoder", "socket_messages"]
