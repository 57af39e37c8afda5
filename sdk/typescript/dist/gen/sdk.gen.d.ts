import type { Client, Options as Options2, TDataShape } from './client/index.js';
import type { CreateGameData, CreateGameErrors, CreateGameResponses, GetGameData, GetGameErrors, GetGameResponses, GetRecordData, GetRecordErrors, GetRecordResponses, GetRulesData, GetRulesErrors, GetRulesResponses, HealthData, HealthErrors, HealthResponses, JoinGameData, JoinGameErrors, JoinGameResponses, ListEventsData, ListEventsErrors, ListEventsResponses, ListGamesData, ListGamesErrors, ListGamesResponses, ListKindsData, ListKindsErrors, ListKindsResponses, ListViewsData, ListViewsErrors, ListViewsResponses, ReadyData, ReadyErrors, ReadyResponses, SeatHousePlayerData, SeatHousePlayerErrors, SeatHousePlayerResponses, SendCommandData, SendCommandErrors, SendCommandResponses, StartGameData, StartGameErrors, StartGameResponses, StreamEventsData, StreamEventsErrors, StreamEventsResponses } from './types.gen.js';
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
 * One move by the token's seat. The answer has the new version, its events and the view.
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
