"""The MCP SDK's log lines, through the service's log (api/logs.py) and nowhere else.

The SDK logs to the `mcp` loggers, which have no handler of their own: without this, Python's
last-resort handler writes each warning and error raw to stderr — a traceback that quotes the
caller's input whole, a prompt's 64 KB name twice. Here each record of the SDK at `LEVEL` or
above becomes one line of the service's logger `kronikas.mcp.sdk`, in the service's format, its
text scrubbed of token-shaped values and cut to `TEXT_MAX` characters, a traceback to `EXC_MAX`
(each of its lines to `LINE_MAX`).
"""

from __future__ import annotations

import logging

from kronikas.api.mcp.bounds import cut, scrubbed

LEVEL = logging.WARNING
"""The SDK's own lines below this (a tool that refused its arguments, a session started) are
the service's answers, already in the access log: they are dropped."""
TEXT_MAX = 500
EXC_MAX = 4000
LINE_MAX = 200
"""The longest line of a traceback kept: an exception's message quotes what it refused."""
SDK_LOGGERS = ("mcp", "mcp_types")
TARGET = "kronikas.mcp.sdk"


class Bridge(logging.Handler):
    """Hands each record of the SDK to the service's logger, bounded and scrubbed."""

    def __init__(self) -> None:
        super().__init__(LEVEL)
        self.target = logging.getLogger(TARGET)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if not self.target.isEnabledFor(record.levelno):
                return
            extra = {"sdk_logger": record.name[:100]}
            if record.exc_info:
                text = logging.Formatter().formatException(record.exc_info)
                lines = (cut(line, LINE_MAX) for line in text.splitlines())
                extra["exc"] = cut(scrubbed("\n".join(lines)), EXC_MAX)
            text = cut(scrubbed(record.getMessage()[: TEXT_MAX * 2]), TEXT_MAX)
            self.target.log(record.levelno, "%s", text, extra=extra)
        except Exception:  # a log line is never worth a failed request
            return


def bridge_sdk_logs() -> None:
    """Route the SDK's loggers to the service's log, once (every app made in a process calls
    this; the last bridge put in place is the one kept)."""
    for name in SDK_LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers[:] = [Bridge()]
        logger.setLevel(LEVEL)
        logger.propagate = False
