import type { Client, Options as Options2, TDataShape } from './client/index.js';
import type { CreateGameData, CreateGameErrors, CreateGameResponses, GetEntrantData, GetEntrantErrors, GetEntrantResponses, GetGameData, GetGameErrors, GetGameResponses, GetLeaderboardData, GetLeaderboardErrors, GetLeaderboardResponses, GetRecordData, GetRecordErrors, GetRecordResponses, GetRulesData, GetRulesErrors, GetRulesResponses, GetSetData, GetSetErrors, GetSetResponses, GetTicketData, GetTicketErrors, GetTicketResponses, HealthData, HealthErrors, HealthResponses, JoinGameData, JoinGameErrors, JoinGameResponses, JoinQueueData, JoinQueueErrors, JoinQueueResponses, LeaveQueueData, LeaveQueueErrors, LeaveQueueResponses, ListEventsData, ListEventsErrors, ListEventsResponses, ListGamesData, ListGamesErrors, ListGamesResponses, ListKindsData, ListKindsErrors, ListKindsResponses, ListViewsData, ListViewsErrors, ListViewsResponses, ReadyData, ReadyErrors, ReadyResponses, RegisterEntrantData, RegisterEntrantErrors, RegisterEntrantResponses, RevokeEntrantData, RevokeEntrantErrors, RevokeEntrantResponses, SeatHousePlayerData, SeatHousePlayerErrors, SeatHousePlayerResponses, SendCommandData, SendCommandErrors, SendCommandResponses, StartGameData, StartGameErrors, StartGameResponses, StreamEventsData, StreamEventsErrors, StreamEventsResponses } from './types.gen.js';
export type Options<TData extends TDataShape = TDataShape, ThrowOnError extends boolean = boolean, TResponse = unknown> = Options2<TData, ThrowOnError, TResponse> & {
    /**
     * You can provide a client instance returned by `createClient()` instead of
     * individual options. This might be also useful if you want to implement a
     * custom client.
     */
    client?: Client;
    /**
     * You can pass arbitrary values through the `meta` object. This can be
     * used to access values that aren't defined as part of the SDK function.
     */
    meta?: Record<string, unknown>;
};
/**
 * RegisterEntrant
 *
 * Register an entrant: a bot, an agent or a person that plays rated arena matches.
 *
 * The answer holds its entrant token (`ke_…`), shown this once and kept only as its hash:
 * send it as `Authorization: Bearer <token>` to the queue. One address may register a few
 * entrants an hour (`ARENA_REGISTER_PER_HOUR`, 5 by default; then 429 `rate_limited`).
 */
