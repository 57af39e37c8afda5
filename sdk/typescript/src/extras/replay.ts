// Replaying a table as one viewer saw it (docs/api.md, Records): the view it was served at each
// version, read a page at a time from `GET /v1/games/{id}/views`.
//
// The service makes each view from the table as it was at that version, as it served it live,
// so no client folds the rules: a seat's token replays that seat (its own cards as they were,
// never another's; a spectator's view before it sat down), no token (or the host's) a
// spectator. A 429 or 503 is waited out as its `Retry-After` says; any other refusal throws a
// KronikasError. The web table imports this module too: the service serves dist/extras/ at
// /client/.

import type { GameView, PastViews } from "../gen/types.gen.js";
import { KronikasError, problemOf, retryAfterOf } from "./errors.js";

/** The most views the service gives a request (`list_views`' `limit`). */
export const REPLAY_PAGE = 50;
const MAX_WAIT_S = 30;

export interface ReplayOptions {
  baseUrl: string;
  gameId: string;
  /** The viewer: a seat's token replays that seat; none (or the host's) a spectator. */
  token?: string | null;
  /** Replay the versions after this one (0: from the first). */
  after?: number;
  /** Views a request, 1–50 (default 50). */
  page?: number;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

/** One page of past views after `after`: the service's answer as it is. */
export async function pastViews(options: ReplayOptions): Promise<PastViews> {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const base = options.baseUrl.replace(/\/+$/, "");
  const query = `after=${options.after ?? 0}&limit=${options.page ?? REPLAY_PAGE}`;
  const url = `${base}/v1/games/${encodeURIComponent(options.gameId)}/views?${query}`;
  const headers: Record<string, string> = { Accept: "application/json" };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  for (;;) {
    const response = await doFetch(url, { headers, cache: "no-store", signal: options.signal });
    if (response.ok) return (await response.json()) as PastViews;
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    const error = new KronikasError(problemOf(response.status, body), retryAfterOf(response.headers));
    if (response.status !== 429 && response.status !== 503) throw error;
    const waitS = Math.min(MAX_WAIT_S, error.retryAfter ?? 1);
    await new Promise((resolve) => setTimeout(resolve, waitS * 1000));
  }
}

/** Each version after `after` and the view the viewer was served at it, in order, to the
 * version the table was at when the last page was read. */
export async function* replay(options: ReplayOptions): AsyncGenerator<[number, GameView]> {
  let after = options.after ?? 0;
  for (;;) {
    const got = await pastViews({ ...options, after });
    for (const view of got.views) {
      yield [view.version, view];
      after = view.version;
    }
    if (!got.more || got.views.length === 0) return;
  }
}

/** Every view of the replay at once, oldest first: for a page that steps forward and back. */
export async function replayViews(options: ReplayOptions): Promise<GameView[]> {
  const views: GameView[] = [];
  for await (const [, view] of replay(options)) views.push(view);
  return views;
}
