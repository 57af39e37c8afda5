// What the replay reads, and how it checks it: a table's record (`GET /v1/games/{id}/record`,
// every event as this viewer's events page shows it), the views the service served this viewer
// at each past version (`GET /v1/games/{id}/views`), and the openings of both checked against
// their deals' commitments with the TypeScript client's verifier (client/proofs.js); the views are
// read with its replay helper (client/replay.js). Nothing here folds the rules or touches the
// DOM: the page draws what the service served.

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { GameEvent, GameRecord, GameView, Opening } from "../sdk/typescript/src/gen/types.gen.js" */

import { API_BASE, ApiError, asApiError, request } from "./api.js";
import { OLD_SCHEME, SCHEME, verifyOpening } from "./client/proofs.js";
import { pastViews } from "./client/replay.js";
import { openingsCheck } from "./proofs.js";

/**
 * A deal's commitment, from its deal event.
 * @typedef {{commitment: string, scheme: string, deckSize: number}} Deal
 */

/**
 * A table's record, all its pages read.
 * @typedef {object} TableRecord
 * @property {GameRecord["table"]} table
 * @property {GameEvent[]} events in order, version 1 first
 * @property {number} version the table's version when the last page was read
 * @property {Map<number, Deal>} deals by round
 */

const VIEWS_PAGE = 20; // past views a request asks for: each costs a view read
const LIMITED_WAITS = 8; // 429s a read waits out before it gives up

/**
 * A GET that waits out a 429 (`Retry-After`) a few times, as a command's retry does.
 * @param {string} path
 * @param {string | null} token
 */
async function read(path, token) {
  for (let waits = 0; ; waits++) {
    try {
      return (await request("GET", path, { token })).body;
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 429 || waits >= LIMITED_WAITS) throw err;
      await new Promise((r) => setTimeout(r, (err.retryAfter ?? 1) * 1000));
    }
  }
}

const enc = encodeURIComponent;

/**
 * Every page of the record of `id` as `token` (or a spectator) may see it.
 * @param {string} id
 * @param {string | null} token
 * @returns {Promise<TableRecord>}
 */
export async function readRecord(id, token) {
  /** @type {GameEvent[]} */
  const events = [];
  let page;
  do {
    const after = events.length ? events[events.length - 1].version : 0;
    page = /** @type {GameRecord} */ (await read(`/v1/games/${enc(id)}/record?after=${after}`, token));
    events.push(...page.events);
  } while (page.more && page.events.length);
  /** @type {Map<number, Deal>} */
  const deals = new Map();
  for (const event of events) {
    // A deal is the event that carries a commitment, in any game: its round names its openings.
    const d = /** @type {Record<string, any>} */ (event.data || {});
    if (typeof d.commitment === "string" && typeof d.round === "number")
      deals.set(d.round, {
        commitment: d.commitment,
        scheme: d.scheme ?? OLD_SCHEME,
        deckSize: d.deck_size,
      });
  }
  return { table: page.table, events, version: page.version, deals };
}

/** The views served to one viewer at past versions, read a page at a time as the replay needs them. */
export class PastViews {
  /**
   * @param {string} id
   * @param {string | null} token
   * @param {number} last the last version there is a view of
   */
  constructor(id, token, last) {
    this.id = id;
    this.token = token;
    this.last = last;
    /** @type {Map<number, GameView>} */
    this.views = new Map();
    /** @type {Map<number, Promise<void>>} pages on their way, by their `after` */
    this.loading = new Map();
  }

  /**
   * The view served at `version`; its page is read when it is not here yet, and the next page
   * is asked for ahead when the replay comes near its end.
   * @param {number} version
   * @returns {Promise<GameView>}
   */
  async at(version) {
    const after = Math.floor((version - 1) / VIEWS_PAGE) * VIEWS_PAGE;
    if (!this.views.has(version)) await this.page(after);
    const next = after + VIEWS_PAGE;
    if (version - after > VIEWS_PAGE / 2 && next < this.last) this.page(next).catch(() => {}); // read again when needed
    const view = this.views.get(version);
    if (!view)
      throw new ApiError(404, {
        code: "not_found",
        title: "No such version",
        detail: `Version ${version} was not served.`,
      });
    return view;
  }

