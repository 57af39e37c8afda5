// The seat socket (`GET /v1/games/{id}/socket`): one WebSocket that pushes a table's events and
// carries a seat's commands (docs/api.md, "The seat socket"). Every message is one JSON object
// with a `type`; the token travels in the first message (`hello`), never in the URL.
//
// The helper takes a WebSocket constructor: browsers and React Native have a global one, Node 20
// has none (pass `ws`'s). It resumes after a drop with `after` = the last version it handed on,
// and sends again the commands still waiting for their answer, under the same `id`: the id is the
// command's Idempotency-Key, so the service applies each one once and answers a repeat with the
// first answer. The web table imports this module too (dist/extras/, served at /client/).

import type { Command, CommandResult, GameEvent, GameView, Problem } from "../gen/types.gen.js";
import { KronikasError, problemOf } from "./errors.js";

// ---- the protocol's messages ----

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

export type ServerMessage =
  | WelcomeMessage
  | EventsMessage
  | ViewMessage
  | ResultMessage
  | ProblemMessage
  | HeartbeatMessage
  | PongMessage;

/** The close codes of the protocol, by name. */
export const CloseCode = {
  normal: 1000,
  goingAway: 1001, // the server shuts down: reconnect
  binaryFrame: 1003,
  forbidden: 1008, // a page on an origin not in CORS_ORIGINS (where the server cannot say 403)
  tooLarge: 1009,
  internal: 1011, // an unexpected failure: reconnect
  badHello: 4400,
  unauthorized: 4401, // do not reconnect with that token
  notFound: 4404,
  timeout: 4408, // no hello in time, or idle too long: reconnect
  rateLimited: 4429, // wait `retry_after=` from the reason, reconnect
  unavailable: 4503, // wait `retry_after=` from the reason, reconnect
  slowReader: 4508, // reconnect with `after`
} as const;

const RECONNECT = new Set<number>([1001, 1005, 1006, 1009, 1011, 1012, 1013, 4408, 4429, 4503, 4508]);

// ---- what the helper needs of a WebSocket (the browser's, React Native's, or `ws`'s) ----

export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
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
  onState?: (state: SocketState, detail?: { delayMs?: number; code?: number; reason?: string }) => void;
  /** Reconnect after a drop (default true). */
  reconnect?: boolean;
  /** Stop after this many closes running before a first `welcome` (the socket cannot be used
   * here: a caller may fall back to the stream and HTTP). Default: never. */
  maxFailedOpens?: number;
  /** Reject a command with no answer after this many ms (status 0, as a lost request); default:
   * it waits as long as the socket lives. */
  answerTimeoutMs?: number;
}

interface Pending {
  message: CommandMessage;
  resolve: (result: CommandResult) => void;
  reject: (error: unknown) => void;
  /** How many times it was sent: more than once, it may have been applied already. */
  sent: number;
  /** Its next sending after a 429 (a command sent again waits the limit out). */
  again?: ReturnType<typeof setTimeout>;
  /** When it is given up unanswered (`answerTimeoutMs`). */
  timeout?: ReturnType<typeof setTimeout>;
}

/** The socket closed for good (a close code that says not to come back, or `close()`). */
export class SocketClosedError extends Error {
  constructor(
    readonly code: number | null,
    readonly reason: string,
  ) {
    super(`the seat socket closed${code == null ? "" : ` (${code}${reason ? `: ${reason}` : ""})`}`);
    this.name = "SocketClosedError";
  }
}

