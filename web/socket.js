// Playing a table over the seat socket, `/v1/games/{id}/socket` (docs/api.md, The seat socket).
//
// One WebSocket carries what the stream and `POST …/commands` carry: the first message (`hello`)
// holds the token (never the URL), the events after the last one seen and, as `views: true` asks,
// the viewer's new view after each change; a move is a `command` with an `id` (its
// Idempotency-Key) answered on the socket by that id. After a lost socket it reconnects with
// `after` = the last version seen (1 s, 2 s, 4 s … up to 30 s, or the server's `retry_after`), and
// sends again, with the same id, each move not yet answered: the service answers a move once. A
// move sent again is paid for as any request: refused 429, it waits the problem's `retry_after`
// and goes once more under its id (it may have been applied before the socket was lost).
//
// When the browser has no WebSocket, or the socket cannot be opened three times running before
// it ever worked, `onFallback(pending)` hands the page back to the stream and HTTP; the moves not
// yet answered then go over HTTP with the same key.

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { Command, CommandResult, GameEvent, GameView, SocketClientMessage, SocketServerMessage } from "../sdk/typescript/src/gen/types.gen.js" */

import { API_BASE, ApiError, api, newKey } from "./api.js";

const MAX_BACKOFF_MS = 30_000;
const FAILED_OPENS = 3; // closes before a first `welcome` that make the page fall back
const ANSWER_MS = 20_000; // a move with no answer by then is given up as HTTP gives one up

/** Whether this browser can open the socket at all. */
export const socketAvailable = () => typeof globalThis.WebSocket === "function";

/** The socket's URL for the API's origin: http → ws, https → wss. */
export function socketUrl(gameId) {
  return `${API_BASE.replace(/^http/, "ws")}/v1/games/${encodeURIComponent(gameId)}/socket`;
}

/** `rate_limited retry_after=7` → 7; else null. */
function retryAfter(reason) {
  const m = /retry_after=(\d+)/.exec(reason || "");
  return m ? Number(m[1]) : null;
}

/**
 * @typedef {{message: SocketClientMessage & {type: "command"}, resolve: (a: any) => void, reject: (e: any) => void, timer: any, sent: number, again: any}} Pending
 */

/**
 * Follow and play `gameId` as `token` over the socket, from the event after `after`.
 * `onEvent(event)` gets each event once, in order (a move's own events come in its answer);
 * `onView(view, version)` each view the socket pushes; `onState` hears "connecting" | "live" |
 * "waiting" | "stopped" (with an ApiError: 401 the token's seat is gone, 404 no table);
 * `onFallback()` says the socket cannot be used: follow the stream instead.
 * Returns `{command(command, version), stop(), lastId}`.
 * @param {string} gameId
 * @param {{
 *   token?: string | null,
 *   after?: number,
 *   onEvent: (event: GameEvent) => void,
 *   onView: (view: GameView, version: number) => void,
 *   onState?: (state: "connecting" | "live" | "waiting" | "stopped", detail?: any) => void,
 *   onFallback: () => void,
 * }} options
 */
