// The seat-socket helper against a fake WebSocket: the protocol of docs/api.md ("The seat
// socket"), message by message, without a server.

import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { KronikasError, SeatSocket, SocketClosedError, retryAfterOfReason, socketUrl } from "../dist/index.js";

/** A WebSocket double: records what the client sends; the test plays the server. */
class FakeSocket {
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    this.onopen = this.onmessage = this.onclose = this.onerror = null;
    FakeSocket.made.push(this);
  }
  send(data) {
    assert.equal(typeof data, "string");
    this.sent.push(JSON.parse(data));
  }
  close(code = 1000, reason = "") {
    this.serverClose(code, reason);
  }
  // ---- the server's side ----
  accept() {
    this.readyState = 1;
    this.onopen?.({});
  }
  push(message) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  serverClose(code, reason = "") {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code, reason });
  }
}

const event = (version, type = "cheat.cards_played") => ({ version, type, at: "2026-01-01T00:00:00Z", data: {} });
const welcome = (version, extra = {}) => ({
  type: "welcome",
  version,
  seat: 0,
  player_id: "p1",
  role: "player",
  heartbeat_s: 15,
  idle_s: 60,
  max_bytes: 65536,
  game: null,
  ...extra,
});
const tick = () => new Promise((resolve) => setImmediate(resolve));

let open = [];
afterEach(() => {
  for (const s of open) s.close();
  open = [];
  FakeSocket.made = [];
});

function connect(options = {}) {
  const seen = [];
  const states = [];
  const socket = new SeatSocket({
    baseUrl: "https://cards.example.org/",
    gameId: "g1",
    token: "tok",
    WebSocket: FakeSocket,
    onEvent: (e) => seen.push(e.version),
    onState: (state, detail) => states.push([state, detail]),
    ...options,
  });
  open.push(socket);
  return { socket, seen, states, server: FakeSocket.made.at(-1) };
}

test("the URL is the table's socket, ws(s) for http(s), with no token in it", () => {
  assert.equal(socketUrl("https://cards.example.org/", "g 1"), "wss://cards.example.org/v1/games/g%201/socket");
  assert.equal(socketUrl("http://127.0.0.1:8000", "g1"), "ws://127.0.0.1:8000/v1/games/g1/socket");
  const { server } = connect();
  assert.equal(server.url, "wss://cards.example.org/v1/games/g1/socket");
});

test("hello is the first message: the token, the version to start after, views", () => {
  const { server } = connect({ after: 7, views: true });
  assert.deepEqual(server.sent, []);
  server.accept();
  assert.deepEqual(server.sent, [{ type: "hello", token: "tok", after: 7, views: true }]);
});

test("a spectator says hello with a null token", () => {
  const { server } = connect({ token: undefined });
  server.accept();
  assert.deepEqual(server.sent[0], { type: "hello", token: null, after: 0, views: false });
});

test("pushed events reach onEvent once each, in order; views reach onView", () => {
  const views = [];
  const { server, seen, socket } = connect({ views: true, onView: (game, version) => views.push(version) });
  server.accept();
  server.push(welcome(3, { game: { kind: "cheat", version: 3 } }));
  server.push({ type: "events", events: [event(1), event(2), event(3)], version: 3 });
  server.push({ type: "events", events: [event(3), event(4)], version: 4 });
  server.push({ type: "view", game: { kind: "cheat", version: 4 }, version: 4 });
  assert.deepEqual(seen, [1, 2, 3, 4]);
  assert.deepEqual(views, [3, 4]);
  assert.equal(socket.version, 4);
  assert.equal(socket.welcome.role, "player");
});

test("a command resolves with its result, whose events reach onEvent before later pushes", async () => {
  const { server, seen, socket } = connect();
  server.accept();
  server.push(welcome(7));
  server.push({ type: "events", events: [event(7)], version: 7 });
  const answer = socket.send({ type: "play", cards: ["7H"] }, { ifMatch: 7, id: "m-1" });
  assert.deepEqual(server.sent.at(-1), { type: "command", id: "m-1", command: { type: "play", cards: ["7H"] }, if_match: 7 });
  const result = { version: 9, events: [event(8), event(9)], game: { kind: "cheat" } };
  server.push({ type: "result", id: "m-1", result });
  server.push({ type: "events", events: [event(10)], version: 10 });
  assert.deepEqual(await answer, result);
  assert.deepEqual(seen, [7, 8, 9, 10]);
});

