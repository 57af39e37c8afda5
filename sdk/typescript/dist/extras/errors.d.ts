import type { Problem } from "../gen/types.gen.js";
/** Every `code` the service answers with; a newer service may add codes, so `string` stays open. */
export type ProblemCode = "unauthorized" | "forbidden" | "not_found" | "method_not_allowed" | "not_your_turn" | "illegal_move" | "game_not_open" | "game_full" | "game_over" | "name_taken" | "version_mismatch" | "payload_too_large" | "unsupported_media_type" | "invalid_request" | "rate_limited" | "unavailable" | "outcome_unknown" | "internal" | (string & {});
/** A refusal or failure as an Error, for code that throws rather than checks `error`. */
export declare class KronikasError extends Error {
    /** The HTTP status (0 when the service could not be reached). */
    readonly status: number;
    readonly code: ProblemCode;
    readonly title: string;
    readonly detail: string;
    /** Seconds to wait before trying again (429 and 503), else null. */
    readonly retryAfter: number | null;
    /** The problem document as the service sent it. */
    readonly problem: Problem;
    constructor(problem: Problem, retryAfter?: number | null);
}
/** A problem from whatever an error answer held: the service's problem+json, or words for
 * anything else (a proxy's HTML page, an empty body, a dropped connection). */
export declare function problemOf(status: number, body: unknown): Problem;
/** `Retry-After` in whole seconds, or null. */
export declare function retryAfterOf(headers: Headers | undefined): number | null;
/**
 * The data of a generated call's answer, or a thrown KronikasError:
 * `const view = await unwrap(getGame({ client, path: { game_id } }))`.
 */
export declare function unwrap<T>(call: Promise<{
    data?: T;
    error?: unknown;
    response?: Response;
}>): Promise<T>;
