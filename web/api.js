// The HTTP API of Krónikás, as a page uses it (docs/api.md). Nothing here touches the DOM.
//
// The page talks to the service at its own origin, or at the origin given as `?api=http://host:port`
// (the same files then work from another origin, which must be listed in the service's
// CORS_ORIGINS). Only an http: or https: origin is taken from `?api=`; anything else is ignored.

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { Command, CommandResult, Created, GameView, HouseSeated, Joined, Kinds, Lobby, Problem } from "../sdk/typescript/src/gen/types.gen.js" */
/**
 * An answer: the parsed body, the version in its ETag, and the status.
 * @template T
 * @typedef {{body: T, etag: number | null, status: number}} Answer
 */

import { KronikasError } from "./client/errors.js";
import { SocketClosedError } from "./client/socket.js";

const params = new URLSearchParams(location.search);

/**
 * `?api=` when it is an http: or https: origin (`http://host:port`, nothing after it), as the
 * origin; else null. Anything else (`javascript:…`, `data:…`, a path, garbage) is ignored: the page
 * uses its own origin and never writes the value anywhere (links, the page, the log).
 */
export function apiOrigin(value) {
  if (!value) return null;
  let url;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password || url.search || url.hash || !["", "/"].includes(url.pathname))
    return null;
  return url.origin;
}

/** The `?api=` this page was given, when it is an origin (see apiOrigin); else null. */
export const API_PARAM = apiOrigin(params.get("api"));
if (params.get("api") && !API_PARAM) console.warn("?api= is not an http(s) origin: ignored");

/** Where the API lives: `?api=` when it is an origin, else this page's origin. No trailing slash. */
export const API_BASE = API_PARAM || location.origin;

/** A refusal or failure, carrying the problem+json fields a person should read. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {Partial<Problem> & {retryAfter?: number | null}} problem
   */
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || "";
    this.title = problem.title || "";
    this.detail = problem.detail || "";
    this.retryAfter = problem.retryAfter ?? null;
  }
}

/**
 * A failure of the client's helpers (client/*.js: a KronikasError, or the socket closed for
 * good) as an ApiError; anything else as it is.
 * @param {any} err
 * @returns {any}
 */
export function asApiError(err) {
  if (err instanceof KronikasError && err.status !== 0)
    return new ApiError(err.status, { ...err.problem, retryAfter: err.retryAfter });
  if (err instanceof KronikasError || err instanceof SocketClosedError)
    return new ApiError(0, {
      title: "No connection",
      detail: "The service cannot be reached. Check your connection and try again.",
    });
  return err;
}

/**
 * The server's clock, as far as this page can tell: `now()` is Date.now() corrected by it. Each
 * answer bounds the offset (server time − local time) from both sides; each event bounds it from
 * below (an event cannot have happened after we heard it). The bounds only narrow, until a clock
 * jumps and they disagree: then they start again.
 */
export const clock = {
  offset: 0,
  lo: -Infinity,
  hi: Infinity,
  tight: false, // an event gave the lower bound: it is within a few ms of the truth
  now() {
    return Date.now() + this.offset;
  },
  narrow(lo, hi, tight) {
    if (lo > this.hi || hi < this.lo) [this.lo, this.hi, this.tight] = [lo, hi, false];
    else [this.lo, this.hi] = [Math.max(this.lo, lo), Math.min(this.hi, hi)];
    if (tight && this.lo === lo) this.tight = true;
    if (this.lo === -Infinity) this.offset = 0;
    else this.offset = this.tight || this.hi === Infinity ? this.lo : (this.lo + this.hi) / 2;
  },
  /** From a response's `Date` header: whole seconds, and a server may stamp it up to a second
   * late (uvicorn renews it once a second), so the server's time is within [date, date + 2 s). */
  fromDateHeader(value, sentAt, receivedAt) {
    const date = Date.parse(value || "");
    if (!Number.isNaN(date)) this.narrow(date - receivedAt, date + 2000 - sentAt, false);
  },
  /** From an event's `at` (milliseconds), heard on the stream at `receivedAt`. */
  fromEvent(at, receivedAt = Date.now()) {
    const happened = Date.parse(at || "");
    if (!Number.isNaN(happened)) this.narrow(happened - receivedAt, Infinity, true);
  },
};

/**
 * @param {number} status
 * @param {any} body
 * @param {Headers} headers
 * @returns {Partial<Problem> & {retryAfter: number | null}}
 */
function problemFrom(status, body, headers) {
  const retryAfter = Number(headers.get("Retry-After")) || null;
  if (body && typeof body === "object" && (body.title || body.detail)) return { ...body, retryAfter };
  // Not a problem document (a proxy's page, say): say so in words, never show the body.
  return {
    title: `HTTP ${status}`,
    detail: "The service answered in a way this page does not understand.",
    retryAfter,
  };
}

