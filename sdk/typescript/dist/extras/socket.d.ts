import type { Command, CommandResult, GameEvent, GameView, Problem } from "../gen/types.gen.js";
import { KronikasError } from "./errors.js";
export interface HelloMessage {
    type: "hello";
    /** A player or host token; null for a spectator. */
    token: string | null;
    /** Send the events after this version (0: from the first). */
    after: number;
    /** Also send the table's view after each change. */
    views: boolean;
}
export interface CommandMessage {
    type: "command";
    /** 1–128 printable ASCII characters (`!`–`~`): the command's Idempotency-Key. */
    id: string;
    command: Command;
    /** Apply only at this version (as `If-Match`). */
    if_match?: number;
}
export interface PingMessage {
    type: "ping";
}
export type ClientMessage = HelloMessage | CommandMessage | PingMessage;
export interface WelcomeMessage {
    type: "welcome";
    /** The table's version now. */
    version: number;
    seat: number | null;
    player_id: string | null;
    role: "player" | "host" | "spectator";
    heartbeat_s: number;
    idle_s: number;
    max_bytes: number;
    /** The viewer's view when `views` was asked for, else null. */
    game: GameView | null;
}
export interface EventsMessage {
    type: "events";
    /** Versions increasing, without gaps, redacted for this viewer. */
    events: GameEvent[];
    /** The last event's version. */
    version: number;
}
export interface ViewMessage {
    type: "view";
    game: GameView;
    version: number;
}
export interface ResultMessage {
    type: "result";
    id: string;
    /** What `POST …/commands` answers with 200. */
    result: CommandResult;
}
export interface ProblemMessage {
    type: "problem";
    /** The command's id, or null for a message that was not a command. */
    id: string | null;
    problem: Problem;
    /** Seconds to wait (429 and 503), else null. */
    retry_after: number | null;
}
export interface HeartbeatMessage {
    type: "heartbeat";
    version: number;
}
export interface PongMessage {
    type: "pong";
}
export type ServerMessage = WelcomeMessage | EventsMessage | ViewMessage | ResultMessage | ProblemMessage | HeartbeatMessage | PongMessage;
/** The close codes of the protocol, by name. */
export declare const CloseCode: {
    readonly normal: 1000;
    readonly goingAway: 1001;
    readonly binaryFrame: 1003;
    readonly forbidden: 1008;
    readonly tooLarge: 1009;
    readonly internal: 1011;
    readonly badHello: 4400;
    readonly unauthorized: 4401;
    readonly notFound: 4404;
    readonly timeout: 4408;
    readonly rateLimited: 4429;
    readonly unavailable: 4503;
    readonly slowReader: 4508;
};
export interface WebSocketLike {
    readonly readyState: number;
    send(data: string): void;
    close(code?: number, reason?: string): void;
    onopen: ((event: unknown) => void) | null;
    onmessage: ((event: {
        data: unknown;
    }) => void) | null;
    onclose: ((event: {
        code: number;
        reason: string;
    }) => void) | null;
    onerror: ((event: unknown) => void) | null;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;
export type SocketState = "connecting" | "live" | "waiting" | "stopped";
export interface SeatSocketOptions {
    /** The service's base URL (`https://…` becomes `wss://…`). */
    baseUrl: string;
    gameId: string;
    token?: string | null;
    /** Start after this version (0: every event from the first). */
    after?: number;
    /** Ask for the view after every change (`onView`). */
    views?: boolean;
    /** The WebSocket class; `globalThis.WebSocket` by default (Node 20: pass `ws`'s). */
    WebSocket?: WebSocketConstructor;
    /** Each event once, in version order: pushed ones and those of this socket's own results. */
    onEvent?: (event: GameEvent) => void;
    onView?: (game: GameView, version: number) => void;
    onWelcome?: (welcome: WelcomeMessage) => void;
    /** A `problem` that answers no command (a malformed message). */
    onProblem?: (error: KronikasError) => void;
    /** "waiting" carries the delay; "stopped" the close code and reason that ended it, if any. */
    onState?: (state: SocketState, detail?: {
        delayMs?: number;
        code?: number;
        reason?: string;
    }) => void;
    /** Reconnect after a drop (default true). */
    reconnect?: boolean;
    /** Stop after this many closes running before a first `welcome` (the socket cannot be used
     * here: a caller may fall back to the stream and HTTP). Default: never. */
    maxFailedOpens?: number;
    /** Reject a command with no answer after this many ms (status 0, as a lost request); default:
     * it waits as long as the socket lives. */
    answerTimeoutMs?: number;
}
/** The socket closed for good (a close code that says not to come back, or `close()`). */
export declare class SocketClosedError extends Error {
    readonly code: number | null;
    readonly reason: string;
    constructor(code: number | null, reason: string);
}
/** A fresh command id: 32 hex characters. */
export declare function newCommandId(): string;
/** `http(s)://host/…` → `ws(s)://host/…/v1/games/{id}/socket`. */
export declare function socketUrl(baseUrl: string, gameId: string): string;
/** `rate_limited retry_after=3` → 3; anything else → null. */
export declare function retryAfterOfReason(reason: string): number | null;
export declare class SeatSocket {
    private readonly options;
    private readonly Ctor;
    private socket;
    private readonly pending;
    private lastVersion;
    private welcomed;
    private everWelcomed;
    private failedOpens;
    private stopped;
    private backoff;
    private timers;
    /** Retry now, not after the wait (a browser that comes back online). */
    private readonly online;
    private lastSent;
    private welcomeMessage;
    private closedWith;
    private readonly closedPromise;
    private resolveClosed;
    constructor(options: SeatSocketOptions);
    /** The version of the last event handed to `onEvent`. */
    get version(): number;
    /** The last `welcome` (seat, role, limits), null before the first. */
    get welcome(): WelcomeMessage | null;
    /** Resolves when the socket is closed for good. */
    get closed(): Promise<void>;
    /**
     * Send a command; resolves with what `POST …/commands` would answer, rejects with the
     * KronikasError of a `problem` (409, 412, 429 …). Its events also reach `onEvent`, in order.
     * A command sent while the socket is down waits for the next `welcome`. One sent again after
     * a lost connection (it may have been applied) that meets a 429 waits its `retry_after` and
     * goes once more under its id: a retry is paid for as any command, and answered once.
     */
    send(command: Command, options?: {
        ifMatch?: number;
        id?: string;
    }): Promise<CommandResult>;
    /** Close for good (1000); commands still waiting are rejected. */
    close(): void;
    private open;
    private receive;
    /** Events in order, each once (a replayed result's old events are skipped). */
    private deliver;
    /** The command waiting under `id`, no longer waiting (its timers stopped); undefined if none. */
    private settle;
    private sendCommand;
    /** A command sent again that met a 429: once more after `retry_after` seconds, on the
     * connection open then, or on the next `welcome` should there be none. */
    private sendAgain;
    private write;
    /** Pings before the server's idle limit, and gives up on a server silent for three beats. */
    private keepAlive;
    private heard;
    private dropped;
    private finish;
}
