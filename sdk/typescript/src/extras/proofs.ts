// Checking the cards of a fair deal (docs/api.md, "Fair deals"), with WebCrypto alone.
//
// A deal (`round_dealt`, scheme `merkle-sha256`) carries `commitment`, the root of a Merkle tree
// (RFC 6962, SHA-256) over its shuffled deck, and `deck_size`. An opening proves one card of it:
// the leaf is the text `"<position>:<card>:<salt>"`, and `path` the sibling hashes from the leaf
// up. `verifyOpening` checks one opening against its root (RFC 9162, 2.1.3.2); `OpeningsChecker`
// collects every opening a viewer receives during a match and checks that they agree. The same
// checks as the Python SDK's `kronikas_client.proofs`, on the same openings.
// The web table imports this module too: the service serves dist/extras/ at /client/.

/** One card of a deal proven: `card` lies at `position` (0 first) of round `round`'s deck. */
export interface CardOpening {
  round: number;
  position: number;
  card: string;
  salt: string;
  path: string[];
}

/** The `scheme` of a deal committed card by card, whose cards come with openings. */
export const SCHEME = "merkle-sha256";
/** The `scheme` of a deal stored before: one hash of the whole deck, shown by `deck_revealed`. */
export const OLD_SCHEME = "deck-sha256";

const HASH = /^[0-9a-f]{64}$/;
const SALT = /^[0-9a-f]{32}$/;
const STANDARD = /^(7|8|9|10|U|O|K|A)(H|B|L|A)$/;
const CHRONICLERS = new Set(["XC", "XP"]);
const DECK = 32; // the cards of one Hungarian deck; a game's deck holds one or two, maybe Chroniclers

const isInt = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value);

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

