// Following a table: Server-Sent Events read with fetch, else long-polls (docs/api.md).
//
// Not EventSource: it cannot send an Authorization header, and a token in a URL ends up in
// histories and proxies' logs. fetch can; the frames are parsed here (the WHATWG rules: `id`,
// `event`, `data` lines, `:` comments, a blank line ends a message). Where fetch cannot stream a
// body (React Native), the same events come by long-poll: `GET …/events?after=V&wait=25`.
// After a drop it resumes after the last version seen (`Last-Event-ID` and `after`), waiting
// 1 s, 2 s, 4 s … up to 30 s (or what `Retry-After` says), so it neither misses nor repeats.
// The web table imports this module too: the service serves dist/extras/ at /client/.

import type { EventPage, GameEvent, Problem } from "../gen/types.gen.js";
import { KronikasError, problemOf, retryAfterOf } from "./errors.js";

export type FollowState = "connecting" | "live" | "waiting" | "stopped";
export type FollowMode = "auto" | "stream" | "poll";

export interface FollowOptions {
  baseUrl: string;
  gameId: string;
  /** A player token sees its own hand in the events; none (or the host's) sees a spectator's. */
  token?: string | null;
  /** Follow from the event after this version (0: from the first). */
  after?: number;
  /** Each event once, in version order. */
  onEvent: (event: GameEvent) => void;
  /** "waiting" carries the delay before the next attempt; "stopped" the error, if any. */
  onState?: (state: FollowState, detail?: { delayMs?: number; error?: KronikasError }) => void;
  /** `auto` (default): the stream, else the long-poll when fetch cannot stream. */
  mode?: FollowMode;
  /** Stop by itself after the event that ends the match (`final: true`). Default true. */
  untilFinal?: boolean;
  /** Seconds each long-poll waits on the service (0–30, default 25). */
  pollWaitS?: number;
  fetch?: typeof fetch;
}

export interface Follower {
  /** Stop following (idempotent). */
  stop(): void;
  /** The version of the last event handed to `onEvent` (`after` before the first). */
  readonly lastVersion: number;
  /** Which transport is in use now. */
  readonly mode: "stream" | "poll";
  /** Settles when following stops: resolves on `stop()` or the final event, rejects with the
   * KronikasError that made retrying pointless (401, 403, 404, 422). */
  readonly done: Promise<void>;
}

const QUIET_MS = 45_000; // the stream sends a keep-alive every 15 s: three missed, reconnect
const MAX_BACKOFF_MS = 30_000;
const FATAL = new Set([401, 403, 404, 405, 422]);

