// One generated-client instance per identity: a base URL, and the token of a seat or a host.
import { createClient, createConfig } from "../gen/client/index.js";
/**
 * A client for the generated calls that sends `Authorization: Bearer <token>` on every request:
 * `getGame({ client, path: { game_id } })` then answers as that seat sees the table.
 */
export function connect({ baseUrl, token, fetch }) {
    return createClient(createConfig({
        baseUrl,
        ...(fetch ? { fetch } : {}),
        headers: token ? { Authorization: `Bearer ${token}` } : {},
    }));
}