export function seatSocket(gameId, { token = null, after = 0, onEvent, onView, onState = () => {}, onFallback }) {
  let lastId = after;
  let stopped = false;
  let welcomed = false; // a `welcome` came, on this socket
  let everWelcomed = false; // …or on any socket of this follow
  let failures = 0;
  let backoff = 1000;
  /** @type {WebSocket | null} */
  let ws = null;
  let wake = null;
  let idle = null; // the ping timer
  let quiet = null; // the dead-server timer
  let idleMs = 30_000;
  let quietMs = 45_000;
  /** @type {Map<string, Pending>} */
  const pending = new Map();

  const online = () => wake?.();
  addEventListener("online", online);

  /** @param {SocketClientMessage} message */
  function put(message) {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(message));
    clearTimeout(idle);
    idle = setTimeout(() => put({ type: "ping" }), idleMs);
    return true;
  }

  function heard() {
    clearTimeout(quiet);
    quiet = setTimeout(() => ws?.close(), quietMs); // three heartbeats missed: start again
  }

  function settle(id, how, value) {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    clearTimeout(p.timer);
    clearTimeout(p.again);
    p[how](value);
  }

  /** @param {Pending} p */
  function send(p) {
    clearTimeout(p.again);
    p.again = null;
    p.sent += 1;
    put(p.message);
  }

  /**
   * A move sent again (its answer lost with a socket) refused for the rate: once more, under its
   * id, after `retry_after` seconds (or with the next `welcome`, should the socket go meanwhile).
   * @param {Pending} p
   * @param {number | null} seconds
   */
  function sendAgain(p, seconds) {
    if (p.again) return;
    p.again = setTimeout(() => {
      p.again = null;
      if (welcomed && pending.get(p.message.id) === p) send(p);
    }, (seconds ?? 1) * 1000);
  }

  function connect() {
    welcomed = false;
    onState("connecting");
    const socket = (ws = new WebSocket(socketUrl(gameId)));
    socket.onopen = () => put({ type: "hello", token, after: lastId, views: true });
    socket.onmessage = (e) => {
      if (socket !== ws) return;
      heard();
      /** @type {SocketServerMessage} */
      let m;
      try {
        m = JSON.parse(e.data);
      } catch {
        return console.warn("a socket message that is not JSON");
      }
      switch (m.type) {
        case "welcome":
          welcomed = everWelcomed = true;
          failures = 0;
          backoff = 1000;
          idleMs = Math.max(1, m.idle_s / 3) * 1000;
          quietMs = Math.max(1, m.heartbeat_s * 3) * 1000;
          onState("live");
          if (m.game) onView(m.game, m.version);
          // Moves sent before the drop go again with their ids: answered once, whatever happened.
          for (const p of pending.values()) send(p);
          break;
        case "events":
          for (const event of m.events) deliver(event);
          break;
        case "view":
          onView(m.game, m.version);
          break;
        case "result":
          // The push skips a move's own events: they are in its answer.
          for (const event of m.result.events) deliver(event);
          settle(m.id, "resolve", { body: m.result, etag: m.result.version, status: 200 });
          break;
        case "problem":
          if (m.id == null) console.warn("the socket refused a message", m.problem);
          else if (m.problem.status === 429 && (pending.get(m.id)?.sent ?? 0) > 1)
            sendAgain(/** @type {Pending} */ (pending.get(m.id)), m.retry_after);
          else
            settle(m.id, "reject", new ApiError(m.problem.status, { ...m.problem, retryAfter: m.retry_after }));
          break;
        default: // heartbeat, pong: heard() was enough
      }
    };
    socket.onclose = (e) => {
      if (socket !== ws) return;
      ws = null;
      clearTimeout(idle);
      clearTimeout(quiet);
      if (!stopped) closed(e.code, e.reason);
    };
  }

  /** @param {GameEvent} event */
  function deliver(event) {
    if (event.version <= lastId) return;
    lastId = event.version;
    try {
      onEvent(event);
    } catch (err) {
      console.warn("event not handled", err);
    }
  }

  function closed(code, reason) {
    const refused = (status, code) => {
      stop();
      onState("stopped", new ApiError(status, { code }));
    };
    if (code === 4401) return refused(401, "unauthorized");
    if (code === 4404 && everWelcomed) return refused(404, "not_found");
    const wait = retryAfter(reason);
    if (wait) backoff = Math.max(backoff, wait * 1000);
    if (!everWelcomed && !wait && (code === 4404 || ++failures >= FAILED_OPENS)) {
      // Never opened here (or the socket cannot find a table the page could): the stream
      // and HTTP take over, and say what they find.
      return fallback();
    }
    if (code === 1009) for (const id of [...pending.keys()]) settle(id, "reject", tooBig());
    const delay = backoff * (0.75 + Math.random() / 2);
    onState("waiting", { delay });
    new Promise((resolve) => {
      wake = resolve;
      setTimeout(resolve, delay);
    }).then(() => {
      wake = null;
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      if (!stopped) connect();
    });
  }

  function fallback() {
    const moves = [...pending.values()];
    pending.clear();
    stop();
    onFallback();
    for (const p of moves) {
      clearTimeout(p.timer);
      clearTimeout(p.again);
      const { id, command, if_match } = p.message;
      api.command(gameId, token, if_match ?? null, command, id, p.sent > 0).then(p.resolve, p.reject);
    }
  }

  function stop() {
    stopped = true;
    wake?.();
    removeEventListener("online", online);
    clearTimeout(idle);
    clearTimeout(quiet);
    const socket = ws;
    ws = null;
    socket?.close(1000);
    for (const id of [...pending.keys()]) settle(id, "reject", interrupted());
  }

  if (socketAvailable()) connect();
  else queueMicrotask(fallback);

  return {
    transport: "socket",
    /**
     * A move, applied only at `version` (as If-Match); answered as `api.command` answers.
     * @param {Command} command
     * @param {number | null} version
     * @returns {Promise<{body: CommandResult, etag: number, status: number}>}
     */
    command(command, version) {
      const id = newKey();
      /** @type {SocketClientMessage & {type: "command"}} */
      const message = { type: "command", id, command };
      if (version != null) message.if_match = version;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => settle(id, "reject", interrupted()), ANSWER_MS);
        /** @type {Pending} */
        const p = { message, resolve, reject, timer, sent: 0, again: null };
        pending.set(id, p);
        if (welcomed) send(p); // else sent after the next `welcome`
      });
    },
    stop,
    get lastId() {
      return lastId;
    },
  };
}

function interrupted() {
  return new ApiError(0, {
    title: "No connection",
    detail: "The service cannot be reached. Check your connection and try again.",
  });
}

function tooBig() {
  return new ApiError(413, { title: "Too large", detail: "That move is too large to send." });
}
