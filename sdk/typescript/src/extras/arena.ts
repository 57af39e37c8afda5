// The arena (docs/arena.md) in a few lines: register an entrant, wait for a seat, play, again.
//
//   const arena = new Arena({ baseUrl });
//   await arena.register("my-bot", ["cheat"]);     // keeps the entrant token: arena.token
//   const seat = await arena.enter("cheat");         // long-polls until a table has a seat
//   await playMySeat(seat.tableId, seat.token);      // the seat token, as any table's
//   console.log((await arena.me()).ratings);
//
// `play(player, kind)` does the last two in a loop until `stop()`. The entrant token (`ke_…`) is
// shown once, at `register`: keep it (`new Arena({ baseUrl, token, entrantId })` comes back as
// the same entrant); a seat token opens one table only. A 429 or 503 is waited out as its
// `Retry-After` says; any other refusal throws a KronikasError. The web table imports this
// module too (the service serves dist/extras/ at /client/).

import type { EntrantCreated, EntrantPage, Leaderboard, Ticket } from "../gen/types.gen.js";
import { KronikasError, problemOf, retryAfterOf } from "./errors.js";

/** The longest one long-poll of the queue asks the service to hold (seconds). */
export const ARENA_POLL_S = 25;
/** How often `enter` asks again while the ticket still names a table it played (seconds). */
export const ARENA_BUSY_S = 3;
const MAX_WAIT_S = 30;

export interface ArenaOptions {
  baseUrl: string;
  /** The entrant token (`ke_…`), when the entrant was registered before. */
  token?: string | null;
  /** The entrant's id, for `me()`, when it was registered before. */
  entrantId?: string | null;
  fetch?: typeof fetch;
  /** How often `enter` asks again while the ticket names a table played (default ARENA_BUSY_S). */
  busyS?: number;
}

/** A seat the arena gave: every call of that table takes `token`. */
export interface Seated {
  tableId: string;
  seat: number;
  token: string;
  kind: string;
  players: number;
  setId: string | null;
}

interface Call {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number>;
  auth?: boolean;
  signal?: AbortSignal;
}

/** The arena as one entrant uses it. */
export class Arena {
  readonly baseUrl: string;
  /** The entrant token: `register` sets it. */
  token: string | null;
  /** The entrant's id: `register` sets it. */
  entrantId: string | null;
  private readonly doFetch: typeof fetch;
  private readonly busyS: number;
  private readonly played = new Set<string>();
  private stopper = new AbortController();

  constructor(options: ArenaOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.token = options.token ?? null;
    this.entrantId = options.entrantId ?? null;
    this.doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.busyS = options.busyS ?? ARENA_BUSY_S;
  }

  private async send<T>(path: string, call: Call = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (call.auth ?? true) {
      if (!this.token) {
        const detail = "This needs the entrant token: register first.";
        throw new KronikasError({ status: 401, code: "unauthorized", title: "Unauthorized", detail });
      }
      headers.Authorization = `Bearer ${this.token}`;
    }
    if (call.body !== undefined) headers["Content-Type"] = "application/json";
    const query = call.query
      ? `?${Object.entries(call.query)
          .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
          .join("&")}`
      : "";
    for (;;) {
      const response = await this.doFetch(`${this.baseUrl}${path}${query}`, {
        method: call.method ?? "GET",
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        cache: "no-store",
        signal: call.signal,
      });
      if (response.ok) {
        const text = await response.text();
        return (text ? JSON.parse(text) : null) as T;
      }
      let body: unknown = null;
      try {
        body = await response.json();
      } catch {
        body = null;
      }
      const error = new KronikasError(problemOf(response.status, body), retryAfterOf(response.headers));
      if (response.status !== 429 && response.status !== 503) throw error;
      await sleep(Math.min(MAX_WAIT_S, error.retryAfter ?? 1) * 1000);
    }
  }

  /** Register an entrant (1–40 printable characters; the games it plays); keep its token. */
  async register(name: string, games: string[]): Promise<EntrantCreated> {
    const entrant = await this.send<EntrantCreated>("/v1/arena/entrants", {
      method: "POST",
      body: { name, games },
      auth: false,
    });
    this.token = entrant.token;
    this.entrantId = entrant.entrant_id;
    return entrant;
  }

  /** Ask for a seat at a table of `kind` and size `players`, without waiting for it. */
  queue(kind: string, players = 2): Promise<Ticket> {
    return this.send<Ticket>("/v1/arena/queue", { method: "POST", body: { kind, players } });
  }

  /** Where the entrant stands; with `wait` (seconds) a long-poll, answered once seated. */
  status(wait = 0, signal?: AbortSignal): Promise<Ticket> {
    return this.send<Ticket>("/v1/arena/queue", { query: { wait: Math.max(0, Math.ceil(wait)) }, signal });
  }

