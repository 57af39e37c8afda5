// Following a table: Server-Sent Events read with a streaming fetch (docs/api.md, "A stream").
//
// Not EventSource: it cannot send an Authorization header, and a token in the URL ends up in
// histories and proxies' logs. fetch can, so the frames are parsed here (the WHATWG rules: `id`,
// `event`, `data` lines, `:` comments, a blank line ends a message). After a drop it reconnects
// with `Last-Event-ID` (and `after`), waiting 1 s, 2 s, 4 s … up to 30 s, so it neither misses
// nor repeats an event.

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { GameEvent } from "../sdk/typescript/src/gen/types.gen.js" */

import { API_BASE, ApiError } from "./api.js";

const QUIET_MS = 45_000; // the service sends a keep-alive comment every 15 s; three missed: reconnect
const MAX_BACKOFF_MS = 30_000;

/**
 * Follow `gameId` from the event after `after`. `onEvent(event)` gets each event's parsed JSON,
 * `onState(state, detail)` hears "connecting" | "live" | "waiting" (to retry) | "stopped".
 * Returns `{stop()}`.
 * @param {string} gameId
 * @param {{
 *   token?: string | null,
 *   after?: number,
 *   onEvent: (event: GameEvent) => void,
 *   onState?: (state: "connecting" | "live" | "waiting" | "stopped", detail?: any) => void,
 * }} options
 */
export function follow(gameId, { token, after = 0, onEvent, onState = () => {} }) {
  let lastId = after;
  let stopped = false;
  let controller = null;
  let backoff = 1000;
  let wake = null; // resolves the wait between two connections early (coming back online)

  const online = () => wake?.();
  addEventListener("online", online);

  async function connectOnce() {
    controller = new AbortController();
    let quiet = null;
    const touch = () => {
      clearTimeout(quiet);
      quiet = setTimeout(() => controller.abort(), QUIET_MS);
    };
    const headers = { Accept: "text/event-stream" };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (lastId > 0) headers["Last-Event-ID"] = String(lastId);
    onState("connecting");
    touch();
    try {
      const response = await fetch(
        `${API_BASE}/v1/games/${encodeURIComponent(gameId)}/stream?after=${lastId}`,
        {
          headers,
          cache: "no-store",
          signal: controller.signal,
        },
      );
      if (!response.ok) {
        let problem = {};
        try {
          problem = await response.json();
        } catch {}
        problem.retryAfter = Number(response.headers.get("Retry-After")) || null;
        throw new ApiError(response.status, problem);
      }
      onState("live");
      backoff = 1000;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = frameParser((frame) => {
        if (frame.id != null && /^\d+$/.test(frame.id)) lastId = Number(frame.id);
        if (frame.data == null) return;
        try {
          onEvent(JSON.parse(frame.data));
        } catch (err) {
          console.warn("event not handled", err);
        }
      });
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        touch();
        parser(value);
      }
    } finally {
      clearTimeout(quiet);
    }
  }

  (async () => {
    while (!stopped) {
      try {
        await connectOnce();
      } catch (err) {
        if (stopped) break;
        // A table that is gone, or a token it does not know: retrying will not help.
        if (err instanceof ApiError && [401, 403, 404, 422].includes(err.status)) {
          onState("stopped", err);
          break;
        }
        if (err instanceof ApiError && err.retryAfter) backoff = Math.max(backoff, err.retryAfter * 1000);
      }
      if (stopped) break;
      const delay = backoff * (0.75 + Math.random() / 2);
      onState("waiting", { delay });
      await new Promise((resolve) => {
        wake = resolve;
        setTimeout(resolve, delay);
      });
      wake = null;
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
    removeEventListener("online", online);
  })();

  return {
    stop() {
      stopped = true;
      controller?.abort();
      wake?.();
      removeEventListener("online", online);
    },
    get lastId() {
      return lastId;
    },
  };
}

/** An SSE parser: feed it text as it arrives; it calls `onFrame({id, event, data})` per message. */
export function frameParser(onFrame) {
  let buffer = "";
  let afterCR = false; // a chunk ended between the \r and the \n of one line end
  let frame = { id: null, event: null, data: null };
  return (chunk) => {
    if (afterCR && chunk.startsWith("\n")) chunk = chunk.slice(1);
    afterCR = chunk.endsWith("\r");
    buffer += chunk;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop(); // a chunk may end inside a line: keep the unfinished part
    for (const line of lines) {
      if (line === "") {
        if (frame.data != null || frame.id != null) onFrame(frame);
        frame = { id: null, event: null, data: null };
        continue;
      }
      if (line.startsWith(":")) continue; // a comment: the keep-alive
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "data") frame.data = frame.data == null ? value : `${frame.data}\n${value}`;
      else if (field === "id") frame.id = value;
      else if (field === "event") frame.event = value;
      // `retry` and unknown fields are ignored: the backoff above decides.
    }
  };
}