export declare const registerEntrant: <ThrowOnError extends boolean = false>(options: Options<RegisterEntrantData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<RegisterEntrantResponses, RegisterEntrantErrors, ThrowOnError, "fields">;
/**
 * RevokeEntrant
 *
 * Revoke an entrant (its own entrant token): it leaves any queue and the leaderboard,
 * and its token stops working. A table it sits at plays on (the clocks and the house).
 */
export declare const revokeEntrant: <ThrowOnError extends boolean = false>(options: Options<RevokeEntrantData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<RevokeEntrantResponses, RevokeEntrantErrors, ThrowOnError, "fields">;
/**
 * GetEntrant
 *
 * An entrant's page: its ratings by game and table size, and its recent matches (of
 * finished sets only). `standing`: one of the house's own entrants (`House`, `Random`).
 */
export declare const getEntrant: <ThrowOnError extends boolean = false>(options: Options<GetEntrantData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetEntrantResponses, GetEntrantErrors, ThrowOnError, "fields">;
/**
 * GetLeaderboard
 *
 * A pool's leaderboard: entrants by their conservative rating `ordinal` (`mu - 3*sigma`,
 * OpenSkill Plackett–Luce), with `sigma` its uncertainty, the sets played (`matches`) and
 * when last. The standing entrants `House` and `Random` are the yardstick.
 */
export declare const getLeaderboard: <ThrowOnError extends boolean = false>(options: Options<GetLeaderboardData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetLeaderboardResponses, GetLeaderboardErrors, ThrowOnError, "fields">;
/**
 * LeaveQueue
 *
 * Leave the queue (entrant token). A seat already given is the table's: play it or let
 * the clock and the house play it (the result is rated either way).
 */
export declare const leaveQueue: <ThrowOnError extends boolean = false>(options?: Options<LeaveQueueData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<LeaveQueueResponses, LeaveQueueErrors, ThrowOnError, "fields">;
/**
 * GetTicket
 *
 * The entrant's ticket (entrant token): `idle`, `waiting`, or `seated` with its table,
 * seat and seat token (for it alone: play the table with it as any seat does). Long-polls
 * with `wait` while it waits. After its table finished it is `idle` again: queue anew.
 */
export declare const getTicket: <ThrowOnError extends boolean = false>(options?: Options<GetTicketData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetTicketResponses, GetTicketErrors, ThrowOnError, "fields">;
/**
 * JoinQueue
 *
 * Wait for a rated match (entrant token): the answer is the ticket.
 *
 * The arena seats waiting entrants of near ratings in duplicate sets: n tables of n seats
 * dealing the same cards, the hand positions rotated. After `ARENA_FILL_SECONDS` (15 by
 * default) without a full set, the standing entrants `House` and `Random` fill the empty
 * seats. Every arena seat has a clock of `ARENA_TURN_SECONDS` (60 by default: long enough
 * for an LLM agent's turn); when it runs out the house plays that turn. Poll
 * `GET /v1/arena/queue?wait=…` for the seat (at least every `ARENA_IDLE_SECONDS`, 60 by
 * default, or the entrant is dropped from the queue). 409 `arena_busy` while it waits in
 * another pool or sits at a table of a set in play.
 */
export declare const joinQueue: <ThrowOnError extends boolean = false>(options: Options<JoinQueueData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<JoinQueueResponses, JoinQueueErrors, ThrowOnError, "fields">;
/**
 * GetSet
 *
 * A finished set: its tables (their records open now), each hand position's ranking and
 * the rating changes. 409 `set_in_play` until every table of the set finished.
 */
export declare const getSet: <ThrowOnError extends boolean = false>(options: Options<GetSetData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetSetResponses, GetSetErrors, ThrowOnError, "fields">;
/**
 * ListGames
 *
 * The lobby: tables, newest first, filtered by kind and status, a page at a time.
 */
export declare const listGames: <ThrowOnError extends boolean = false>(options?: Options<ListGamesData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListGamesResponses, ListGamesErrors, ThrowOnError, "fields">;
/**
 * CreateGame
 *
 * Create a table. The answer holds the host token, which alone may start it.
 */
export declare const createGame: <ThrowOnError extends boolean = false>(options: Options<CreateGameData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<CreateGameResponses, CreateGameErrors, ThrowOnError, "fields">;
/**
 * GetGame
 *
 * The table as the asker sees it: a player token adds that seat's hand and legal moves.
 *
 * The token is optional (`Authorization: Bearer <token>`): without one, a spectator's view.
 */
export declare const getGame: <ThrowOnError extends boolean = false>(options: Options<GetGameData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetGameResponses, GetGameErrors, ThrowOnError, "fields">;
/**
 * SendCommand
 *
 * One move by the token's seat. The answer has the new version, its events and the view
 * (its `openings` empty: the events brought them).
 */
export declare const sendCommand: <ThrowOnError extends boolean = false>(options: Options<SendCommandData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<SendCommandResponses, SendCommandErrors, ThrowOnError, "fields">;
/**
 * ListEvents
 *
 * Events after a version, as the asker may see them; long-polls with `wait`.
 *
 * The token is optional (`Authorization: Bearer <token>`): without one, a spectator's events.
 */
export declare const listEvents: <ThrowOnError extends boolean = false>(options: Options<ListEventsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListEventsResponses, ListEventsErrors, ThrowOnError, "fields">;
/**
 * SeatHousePlayer
 *
 * Seat a house player on an open table (host token only): the house plays that seat.
 *
 * No token is handed out for it, so nobody can read its hand or move for it. It plays at
 * once when it is its turn; where the game lets other seats answer a play, it waits the
 * game's pause first, while a person may still answer (docs/rules.md).
 */
export declare const seatHousePlayer: <ThrowOnError extends boolean = false>(options: Options<SeatHousePlayerData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<SeatHousePlayerResponses, SeatHousePlayerErrors, ThrowOnError, "fields">;
/**
 * JoinGame
 *
 * Take the next free seat. The answer holds the player token: keep it secret.
 */
export declare const joinGame: <ThrowOnError extends boolean = false>(options: Options<JoinGameData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<JoinGameResponses, JoinGameErrors, ThrowOnError, "fields">;
/**
 * GetRecord
 *
 * A table's record as the asker may see it, finished or not, a page at a time: the
 * table (kind, options, players), its events as `list_events` gives them to the asker,
 * and every opening those events hold. Paid as a page of events.
 *
 * The token is optional (`Authorization: Bearer <token>`): without one, a spectator's
 * record. Page on with `after` set to the last event's version while `more` is true.
 *
 * With `Accept: text/plain`, the same page as an account in words (`text/plain;
 * charset=utf-8`), for people and LLM agents: the table and the asker's seat, then round
 * by round each deal, play, call, swap, show and result, with the asker's own cards where
 * its events show them; its last line says where to page on when more events follow.
 */
export declare const getRecord: <ThrowOnError extends boolean = false>(options: Options<GetRecordData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetRecordResponses, GetRecordErrors, ThrowOnError, "fields">;
/**
 * StartGame
 *
 * Deal the first round (host token only; at least two players).
 */
export declare const startGame: <ThrowOnError extends boolean = false>(options: Options<StartGameData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<StartGameResponses, StartGameErrors, ThrowOnError, "fields">;
/**
 * StreamEvents
 *
 * The same events as `list_events`, as a stream that stays open.
 *
 * The token is optional, in `Authorization: Bearer <token>` or `?token=`; resumes after
 * `Last-Event-ID`.
 */
export declare const streamEvents: <ThrowOnError extends boolean = false>(options: Options<StreamEventsData, ThrowOnError, unknown>) => Promise<import("./core/serverSentEvents.gen.js").ServerSentEventsResult<StreamEventsResponses, StreamEventsErrors>>;
/**
 * ListViews
 *
 * The views the asker was served at past versions of the table, one for each version
 * after `after`: what replays a match, step by step, as the asker saw it. Paid as one
 * view read a view.
 *
 * A player token sees its seat's view at each version (a spectator's before it sat
 * down), never a card its seat could not see then; without a token (or with the host's),
 * a spectator's views. Page on with `after` set to the last view's version while `more`
 * is true.
 */
export declare const listViews: <ThrowOnError extends boolean = false>(options: Options<ListViewsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListViewsResponses, ListViewsErrors, ThrowOnError, "fields">;
/**
 * Health
 *
 * 200 while the process runs.
 */
export declare const health: <ThrowOnError extends boolean = false>(options?: Options<HealthData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<HealthResponses, HealthErrors, ThrowOnError, "fields">;
/**
 * ListKinds
 *
 * The game kinds: how many may play, and each option with its type, default and limits.
 */
export declare const listKinds: <ThrowOnError extends boolean = false>(options?: Options<ListKindsData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ListKindsResponses, ListKindsErrors, ThrowOnError, "fields">;
/**
 * GetRules
 *
 * A game's rules as the service enforces them, in Markdown: the text MCP serves too.
 */
export declare const getRules: <ThrowOnError extends boolean = false>(options: Options<GetRulesData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<GetRulesResponses, GetRulesErrors, ThrowOnError, "fields">;
/**
 * Ready
 *
 * 200 when the store answers, 503 `unavailable` when it does not.
 */
export declare const ready: <ThrowOnError extends boolean = false>(options?: Options<ReadyData, ThrowOnError>) => import("./client/types.gen.js").RequestResult<ReadyResponses, ReadyErrors, ThrowOnError, "fields">;
