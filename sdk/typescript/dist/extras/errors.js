// How the service refuses: RFC 9457 problem details with a stable `code` (docs/api.md, Errors).
// Written by hand: the document types `code` as a string; these are the codes it names.
/** A refusal or failure as an Error, for code that throws rather than checks `error`. */
export class KronikasError extends Error {
    /** The HTTP status (0 when the service could not be reached). */
    status;
    code;
    title;
    detail;
    /** Seconds to wait before trying again (429 and 503), else null. */
    retryAfter;
    /** The problem document as the service sent it. */
    problem;
    constructor(problem, retryAfter = null) {
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
export function problemOf(status, body) {
    if (body && typeof body === "object" && "code" in body && "status" in body)
        return body;
    return {
        status,
        code: status === 0 ? "unavailable" : "internal",
        title: status === 0 ? "No connection" : `HTTP ${status}`,
        detail: status === 0
            ? "The service cannot be reached."
            : "The service answered with something that is not a problem document.",
    };
}
/** `Retry-After` in whole seconds, or null. */
export function retryAfterOf(headers) {
    const value = Number(headers?.get("Retry-After"));
    return Number.isFinite(value) && value > 0 ? value : null;
}
/**
 * The data of a generated call's answer, or a thrown KronikasError:
 * `const view = await unwrap(getGame({ client, path: { game_id } }))`.
 */
export async function unwrap(call) {
    let answer;
    try {
        answer = await call;
    }
    catch (err) {
        if (err instanceof KronikasError)
            throw err;
        throw new KronikasError(problemOf(0, null));
    }
    const { data, error, response } = answer;
    if (error !== undefined || !response?.ok) {
        throw new KronikasError(problemOf(response?.status ?? 0, error), retryAfterOf(response?.headers));
    }
    return data;
}
