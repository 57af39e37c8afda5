// Replaying a played table with this package alone, against a running service (KRONIKAS_URL):
// two persons and a house player play a match of each kind with turn clocks; after every change
// each person and a spectator read the table, and `replayViews` must give each of them, at every
// version where a view was served live, that view, with no version missing.
// tests/typescript/test_replay.py starts the service and runs this file.

import assert from "node:assert/strict";
import { test } from "node:test";

import { replayViews } from "../dist/index.js";

const URL = process.env.KRONIKAS_URL;
const skip = URL ? false : "KRONIKAS_URL is not set (tests/typescript/test_replay.py sets it)";
const STEPS = 600;

async function call(method, path, token, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${URL}${path}`, { method, headers, body: body && JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

/** The first command among a seat's legal moves that the service takes, or null. */
async function moveOf(gameId, token, view) {
  const legal = (view.legal ?? []).filter((type) => type !== "leave" && type !== "back");
  const hand = view.me?.hand ?? [];
  const tries = [];
  for (const type of legal) {
    if (type === "play") tries.push({ type, cards: hand.slice(0, 1) });
    else if (type === "swap") tries.push({ type, give: hand[0], take: view.thirty_one.table[0] });
    else if (type !== "show" || legal.length === 1) tries.push({ type });
  }
  for (const command of tries) {
    const sent = await call("POST", `/v1/games/${gameId}/commands`, token, command);
    if (sent.status === 200) return sent.body;
    assert.equal(sent.status, 409, JSON.stringify(sent.body)); // the house moved meanwhile
  }
  return null;
}

const BODIES = {
  cheat: { kind: "cheat", seed: 4111, options: { turn_seconds: 600, house_pause_seconds: 0 } },
  thirty_one: { kind: "thirty_one", seed: 4112, options: { lives: 2, max_circuits: 3, turn_seconds: 600 } },
};

for (const kind of Object.keys(BODIES)) {
  test(`a ${kind} table replays as each viewer was served it, version by version`, { skip }, async () => {
    const created = await call("POST", "/v1/games", null, BODIES[kind]);
    assert.equal(created.status, 201);
    const gameId = created.body.game.id;
    const host = created.body.host_token;
    const persons = [];
    for (const name of ["Ilona", null, "Jenő"]) {
      if (name === null) {
        assert.equal((await call("POST", `/v1/games/${gameId}/house-players`, host, { name: "Ház" })).status, 201);
      } else {
        persons.push((await call("POST", `/v1/games/${gameId}/players`, null, { name })).body.token);
      }
    }
    assert.equal((await call("POST", `/v1/games/${gameId}/start`, host)).status, 200);
    const viewers = [...persons, null];
    const served = viewers.map(() => new Map());
    let last = null;
    for (let step = 0; step < STEPS; step++) {
      const views = [];
      for (const [i, token] of viewers.entries()) {
        const view = (await call("GET", `/v1/games/${gameId}`, token)).body;
        served[i].set(view.version, view);
        views.push(view);
      }
      last = views.at(-1);
      if (last.status === "finished") break;
      let moved = false;
      for (const [i, token] of persons.entries()) {
        if (await moveOf(gameId, token, views[i])) {
          moved = true;
          break;
        }
      }
      if (!moved) {
        const after = Math.min(...views.map((v) => v.version));
        const page = await call("GET", `/v1/games/${gameId}/events?after=${after}&wait=10`, persons[0]);
        assert.ok(page.body.events.length > 0, "the house moved within its clock");
      }
    }
    assert.equal(last.status, "finished");
    for (const [i, token] of viewers.entries()) {
      const replayed = await replayViews({ baseUrl: URL, gameId, token });
      assert.deepEqual(
        replayed.map((v) => v.version),
        Array.from({ length: last.version }, (_, j) => j + 1),
      );
      for (const [version, view] of served[i]) assert.deepEqual(replayed[version - 1], view);
    }
    assert.ok(served.at(-1).size > 20);
  });
}
