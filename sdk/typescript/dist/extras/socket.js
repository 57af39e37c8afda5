// The seat socket (`GET /v1/games/{id}/socket`): one WebSocket that pushes a table's events and
// carries a seat's commands (docs/api.md, "The seat socket"). Every message is one JSON object
// with a `type`; the token travels in the first message (`hello`), never in the URL.
//
// The helper takes a WebSocket constructor: browsers and React Native have a global one, Node 20
// has none (pass `ws`'s). It resumes after a drop with `after` = the last version it handed on,
// and sends again the commands still waiting for their answer, under the same `id`: the id is the
// command's Idempotency-Key, so the service applies each one once and answers a repeat with the
// first answer. The web table imports this module too (dist/extras/, served at /client/).
import { KronikasError, problemOf } from "./errors.js";
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
};
const RECONNECT = new Set([1001, 1005, 1006, 1009, 1011, 1012, 1013, 4408, 4429, 4503, 4508]);
/** The socket closed for good (a close code that says not to come back, or `close()`). */
export class SocketClosedError extends Error {
    code;
    reason;
    constructor(code, reason) {
        super(`the seat socket closed${code == null ? "" : ` (${code}${reason ? `: ${reason}` : ""})`}`);
        this.code = code;
        this.reason = reason;
        this.name = "SocketClosedError";
    }
}
/** A fresh command id: 32 hex characters. */
export function newCommandId() {
    const bytes = new Uint8Array(16);
    if (globalThis.crypto?.getRandomValues)
        globalThis.crypto.getRandomValues(bytes);
    else
        for (let i = 0; i < bytes.length; i++)
            bytes[i] = Math.floor(Math.random() * 256);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
/** `http(s)://host/…` → `ws(s)://host/…/v1/games/{id}/socket`. */
export function socketUrl(baseUrl, gameId) {
    const url = new URL(`${baseUrl.replace(/\/+$/, "")}/v1/games/${encodeURIComponent(gameId)}/socket`);
    if (url.protocol === "https:")
        url.protocol = "wss:";
    else if (url.protocol === "http:")
        url.protocol = "ws:";
    return url.toString();
}
/** `rate_limited retry_after=3` → 3; anything else → null. */
export function retryAfterOfReason(reason) {
    const m = /retry_after=(\d+)/.exec(reason);
    return m ? Number(m[1]) : null;
}
const OPEN = 1;
const MAX_BACKOFF_MS = 30_000;
export class SeatSocket {
    options;
    Ctor;
    socket = null;
    pending = new Map();
    lastVersion;
    welcomed = false;
    everWelcomed = false;
    failedOpens = 0;
    stopped = false;
    backoff = 1000;
    timers = {};
    /** Retry now, not after the wait (a browser that comes back online). */
    online = () => {
        if (this.timers.retry === undefined || this.stopped)
            return;
        clearTimeout(this.timers.retry);
        this.timers.retry = undefined;
        this.open();
    };
    lastSent = 0;
    welcomeMessage = null;
    closedWith = null;
    closedPromise;
    resolveClosed;
    constructor(options) {
        this.options = options;
        const Ctor = options.WebSocket ?? globalThis.WebSocket;
        if (!Ctor)
            throw new TypeError("no WebSocket here: pass one as `WebSocket` (in Node, `ws`'s)");
        this.Ctor = Ctor;
        this.lastVersion = options.after ?? 0;
        this.closedPromise = new Promise((resolve) => (this.resolveClosed = resolve));
        globalThis.addEventListener?.("online", this.online);
        this.open();
    }
    /** The version of the last event handed to `onEvent`. */
    get version() {
        return this.lastVersion;
    }
    /** The last `welcome` (seat, role, limits), null before the first. */
    get welcome() {
        return this.welcomeMessage;
    }
    /** Resolves when the socket is closed for good. */
    get closed() {
        return this.closedPromise;
    }
    /**
     * Send a command; resolves with what `POST …/commands` would answer, rejects with the
     * KronikasError of a `problem` (409, 412, 429 …). Its events also reach `onEvent`, in order.
     * A command sent while the socket is down waits for the next `welcome`. One sent again after
     * a lost connection (it may have been applied) that meets a 429 waits its `retry_after` and
     * goes once more under its id: a retry is paid for as any command, and answered once.
     */
    send(command, options = {}) {
        if (this.stopped)
            return Promise.reject(this.closedWith ?? new SocketClosedError(null, "closed"));
        const message = { type: "command", id: options.id ?? newCommandId(), command };
        if (options.ifMatch != null)
            message.if_match = options.ifMatch;
        return new Promise((resolve, reject) => {
            const pending = { message, resolve, reject, sent: 0 };
            this.pending.set(message.id, pending);
            const { answerTimeoutMs } = this.options;
            if (answerTimeoutMs != null) {
                pending.timeout = setTimeout(() => {
                    if (this.settle(message.id))
                        reject(new KronikasError(problemOf(0, null)));
                }, answerTimeoutMs);
            }
            if (this.welcomed)
                this.sendCommand(pending);
        });
    }
    /** Close for good (1000); commands still waiting are rejected. */
    close() {
        this.finish(new SocketClosedError(1000, "closed by the client"));
        try {
            this.socket?.close(1000);
        }
        catch {
            // already closing
        }
    }
    // ---- the connection ----
    open() {
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
            if (socket !== this.socket)
                return;
            if (typeof event.data !== "string")
                return; // the protocol sends text frames only
            let message;
            try {
                message = JSON.parse(event.data);
            }
            catch {
                return;
            }
            this.heard();
            this.receive(message);
        };
        socket.onerror = () => {
            // `onclose` follows and decides.
        };
        socket.onclose = (event) => {
            if (socket !== this.socket)
                return;
            this.dropped(event.code, event.reason ?? "");
        };
    }
    receive(message) {
        switch (message.type) {
            case "welcome":
                this.welcomed = this.everWelcomed = true;
                this.failedOpens = 0;
                this.welcomeMessage = message;
                this.backoff = 1000;
                this.keepAlive(message);
                this.options.onWelcome?.(message);
                this.options.onState?.("live");
                if (message.game && this.options.onView)
                    this.options.onView(message.game, message.version);
                // A command waiting out a 429 is left to its timer: a reconnect does not cut it short.
                for (const pending of this.pending.values()) {
                    if (pending.again === undefined)
                        this.sendCommand(pending);
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
                }
                else if (waiting && message.id != null) {
                    this.settle(message.id)?.reject(error);
                }
                else {
                    this.options.onProblem?.(error);
                }
                return;
            }
            case "heartbeat":
            case "pong":
                return;
            default: {
                const unknown = message;
                void unknown; // a newer server's message: ignored
            }
        }
    }
    /** Events in order, each once (a replayed result's old events are skipped). */
    deliver(events) {
        for (const event of events) {
            if (event.version <= this.lastVersion)
                continue;
            this.lastVersion = event.version;
            this.options.onEvent?.(event);
        }
    }
    /** The command waiting under `id`, no longer waiting (its timers stopped); undefined if none. */
    settle(id) {
        const waiting = this.pending.get(id);
        if (!waiting)
            return undefined;
        this.pending.delete(id);
        clearTimeout(waiting.again);
        clearTimeout(waiting.timeout);
        return waiting;
    }
    sendCommand(pending) {
        clearTimeout(pending.again);
        pending.again = undefined;
        pending.sent += 1;
        this.write(pending.message);
    }
    /** A command sent again that met a 429: once more after `retry_after` seconds, on the
     * connection open then, or on the next `welcome` should there be none. */
    sendAgain(pending, retryAfter) {
        if (pending.again !== undefined)
            return;
        pending.again = setTimeout(() => {
            pending.again = undefined;
            if (this.welcomed && this.pending.get(pending.message.id) === pending)
                this.sendCommand(pending);
        }, (retryAfter ?? 1) * 1000);
    }
    write(message) {
        const socket = this.socket;
        if (!socket || socket.readyState !== OPEN)
            return;
        socket.send(JSON.stringify(message));
        this.lastSent = Date.now();
    }
    /** Pings before the server's idle limit, and gives up on a server silent for three beats. */
    keepAlive(welcome) {
        clearInterval(this.timers.ping);
        const idleMs = Math.max(1, welcome.idle_s) * 1000;
        this.timers.ping = setInterval(() => {
            if (Date.now() - this.lastSent >= idleMs / 3)
                this.write({ type: "ping" });
        }, idleMs / 6);
        this.heard();
    }
    heard() {
        clearTimeout(this.timers.quiet);
        const beat = this.welcomeMessage?.heartbeat_s ?? 15;
        this.timers.quiet = setTimeout(() => this.socket?.close(4000, "no heartbeat"), beat * 3000 + 5000);
    }
    dropped(code, reason) {
        clearInterval(this.timers.ping);
        clearTimeout(this.timers.quiet);
        this.socket = null;
        this.welcomed = false;
        if (this.stopped)
            return;
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
            for (const id of [...this.pending.keys()])
                this.settle(id)?.reject(tooLarge);
        }
        if (wait)
            this.backoff = Math.max(this.backoff, wait * 1000);
        // Jittered, but never sooner than the server's `retry_after`.
        const jittered = Math.max((wait ?? 0) * 1000, this.backoff * (0.75 + Math.random() / 2));
        const delayMs = code === 1001 ? 0 : jittered;
        this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
        this.options.onState?.("waiting", { delayMs, code, reason });
        this.timers.retry = setTimeout(() => {
            this.timers.retry = undefined;
            if (!this.stopped)
                this.open();
        }, delayMs);
    }
    finish(error) {
        if (this.stopped)
            return;
        this.stopped = true;
        this.closedWith = error;
        clearInterval(this.timers.ping);
        clearTimeout(this.timers.quiet);
        clearTimeout(this.timers.retry);
        globalThis.removeEventListener?.("online", this.online);
        for (const id of [...this.pending.keys()])
            this.settle(id)?.reject(error);
        this.options.onState?.("stopped", { code: error.code ?? undefined, reason: error.reason });
        this.resolveClosed();
    }
}
