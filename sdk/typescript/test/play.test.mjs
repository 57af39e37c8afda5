// A whole game of each kind against a running service (KRONIKAS_URL), with this package alone:
// one random legal player per seat, each following the table by push (Server-Sent Events).
// tests/typescript/test_node.py starts the service and runs this file.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  connect,
  createGame,
  follow,
  getGame,
  joinGame,
  KronikasError,
  sendCommand,
  startGame,
  unwrap,
} from "../dist/index.js";

const URL = process.env.KRONIKAS_URL;
const skip = URL ? false : "KRONIKAS_URL is not set (tests/typescript/test_node.py sets it)";

const pick = (items) => items[Math.floor(Math.random() * items.length)];
const sample = (items, count) => {
  const pool = [...items];
  const out = [];
  while (out.length < count) out.push(pool.splice(Math.floor(Math.random() * pool.length), 1)[0]);
  return out;
};

/** A random command among the legal ones (never `leave`), with random cards where it takes some. */
function randomMove(view) {
  const legal = (view.legal ?? []).filter((type) => type !== "leave");
  if (!legal.length || !view.me) return null;
  const hand = view.me.hand;
  if (view.kind === "cheat") {
    if (legal.includes("call") && Math.random() < 0.25) return { type: "call" };
    if (legal.includes("play") && hand.length) {
      const count = 1 + Math.floor(Math.random() * Math.min(view.options.max_play, hand.length));
      return { type: "play", cards: sample(hand, count) };
    }
    return legal.includes("accept") ? { type: "accept" } : legal.includes("back") ? { type: "back" } : null;
  }
  const type = pick(legal);
  if (type === "swap") return { type, give: pick(hand), take: pick(view.thirty_one.table) };
  return { type };
}

/** One seat: follows the table; after each event, reads its view and moves when it may. */
function seat(baseUrl, gameId, token) {
  const client = connect({ baseUrl, token });
  const seen = [];
  let busy = null;
  let again = false;

  async function act() {
    for (;;) {
      again = false;
      const view = await unwrap(getGame({ client, path: { game_id: gameId } }));
      // An event that came while the view was read (the deal, after a view of the open table)
      // asks for another look: returning here would lose it, and a seat on turn would wait forever.
      if (view.status !== "playing") {
        if (!again) return view;
        continue;
      }
      const move = randomMove(view);
      if (!move) {
        if (!again) return view;
        continue;
      }
      const { data, error, response } = await sendCommand({
        client,
        path: { game_id: gameId },
        body: move,
        headers: { "If-Match": `"${view.version}"`, "Idempotency-Key": crypto.randomUUID() },
      });
      if (data) {
        assert.equal(data.events[0].version, view.version + 1);
        if (!again) return data.game;
        continue;
      }
      // Another seat moved first (412, 409 not_your_turn): its event brings this seat back.
      // A random move the rules refuse (409 illegal_move, a swap below 21 in the last circuit):
      // draw another at once.
      assert.ok([409, 412].includes(response.status), `${response.status}: ${JSON.stringify(error)}`);
      assert.ok(["version_mismatch", "not_your_turn", "illegal_move"].includes(error.code), error.code);
      if (error.code !== "illegal_move" && !again) return view;
    }
  }

  function poke() {
    if (busy) {
      again = true;
      return;
    }
    busy = act().finally(() => (busy = null));
  }

  const follower = follow({
    baseUrl,
    gameId,
    token,
    onEvent: (event) => {
      seen.push(event);
      poke();
    },
  });
  return {
    seen,
    follower,
    async finished() {
      await follower.done;
      while (busy) await busy;
    },
  };
}

async function playWholeGame(body, players) {
  const anyone = connect({ baseUrl: URL });
  const created = await unwrap(createGame({ client: anyone, body }));
  const gameId = created.game.id;
  const tokens = [];
  for (let i = 0; i < players; i++) {
    const joined = await unwrap(joinGame({ client: anyone, path: { game_id: gameId }, body: { name: `Bot ${i}` } }));
    assert.equal(joined.seat, i);
    tokens.push(joined.token);
  }
  const seats = tokens.map((token) => seat(URL, gameId, token));
  const host = connect({ baseUrl: URL, token: created.host_token });
  const started = await unwrap(startGame({ client: host, path: { game_id: gameId } }));
  assert.equal(started.status, "playing");
  await Promise.all(seats.map((s) => s.finished()));

  const final = await unwrap(getGame({ client: anyone, path: { game_id: gameId } }));
  assert.equal(final.status, "finished");
  assert.ok(final.winners.length >= 1);
  for (const s of seats) {
    // Every seat heard every version once, in order, up to the final event.
    assert.deepEqual(
      s.seen.map((e) => e.version),
      Array.from({ length: final.version }, (_, i) => i + 1),
    );
    const last = s.seen.at(-1);
    assert.equal(last.type, `${final.kind}.match_ended`);
    assert.equal(last.final, true);
  }
  return { final, seats };
}

test("a whole Cheat match of random players, each following by push", { skip, timeout: 240_000 }, async () => {
  const { final, seats } = await playWholeGame({ kind: "cheat", options: { rounds: 2 } }, 3);
  assert.equal(final.kind, "cheat");
  const types = new Set(seats[0].seen.map((e) => e.type));
  for (const type of ["cheat.round_dealt", "cheat.cards_played", "cheat.round_ended"]) assert.ok(types.has(type), type);
});

test("a whole Thirty-One match of random players, each following by push", { skip, timeout: 240_000 }, async () => {
  const { final, seats } = await playWholeGame({ kind: "thirty_one", options: { lives: 1 } }, 3);
  assert.equal(final.kind, "thirty_one");
  assert.equal(final.players.filter((p) => !p.out).length, 1);
  assert.ok(seats[0].seen.some((e) => e.type === "thirty_one.round_ended"));
});

test("a refusal comes back as the problem, and unwrap throws it as a KronikasError", { skip }, async () => {
  const anyone = connect({ baseUrl: URL });
  const missing = await getGame({ client: anyone, path: { game_id: "no-such-table" } });
  assert.equal(missing.data, undefined);
  assert.equal(missing.response.status, 404);
  assert.equal(missing.error.code, "not_found");
  await assert.rejects(unwrap(getGame({ client: anyone, path: { game_id: "no-such-table" } })), (err) => {
    assert.ok(err instanceof KronikasError);
    assert.equal(err.status, 404);
    assert.equal(err.code, "not_found");
    assert.ok(err.detail);
    return true;
  });
});