  /** @param {number} after */
  page(after) {
    if (!this.loading.has(after)) {
      const options = { baseUrl: API_BASE, gameId: this.id, token: this.token, after, page: VIEWS_PAGE };
      const done = pastViews(options).then(
        (page) => page.views.forEach((view) => this.views.set(view.version, view)),
        (err) => {
          this.loading.delete(after); // a failed page is asked again next time
          throw asApiError(err);
        },
      );
      this.loading.set(after, done);
    }
    return this.loading.get(after);
  }
}

/**
 * The openings of a record, checked. Each opening of a step against its deal's commitment
 * (`deals`, by round), for the step that carries it: one of a round the record has no deal for,
 * or of a deal not committed card by card, fails. And all of them together, as a live tab checks
 * what it follows (proofs.js, the client's OpeningsChecker): no position opened as two cards, no
 * card at more positions than the deck holds copies of it, every card an event shows face up
 * opened; then each step's view against them (its openings, its hand, its face-up cards).
 * `able` is false where the browser cannot compute SHA-256 (WebCrypto: https, or this machine):
 * then nothing is checked, and nothing is said to have failed.
 */
export class Proofs {
  /** @param {TableRecord} record */
  constructor(record) {
    this.deals = record.deals;
    /** @type {Map<string, Promise<boolean>>} */
    this.checked = new Map();
    const quiet = () => {}; // problems are read from the checker, step by step
    this.whole = openingsCheck(quiet);
    this.able = this.whole != null;
    /** What the openings of the whole record disagree on, in words (none: an empty list). */
    this.disagreements = feed(this.whole, record.events).then(() => [
      ...(this.whole?.checker.problems ?? []),
    ]);
    this.sight = openingsCheck(quiet);
    this.fed = feed(this.sight, record.events);
    this.queue = Promise.resolve();
  }

  /**
   * What is wrong with the cards a step's view shows, in words: an opening that does not prove
   * its card, a card of its hand or face up that the record never opened to this viewer.
   * @param {GameView} view
   * @returns {Promise<string[]>}
   */
  ofView(view) {
    // One view at a time: the problems a view adds are those that came during its own check.
    const next = this.queue.then(async () => {
      await this.fed;
      if (!this.sight) return [];
      const before = this.sight.checker.problems.length;
      await this.sight.view(view);
      return this.sight.checker.problems.slice(before);
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * @param {Opening} opening
   * @returns {Promise<boolean>}
   */
  check(opening) {
    const key = JSON.stringify([opening.round, opening.position, opening.card, opening.salt, opening.path]);
    if (!this.checked.has(key)) {
      const deal = this.deals.get(opening.round);
      const ok =
        deal && deal.scheme === SCHEME
          ? verifyOpening(opening, deal.commitment, deal.deckSize).catch(() => false)
          : Promise.resolve(false);
      this.checked.set(key, ok);
    }
    return this.checked.get(key);
  }

  /**
   * Each of `openings` with whether it holds.
   * @param {Opening[]} openings
   * @returns {Promise<{opening: Opening, ok: boolean}[]>}
   */
  async all(openings) {
    return Promise.all(openings.map(async (opening) => ({ opening, ok: await this.check(opening) })));
  }
}

/**
 * The openings an event carries (none: an empty list).
 * @param {GameEvent | undefined} event
 * @returns {Opening[]}
 */
export function openingsOf(event) {
  const d = /** @type {Record<string, any>} */ (event?.data || {});
  return Array.isArray(d.openings) ? d.openings : [];
}

/**
 * Every event of `events` to `check`, in order.
 * @param {ReturnType<typeof openingsCheck>} check
 * @param {GameEvent[]} events
 */
async function feed(check, events) {
  if (check) for (const event of events) await check.event(event);
}
