// Playing a table over the seat socket, `/v1/games/{id}/socket` (docs/api.md, The seat socket):
// the TypeScript client's SeatSocket (client/socket.js, compiled from
// sdk/typescript/src/extras/socket.ts), fitted to the page. The protocol is all there: `hello`
// with the token, the events and views pushed, a move as a `command` answered by its `id`, the
// reconnect after a drop with `after` and the moves not yet answered sent again under their ids.
//
// What the page adds: when the browser has no WebSocket, or the socket cannot be opened three
// times running before it ever worked (or closes for good for another reason than a lost seat
// or table), `onFallback()` hands the page back to the stream and HTTP, and the moves not yet
// answered go over HTTP with the same key; and the client's errors become the page's ApiError.

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { Command, CommandResult, GameEvent, GameView } from "../sdk/typescript/src/gen/types.gen.js" */

import { API_BASE, ApiError, api, asApiError, newKey } from "./api.js";
import { SeatSocket } from "./client/socket.js";

const FAILED_OPENS = 3; // closes before a first `welcome` that make the page fall back
const ANSWER_MS = 20_000; // a move with no answer by then is given up as HTTP gives one up

/** Whether this browser can open the socket at all. */
export const socketAvailable = () => typeof globalThis.WebSocket === "function";

/**
 * Follow and play `gameId` as `token` over the socket, from the event after `after`.
 * `onEvent(event)` gets each event once, in order (a move's own events come in its answer);
 * `onView(view, version)` each view the socket pushes; `onState` hears "connecting" | "live" |
 * "waiting" | "stopped" (with an ApiError: 401 the token's seat is gone, 404 no table);
 * `onFallback()` says the socket cannot be used: follow the stream instead.
 * Returns `{command(command, version), stop()}`.
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
  let stopped = false; // by the page, or for good
  let welcomed = false; // a `welcome` came, on any socket of this follow
  let fellBack = false;

  function fallback() {
    stopped = fellBack = true;
    onFallback();
  }

  function closed(code) {
    stopped = true;
    if (code === 4401) onState("stopped", new ApiError(401, { code: "unauthorized" }));
    else if (code === 4404 && welcomed) onState("stopped", new ApiError(404, { code: "not_found" }));
    else fallback(); // never opened here, or closed for a reason the stream may not meet
  }

  const socket = socketAvailable()
    ? new SeatSocket({
        baseUrl: API_BASE,
        gameId,
        token,
        after,
        views: true,
        maxFailedOpens: FAILED_OPENS,
        answerTimeoutMs: ANSWER_MS,
        onEvent: (event) => {
          try {
            onEvent(event);
          } catch (err) {
            console.warn("event not handled", err);
          }
        },
        onView,
        onWelcome: () => (welcomed = true),
        onProblem: (err) => console.warn("the socket refused a message", err.problem),
        onState: (state, detail) => {
          if (stopped) return;
          if (state === "stopped") closed(detail?.code);
          else onState(state, state === "waiting" ? { delay: detail?.delayMs } : undefined);
        },
      })
    : null;
  if (!socket) queueMicrotask(fallback);

  /** @param {string} id @param {Command} command @param {number | null} version @param {boolean} sentBefore */
  const overHttp = (id, command, version, sentBefore) =>
    api.command(gameId, token, version, command, id, sentBefore);

  return {
    transport: "socket",
    /**
     * A move, applied only at `version` (as If-Match); answered as `api.command` answers.
     * @param {Command} command
     * @param {number | null} version
     * @returns {Promise<{body: CommandResult, etag: number | null, status: number}>}
     */
    command(command, version) {
      const id = newKey();
      if (!socket || fellBack) return overHttp(id, command, version, false);
      return socket.send(command, { id, ifMatch: version ?? undefined }).then(
        (result) => ({ body: result, etag: result.version, status: 200 }),
        (err) => {
          if (fellBack) return overHttp(id, command, version, welcomed); // sent, maybe applied
          throw asApiError(err);
        },
      );
    },
    stop() {
      stopped = true;
      socket?.close();
    },
  };
}
