// The replay helper against a fake fetch: pages of past views read in order with the token as a
// header, a 429 waited out as its Retry-After says, and a refusal thrown as a KronikasError.

import assert from "node:assert/strict";
import { test } from "node:test";

import { KronikasError, pastViews, replay, replayViews } from "../dist/index.js";

const view = (version) => ({ kind: "cheat", id: "g1", version, status: "playing", me: null });
const json = (body, status = 200, headers = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

test("replay reads page after page, from where the last ended, as the token's viewer", async () => {
  const calls = [];
  const pages = [
    { views: [view(1), view(2)], version: 3, more: true },
    { views: [view(3)], version: 3, more: false },
  ];
  const got = [];
  for await (const [version, seen] of replay({
    baseUrl: "http://svc/",
    gameId: "g 1",
    token: "tok",
    page: 2,
    fetch: async (url, init) => {
      calls.push({ url, auth: init.headers.Authorization });
      return json(pages.shift());
    },
  })) {
    got.push([version, seen.version]);
  }
  assert.deepEqual(got, [[1, 1], [2, 2], [3, 3]]);
  assert.deepEqual(calls, [
    { url: "http://svc/v1/games/g%201/views?after=0&limit=2", auth: "Bearer tok" },
    { url: "http://svc/v1/games/g%201/views?after=2&limit=2", auth: "Bearer tok" },
  ]);
});

test("without a token no Authorization header is sent: a spectator's replay", async () => {
  let headers = null;
  const views = await replayViews({
    baseUrl: "http://svc",
    gameId: "g1",
    after: 4,
    fetch: async (url, init) => {
      headers = init.headers;
      assert.match(url, /after=4&limit=50$/);
      return json({ views: [view(5)], version: 5, more: false });
    },
  });
  assert.deepEqual(views.map((v) => v.version), [5]);
  assert.equal("Authorization" in headers, false);
});

test("a 429 is waited out as its Retry-After says, then asked again", async () => {
  const replies = [
    json({ status: 429, code: "rate_limited", title: "Too Many Requests", detail: "wait" }, 429, {
      "Retry-After": "0.01",
    }),
    json({ views: [view(1)], version: 1, more: false }),
  ];
  const page = await pastViews({ baseUrl: "http://svc", gameId: "g1", fetch: async () => replies.shift() });
  assert.deepEqual(page.views.map((v) => v.version), [1]);
  assert.equal(replies.length, 0);
});

test("a refusal is thrown as a KronikasError with the service's problem", async () => {
  const refused = json({ status: 404, code: "not_found", title: "Not Found", detail: "There is no table." }, 404);
  await assert.rejects(
    replayViews({ baseUrl: "http://svc", gameId: "nope", fetch: async () => refused }),
    (error) => error instanceof KronikasError && error.status === 404 && error.code === "not_found",
  );
});
