import { type Client } from "../gen/client/index.js";
export interface ConnectOptions {
    /** Where the service lives, e.g. `https://cards.example.org` (no trailing slash). */
    baseUrl: string;
    /** A player or host token; none for a spectator (and for creating and joining tables). */
    token?: string | null;
    /** Another fetch (a test double, or a platform's own); the global one by default. */
    fetch?: typeof fetch;
}
/**
 * A client for the generated calls that sends `Authorization: Bearer <token>` on every request:
 * `getGame({ client, path: { game_id } })` then answers as that seat sees the table.
 */
export declare function connect({ baseUrl, token, fetch }: ConnectOptions): Client;
