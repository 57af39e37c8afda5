// Following a table by its stream (docs/api.md, "A stream"): the TypeScript client's `follow`
// (client/follow.js, compiled from sdk/typescript/src/extras/follow.ts), fitted to the page. It
// reads the Server-Sent Events with a streaming fetch (the token in a header, never the URL) and
// after a drop resumes after the last event seen, waiting 1 s, 2 s, 4 s … up to 30 s.

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { GameEvent } from "../sdk/typescript/src/gen/types.gen.js" */

import { API_BASE, asApiError } from "./api.js";
import { follow as followTable } from "./client/follow.js";

/**
 * Follow `gameId` from the event after `after`. `onEvent(event)` gets each event once, in
 * order; `onState(state, detail)` hears "connecting" | "live" | "waiting" (to retry, `{delay}`)
 * | "stopped" (with the ApiError that made retrying pointless). Returns `{stop()}`.
 * @param {string} gameId
 * @param {{
 *   token?: string | null,
 *   after?: number,
 *   onEvent: (event: GameEvent) => void,
 *   onState?: (state: "connecting" | "live" | "waiting" | "stopped", detail?: any) => void,
 * }} options
 */
export function follow(gameId, { token, after = 0, onEvent, onState = () => {} }) {
  let stopped = false;
  const follower = followTable({
    baseUrl: API_BASE,
    gameId,
    token,
    after,
    untilFinal: false, // a finished table is followed on, until the page stops it
    onEvent: (event) => {
      try {
        onEvent(event);
      } catch (err) {
        console.warn("event not handled", err);
      }
    },
    onState: (state, detail) => {
      if (stopped) return; // the page stopped it: another follower speaks now
      if (state === "waiting") onState(state, { delay: detail?.delayMs });
      else if (state === "stopped" && detail?.error) onState(state, asApiError(detail.error));
      else onState(state);
    },
  });
  return {
    stop() {
      stopped = true;
      follower.stop();
    },
  };
}
