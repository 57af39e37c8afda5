// The follow helper against a fake fetch: Server-Sent Events with the Authorization header and
// resume, and the long-poll where fetch cannot stream a body (React Native).

import assert from "node:assert/strict";
import { test } from "node:test";

import { follow, frameParser, KronikasError } from "../dist/index.js";

const event = (version, extra = {}) => ({ version, type: "cheat.cards_played", at: "2026-01-01T00:00:00Z", data: {}, ...extra });
const frames = (events) => events.map((e) => `id: ${e.version}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
const json = (body, status = 200, headers = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

function sse(text) {
  return new Response(
    new ReadableStream({
      start(controller) {
        // Split mid-line, as the network may.
        const bytes = new TextEncoder().encode(text);
        const cut = Math.floor(bytes.length / 2);
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    }),
    { status: 200, headers: { "Content-Type": "text/event-stream" } },
  );
}

test("the frame parser reads ids, types and data across chunks and line ends", () => {
  const got = [];
  const feed = frameParser((f) => got.push(f));
  feed(": keep-alive\r\nid: 1\r");
  feed("\nevent: x\ndata: {\"a\":\ndata: 1}\n");
  feed("\n");
  assert.deepEqual(got, [{ id: "1", event: "x", data: '{"a":\n1}' }]);
});

test("the stream sends the token as a header, and resumes after the last version", async () => {
  const calls = [];
  const replies = [
    () => sse(frames([event(3), event(4)])), // then the connection ends
    () => sse(frames([event(4), event(5), event(6, { type: "cheat.match_ended", final: true })])),
  ];
  const seen = [];
  const follower = follow({
    baseUrl: "http://svc/",
    gameId: "g1",
    token: "tok",
    after: 2,
    onEvent: (e) => seen.push(e.version),
    fetch: async (url, init) => {
      calls.push({ url, headers: init.headers });
      return replies.shift()();
    },
    onState: (state, detail) => {
      if (state === "waiting") assert.ok(detail.delayMs > 0);
    },
  });
  // The reconnect waits about a second.
  await follower.done;
  assert.deepEqual(seen, [3, 4, 5, 6]);
  assert.equal(follower.lastVersion, 6);
  assert.equal(calls[0].url, "http://svc/v1/games/g1/stream?after=2");
  assert.equal(calls[0].headers.Authorization, "Bearer tok");
  assert.equal(calls[0].headers["Last-Event-ID"], "2");
  assert.ok(!calls[0].url.includes("tok"));
  assert.equal(calls[1].url, "http://svc/v1/games/g1/stream?after=4");
  assert.equal(calls[1].headers["Last-Event-ID"], "4");
});

test("where fetch cannot stream a body, it long-polls the same events", async () => {
  const urls = [];
  const seen = [];
  const follower = follow({
    baseUrl: "http://svc",
    gameId: "g1",
    token: "tok",
    onEvent: (e) => seen.push(e.version),
    fetch: async (url, init) => {
      urls.push(url);
      assert.equal(init.headers.Authorization, "Bearer tok");
      if (url.includes("/stream")) return { ok: true, status: 200, headers: new Headers(), body: null }; // React Native
      if (url.includes("after=0")) return json({ events: [event(1), event(2)], version: 2, more: false });
      return json({ events: [event(3, { final: true })], version: 3, more: false });
    },
  });
  await follower.done;
  assert.equal(follower.mode, "poll");
  assert.deepEqual(seen, [1, 2, 3]);
  assert.deepEqual(urls.slice(1), ["http://svc/v1/games/g1/events?after=0&wait=25", "http://svc/v1/games/g1/events?after=2&wait=25"]);
});

test("a table that is not there stops it with the problem", async () => {
  const states = [];
  const follower = follow({
    baseUrl: "http://svc",
    gameId: "nope",
    mode: "poll",
    onEvent: () => assert.fail("no events"),
    onState: (s) => states.push(s),
    fetch: async () => json({ status: 404, code: "not_found", title: "Not Found", detail: "No such table." }, 404),
  });
  await assert.rejects(follower.done, (err) => err instanceof KronikasError && err.code === "not_found");
  assert.deepEqual(states, ["connecting", "stopped"]);
});

test("stop() ends it and resolves done", async () => {
  let aborted = false;
  const follower = follow({
    baseUrl: "http://svc",
    gameId: "g1",
    onEvent: () => {},
    fetch: (url, init) =>
      new Promise((_, reject) =>
        init.signal.addEventListener("abort", () => {
          aborted = true;
          reject(new DOMException("aborted", "AbortError"));
        }),
      ),
  });
  setTimeout(() => follower.stop(), 10);
  await follower.done;
  assert.ok(aborted);
});

test("a 429 is never retried sooner than its Retry-After, however the jitter falls", async () => {
  const delays = [];
  for (let i = 0; i < 20; i++) {
    const follower = follow({
      baseUrl: "http://svc",
      gameId: "g1",
      token: "tok",
      fetch: async () => json({ status: 429, code: "rate_limited", title: "t", detail: "d" }, 429, { "Retry-After": "5" }),
      onState: (state, detail) => {
        if (state === "waiting") {
          delays.push(detail.delayMs);
          follower.stop();
        }
      },
    });
    await follower.done;
  }
  assert.equal(delays.length, 20);
  assert.ok(delays.every((ms) => ms >= 5000), `${delays}`);
});
