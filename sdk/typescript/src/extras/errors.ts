// How the service refuses: RFC 9457 problem details with a stable `code` (docs/api.md, Errors).
// Written by hand: the document types `code` as a string; these are the codes it names.

import type { Problem } from "../gen/types.gen.js";

/** Every `code` the service answers with; a newer service may add codes, so `string` stays open. */
export type ProblemCode =
  | "unauthorized" // 401: no token, or a token this table does not know
  | "forbidden" // 403: a valid token that may not do this (a player starting the table)
  | "not_found" // 404: no such table, or no such route
  | "method_not_allowed" // 405
  | "not_your_turn" // 409: this seat may do nothing now
  | "illegal_move" // 409: it may act, but not this way
  | "game_not_open" // 409
  | "game_full" // 409
  | "game_over" // 409
  | "name_taken" // 409: another player at the table has that name
  | "version_mismatch" // 412: `If-Match` names a version that is no longer current
  | "payload_too_large" // 413
  | "unsupported_media_type" // 415
  | "invalid_request" // 422: a malformed body or parameter
  | "rate_limited" // 429: wait `retryAfter` seconds
  | "unavailable" // 503: the store does not answer; nothing was changed
  | "outcome_unknown" // 503: a command may or may not have been applied: retry with the same key
  | "internal" // 500
  | (string & {});

/** A refusal or failure as an Error, for code that throws rather than checks `error`. */
export class KronikasError extends Error {
  /** The HTTP status (0 when the service could not be reached). */
  readonly status: number;
  readonly code: ProblemCode;
  readonly title: string;
  readonly detail: string;
  /** Seconds to wait before trying again (429 and 503), else null. */
  readonly retryAfter: number | null;
  /** The problem document as the service sent it. */
  readonly problem: Problem;

  constructor(problem: Problem, retryAfter: number | null = null) {
    super(problem.detail || problem.title || `HTTP ${problem.status}`);
    this.name = "KronikasError";
    this.status = problem.status;
    this.code = problem.code;
    this.title = problem.title;
    this.detail = problem.detail;
    this.retryAfter = retryAfter;
    this.problem = problem;
  }
}

/** A problem from whatever an error answer held: the service's problem+json, or words for
 * anything else (a proxy's HTML page, an empty body, a dropped connection). */
export function problemOf(status: number, body: unknown): Problem {
  if (body && typeof body === "object" && "code" in body && "status" in body) return body as Problem;
  return {
    status,
    code: status === 0 ? "unavailable" : "internal",
    title: status === 0 ? "No connection" : `HTTP ${status}`,
    detail:
      status === 0
        ? "The service cannot be reached."
        : "The service answered with something that is not a problem document.",
  };
}

/** `Retry-After` in whole seconds, or null. */
export function retryAfterOf(headers: Headers | undefined): number | null {
  const value = Number(headers?.get("Retry-After"));
  return Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * The data of a generated call's answer, or a thrown KronikasError:
 * `const view = await unwrap(getGame({ client, path: { game_id } }))`.
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response?: Response }>,
): Promise<T> {
  let answer: { data?: T; error?: unknown; response?: Response };
  try {
    answer = await call;
  } catch (err) {
    if (err instanceof KronikasError) throw err;
    throw new KronikasError(problemOf(0, null));
  }
  const { data, error, response } = answer;
  if (error !== undefined || !response?.ok) {
    throw new KronikasError(problemOf(response?.status ?? 0, error), retryAfterOf(response?.headers));
  }
  return data as T;
}