test("an idempotent replay's old events are not handed on twice", async () => {
  const { server, seen, socket } = connect();
  server.accept();
  server.push(welcome(9));
  server.push({ type: "events", events: [event(8), event(9)], version: 9 });
  const answer = socket.send({ type: "call" }, { id: "again" });
  server.push({ type: "result", id: "again", result: { version: 9, events: [event(8), event(9)], game: {} } });
  assert.equal((await answer).version, 9);
  assert.deepEqual(seen, [8, 9]);
});

test("a refused command rejects with a KronikasError carrying code and retry_after", async () => {
  const problems = [];
  const { server, socket } = connect({ onProblem: (e) => problems.push(e.code) });
  server.accept();
  server.push(welcome(1));
  const answer = socket.send({ type: "call" }, { id: "c-1" });
  server.push({
    type: "problem",
    id: "c-1",
    problem: { status: 409, code: "not_your_turn", title: "Conflict", detail: "It is seat 2's turn." },
    retry_after: null,
  });
  await assert.rejects(answer, (err) => {
    assert.ok(err instanceof KronikasError);
    assert.deepEqual([err.status, err.code, err.detail, err.retryAfter], [409, "not_your_turn", "It is seat 2's turn.", null]);
    return true;
  });
  const limited = socket.send({ type: "call" }, { id: "c-2" });
  server.push({
    type: "problem",
    id: "c-2",
    problem: { status: 429, code: "rate_limited", title: "Too Many Requests", detail: "Slow down." },
    retry_after: 3,
  });
  await assert.rejects(limited, (err) => err.retryAfter === 3 && err.code === "rate_limited");
  server.push({
    type: "problem",
    id: null,
    problem: { status: 422, code: "invalid_request", title: "Unprocessable", detail: "Not JSON." },
    retry_after: null,
  });
  assert.deepEqual(problems, ["invalid_request"]);
});

test("commands sent before the welcome wait for it", () => {
  const { server, socket } = connect();
  socket.send({ type: "keep" }, { id: "early" }).catch(() => {});
  server.accept();
  assert.deepEqual(server.sent.map((m) => m.type), ["hello"]);
  server.push(welcome(2));
  assert.deepEqual(server.sent.map((m) => m.type), ["hello", "command"]);
  assert.equal(server.sent[1].id, "early");
});

test("after 1001 it reconnects at once, resumes after the last version and resends what is unanswered", async () => {
  const { server, seen, socket, states } = connect();
  server.accept();
  server.push(welcome(5));
  server.push({ type: "events", events: [event(4), event(5)], version: 5 });
  const answer = socket.send({ type: "pass" }, { id: "p-1" });
  server.serverClose(1001, "shutting down");
  assert.deepEqual(states.at(-1), ["waiting", { delayMs: 0, code: 1001, reason: "shutting down" }]);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const second = FakeSocket.made.at(-1);
  assert.notEqual(second, server);
  second.accept();
  assert.deepEqual(second.sent, [{ type: "hello", token: "tok", after: 5, views: false }]);
  second.push(welcome(6));
  assert.deepEqual(second.sent[1], { type: "command", id: "p-1", command: { type: "pass" } });
  second.push({ type: "result", id: "p-1", result: { version: 6, events: [event(6)], game: {} } });
  assert.equal((await answer).version, 6);
  assert.deepEqual(seen, [4, 5, 6]);
});

test("a command sent again that meets a 429 waits retry_after and goes once more under its id", async () => {
  const { server, socket } = connect();
  server.accept();
  server.push(welcome(5));
  const answer = socket.send({ type: "pass" }, { id: "p-1" });
  server.serverClose(1001, "shutting down"); // its answer lost: it may have been applied
  await new Promise((resolve) => setTimeout(resolve, 5));
  const second = FakeSocket.made.at(-1);
  second.accept();
  second.push(welcome(6));
  const limited = (id, retry_after) => ({
    type: "problem",
    id,
    problem: { status: 429, code: "rate_limited", title: "Too Many Requests", detail: "Slow down." },
    retry_after,
  });
  second.push(limited("p-1", 0)); // a retry is paid for as any command
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(
    second.sent.filter((m) => m.type === "command").map((m) => m.id),
    ["p-1", "p-1"],
  );
  second.push({ type: "result", id: "p-1", result: { version: 6, events: [event(6)], game: {} } });
  assert.equal((await answer).version, 6);
  const first = socket.send({ type: "call" }, { id: "c-1" }); // sent once: its 429 is the caller's
  second.push(limited("c-1", 0));
  await assert.rejects(first, (err) => err.code === "rate_limited");
});

