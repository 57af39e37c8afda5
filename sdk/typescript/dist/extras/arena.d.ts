import type { EntrantCreated, EntrantPage, Leaderboard, Ticket } from "../gen/types.gen.js";
/** The longest one long-poll of the queue asks the service to hold (seconds). */
export declare const ARENA_POLL_S = 25;
/** How often `enter` asks again while the ticket still names a table it played (seconds). */
export declare const ARENA_BUSY_S = 3;
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
/** The arena as one entrant uses it. */
export declare class Arena {
    readonly baseUrl: string;
    /** The entrant token: `register` sets it. */
    token: string | null;
    /** The entrant's id: `register` sets it. */
    entrantId: string | null;
    private readonly doFetch;
    private readonly busyS;
    private readonly played;
    private stopper;
    constructor(options: ArenaOptions);
    private send;
    /** Register an entrant (1–40 printable characters; the games it plays); keep its token. */
    register(name: string, games: string[]): Promise<EntrantCreated>;
    /** Ask for a seat at a table of `kind` and size `players`, without waiting for it. */
    queue(kind: string, players?: number): Promise<Ticket>;
    /** Where the entrant stands; with `wait` (seconds) a long-poll, answered once seated. */
    status(wait?: number, signal?: AbortSignal): Promise<Ticket>;
    /** Queue for a table and wait (at most `wait` seconds; none: until seated or `stop()`) for
     * the seat. Rejects with a TimeoutError (an Error of that name) when `wait` passes first. An
     * service frees an entrant once its table has finished; should the ticket still name a table
     * played before (or the queue answer 409 `arena_busy`), this asks again every `busyS` until it
     * is free, then queues. */
    enter(kind: string, players?: number, wait?: number): Promise<Seated>;
    private queued;
    private seatOf;
    /** Leave the queue (a table it sits at plays on: its clock and the house finish it). */
    leave(): Promise<void>;
    /** Revoke the entrant: it leaves the queue and the leaderboard; its token stops working. */
    revoke(): Promise<void>;
    /** A pool's leaderboard (needs no token), best first. */
    leaderboard(kind: string, players?: number, limit?: number): Promise<Leaderboard>;
    /** Any entrant's page. */
    entrant(entrantId: string): Promise<EntrantPage>;
    /** This entrant's page: its ratings and recent matches. */
    me(): Promise<EntrantPage>;
    private id;
    /** Enter, hand `player` the seat (it plays the table to its end), enter again: until `tables`
     * were played (none: no end), `stop()` is called or `player` throws. Leaves the queue on the
     * way out; the number of tables played. */
    play(player: (seat: Seated) => unknown, kind: string, players?: number, tables?: number): Promise<number>;
    /** Stop `play`: after the table in play, or at once when waiting for one. */
    stop(): void;
}
