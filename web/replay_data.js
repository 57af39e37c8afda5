// What the replay reads, and how it checks it: a table's record (`GET /v1/games/{id}/record`,
// every event as this viewer's events page shows it), the views the service served this viewer
// at each past version (`GET /v1/games/{id}/views`), and the openings of both checked against
// their deals' commitments with the TypeScript client's verifier (client/proofs.js). Nothing
// here folds the rules or touches the DOM: the page draws what the service served.

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { GameEvent, GameRecord, GameView, Opening, PastViews as ViewsPage } from "../sdk/typescript/src/gen/types.gen.js" */

import { ApiError, request } from "./api.js";
import { OpeningsChecker, verifyOpening } from "./client/proofs.js";

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
        scheme: d.scheme ?? "deck-sha256",
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
      const done = read(
        `/v1/games/${enc(this.id)}/views?after=${after}&limit=${VIEWS_PAGE}`,
        this.token,
      ).then((/** @type {ViewsPage} */ page) =>
        page.views.forEach((view) => this.views.set(view.version, view)),
      );
      done.catch(() => this.loading.delete(after)); // a failed page is asked again next time
      this.loading.set(after, done);
    }
    return this.loading.get(after);
  }
}

/**
 * The openings of a record: each checked against its deal's commitment (`deals`, by round), and
 * all of them together by the client's OpeningsChecker (no position with two cards, no card at
 * more positions than the deck holds copies of it). An opening of a round the record has no deal
 * for, or of a deal not committed card by card, fails. Checks are kept: a step seen again is not
 * hashed again.
 */
export class Proofs {
  /** @param {TableRecord} record */
  constructor(record) {
    this.deals = record.deals;
    /** @type {Map<string, Promise<boolean>>} */
    this.checked = new Map();
    this.together = new OpeningsChecker();
    /** What the openings of the whole record disagree on, in words (none: an empty list). */
    this.disagreements = (async () => {
      for (const event of record.events) await this.together.observe(event);
      return [...this.together.problems];
    })();
  }

  /**
   * Whether every one of `cards`, which the viewer held in `round`, is opened to it in the record.
   * @param {number} round
   * @param {string[]} cards
   */
  async opened(round, cards) {
    await this.disagreements;
    return !this.deals.has(round) || this.together.saw(round, cards);
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
        deal && deal.scheme !== "deck-sha256"
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