  /** Queue for a table and wait (at most `wait` seconds; none: until seated or `stop()`) for
   * the seat. Rejects with a TimeoutError (an Error of that name) when `wait` passes first. An
   * service frees an entrant once its table has finished; should the ticket still name a table
   * played before (or the queue answer 409 `arena_busy`), this asks again every `busyS` until it
   * is free, then queues. */
  async enter(kind: string, players = 2, wait?: number): Promise<Seated> {
    const deadline = wait === undefined ? null : Date.now() + wait * 1000;
    const signal = this.stopper.signal;
    let ticket = await this.queued(kind, players);
    for (;;) {
      const seated = this.seatOf(ticket, kind, players);
      if (seated) return seated;
      if (ticket.status === "idle") {
        ticket = await this.queued(kind, players);
        if (ticket.status === "idle") await sleep(this.busyS * 1000, signal);
        continue;
      }
      const left = deadline === null ? ARENA_POLL_S : Math.min(ARENA_POLL_S, (deadline - Date.now()) / 1000);
      if (left <= 0 || signal.aborted) {
        const error = new Error(`not seated at a table of ${kind} within ${wait} s`);
        error.name = "TimeoutError";
        throw error;
      }
      try {
        if (ticket.status === "seated") {
          // at a table already played: not yet freed
          await sleep(Math.min(this.busyS, left) * 1000, signal);
          ticket = await this.status(0, signal);
        } else ticket = await this.status(left, signal);
      } catch (error) {
        if (!signal.aborted) throw error;
      }
    }
  }

  private async queued(kind: string, players: number): Promise<Ticket> {
    try {
      return await this.queue(kind, players);
    } catch (error) {
      if (error instanceof KronikasError && error.status === 409) return this.status();
      throw error;
    }
  }

  private seatOf(ticket: Ticket, kind: string, players: number): Seated | null {
    if (ticket.status !== "seated" || !ticket.table_id || !ticket.token || ticket.seat == null) return null;
    if (this.played.has(ticket.table_id)) return null;
    this.played.add(ticket.table_id);
    return {
      tableId: ticket.table_id,
      seat: ticket.seat,
      token: ticket.token,
      kind: ticket.kind ?? kind,
      players: ticket.players ?? players,
      setId: ticket.set_id ?? null,
    };
  }

  /** Leave the queue (a table it sits at plays on: its clock and the house finish it). */
  async leave(): Promise<void> {
    await this.send<null>("/v1/arena/queue", { method: "DELETE" });
  }

  /** Revoke the entrant: it leaves the queue and the leaderboard; its token stops working. */
  async revoke(): Promise<void> {
    await this.send<null>(`/v1/arena/entrants/${encodeURIComponent(this.id())}`, { method: "DELETE" });
    this.token = null;
  }

  /** A pool's leaderboard (needs no token), best first. */
  leaderboard(kind: string, players = 2, limit = 50): Promise<Leaderboard> {
    return this.send<Leaderboard>("/v1/arena/leaderboard", { query: { kind, players, limit }, auth: false });
  }

  /** Any entrant's page. */
  entrant(entrantId: string): Promise<EntrantPage> {
    return this.send<EntrantPage>(`/v1/arena/entrants/${encodeURIComponent(entrantId)}`, { auth: false });
  }

  /** This entrant's page: its ratings and recent matches. */
  async me(): Promise<EntrantPage> {
    return this.entrant(this.id());
  }

  private id(): string {
    if (!this.entrantId) throw new Error("no entrant id: register, or give `entrantId`");
    return this.entrantId;
  }

  /** Enter, hand `player` the seat (it plays the table to its end), enter again: until `tables`
   * were played (none: no end), `stop()` is called or `player` throws. Leaves the queue on the
   * way out; the number of tables played. */
  async play(player: (seat: Seated) => unknown, kind: string, players = 2, tables?: number): Promise<number> {
    this.stopper = new AbortController();
    let played = 0;
    try {
      while (!this.stopper.signal.aborted && (tables === undefined || played < tables)) {
        let seat: Seated;
        try {
          seat = await this.enter(kind, players, ARENA_POLL_S);
        } catch (error) {
          if (error instanceof Error && error.name === "TimeoutError") continue;
          throw error;
        }
        await player(seat);
        played += 1;
      }
    } finally {
      if (this.token) await this.leave().catch(() => undefined);
    }
    return played;
  }

  /** Stop `play`: after the table in play, or at once when waiting for one. */
  stop(): void {
    this.stopper.abort();
  }
}

/** Wait `ms`, or less when `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done);
  });
}