async function sha256(prefix: number, ...parts: Uint8Array[]): Promise<Uint8Array> {
  const length = parts.reduce((n, p) => n + p.length, 1);
  const bytes = new Uint8Array(length);
  bytes[0] = prefix;
  let at = 1;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * Whether `opening` proves its card at its position of a deal of `deckSize` cards whose
 * `commitment` is this root: true only if every part is well formed (hashes as 64 lowercase hex
 * digits, the salt as 32) and the path leads from the leaf to the root.
 */
export async function verifyOpening(opening: CardOpening, commitment: string, deckSize: number): Promise<boolean> {
  const { position, card, salt, path } = (opening ?? {}) as Partial<CardOpening>;
  if (!isInt(position) || !isInt(deckSize) || position < 0 || position >= deckSize) return false;
  if (typeof card !== "string" || typeof salt !== "string" || !SALT.test(salt)) return false;
  if (!Array.isArray(path) || ![...path, commitment].every((h) => typeof h === "string" && HASH.test(h)))
    return false;
  let r = await sha256(0, new TextEncoder().encode(`${position}:${card}:${salt}`));
  let fn = position;
  let sn = deckSize - 1;
  for (const sibling of path.map(hexBytes)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(1, sibling, r);
      while (fn !== 0 && fn % 2 === 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = await sha256(1, r, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && toHex(r) === commitment;
}

/**
 * How many positions of a deal of `deckSize` cards may hold `card`: one or two decks of 32
 * (`deckSize / 32`, rounded down), and at most one of each Chronicler (`XC`, `XP`) beside them.
 */
export function copies(card: string, deckSize: number): number {
  if (STANDARD.test(card)) return Math.floor(deckSize / DECK);
  return CHRONICLERS.has(card) && deckSize % DECK ? 1 : 0;
}

interface Deal {
  commitment: string;
  deckSize: number;
  scheme: string;
  cards: Map<number, string>;
}

type Fields = Record<string, unknown>;
const record = (value: unknown): Fields | null =>
  typeof value === "object" && value !== null ? (value as Fields) : null;

/**
 * Every opening one viewer received during a match, and whether they agree: each proves its card
 * against its deal's commitment; no position holds two cards; no card lies at more positions
 * than the deck holds copies of it; every card the viewer saw (`saw`) is opened.
 *
 * `problems` lists each disagreement found, in words, as it is found (`onProblem` hears each).
 * The calls run one after the other in the order they are made, whatever awaits them; an opening
 * or a card seen before its deal is known waits for it (`deal`, or `observe` of `round_dealt`).
 */
export class OpeningsChecker {
  readonly problems: string[] = [];
  #deals = new Map<number, Deal>();
  #waiting = new Map<number, CardOpening[]>();
  #sightings = new Map<number, string[][]>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly onProblem?: (problem: string) => void) {}

  #then<T>(step: () => Promise<T> | T): Promise<T> {
    const next = this.#queue.then(step);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #problem(text: string): false {
    this.problems.push(text);
    this.onProblem?.(text);
    return false;
  }

  /** How many positions are proven so far, of every deal (each opening that checked, once). */
  get proven(): number {
    let n = 0;
    for (const deal of this.#deals.values()) n += deal.cards.size;
    return n;
  }

  /** The deal of `round`: its commitment (root), its deck's size and its scheme. */
  deal(round: number, commitment: string, deckSize: number, scheme: string = SCHEME): Promise<void> {
    return this.#then(async () => {
      const known = this.#deals.get(round);
      if (known) {
        if (known.commitment !== commitment || known.deckSize !== deckSize)
          this.#problem(`round ${round}: two different commitments to its deal`);
        return;
      }
      this.#deals.set(round, { commitment, deckSize, scheme, cards: new Map() });
      const waiting = this.#waiting.get(round) ?? [];
      this.#waiting.delete(round);
      for (const opening of waiting) await this.#add(opening);
      const deal = this.#deals.get(round) as Deal;
      for (const cards of this.#sightings.get(round) ?? []) this.#saw(deal, round, cards);
      this.#sightings.delete(round);
    });
  }

  /** Take one opening: false if it disagrees (its problem is added to `problems`). */
  add(opening: CardOpening): Promise<boolean> {
    return this.#then(() => this.#add(opening));
  }

  async #add(opening: CardOpening): Promise<boolean> {
    const { round, position, card } = (record(opening) ?? {}) as Partial<CardOpening>;
    if (!isInt(round)) return this.#problem("an opening without a round");
    const deal = this.#deals.get(round);
    if (!deal) {
      this.#waiting.set(round, [...(this.#waiting.get(round) ?? []), opening]);
      return true;
    }
    const where = `round ${round}, position ${position}`;
    if (deal.scheme !== SCHEME) return this.#problem(`${where}: an opening of a deal of scheme ${deal.scheme}`);
    if (!(await verifyOpening(opening, deal.commitment, deal.deckSize)))
      return this.#problem(`${where}: the opening of ${card} does not prove it`);
    const at = position as number;
    const proven = card as string;
    const before = deal.cards.get(at) ?? proven;
    if (before !== proven) return this.#problem(`${where}: opened as ${before} and as ${proven}`);
    deal.cards.set(at, proven);
    const cards = [...deal.cards.values()];
    const held = cards.filter((c) => c === proven).length;
    const chroniclers = cards.filter((c) => CHRONICLERS.has(c)).length;
    if (held > copies(proven, deal.deckSize) || chroniclers > deal.deckSize % DECK)
      return this.#problem(`${where}: ${proven} opened at ${held} positions of a deck of ${deal.deckSize}`);
    return true;
  }

  /**
   * The viewer saw these cards together in `round` (a hand, the table, cards turned up): false
   * if one is not opened to it there (as many times as it is listed). Before the round's deal is
   * known, they wait for it.
   */
  saw(round: number, cards: readonly string[]): Promise<boolean> {
    return this.#then(() => {
      const deal = this.#deals.get(round);
      if (!deal) {
        this.#sightings.set(round, [...(this.#sightings.get(round) ?? []), [...cards]]);
        return true;
      }
      return this.#saw(deal, round, cards);
    });
  }

  #saw(deal: Deal, round: number, cards: readonly string[]): boolean {
    if (deal.scheme !== SCHEME) return true; // a deal from before: its deck is shown whole
    const opened = new Map<string, number>();
    for (const c of deal.cards.values()) opened.set(c, (opened.get(c) ?? 0) + 1);
    const missing: string[] = [];
    for (const c of cards) {
      const left = opened.get(c) ?? 0;
      if (left > 0) opened.set(c, left - 1);
      else missing.push(c);
    }
    if (!missing.length) return true;
    return this.#problem(`round ${round}: no opening for ${missing.sort().join(", ")}`);
  }


  /**
   * Take what a view tells, whatever its game: the openings it holds, and the hand it shows (`me.hand`), seen in its `round`.
   * A command's answer's view holds none (`openings: []`): observe the events up to its version first, which brought them.
   */
  async view(view: unknown): Promise<void> {
    const fields = record(view);
    const openings = fields?.openings;
    await Promise.all((Array.isArray(openings) ? (openings as CardOpening[]) : []).map((o) => this.add(o)));
    const hand = record(fields?.me)?.hand;
    const round = fields?.round;
    if (isInt(round) && round > 0 && Array.isArray(hand) && hand.length) await this.saw(round, hand as string[]);
  }

  /** Take what one event tells: a deal (`commitment`, `deck_size`, `scheme`), and the openings it carries, whatever its game. */
  async observe(event: unknown): Promise<void> {
    const data = record(record(event)?.data);
    if (!data) return;
    const { round, commitment, scheme, deck_size: size, openings } = data;
    if (isInt(round) && typeof commitment === "string")
      void this.deal(round, commitment, isInt(size) ? size : 0, typeof scheme === "string" ? scheme : OLD_SCHEME);
    const all = Array.isArray(openings) ? (openings as CardOpening[]) : [];
    await Promise.all(all.map((o) => this.add(o)));
    await this.#then(() => undefined);
  }
}
