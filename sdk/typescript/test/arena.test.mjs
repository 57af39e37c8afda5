// The arena helper against a fake fetch: register keeps the entrant token, enter queues and
// long-polls until seated (a 409 "already queued" read as where it stands), a 429 waited out,
// play hands each seat to the player and leaves the queue on the way out, stop ends it.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Arena, KronikasError } from "../dist/index.js";

const json = (body, status = 200, headers = {}) =>
  new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
const problem = (status, code) => json({ status, code, title: code, detail: code }, status);
const entrant = { entrant_id: "e1", name: "bot", games: ["cheat"], token: "ke_abc", created_at: "now" };
const seated = (table) => ({ status: "seated", kind: "cheat", players: 2, set_id: "s1", table_id: table, seat: 1, token: `seat_${table}` });

/** A fake service: each call is recorded and answered by the next reply of its route. */
function service(routes) {
  const calls = [];
  const fetch = async (url, init) => {
    const { pathname, search } = new URL(url);
    const route = `${init.method} ${pathname}`;
    calls.push({ route, search, auth: init.headers.Authorization ?? null, body: init.body ? JSON.parse(init.body) : null });
    const replies = routes[route];
    assert.ok(replies && replies.length, `unexpected ${route}`);
    return replies.shift();
  };
  return { calls, fetch };
}

test("register keeps the token; enter long-polls until seated and hands out the seat token", async () => {
  const svc = service({
    "POST /v1/arena/entrants": [json(entrant, 201)],
    "POST /v1/arena/queue": [json({ status: "waiting", kind: "cheat", players: 2, since: "now" }, 202)],
    "GET /v1/arena/queue": [json({ status: "waiting", kind: "cheat", players: 2 }), json(seated("t1"))],
  });
  const arena = new Arena({ baseUrl: "http://svc/", fetch: svc.fetch });
  await arena.register("bot", ["cheat"]);
  assert.equal(arena.token, "ke_abc");
  const seat = await arena.enter("cheat");
  assert.deepEqual(seat, { tableId: "t1", seat: 1, token: "seat_t1", kind: "cheat", players: 2, setId: "s1" });
  assert.deepEqual(svc.calls.map((c) => c.route), [
    "POST /v1/arena/entrants",
    "POST /v1/arena/queue",
    "GET /v1/arena/queue",
    "GET /v1/arena/queue",
  ]);
  assert.equal(svc.calls[0].auth, null);
  assert.deepEqual(svc.calls[1].body, { kind: "cheat", players: 2 });
  assert.ok(svc.calls.slice(1).every((c) => c.auth === "Bearer ke_abc"));
  assert.equal(svc.calls[2].search, "?wait=25");
});

test("an entrant already queued (409) waits on; a 429 is waited out as its Retry-After says", async () => {
  const svc = service({
    "POST /v1/arena/queue": [problem(409, "already_queued")],
    "GET /v1/arena/queue": [
      json({ status: 429, code: "rate_limited", title: "t", detail: "d" }, 429, { "Retry-After": "0.01" }),
      json(seated("t2")),
    ],
  });
  const arena = new Arena({ baseUrl: "http://svc", token: "ke_x", fetch: svc.fetch });
  const seat = await arena.enter("cheat", 2, 5);
  assert.equal(seat.tableId, "t2");
});

test("a refusal throws a KronikasError; without a token nothing is sent", async () => {
  const svc = service({ "POST /v1/arena/queue": [problem(401, "unauthorized")] });
  const arena = new Arena({ baseUrl: "http://svc", token: "ke_revoked", fetch: svc.fetch });
  await assert.rejects(arena.enter("cheat"), (e) => e instanceof KronikasError && e.code === "unauthorized");
  const anonymous = new Arena({ baseUrl: "http://svc", fetch: svc.fetch });
  await assert.rejects(anonymous.leave(), (e) => e instanceof KronikasError && e.status === 401);
  assert.equal(svc.calls.length, 1);
});

test("play hands each new seat to the player; a played table not yet freed is waited out", async () => {
  const svc = service({
    "POST /v1/arena/queue": [
      json({ status: "waiting" }, 202),
      problem(409, "arena_busy"), // still seated at t1 until the service notes its end
      json({ status: "waiting" }, 202),
    ],
    "GET /v1/arena/queue": [json(seated("t1")), json(seated("t1")), json(seated("t1")), json({ status: "idle" }), json(seated("t3"))],
    "DELETE /v1/arena/queue": [json(null, 204)],
  });
  const arena = new Arena({ baseUrl: "http://svc", token: "ke_x", fetch: svc.fetch, busyS: 0.01 });
  const tables = [];
  const played = await arena.play((seat) => tables.push(seat.tableId), "cheat", 2, 2);
  assert.equal(played, 2);
  assert.deepEqual(tables, ["t1", "t3"]);
  assert.deepEqual(svc.calls.slice(2).map((c) => `${c.route}${c.search}`), [
    "POST /v1/arena/queue",
    "GET /v1/arena/queue?wait=0",
    "GET /v1/arena/queue?wait=0",
    "GET /v1/arena/queue?wait=0",
    "POST /v1/arena/queue",
    "GET /v1/arena/queue?wait=25",
    "DELETE /v1/arena/queue",
  ]);
});

test("stop ends play while it waits for a seat", async () => {
  let aborted = false;
  const fetch = async (url, init) => {
    if (init.method === "POST") return json({ status: "waiting" }, 202);
    if (init.method === "DELETE") return json(null, 204);
    return new Promise((resolve, reject) =>
      init.signal.addEventListener("abort", () => {
        aborted = true;
        reject(new DOMException("aborted", "AbortError"));
      }),
    );
  };
  const arena = new Arena({ baseUrl: "http://svc", token: "ke_x", fetch });
  const playing = arena.play(() => assert.fail("no seat was given"), "cheat");
  setTimeout(() => arena.stop(), 20);
  assert.equal(await playing, 0);
  assert.equal(aborted, true);
});

test("leaderboard and me read without the token; me needs the entrant's id", async () => {
  const board = { kind: "cheat", players: 2, entries: [] };
  const page = { entrant_id: "e1", name: "bot", games: ["cheat"], standing: false, ratings: [], matches: [] };
  const svc = service({
    "GET /v1/arena/leaderboard": [json(board)],
    "GET /v1/arena/entrants/e1": [json(page)],
  });
  const arena = new Arena({ baseUrl: "http://svc", token: "ke_x", entrantId: "e1", fetch: svc.fetch });
  assert.deepEqual(await arena.leaderboard("cheat", 3, 10), board);
  assert.deepEqual(await arena.me(), page);
  assert.equal(svc.calls[0].search, "?kind=cheat&players=3&limit=10");
  assert.ok(svc.calls.every((c) => c.auth === null));
  await assert.rejects(new Arena({ baseUrl: "http://svc", fetch: svc.fetch }).me(), /entrant id/);
});