/** Follow `gameId` from the event after `after`; see FollowOptions. */
export function follow(options: FollowOptions): Follower {
  const { baseUrl, gameId, token, onEvent, onState = () => {}, untilFinal = true } = options;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const pollWait = Math.max(0, Math.min(30, options.pollWaitS ?? 25));
  let mode: "stream" | "poll" = options.mode === "poll" ? "poll" : "stream";
  let lastVersion = options.after ?? 0;
  let stopped = false;
  let controller: AbortController | null = null;
  let wake: (() => void) | null = null;
  const online = () => wake?.(); // a browser back online: the next attempt at once
  globalThis.addEventListener?.("online", online);
  const base = `${baseUrl.replace(/\/+$/, "")}/v1/games/${encodeURIComponent(gameId)}`;
  let finish!: () => void;
  let fail!: (err: KronikasError) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  done.catch(() => {}); // a caller that never awaits `done` gets no unhandled rejection

  function headers(accept: string): Record<string, string> {
    const out: Record<string, string> = { Accept: accept };
    if (token) out.Authorization = `Bearer ${token}`;
    return out;
  }

  /** Hand an event on when it is the next one; true when it ends the match. */
  function deliver(event: GameEvent): boolean {
    if (stopped || event.version <= lastVersion) return false;
    lastVersion = event.version;
    onEvent(event);
    return untilFinal && "final" in event && event.final === true;
  }

  async function refused(response: Response): Promise<KronikasError> {
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    return new KronikasError(problemOf(response.status, body), retryAfterOf(response.headers));
  }

  /** One stream connection, until it ends; true when the match ended. */
  async function streamOnce(signal: AbortSignal, touch: () => void): Promise<boolean> {
    const hdrs = headers("text/event-stream");
    if (lastVersion > 0) hdrs["Last-Event-ID"] = String(lastVersion);
    const response = await doFetch(`${base}/stream?after=${lastVersion}`, {
      headers: hdrs,
      cache: "no-store",
      signal,
    });
    if (!response.ok) throw await refused(response);
    const body = response.body as ReadableStream<Uint8Array> | null | undefined;
    if (!body || typeof body.getReader !== "function") {
      // This fetch cannot stream (React Native): the long-poll from here on.
      mode = "poll";
      controller?.abort();
      return false;
    }
    onState("live");
    backoff = 1000;
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let ended = false;
    const parse = frameParser((frame) => {
      if (ended || frame.data == null) return;
      let event: GameEvent;
      try {
        event = JSON.parse(frame.data) as GameEvent;
      } catch {
        return; // not JSON: nothing a client could do with it
      }
      ended = deliver(event);
    });
    for (;;) {
      const { value, done: over } = await reader.read();
      if (over) break;
      touch();
      parse(decoder.decode(value, { stream: true }));
      if (ended || stopped) {
        controller?.abort();
        return ended;
      }
    }
    return false;
  }

  /** Long-polls until the connection fails or the match ends; true when it ended. */
  async function pollOnce(signal: AbortSignal, touch: () => void): Promise<boolean> {
    let first = true;
    for (;;) {
      touch();
      const response = await doFetch(`${base}/events?after=${lastVersion}&wait=${pollWait}`, {
        headers: headers("application/json"),
        cache: "no-store",
        signal,
      });
      if (!response.ok) throw await refused(response);
      if (first) {
        onState("live");
        backoff = 1000;
        first = false;
      }
      const page = (await response.json()) as EventPage;
      for (const event of page.events) if (deliver(event)) return true;
      if (stopped) return false;
    }
  }

  let backoff = 1000;
  (async () => {
    while (!stopped) {
      controller = new AbortController();
      const signal = controller.signal;
      let quiet: ReturnType<typeof setTimeout> | undefined;
      const limit = mode === "poll" ? (pollWait + 20) * 1000 : QUIET_MS;
      const touch = () => {
        clearTimeout(quiet);
        quiet = setTimeout(() => controller?.abort(), limit);
      };
      onState("connecting");
      const before = mode;
      let floorMs = 0; // the server's `Retry-After`: no retry sooner, however the jitter falls
      try {
        touch();
        const ended = await (mode === "stream" ? streamOnce(signal, touch) : pollOnce(signal, touch));
        if (ended) break;
        if (mode !== before) continue; // switched to the long-poll: no wait
      } catch (err) {
        if (stopped) break;
        if (err instanceof KronikasError) {
          if (FATAL.has(err.status)) {
            stopped = true;
            globalThis.removeEventListener?.("online", online);
            onState("stopped", { error: err });
            fail(err);
            return;
          }
          if (err.retryAfter) {
            floorMs = err.retryAfter * 1000;
            backoff = Math.max(backoff, floorMs);
          }
        }
      } finally {
        clearTimeout(quiet);
      }
      if (stopped) break;
      const delayMs = Math.max(floorMs, backoff * (0.75 + Math.random() / 2));
      onState("waiting", { delayMs });
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
    stopped = true;
    globalThis.removeEventListener?.("online", online);
    onState("stopped");
    finish();
  })();

  return {
    stop() {
      if (stopped) return;
      stopped = true;
      controller?.abort();
      wake?.();
    },
    get lastVersion() {
      return lastVersion;
    },
    get mode() {
      return mode;
    },
    done,
  };
}

export interface Frame {
  id: string | null;
  event: string | null;
  data: string | null;
}

/** An SSE parser: feed it text as it arrives; it calls `onFrame` once per message. */
export function frameParser(onFrame: (frame: Frame) => void): (chunk: string) => void {
  let buffer = "";
  let afterCR = false; // a chunk ended between the \r and the \n of one line end
  let frame: Frame = { id: null, event: null, data: null };
  return (chunk: string) => {
    if (afterCR && chunk.startsWith("\n")) chunk = chunk.slice(1);
    afterCR = chunk.endsWith("\r");
    buffer += chunk;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop() ?? ""; // a chunk may end inside a line: keep the unfinished part
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
    }
  };
}

export type { Problem };
