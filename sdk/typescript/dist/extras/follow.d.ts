import type { GameEvent, Problem } from "../gen/types.gen.js";
import { KronikasError } from "./errors.js";
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
    onState?: (state: FollowState, detail?: {
        delayMs?: number;
        error?: KronikasError;
    }) => void;
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
/** Follow `gameId` from the event after `after`; see FollowOptions. */
export declare function follow(options: FollowOptions): Follower;
export interface Frame {
    id: string | null;
    event: string | null;
    data: string | null;
}
/** An SSE parser: feed it text as it arrives; it calls `onFrame` once per message. */
export declare function frameParser(onFrame: (frame: Frame) => void): (chunk: string) => void;
export type { Problem };