test("a reconnect does not cut short the wait of a command that met a 429", async () => {
  const { server, socket } = connect();
  server.accept();
  server.push(welcome(5));
  socket.send({ type: "pass" }, { id: "p-1" }).catch(() => {});
  server.serverClose(1001, "shutting down"); // its answer lost: it is sent again
  await new Promise((resolve) => setTimeout(resolve, 5));
  const second = FakeSocket.made.at(-1);
  second.accept();
  second.push(welcome(5));
  second.push({
    type: "problem",
    id: "p-1",
    problem: { status: 429, code: "rate_limited", title: "Too Many Requests", detail: "Slow down." },
    retry_after: 3600,
  });
  second.serverClose(1001, "shutting down");
  await new Promise((resolve) => setTimeout(resolve, 5));
  const third = FakeSocket.made.at(-1);
  assert.notEqual(third, second);
  third.accept();
  third.push(welcome(5));
  await tick();
  assert.deepEqual(third.sent.filter((m) => m.type === "command"), []); // an hour to wait yet
});

test("429 and 503 at hello wait as long as the close reason says", async () => {
  const { server, states } = connect();
  server.accept();
  server.serverClose(4429, "rate_limited retry_after=4");
  const [state, detail] = states.at(-1);
  assert.equal(state, "waiting");
  assert.ok(detail.delayMs >= 4000, `${detail.delayMs}`); // never sooner than the server said
  assert.equal(retryAfterOfReason("unavailable retry_after=2"), 2);
  assert.equal(retryAfterOfReason("slow"), null);
});

for (const [code, reason] of [
  [4401, "unauthorized"],
  [4404, "not_found"],
  [4400, "bad hello"],
]) {
  test(`close ${code} ends it: no reconnect, waiting commands rejected`, async () => {
    const { server, socket, states } = connect();
    server.accept();
    server.push(welcome(1));
    const answer = socket.send({ type: "call" }, { id: "x" });
    server.serverClose(code, reason);
    await assert.rejects(answer, (err) => err instanceof SocketClosedError && err.code === code);
    await socket.closed;
    assert.deepEqual(states.at(-1), ["stopped", { code, reason }]);
    await tick();
    assert.equal(FakeSocket.made.length, 1);
    await assert.rejects(socket.send({ type: "call" }), SocketClosedError);
  });
}

test("1009 refuses the commands waiting as too large, and the socket goes on", async () => {
  const { server, socket, states } = connect();
  server.accept();
  server.push(welcome(1));
  const answer = socket.send({ type: "call" }, { id: "big" });
  server.serverClose(1009, "too_big");
  await assert.rejects(answer, (err) => err instanceof KronikasError && err.status === 413 && err.code === "payload_too_large");
  assert.equal(states.at(-1)[0], "waiting");
});

test("maxFailedOpens: that many closes before a first welcome stop it, so a caller can fall back", async () => {
  const { server, socket, states } = connect({ maxFailedOpens: 2 });
  const answer = socket.send({ type: "call" }, { id: "early" });
  server.serverClose(1006);
  assert.equal(states.at(-1)[0], "waiting");
  while (FakeSocket.made.length < 2) await new Promise((resolve) => setTimeout(resolve, 20)); // the backoff
  const second = FakeSocket.made.at(-1);
  second.serverClose(1006);
  await assert.rejects(answer, (err) => err instanceof SocketClosedError && err.code === 1006);
  assert.deepEqual(states.at(-1), ["stopped", { code: 1006, reason: "" }]);
  assert.equal(second.sent.length, 0); // never welcomed: the command was never sent
});

test("maxFailedOpens counts only before the first welcome", async () => {
  const { server, states } = connect({ maxFailedOpens: 1 });
  server.accept();
  server.push(welcome(1));
  server.serverClose(1006);
  assert.equal(states.at(-1)[0], "waiting");
});

test("answerTimeoutMs: a command with no answer by then is rejected as a lost request", async () => {
  const { server, socket } = connect({ answerTimeoutMs: 10 });
  server.accept();
  server.push(welcome(1));
  const answer = socket.send({ type: "call" }, { id: "slow" });
  await assert.rejects(answer, (err) => err instanceof KronikasError && err.status === 0);
  server.push({ type: "result", id: "slow", result: { version: 2, events: [], game: {} } }); // too late: ignored
});

test("close() ends it with 1000 and rejects what waits", async () => {
  const { server, socket } = connect();
  server.accept();
  server.push(welcome(1));
  const answer = socket.send({ type: "call" }, { id: "y" });
  socket.close();
  await assert.rejects(answer, SocketClosedError);
  assert.equal(server.readyState, 3);
  await tick();
  assert.equal(FakeSocket.made.length, 1);
});

test("Node has no global WebSocket: the helper says to pass one", { skip: "WebSocket" in globalThis }, () => {
  assert.throws(() => new SeatSocket({ baseUrl: "http://x", gameId: "g" }), /WebSocket/);
});