/**
 * One request. Answers `{body, etag, status}`; throws ApiError for any non-2xx answer, and an
 * ApiError with status 0 when the service cannot be reached.
 * @param {string} method
 * @param {string} path
 * @param {{token?: string | null, body?: unknown, headers?: Record<string, string>, raw?: boolean}} [options]
 *   `raw`: a 2xx answer's body is its text, not parsed
 * @returns {Promise<Answer<any>>}
 */
export async function request(method, path, { token, body, headers = {}, raw = false } = {}) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, headers: { Accept: "application/json", ...headers }, cache: "no-store" };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const sentAt = Date.now();
  let response;
  try {
    response = await fetch(API_BASE + path, init);
  } catch {
    throw new ApiError(0, {
      title: "No connection",
      detail: "The service cannot be reached. Check your connection and try again.",
    });
  }
  clock.fromDateHeader(response.headers.get("Date"), sentAt, Date.now());
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok)
    throw new ApiError(response.status, problemFrom(response.status, parsed, response.headers));
  return { body: raw ? text : parsed, etag: versionOf(response.headers.get("ETag")), status: response.status };
}

/** `"12"` or `W/"12"` → 12; anything else → null. */
export function versionOf(etag) {
  const m = /^(?:W\/)?"(\d+)"$/.exec(etag || "");
  return m ? Number(m[1]) : null;
}

/** A fresh Idempotency-Key (crypto.randomUUID needs a secure context; this does not). */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const enc = encodeURIComponent;
const LIMITED_RETRIES = 5; // 429s a retried command waits out before it gives up

/** A game's rules as Markdown text, kept once fetched: they do not change while the page lives. */
const rulesText = new Map();

export const api = {
  /**
   * @param {string} kind
   * @returns {Promise<string>}
   */
  rules(kind) {
    if (!rulesText.has(kind)) {
      const text = request("GET", `/v1/kinds/${enc(kind)}/rules`, {
        headers: { Accept: "text/markdown" },
        raw: true,
      }).then((r) => /** @type {string} */ (r.body));
      text.catch(() => rulesText.delete(kind)); // a failure is asked again next time
      rulesText.set(kind, text);
    }
    return rulesText.get(kind);
  },
  kinds: () => request("GET", "/v1/kinds").then((/** @type {Answer<Kinds>} */ r) => r.body.kinds),
  /** @returns {Promise<Lobby>} */
  lobby: (status = "open", limit = 20) =>
    request("GET", `/v1/games?status=${enc(status)}&limit=${limit}`).then((r) => r.body),
  /**
   * @param {GameView["kind"]} kind
   * @param {object} options
   * @returns {Promise<Created>}
   */
  create: (kind, options) => request("POST", "/v1/games", { body: { kind, options } }).then((r) => r.body),
  /** @returns {Promise<Joined>} */
  join: (id, name) => request("POST", `/v1/games/${enc(id)}/players`, { body: { name } }).then((r) => r.body),
  /** @returns {Promise<Answer<GameView>>} */
  start: (id, hostToken) => request("POST", `/v1/games/${enc(id)}/start`, { token: hostToken }),
  /**
   * Issue 16: the host seats a player the house plays. 404/405 where the service has no such route yet.
   * @returns {Promise<HouseSeated>}
   */
  addHouse: (id, hostToken, name) =>
    request("POST", `/v1/games/${enc(id)}/house-players`, { token: hostToken, body: { name } }).then(
      (r) => r.body,
    ),
  /**
   * @param {string} id
   * @param {string | null} token
   * @returns {Promise<Answer<GameView>>}
   */
  view: (id, token) => request("GET", `/v1/games/${enc(id)}`, { token }),

  /**
   * A command, applied only at `version` (If-Match) and safe to retry (Idempotency-Key): when the
   * connection drops before the answer, the same request is sent again with the same key, and the
   * service answers the first result instead of applying the move twice. A retry is paid for as
   * any request: refused 429, it waits `Retry-After` and goes again with the same key (it may
   * have been applied: a first try's 429 is the caller's, nothing was).
   * @param {string} id
   * @param {string | null} token
   * @param {number | null} version
   * @param {Command} command
   * @param {string} [key] the Idempotency-Key (a move first sent on the socket keeps its id)
   * @param {boolean} [sentBefore] whether the move was sent before (on the socket)
   * @returns {Promise<Answer<CommandResult>>}
   */
  async command(id, token, version, command, key = newKey(), sentBefore = false) {
    /** @type {Record<string, string>} */
    const headers = { "Idempotency-Key": key };
    if (version != null) headers["If-Match"] = `"${version}"`;
    for (let attempt = 0, waits = 0; ; ) {
      try {
        return await request("POST", `/v1/games/${enc(id)}/commands`, { token, body: command, headers });
      } catch (err) {
        if (err.status === 429 && (attempt > 0 || sentBefore) && waits < LIMITED_RETRIES) {
          waits++; // a retry refused for the rate: the move may be applied; ask again, same key
          await new Promise((r) => setTimeout(r, (err.retryAfter ?? 1) * 1000));
          continue;
        }
        if (err.status !== 0 || attempt >= 2) throw err;
        attempt++;
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  },
};