/** A fresh command id: 32 hex characters. */
export function newCommandId(): string {
  const bytes = new Uint8Array(16);
  if (globalThis.crypto?.getRandomValues) globalThis.crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** `http(s)://host/…` → `ws(s)://host/…/v1/games/{id}/socket`. */
export function socketUrl(baseUrl: string, gameId: string): string {
  const url = new URL(`${baseUrl.replace(/\/+$/, "")}/v1/games/${encodeURIComponent(gameId)}/socket`);
  if (url.protocol === "https:") url.protocol = "wss:";
  else if (url.protocol === "http:") url.protocol = "ws:";
  return url.toString();
}

/** `rate_limited retry_after=3` → 3; anything else → null. */
export function retryAfterOfReason(reason: string): number | null {
  const m = /retry_after=(\d+)/.exec(reason);
  return m ? Number(m[1]) : null;
}

const OPEN = 1;
const MAX_BACKOFF_MS = 30_000;

export class SeatSocket {
  private readonly options: SeatSocketOptions;
  private readonly Ctor: WebSocketConstructor;
  private socket: WebSocketLike | null = null;
  private readonly pending = new Map<string, Pending>();
  private lastVersion: number;
  private welcomed = false;
  private everWelcomed = false;
  private failedOpens = 0;
  private stopped = false;
  private backoff = 1000;
  private timers: { ping?: ReturnType<typeof setInterval>; quiet?: ReturnType<typeof setTimeout>; retry?: ReturnType<typeof setTimeout> } = {};
  /** Retry now, not after the wait (a browser that comes back online). */
  private readonly online = () => {
    if (this.timers.retry === undefined || this.stopped) return;
    clearTimeout(this.timers.retry);
    this.timers.retry = undefined;
    this.open();
  };
  private lastSent = 0;
  private welcomeMessage: WelcomeMessage | null = null;
  private closedWith: SocketClosedError | null = null;
  private readonly closedPromise: Promise<void>;
  private resolveClosed!: () => void;

  constructor(options: SeatSocketOptions) {
    this.options = options;
    const Ctor = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!Ctor) throw new TypeError("no WebSocket here: pass one as `WebSocket` (in Node, `ws`'s)");
    this.Ctor = Ctor;
    this.lastVersion = options.after ?? 0;
    this.closedPromise = new Promise((resolve) => (this.resolveClosed = resolve));
    globalThis.addEventListener?.("online", this.online);
    this.open();
  }

  /** The version of the last event handed to `onEvent`. */
  get version(): number {
    return this.lastVersion;
  }

  /** The last `welcome` (seat, role, limits), null before the first. */
  get welcome(): WelcomeMessage | null {
    return this.welcomeMessage;
  }

  /** Resolves when the socket is closed for good. */
  get closed(): Promise<void> {
    return this.closedPromise;
  }

  /**
   * Send a command; resolves with what `POST …/commands` would answer, rejects with the
   * KronikasError of a `problem` (409, 412, 429 …). Its events also reach `onEvent`, in order.
   * A command sent while the socket is down waits for the next `welcome`. One sent again after
   * a lost connection (it may have been applied) that meets a 429 waits its `retry_after` and
   * goes once more under its id: a retry is paid for as any command, and answered once.
   */
  send(command: Command, options: { ifMatch?: number; id?: string } = {}): Promise<CommandResult> {
    if (this.stopped) return Promise.reject(this.closedWith ?? new SocketClosedError(null, "closed"));
    const message: CommandMessage = { type: "command", id: options.id ?? newCommandId(), command };
    if (options.ifMatch != null) message.if_match = options.ifMatch;
    return new Promise<CommandResult>((resolve, reject) => {
      const pending: Pending = { message, resolve, reject, sent: 0 };
      this.pending.set(message.id, pending);
      const { answerTimeoutMs } = this.options;
      if (answerTimeoutMs != null) {
        pending.timeout = setTimeout(() => {
          if (this.settle(message.id)) reject(new KronikasError(problemOf(0, null)));
        }, answerTimeoutMs);
      }
      if (this.welcomed) this.sendCommand(pending);
    });
  }

  /** Close for good (1000); commands still waiting are rejected. */
  close(): void {
    this.finish(new SocketClosedError(1000, "closed by the client"));
    try {
      this.socket?.close(1000);
    } catch {
      // already closing
    }
  }

  // ---- the connection ----

  private open(): void {
    this.welcomed = false;
    this.options.onState?.("connecting");
    const socket = new this.Ctor(socketUrl(this.options.baseUrl, this.options.gameId));
    this.socket = socket;
    socket.onopen = () => {
      this.write({
        type: "hello",
        token: this.options.token ?? null,
        after: this.lastVersion,
        views: this.options.views ?? false,
      });
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      if (typeof event.data !== "string") return; // the protocol sends text frames only
      let message: ServerMessage;
      try {
        message = JSON.parse(event.data) as ServerMessage;
      } catch {
        return;
      }
      this.heard();
      this.receive(message);
    };
    socket.onerror = () => {
      // `onclose` follows and decides.
    };
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      this.dropped(event.code, event.reason ?? "");
    };
  }

  private receive(message: ServerMessage): void {
    switch (message.type) {
      case "welcome":
        this.welcomed = this.everWelcomed = true;
        this.failedOpens = 0;
        this.welcomeMessage = message;
        this.backoff = 1000;
        this.keepAlive(message);
        this.options.onWelcome?.(message);
        this.options.onState?.("live");
        if (message.game && this.options.onView) this.options.onView(message.game, message.version);
        // A command waiting out a 429 is left to its timer: a reconnect does not cut it short.
        for (const pending of this.pending.values()) {
          if (pending.again === undefined) this.sendCommand(pending);
        }
        return;
      case "events":
        this.deliver(message.events);
        return;
      case "view":
        this.options.onView?.(message.game, message.version);
        return;
      case "result": {
        this.deliver(message.result.events);
        this.settle(message.id)?.resolve(message.result);
        return;
      }
      case "problem": {
        const error = new KronikasError(message.problem, message.retry_after);
        const waiting = message.id == null ? undefined : this.pending.get(message.id);
        if (waiting && waiting.sent > 1 && message.problem.status === 429) {
          this.sendAgain(waiting, message.retry_after);
        } else if (waiting && message.id != null) {
          this.settle(message.id)?.reject(error);
        } else {
          this.options.onProblem?.(error);
        }
        return;
      }
      case "heartbeat":
      case "pong":
        return;
      default: {
        const unknown: never = message;
        void unknown; // a newer server's message: ignored
      }
    }
  }

  /** Events in order, each once (a replayed result's old events are skipped). */
  private deliver(events: GameEvent[]): void {
    for (const event of events) {
      if (event.version <= this.lastVersion) continue;
      this.lastVersion = event.version;
      this.options.onEvent?.(event);
    }
  }

  /** The command waiting under `id`, no longer waiting (its timers stopped); undefined if none. */
  private settle(id: string): Pending | undefined {
    const waiting = this.pending.get(id);
    if (!waiting) return undefined;
    this.pending.delete(id);
    clearTimeout(waiting.again);
    clearTimeout(waiting.timeout);
    return waiting;
  }

  private sendCommand(pending: Pending): void {
    clearTimeout(pending.again);
    pending.again = undefined;
    pending.sent += 1;
    this.write(pending.message);
  }

  /** A command sent again that met a 429: once more after `retry_after` seconds, on the
   * connection open then, or on the next `welcome` should there be none. */
  private sendAgain(pending: Pending, retryAfter: number | null): void {
    if (pending.again !== undefined) return;
    pending.again = setTimeout(() => {
      pending.again = undefined;
      if (this.welcomed && this.pending.get(pending.message.id) === pending) this.sendCommand(pending);
    }, (retryAfter ?? 1) * 1000);
  }

  private write(message: ClientMessage): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) return;
    socket.send(JSON.stringify(message));
    this.lastSent = Date.now();
  }

  /** Pings before the server's idle limit, and gives up on a server silent for three beats. */
  private keepAlive(welcome: WelcomeMessage): void {
    clearInterval(this.timers.ping);
    const idleMs = Math.max(1, welcome.idle_s) * 1000;
    this.timers.ping = setInterval(() => {
      if (Date.now() - this.lastSent >= idleMs / 3) this.write({ type: "ping" });
    }, idleMs / 6);
    this.heard();
  }

  private heard(): void {
    clearTimeout(this.timers.quiet);
    const beat = this.welcomeMessage?.heartbeat_s ?? 15;
    this.timers.quiet = setTimeout(() => this.socket?.close(4000, "no heartbeat"), beat * 3000 + 5000);
  }

  private dropped(code: number, reason: string): void {
    clearInterval(this.timers.ping);
    clearTimeout(this.timers.quiet);
    this.socket = null;
    this.welcomed = false;
    if (this.stopped) return;
    const wait = retryAfterOfReason(reason);
    const failed = !this.everWelcomed && !wait && ++this.failedOpens >= (this.options.maxFailedOpens ?? Infinity);
    const again = (this.options.reconnect ?? true) && (RECONNECT.has(code) || code === 4000) && !failed;
    if (!again) {
      this.finish(new SocketClosedError(code, reason));
      return;
    }
    if (code === 1009) {
      // A command too large for the service: the ones waiting are refused, the socket goes on.
      const tooLarge = new KronikasError({
        status: 413,
        code: "payload_too_large",
        title: "Too large",
        detail: "That command is too large to send.",
      });
      for (const id of [...this.pending.keys()]) this.settle(id)?.reject(tooLarge);
    }
    if (wait) this.backoff = Math.max(this.backoff, wait * 1000);
    // Jittered, but never sooner than the server's `retry_after`.
    const jittered = Math.max((wait ?? 0) * 1000, this.backoff * (0.75 + Math.random() / 2));
    const delayMs = code === 1001 ? 0 : jittered;
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    this.options.onState?.("waiting", { delayMs, code, reason });
    this.timers.retry = setTimeout(() => {
      this.timers.retry = undefined;
      if (!this.stopped) this.open();
    }, delayMs);
  }

  private finish(error: SocketClosedError): void {
    if (this.stopped) return;
    this.stopped = true;
    this.closedWith = error;
    clearInterval(this.timers.ping);
    clearTimeout(this.timers.quiet);
    clearTimeout(this.timers.retry);
    globalThis.removeEventListener?.("online", this.online);
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error);
    this.options.onState?.("stopped", { code: error.code ?? undefined, reason: error.reason });
    this.resolveClosed();
  }
}
