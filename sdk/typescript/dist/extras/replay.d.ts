import type { GameView, PastViews } from "../gen/types.gen.js";
/** The most views the service gives a request (`list_views`' `limit`). */
export declare const REPLAY_PAGE = 50;
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
export declare function pastViews(options: ReplayOptions): Promise<PastViews>;
/** Each version after `after` and the view the viewer was served at it, in order, to the
 * version the table was at when the last page was read. */
export declare function replay(options: ReplayOptions): AsyncGenerator<[number, GameView]>;
/** Every view of the replay at once, oldest first: for a page that steps forward and back. */
export declare function replayViews(options: ReplayOptions): Promise<GameView[]>;
