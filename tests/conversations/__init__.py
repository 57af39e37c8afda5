"""Recorded seat-socket conversations, replayed against every client of the protocol.

Each `<name>.jsonl` is one conversation with the service, a line a frame, in order: `{"send":
…}` what the client sends, `{"receive": …}` what the server answers, `{"close": [code,
reason]}` the server closing the connection (a line after a close belongs to the client's next
connection, when it reconnects). `record.py` records them from the service itself (in-process,
on the test Redis, tables dealt from a seed); `test_recorded.py` records them again and diffs
(`make conversations` rewrites them). `replay.py` is a small WebSocket server that plays the
recorded answers; the Python SDK, the TypeScript client (in Node) and the web table's copy of it
(in Chromium) are each replayed against it and must send exactly the recorded frames and
understand exactly the recorded answers.
"""
