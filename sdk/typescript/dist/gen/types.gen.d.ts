export type ClientOptions = {
    baseUrl: `${string}://${string}` | (string & {});
};
/**
 * Accept
 */
export type Accept = {
    type: 'accept';
};
/**
 * ArenaMatch
 */
export type ArenaMatch = {
    finished_at: string;
    kind: string;
    /**
     * 1 best; tied seats share the average.
     */
    place: number;
    players: number;
    /**
     * The hand position it held.
     */
    position: number;
    seat: number;
    set_id: string;
    table_id: string;
};
/**
 * Back
 */
export type Back = {
    type: 'back';
};
/**
 * Call
 */
export type Call = {
    type: 'call';
};
/**
 * CheatCallResult
 */
export type CheatCallResult = {
    caller: number;
    cards: Array<string>;
    honest: boolean;
    rank: string;
    seat: number;
    taker: number;
};
/**
 * CheatCalled
 */
export type CheatCalled = {
    caller: number;
    cards: Array<string>;
    honest: boolean;
    openings: Array<Opening> | null;
    rank: string;
    seat: number;
    taker: number;
    type: 'cheat_called';
};
/**
 * CheatCardsPlayed
 */
export type CheatCardsPlayed = {
    cards: Array<string> | null;
    count: number;
    next_rank: string;
    rank: string;
    seat: number;
    turn: number;
    type: 'cards_played';
};
/**
 * CheatCardsPlayedEvent
 */
export type CheatCardsPlayedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: CheatCardsPlayed;
    type: 'cheat.cards_played';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatCheatCalledEvent
 */
export type CheatCheatCalledEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: CheatCalled;
    type: 'cheat.cheat_called';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatDealsOpenedEvent
 */
export type CheatDealsOpenedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: DealsOpened;
    type: 'cheat.deals_opened';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatDeckRevealedEvent
 */
export type CheatDeckRevealedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: DeckRevealed;
    type: 'cheat.deck_revealed';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatGameCreated
 */
export type CheatGameCreated = {
    options: CheatTableOptions;
    seeded: boolean;
    type: 'game_created';
};
/**
 * CheatGameCreatedEvent
 */
export type CheatGameCreatedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: CheatGameCreated;
    type: 'cheat.game_created';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatGameView
 */
export type CheatGameView = {
    cheat: CheatTableView | null;
    /**
     * When the clock of the seat the table waits for (`turn`) runs out, RFC 3339 in UTC; null without a clock or when the table waits for nobody.
     */
    deadline: string | null;
    dealer: number | null;
    /**
     * Why the match ended before its rules ended it: `event_cap`, its table's log reached the most events a table keeps (docs/rules.md).
     */
    end_reason?: 'event_cap';
    id: string;
    kind: 'cheat';
    last_round: CheatRoundResult | null;
    legal: Array<string> | null;
    me: CheatMyHand | null;
    openings: Array<Opening>;
    options: CheatTableOptions;
    players: Array<CheatPlayerView>;
    round: number;
    seeded: boolean;
    status: 'open' | 'playing' | 'finished';
    turn: number | null;
    version: number;
    winners: Array<number>;
};
/**
 * CheatLastPlay
 */
export type CheatLastPlay = {
    count: number;
    rank: string;
    seat: number;
};
/**
 * CheatMatchEnded
 */
export type CheatMatchEnded = {
    points: Array<number>;
    /**
     * Why the match ended before its rules ended it: `event_cap`, its table's log reached the most events a table keeps (docs/rules.md).
     */
    reason?: 'event_cap';
    type: 'match_ended';
    winners: Array<number>;
};
/**
 * CheatMatchEndedEvent
 */
export type CheatMatchEndedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: CheatMatchEnded;
    /**
     * There, and true, on the event that ends the match (the game's last): nothing follows it.
     */
    final: boolean;
    type: 'cheat.match_ended';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatMyHand
 */
export type CheatMyHand = {
    hand: Array<string>;
    id: string;
    /**
     * How many cards of each rank the hand holds, by rank code (7 8 9 10 U O K A), the Chroniclers under their card codes (XC, XP); only what the hand holds, in hand order.
     */
    rank_counts: {
        [key: string]: number;
    };
    seat: number;
};
/**
 * CheatOptions
 */
export type CheatOptions = {
    /**
     * Add the Coloured (XC) and Pale (XP) Chroniclers.
     */
    chroniclers?: boolean;
    /**
     * Decks of 32 cards: 1 or 2; 2 seat 5–8 players.
     */
    decks?: number;
    /**
     * Seconds the house waits before it plays a seat while a player could still call the last play (0–30).
     */
    house_pause_seconds?: number;
    /**
     * The most cards one play may put down (1–4).
     */
    max_play?: number;
    /**
     * The most plays a round allows (20–10,000): the last one's window is settled as a going-out play's, then the round ends and places go by cards in hand.
     */
    max_plays?: number;
    /**
     * Points for 1st, 2nd, … place (1–8 whole numbers, 0–100); a place beyond the list scores 0.
     */
    place_points?: Array<number>;
    /**
     * `never`: a card is opened only to those who may know it; `match_end`: when the match ends, every card of every deal is opened to everyone (`deals_opened`).
     */
    reveal?: 'never' | 'match_end';
    /**
     * Rounds in the match (1–100).
     */
    rounds?: number;
    /**
     * Seconds a player has for each move (5–86,400): when they run out the house plays the seat until its player comes back; null: no clock.
     */
    turn_seconds?: number | null;
};
/**
 * CheatPenalty
 */
export type CheatPenalty = {
    count: number;
    seat: number;
};
/**
 * CheatPenaltyTaken
 */
export type CheatPenaltyTaken = {
    cards: Array<string> | null;
    count: number;
    openings: Array<Opening> | null;
    seat: number;
    turn: number;
    type: 'penalty_taken';
};
/**
 * CheatPenaltyTakenEvent
 */
export type CheatPenaltyTakenEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: CheatPenaltyTaken;
    type: 'cheat.penalty_taken';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatPileTaken
 */
export type CheatPileTaken = {
    cards: Array<string> | null;
    count: number;
    openings: Array<Opening> | null;
    seat: number;
    turn: number | null;
    type: 'pile_taken';
};
/**
 * CheatPileTakenEvent
 */
export type CheatPileTakenEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: CheatPileTaken;
    type: 'cheat.pile_taken';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatPlayAccepted
 */
export type CheatPlayAccepted = {
    player: number;
    seat: number;
    type: 'play_accepted';
};
/**
 * CheatPlayAcceptedEvent
 */
export type CheatPlayAcceptedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: CheatPlayAccepted;
    type: 'cheat.play_accepted';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatPlayerJoinedEvent
 */
export type CheatPlayerJoinedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: PlayerJoined;
    type: 'cheat.player_joined';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatPlayerLeftEvent
 */
export type CheatPlayerLeftEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: PlayerLeft;
    type: 'cheat.player_left';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatPlayerView
 */
export type CheatPlayerView = {
    /**
     * The seat's clock ran out: the house plays it until its player is back.
     */
    away: boolean;
    hand_size: number;
    /**
     * The house plays this seat for good: a house player, or a player who left.
     */
    house: boolean;
    id: string;
    /**
     * The player left after the start: the house plays the seat to the end.
     */
    left: boolean;
    name: string;
    points: number;
    seat: number;
};
/**
 * CheatRecordTable
 */
export type CheatRecordTable = {
    id: string;
    kind: 'cheat';
    options: CheatTableOptions;
    players: Array<CheatPlayerView>;
    seeded: boolean;
    status: 'open' | 'playing' | 'finished';
};
/**
 * CheatRoundDealt
 */
export type CheatRoundDealt = {
    commitment: string;
    dealer: number;
    deck: Array<string> | null;
    deck_size: number | null;
    hands: Array<Array<string> | null>;
    openings: Array<Opening> | null;
    rank: string;
    round: number;
    salt: string | null;
    salts: Array<string> | null;
    scheme: string;
    set_aside: number;
    set_aside_cards: Array<string> | null;
    turn: number;
    type: 'round_dealt';
};
/**
 * CheatRoundDealtEvent
 */
export type CheatRoundDealtEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: CheatRoundDealt;
    type: 'cheat.round_dealt';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatRoundEnded
 */
export type CheatRoundEnded = {
    hand_sizes: Array<number>;
    places: Array<number>;
    points: Array<number>;
    /**
     * Why the round ended with no one finished: `max_plays`, it reached the most plays a round allows (docs/rules.md). Absent when a player finished.
     */
    reason?: 'max_plays';
    round: number;
    totals: Array<number>;
    type: 'round_ended';
    winner: number;
};
/**
 * CheatRoundEndedEvent
 */
export type CheatRoundEndedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: CheatRoundEnded;
    type: 'cheat.round_ended';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatRoundResult
 */
export type CheatRoundResult = {
    hand_sizes: Array<number>;
    places: Array<number>;
    points: Array<number>;
    /**
     * Why the round ended with no one finished: `max_plays`, it reached the most plays a round allows (docs/rules.md). Absent when a player finished.
     */
    reason?: 'max_plays';
    round: number;
    winner: number;
};
/**
 * CheatSeatAwayEvent
 */
export type CheatSeatAwayEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: SeatAway;
    type: 'cheat.seat_away';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatSeatBackEvent
 */
export type CheatSeatBackEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: SeatBack;
    type: 'cheat.seat_back';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * CheatTableOptions
 */
export type CheatTableOptions = {
    /**
     * Add the Coloured (XC) and Pale (XP) Chroniclers.
     */
    chroniclers: boolean;
    /**
     * Decks of 32 cards: 1 or 2; 2 seat 5–8 players.
     */
    decks: number;
    /**
     * Seconds the house waits before it plays a seat while a player could still call the last play (0–30).
     */
    house_pause_seconds: number;
    /**
     * The most cards one play may put down (1–4).
     */
    max_play: number;
    /**
     * The most plays a round allows (20–10,000): the last one's window is settled as a going-out play's, then the round ends and places go by cards in hand.
     */
    max_plays?: number;
    /**
     * Points for 1st, 2nd, … place (1–8 whole numbers, 0–100); a place beyond the list scores 0.
     */
    place_points: Array<number>;
    /**
     * `never`: a card is opened only to those who may know it; `match_end`: when the match ends, every card of every deal is opened to everyone (`deals_opened`).
     */
    reveal?: 'never' | 'match_end';
    /**
     * Rounds in the match (1–100).
     */
    rounds: number;
    /**
     * Seconds a player has for each move (5–86,400): when they run out the house plays the seat until its player comes back; null: no clock.
     */
    turn_seconds: number | null;
};
/**
 * CheatTableView
 */
export type CheatTableView = {
    commitment: string | null;
    deck_size: number | null;
    last_call: CheatCallResult | null;
    last_penalty: CheatPenalty | null;
    last_play: CheatLastPlay | null;
    pile_size: number;
    rank: string;
    scheme: string | null;
    set_aside: number;
    window_open: boolean;
};
/**
 * Command
 *
 * One command; `type` chooses it.
 */
export type Command = ({
    type: 'play';
} & Play) | ({
    type: 'call';
} & Call) | ({
    type: 'accept';
} & Accept) | ({
    type: 'leave';
} & Leave) | ({
    type: 'back';
} & Back) | ({
    type: 'keep';
} & Keep) | ({
    type: 'exchange';
} & Exchange) | ({
    type: 'swap';
} & Swap) | ({
    type: 'swap_all';
} & SwapAll) | ({
    type: 'pass';
} & Pass) | ({
    type: 'show';
} & Show);
/**
 * CommandResult
 */
export type CommandResult = {
    events: Array<GameEvent>;
    /**
     * A table as the asker may see it; `kind` says which game.
     */
    game: GameView;
    version: number;
};
/**
 * CreateCheatGame
 */
export type CreateCheatGame = {
    kind: 'cheat';
    options?: CheatOptions;
    /**
     * Deal reproducibly from this seed (the view then says `seeded: true`): for tests and replays, never a fair game (a guessable seed can be found from a deal's commitment).
     */
    seed?: number | null;
};
/**
 * CreateThirtyOneGame
 */
export type CreateThirtyOneGame = {
    kind: 'thirty_one';
    options?: ThirtyOneOptions;
    /**
     * Deal reproducibly from this seed (the view then says `seeded: true`): for tests and replays, never a fair game (a guessable seed can be found from a deal's commitment).
     */
    seed?: number | null;
};
/**
 * Created
 */
export type Created = {
    /**
     * A table as the asker may see it; `kind` says which game.
     */
    game: GameView;
    host_token: string;
};
/**
 * DealsOpened
 */
export type DealsOpened = {
    openings: Array<Opening>;
    type: 'deals_opened';
};
/**
 * DeckRevealed
 */
export type DeckRevealed = {
    deck: Array<string> | null;
    round: number;
    salt: string | null;
    type: 'deck_revealed';
};
/**
 * EntrantCreated
 */
export type EntrantCreated = {
    created_at: string;
    /**
     * The entrant's id.
     */
    entrant_id: string;
    games: Array<string>;
    name: string;
    token: string;
};
/**
 * EntrantPage
 */
export type EntrantPage = {
    created_at: string | null;
    /**
     * The entrant's id.
     */
    entrant_id: string;
    games: Array<string>;
    matches: Array<ArenaMatch>;
    name: string;
    ratings: Array<PoolRating>;
    revoked: boolean;
    /**
     * A standing entrant: the house's policy, or random.
     */
    standing: boolean;
};
/**
 * EventPage
 */
export type EventPage = {
    /**
     * At most 500 events, oldest first; when `more` is true, ask again with `after` set to the last one's version.
     */
    events: Array<GameEvent>;
    /**
     * True when events after this page exist: the page was cut at 500 events.
     */
    more: boolean;
    /**
     * The table's version when it was read.
     */
    version: number;
};
/**
 * Exchange
 */
export type Exchange = {
    type: 'exchange';
};
/**
 * GameEvent
 *
 * One change to a table, as the asker may see it: `type` names the game and the event (`<kind>.round_dealt`), `data` holds its fields.
 */
export type GameEvent = ({
    type: 'cheat.game_created';
} & CheatGameCreatedEvent) | ({
    type: 'cheat.player_joined';
} & CheatPlayerJoinedEvent) | ({
    type: 'cheat.round_dealt';
} & CheatRoundDealtEvent) | ({
    type: 'cheat.cards_played';
} & CheatCardsPlayedEvent) | ({
    type: 'cheat.cheat_called';
} & CheatCheatCalledEvent) | ({
    type: 'cheat.pile_taken';
} & CheatPileTakenEvent) | ({
    type: 'cheat.penalty_taken';
} & CheatPenaltyTakenEvent) | ({
    type: 'cheat.play_accepted';
} & CheatPlayAcceptedEvent) | ({
    type: 'cheat.round_ended';
} & CheatRoundEndedEvent) | ({
    type: 'cheat.deck_revealed';
} & CheatDeckRevealedEvent) | ({
    type: 'cheat.match_ended';
} & CheatMatchEndedEvent) | ({
    type: 'cheat.deals_opened';
} & CheatDealsOpenedEvent) | ({
    type: 'cheat.player_left';
} & CheatPlayerLeftEvent) | ({
    type: 'cheat.seat_away';
} & CheatSeatAwayEvent) | ({
    type: 'cheat.seat_back';
} & CheatSeatBackEvent) | ({
    type: 'thirty_one.game_created';
} & ThirtyOneGameCreatedEvent) | ({
    type: 'thirty_one.player_joined';
} & ThirtyOnePlayerJoinedEvent) | ({
    type: 'thirty_one.round_dealt';
} & ThirtyOneRoundDealtEvent) | ({
    type: 'thirty_one.hand_kept';
} & ThirtyOneHandKeptEvent) | ({
    type: 'thirty_one.hand_exchanged';
} & ThirtyOneHandExchangedEvent) | ({
    type: 'thirty_one.card_swapped';
} & ThirtyOneCardSwappedEvent) | ({
    type: 'thirty_one.hands_swapped';
} & ThirtyOneHandsSwappedEvent) | ({
    type: 'thirty_one.passed';
} & ThirtyOnePassedEvent) | ({
    type: 'thirty_one.hand_shown';
} & ThirtyOneHandShownEvent) | ({
    type: 'thirty_one.round_ended';
} & ThirtyOneRoundEndedEvent) | ({
    type: 'thirty_one.deck_revealed';
} & ThirtyOneDeckRevealedEvent) | ({
    type: 'thirty_one.match_ended';
} & ThirtyOneMatchEndedEvent) | ({
    type: 'thirty_one.deals_opened';
} & ThirtyOneDealsOpenedEvent) | ({
    type: 'thirty_one.player_left';
} & ThirtyOnePlayerLeftEvent) | ({
    type: 'thirty_one.seat_away';
} & ThirtyOneSeatAwayEvent) | ({
    type: 'thirty_one.seat_back';
} & ThirtyOneSeatBackEvent);
/**
 * GameRecord
 */
export type GameRecord = {
    /**
     * At most `limit` (at most 500) events after `after`, oldest first, as `list_events` gives them to the asker.
     */
    events: Array<GameEvent>;
    /**
     * True when events after this page exist: ask again with `after`.
     */
    more: boolean;
    /**
     * Every opening the page's events hold for the asker, in their order: each proves one card against its deal's `commitment`.
     */
    openings: Array<Opening>;
    table: RecordTable;
    /**
     * The table's version when it was read.
     */
    version: number;
};
/**
 * GameView
 *
 * A table as the asker may see it; `kind` says which game.
 */
export type GameView = ({
    kind: 'cheat';
} & CheatGameView) | ({
    kind: 'thirty_one';
} & ThirtyOneGameView);
/**
 * Health
 */
export type Health = {
    status: string;
};
/**
 * HouseSeated
 */
export type HouseSeated = {
    /**
     * A table as the asker may see it; `kind` says which game.
     */
    game: GameView;
    player_id: string;
    seat: number;
};
/**
 * JoinRequest
 *
 * The player's name.
 */
export type JoinRequest = {
    /**
     * 1–32 printable characters once NFKC-normalised, not all blank; no two alike at a table, ignoring case.
     */
    name: string;
};
/**
 * Joined
 */
export type Joined = {
    /**
     * A table as the asker may see it; `kind` says which game.
     */
    game: GameView;
    player_id: string;
    seat: number;
    token: string;
};
/**
 * Keep
 */
export type Keep = {
    type: 'keep';
};
/**
 * KindInfo
 */
export type KindInfo = {
    commands: Array<string>;
    kind: 'cheat' | 'thirty_one';
    max_players: number;
    min_players: number;
    options: Array<OptionInfo>;
};
/**
 * Kinds
 */
export type Kinds = {
    kinds: Array<KindInfo>;
};
/**
 * Leaderboard
 */
export type Leaderboard = {
    entries: Array<LeaderboardEntry>;
    kind: string;
    players: number;
};
/**
 * LeaderboardEntry
 */
export type LeaderboardEntry = {
    entrant_id: string;
    last_played: string | null;
    matches: number;
    mu: number;
    name: string;
    ordinal: number;
    rank: number;
    sigma: number;
    standing: boolean;
};
/**
 * Leave
 */
export type Leave = {
    type: 'leave';
};
/**
 * Lobby
 */
export type Lobby = {
    games: Array<LobbyEntry>;
    limit: number;
    more: boolean;
    offset: number;
};
/**
 * LobbyEntry
 */
export type LobbyEntry = {
    created_at: string;
    id: string;
    kind: 'cheat' | 'thirty_one';
    max_players: number;
    players: number;
    seeded: boolean;
    status: 'open' | 'playing' | 'finished';
};
/**
 * Opening
 */
export type Opening = {
    card: string;
    path: Array<string>;
    position: number;
    round: number;
    salt: string;
};
/**
 * OptionInfo
 */
export type OptionInfo = {
    choices?: Array<string> | null;
    default: unknown;
    description?: string | null;
    max_items?: number | null;
    maximum?: number | null;
    min_items?: number | null;
    minimum?: number | null;
    name: string;
    nullable?: boolean;
    type: 'integer' | 'boolean' | 'integer_list' | 'string';
};
/**
 * Pass
 */
export type Pass = {
    type: 'pass';
};
/**
 * PastViews
 */
export type PastViews = {
    /**
     * True when later versions exist: ask again with `after`.
     */
    more: boolean;
    /**
     * The table's version when it was read.
     */
    version: number;
    /**
     * The view at each version after `after`, oldest first (at most 50), as the asker's token saw the table then.
     */
    views: Array<GameView>;
};
/**
 * Play
 */
export type Play = {
    cards: Array<string>;
    type: 'play';
};
/**
 * PlayerJoined
 */
export type PlayerJoined = {
    house: boolean;
    name: string;
    player_id: string;
    seat: number;
    type: 'player_joined';
};
/**
 * PlayerLeft
 */
export type PlayerLeft = {
    player_id: string;
    seat: number;
    started: boolean;
    type: 'player_left';
};
/**
 * PoolRating
 */
export type PoolRating = {
    kind: string;
    last_played: string | null;
    /**
     * Sets it played in the pool.
     */
    matches: number;
    mu: number;
    /**
     * `mu - 3*sigma`: what ranks it.
     */
    ordinal: number;
    players: number;
    sigma: number;
};
/**
 * Problem
 */
export type Problem = {
    code: string;
    detail: string;
    errors?: Array<{
        [key: string]: unknown;
    }> | null;
    request_id?: string | null;
    status: number;
    title: string;
    type?: string;
};
/**
 * QueueRequest
 *
 * The game, and the table size (2).
 */
export type QueueRequest = {
    kind: string;
    players?: number;
};
/**
 * RatingChange
 */
export type RatingChange = {
    entrant_id: string;
    mu: number;
    mu_before: number;
    sigma: number;
    sigma_before: number;
};
/**
 * RecordTable
 *
 * The table a record is of, as its view says it; `kind` says which game.
 */
export type RecordTable = ({
    kind: 'cheat';
} & CheatRecordTable) | ({
    kind: 'thirty_one';
} & ThirtyOneRecordTable);
/**
 * RegisterEntrant
 *
 * Its name and the games it plays.
 */
export type RegisterEntrant = {
    /**
     * The kinds it plays.
     */
    games: Array<string>;
    /**
     * 1 to 40 printable characters, shown on the leaderboard.
     */
    name: string;
};
/**
 * SeatAway
 */
export type SeatAway = {
    seat: number;
    type: 'seat_away';
};
/**
 * SeatBack
 */
export type SeatBack = {
    seat: number;
    type: 'seat_back';
};
/**
 * SetPage
 */
export type SetPage = {
    changes: Array<RatingChange>;
    finished_at: string;
    kind: string;
    players: number;
    /**
     * Per hand position: its holders from best to worst, tied ones together.
     */
    rankings: Array<Array<Array<string>>>;
    set_id: string;
    tables: Array<SetTable>;
};
/**
 * SetTable
 */
export type SetTable = {
    /**
     * The entrant of each seat.
     */
    entrants: Array<string>;
    /**
     * Each seat's place.
     */
    places: Array<number>;
    table_id: string;
};
/**
 * Show
 */
export type Show = {
    type: 'show';
};
/**
 * SocketClientMessage
 *
 * What a client sends on the seat socket, `/v1/games/{id}/socket` (docs/api.md, The seat socket): `type` chooses the message.
 */
export type SocketClientMessage = ({
    type: 'hello';
} & SocketHello) | ({
    type: 'command';
} & SocketCommand) | ({
    type: 'ping';
} & SocketPing);
/**
 * SocketCommand
 */
export type SocketCommand = {
    /**
     * What `POST …/commands` takes.
     */
    command: Command;
    /**
     * The command's id, chosen by the client: its `Idempotency-Key` (1–128 printable ASCII characters, `!` to `~`), per token, in the same record as HTTP's.
     */
    id: string;
    /**
     * Apply only at this version (as `If-Match`); otherwise `version_mismatch`.
     */
    if_match?: number | null;
    type: 'command';
};
/**
 * SocketEvents
 */
export type SocketEvents = {
    events: Array<GameEvent>;
    type: 'events';
    /**
     * The last event's version.
     */
    version: number;
};
/**
 * SocketHeartbeat
 */
export type SocketHeartbeat = {
    type: 'heartbeat';
    /**
     * The latest version this socket was sent.
     */
    version: number;
};
/**
 * SocketHello
 */
export type SocketHello = {
    /**
     * Send the events after this version (the last one seen; 0: from the start).
     */
    after?: number;
    /**
     * A seat's or the host's token; null (or left out) for a spectator.
     */
    token?: string | null;
    type: 'hello';
    /**
     * Also send the viewer's view after each `events` message (and in `welcome`).
     */
    views?: boolean;
};
/**
 * SocketPing
 */
export type SocketPing = {
    type: 'ping';
};
/**
 * SocketPong
 */
export type SocketPong = {
    type: 'pong';
};
/**
 * SocketProblem
 */
export type SocketProblem = {
    /**
     * The command's id; null for any other message.
     */
    id: string | null;
    problem: Problem;
    /**
     * Seconds to wait (on 429 and 503).
     */
    retry_after: number | null;
    type: 'problem';
};
/**
 * SocketResult
 */
export type SocketResult = {
    id: string;
    result: CommandResult;
    type: 'result';
};
/**
 * SocketServerMessage
 *
 * What the server sends on the seat socket: `type` chooses the message.
 */
export type SocketServerMessage = ({
    type: 'welcome';
} & SocketWelcome) | ({
    type: 'events';
} & SocketEvents) | ({
    type: 'view';
} & SocketView) | ({
    type: 'result';
} & SocketResult) | ({
    type: 'problem';
} & SocketProblem) | ({
    type: 'heartbeat';
} & SocketHeartbeat) | ({
    type: 'pong';
} & SocketPong);
/**
 * SocketView
 */
export type SocketView = {
    /**
     * A table as the asker may see it; `kind` says which game.
     */
    game: GameView;
    type: 'view';
    version: number;
};
/**
 * SocketWelcome
 */
export type SocketWelcome = {
    /**
     * The view, when `views` was asked.
     */
    game: GameView | null;
    /**
     * Seconds between heartbeats while all is quiet.
     */
    heartbeat_s: number;
    /**
     * Seconds of silence from the client before it is closed.
     */
    idle_s: number;
    /**
     * The largest message the server takes.
     */
    max_bytes: number;
    /**
     * The viewer's player id, when a player.
     */
    player_id: string | null;
    role: 'host' | 'player' | 'spectator';
    /**
     * The viewer's seat (null: not a player).
     */
    seat: number | null;
    type: 'welcome';
    /**
     * The table's version now.
     */
    version: number;
};
/**
 * Swap
 */
export type Swap = {
    /**
     * A card: rank (7 8 9 10 U O K A) then suit (H B L A), or XC / XP.
     */
    give: string;
    /**
     * A card: rank (7 8 9 10 U O K A) then suit (H B L A), or XC / XP.
     */
    take: string;
    type: 'swap';
};
/**
 * SwapAll
 */
export type SwapAll = {
    type: 'swap_all';
};
/**
 * ThirtyOneCardSwapped
 */
export type ThirtyOneCardSwapped = {
    give: string;
    openings: Array<Opening> | null;
    seat: number;
    take: string;
    turn: number | null;
    type: 'card_swapped';
};
/**
 * ThirtyOneCardSwappedEvent
 */
export type ThirtyOneCardSwappedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: ThirtyOneCardSwapped;
    type: 'thirty_one.card_swapped';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOneDealsOpenedEvent
 */
export type ThirtyOneDealsOpenedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: DealsOpened;
    type: 'thirty_one.deals_opened';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOneDeckRevealedEvent
 */
export type ThirtyOneDeckRevealedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: DeckRevealed;
    type: 'thirty_one.deck_revealed';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOneGameCreated
 */
export type ThirtyOneGameCreated = {
    options: ThirtyOneTableOptions;
    seeded: boolean;
    type: 'game_created';
};
/**
 * ThirtyOneGameCreatedEvent
 */
export type ThirtyOneGameCreatedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: ThirtyOneGameCreated;
    type: 'thirty_one.game_created';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOneGameView
 */
export type ThirtyOneGameView = {
    /**
     * When the clock of the seat the table waits for (`turn`) runs out, RFC 3339 in UTC; null without a clock or when the table waits for nobody.
     */
    deadline: string | null;
    dealer: number | null;
    /**
     * Why the match ended before its rules ended it: `event_cap`, its table's log reached the most events a table keeps (docs/rules.md).
     */
    end_reason?: 'event_cap';
    id: string;
    kind: 'thirty_one';
    last_round: ThirtyOneRoundResult | null;
    legal: Array<string> | null;
    me: ThirtyOneMyHand | null;
    /**
     * The openings of the round's cards this view shows the viewer (its hand, the table, the hands shown in the last circuit), by position, to check against the round's `commitment`; empty outside a round, for a deal of the old scheme, and in a command's answer, whose events (and those before) brought them.
     */
    openings: Array<Opening>;
    options: ThirtyOneTableOptions;
    players: Array<ThirtyOnePlayerView>;
    round: number;
    seeded: boolean;
    status: 'open' | 'playing' | 'finished';
    thirty_one: ThirtyOneTableView | null;
    turn: number | null;
    version: number;
    winners: Array<number>;
};
/**
 * ThirtyOneHandExchanged
 */
export type ThirtyOneHandExchanged = {
    openings: Array<Opening> | null;
    seat: number;
    table: Array<string>;
    turn: number | null;
    type: 'hand_exchanged';
};
/**
 * ThirtyOneHandExchangedEvent
 */
export type ThirtyOneHandExchangedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: ThirtyOneHandExchanged;
    type: 'thirty_one.hand_exchanged';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOneHandKept
 */
export type ThirtyOneHandKept = {
    seat: number;
    turn: number;
    type: 'hand_kept';
};
/**
 * ThirtyOneHandKeptEvent
 */
export type ThirtyOneHandKeptEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: ThirtyOneHandKept;
    type: 'thirty_one.hand_kept';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOneHandShown
 */
export type ThirtyOneHandShown = {
    hand: Array<string>;
    openings: Array<Opening> | null;
    seat: number;
    turn: number | null;
    type: 'hand_shown';
};
/**
 * ThirtyOneHandShownEvent
 */
export type ThirtyOneHandShownEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: ThirtyOneHandShown;
    type: 'thirty_one.hand_shown';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOneHandsSwapped
 */
export type ThirtyOneHandsSwapped = {
    openings: Array<Opening> | null;
    seat: number;
    table: Array<string>;
    turn: number | null;
    type: 'hands_swapped';
};
/**
 * ThirtyOneHandsSwappedEvent
 */
export type ThirtyOneHandsSwappedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: ThirtyOneHandsSwapped;
    type: 'thirty_one.hands_swapped';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOneMatchEnded
 */
export type ThirtyOneMatchEnded = {
    /**
     * Why the match ended before its rules ended it: `event_cap`, its table's log reached the most events a table keeps (docs/rules.md).
     */
    reason?: 'event_cap';
    type: 'match_ended';
    winners: Array<number>;
};
/**
 * ThirtyOneMatchEndedEvent
 */
export type ThirtyOneMatchEndedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: ThirtyOneMatchEnded;
    /**
     * There, and true, on the event that ends the match (the game's last): nothing follows it.
     */
    final: boolean;
    type: 'thirty_one.match_ended';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOneMyHand
 */
export type ThirtyOneMyHand = {
    hand: Array<string>;
    id: string;
    /**
     * The hand's score by the rules: 0 below 21, else the best suit's sum (21 to 32); 30.5 for three of a rank, 33 for three Aces; `XC` counts as the card that scores best; null while the seat holds no cards.
     */
    score: number | null;
    seat: number;
    /**
     * The hand's score after `swap_all` (the table's three cards), when the seat may send it now; else null.
     */
    swap_all: number | null;
    /**
     * Every swap the seat may send now, by the hand's cards then the table's, with the hand's score after each; empty when the seat may not swap.
     */
    swaps: Array<ThirtyOneSwapChoice>;
};
/**
 * ThirtyOneOptions
 */
export type ThirtyOneOptions = {
    /**
     * Whether the Coloured Chronicler XC joins the deck (33 cards).
     */
    chronicler?: boolean;
    /**
     * Lives each player starts with; 0: out at the first loss.
     */
    lives?: number;
    /**
     * After this many full circuits without a show, the player on turn may only show (1–100); null: no limit, and players who never show never end the round.
     */
    max_circuits?: number | null;
    /**
     * `never`: a card is opened only to those who may know it; `match_end`: when the match ends, every card of every deal is opened to everyone (`deals_opened`).
     */
    reveal?: 'never' | 'match_end';
    /**
     * Seconds a player has for each move (5–86,400): when they run out the house plays the seat until its player comes back; null: no clock.
     */
    turn_seconds?: number | null;
};
/**
 * ThirtyOnePassed
 */
export type ThirtyOnePassed = {
    seat: number;
    turn: number | null;
    type: 'passed';
};
/**
 * ThirtyOnePassedEvent
 */
export type ThirtyOnePassedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: ThirtyOnePassed;
    type: 'thirty_one.passed';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOnePlayerJoinedEvent
 */
export type ThirtyOnePlayerJoinedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: PlayerJoined;
    type: 'thirty_one.player_joined';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOnePlayerLeftEvent
 */
export type ThirtyOnePlayerLeftEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: PlayerLeft;
    type: 'thirty_one.player_left';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOnePlayerView
 */
export type ThirtyOnePlayerView = {
    /**
     * The seat's clock ran out: the house plays it until its player is back.
     */
    away: boolean;
    hand_size: number;
    /**
     * The house plays this seat for good: a house player, or a player who left.
     */
    house: boolean;
    id: string;
    /**
     * The player left after the start: the house plays the seat to the end.
     */
    left: boolean;
    lives: number;
    name: string;
    out: boolean;
    seat: number;
};
/**
 * ThirtyOneRecordTable
 */
export type ThirtyOneRecordTable = {
    id: string;
    kind: 'thirty_one';
    options: ThirtyOneTableOptions;
    players: Array<ThirtyOnePlayerView>;
    seeded: boolean;
    status: 'open' | 'playing' | 'finished';
};
/**
 * ThirtyOneRoundDealt
 */
export type ThirtyOneRoundDealt = {
    commitment: string;
    dealer: number;
    deck: Array<string> | null;
    deck_size: number | null;
    hands: Array<Array<string> | null>;
    openings: Array<Opening> | null;
    round: number;
    salt: string | null;
    salts: Array<string> | null;
    scheme: string;
    seats: Array<number>;
    table: Array<string>;
    type: 'round_dealt';
};
/**
 * ThirtyOneRoundDealtEvent
 */
export type ThirtyOneRoundDealtEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: ThirtyOneRoundDealt;
    type: 'thirty_one.round_dealt';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOneRoundEnded
 */
export type ThirtyOneRoundEnded = {
    hands: Array<Array<string> | null>;
    lives: Array<number>;
    lost_life: Array<number>;
    openings: Array<Opening> | null;
    out: Array<number>;
    round: number;
    scores: Array<number | null>;
    three_aces: number | null;
    type: 'round_ended';
};
/**
 * ThirtyOneRoundEndedEvent
 */
export type ThirtyOneRoundEndedEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: ThirtyOneRoundEnded;
    type: 'thirty_one.round_ended';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOneRoundResult
 */
export type ThirtyOneRoundResult = {
    hands: Array<Array<string> | null>;
    lost_life: Array<number>;
    out: Array<number>;
    round: number;
    scores: Array<number | null>;
    three_aces: number | null;
};
/**
 * ThirtyOneSeatAwayEvent
 */
export type ThirtyOneSeatAwayEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: SeatAway;
    type: 'thirty_one.seat_away';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOneSeatBackEvent
 */
export type ThirtyOneSeatBackEvent = {
    /**
     * When, as RFC 3339 UTC.
     */
    at: string;
    data: SeatBack;
    type: 'thirty_one.seat_back';
    /**
     * 1, 2, 3… without gaps.
     */
    version: number;
};
/**
 * ThirtyOneSwapChoice
 */
export type ThirtyOneSwapChoice = {
    give: string;
    /**
     * The hand's score after this swap, by the rules: 0 below 21, else the best suit's sum (21 to 32); 30.5 for three of a rank, 33 for three Aces; `XC` counts as the card that scores best.
     */
    score: number;
    take: string;
};
/**
 * ThirtyOneTableOptions
 */
export type ThirtyOneTableOptions = {
    /**
     * Whether the Coloured Chronicler XC joins the deck (33 cards).
     */
    chronicler: boolean;
    /**
     * Lives each player starts with; 0: out at the first loss.
     */
    lives: number;
    /**
     * After this many full circuits without a show, the player on turn may only show (1–100); null: no limit, and players who never show never end the round.
     */
    max_circuits: number | null;
    /**
     * `never`: a card is opened only to those who may know it; `match_end`: when the match ends, every card of every deal is opened to everyone (`deals_opened`).
     */
    reveal: 'never' | 'match_end';
    /**
     * Seconds a player has for each move (5–86,400): when they run out the house plays the seat until its player comes back; null: no clock.
     */
    turn_seconds: number | null;
};
/**
 * ThirtyOneTableView
 */
export type ThirtyOneTableView = {
    circuit: number | null;
    commitment: string | null;
    deck_size: number | null;
    passed: Array<number>;
    phase: 'dealer_choice' | 'turns' | 'last_circuit';
    scheme: string | null;
    shown: Array<Array<string> | null>;
    shown_by: number | null;
    table: Array<string>;
};
/**
 * Ticket
 */
export type Ticket = {
    kind?: string | null;
    players?: number | null;
    seat?: number | null;
    set_id?: string | null;
    since?: string | null;
    status: 'idle' | 'waiting' | 'seated';
    table_id?: string | null;
    token?: string | null;
};
export type RegisterEntrantData = {
    /**
     * Its name and the games it plays.
     */
    body: RegisterEntrant;
    path?: never;
    query?: never;
    url: '/v1/arena/entrants';
};
export type RegisterEntrantErrors = {
    /**
     * The body is over the size limit (`payload_too_large`).
     */
    413: Problem;
    /**
     * The body is not sent as `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type RegisterEntrantError = RegisterEntrantErrors[keyof RegisterEntrantErrors];
export type RegisterEntrantResponses = {
    /**
     * Document created, URL follows
     */
    201: EntrantCreated;
};
export type RegisterEntrantResponse = RegisterEntrantResponses[keyof RegisterEntrantResponses];
export type RevokeEntrantData = {
    body?: never;
    path: {
        /**
         * The entrant's id.
         */
        entrant_id: string;
    };
    query?: never;
    url: '/v1/arena/entrants/{entrant_id}';
};
export type RevokeEntrantErrors = {
    /**
     * No token, or a token this table does not know (`unauthorized`).
     */
    401: Problem;
    /**
     * A valid token that may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * No such table or route (`not_found`).
     */
    404: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type RevokeEntrantError = RevokeEntrantErrors[keyof RevokeEntrantErrors];
export type RevokeEntrantResponses = {
    /**
     * Request fulfilled, nothing follows
     */
    204: void;
};
export type RevokeEntrantResponse = RevokeEntrantResponses[keyof RevokeEntrantResponses];
export type GetEntrantData = {
    body?: never;
    path: {
        /**
         * The entrant's id.
         */
        entrant_id: string;
    };
    query?: never;
    url: '/v1/arena/entrants/{entrant_id}';
};
export type GetEntrantErrors = {
    /**
     * No such table or route (`not_found`).
     */
    404: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type GetEntrantError = GetEntrantErrors[keyof GetEntrantErrors];
export type GetEntrantResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: EntrantPage;
};
export type GetEntrantResponse = GetEntrantResponses[keyof GetEntrantResponses];
export type GetLeaderboardData = {
    body?: never;
    path?: never;
    query: {
        /**
         * The game, as `GET /v1/kinds` names it.
         */
        kind: string;
        /**
         * The table size.
         */
        players?: number;
        /**
         * Entries.
         */
        limit?: number;
    };
    url: '/v1/arena/leaderboard';
};
export type GetLeaderboardErrors = {
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type GetLeaderboardError = GetLeaderboardErrors[keyof GetLeaderboardErrors];
export type GetLeaderboardResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: Leaderboard;
};
export type GetLeaderboardResponse = GetLeaderboardResponses[keyof GetLeaderboardResponses];
export type LeaveQueueData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/v1/arena/queue';
};
export type LeaveQueueErrors = {
    /**
     * No token, or a token this table does not know (`unauthorized`).
     */
    401: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type LeaveQueueError = LeaveQueueErrors[keyof LeaveQueueErrors];
export type LeaveQueueResponses = {
    /**
     * Request fulfilled, nothing follows
     */
    204: void;
};
export type LeaveQueueResponse = LeaveQueueResponses[keyof LeaveQueueResponses];
export type GetTicketData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * While waiting, wait up to this many s.
         */
        wait?: number;
    };
    url: '/v1/arena/queue';
};
export type GetTicketErrors = {
    /**
     * No token, or a token this table does not know (`unauthorized`).
     */
    401: Problem;
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type GetTicketError = GetTicketErrors[keyof GetTicketErrors];
export type GetTicketResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: Ticket;
};
export type GetTicketResponse = GetTicketResponses[keyof GetTicketResponses];
export type JoinQueueData = {
    /**
     * The game, and the table size (2).
     */
    body: QueueRequest;
    path?: never;
    query?: never;
    url: '/v1/arena/queue';
};
export type JoinQueueErrors = {
    /**
     * No token, or a token this table does not know (`unauthorized`).
     */
    401: Problem;
    /**
     * The rules or the table's state forbid it now: `not_your_turn`, `illegal_move`, `game_not_open`, `game_full`, `game_over` or `name_taken`; an arena table or set before its whole set finished (`set_in_play`); an entrant waiting in another pool or seated in a set in play (`arena_busy`); `detail` says why.
     */
    409: Problem;
    /**
     * The body is over the size limit (`payload_too_large`).
     */
    413: Problem;
    /**
     * The body is not sent as `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type JoinQueueError = JoinQueueErrors[keyof JoinQueueErrors];
export type JoinQueueResponses = {
    /**
     * Request accepted, processing continues off-line
     */
    202: Ticket;
};
export type JoinQueueResponse = JoinQueueResponses[keyof JoinQueueResponses];
export type GetSetData = {
    body?: never;
    path: {
        /**
         * The set's id.
         */
        set_id: string;
    };
    query?: never;
    url: '/v1/arena/sets/{set_id}';
};
export type GetSetErrors = {
    /**
     * No such table or route (`not_found`).
     */
    404: Problem;
    /**
     * The rules or the table's state forbid it now: `not_your_turn`, `illegal_move`, `game_not_open`, `game_full`, `game_over` or `name_taken`; an arena table or set before its whole set finished (`set_in_play`); an entrant waiting in another pool or seated in a set in play (`arena_busy`); `detail` says why.
     */
    409: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type GetSetError = GetSetErrors[keyof GetSetErrors];
export type GetSetResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: SetPage;
};
export type GetSetResponse = GetSetResponses[keyof GetSetResponses];
export type ListGamesData = {
    body?: never;
    path?: never;
    query?: {
        /**
         * Only this game.
         */
        kind?: 'cheat' | 'thirty_one';
        /**
         * Only tables in this state.
         */
        status?: 'open' | 'playing' | 'finished';
        /**
         * Tables per page.
         */
        limit?: number;
        /**
         * Tables to skip.
         */
        offset?: number;
    };
    url: '/v1/games';
};
export type ListGamesErrors = {
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type ListGamesError = ListGamesErrors[keyof ListGamesErrors];
export type ListGamesResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: Lobby;
};
export type ListGamesResponse = ListGamesResponses[keyof ListGamesResponses];
export type CreateGameData = {
    /**
     * `kind` chooses the game; every option may be left out.
     */
    body: ({
        kind: 'cheat';
    } & CreateCheatGame) | ({
        kind: 'thirty_one';
    } & CreateThirtyOneGame);
    path?: never;
    query?: never;
    url: '/v1/games';
};
export type CreateGameErrors = {
    /**
     * The body is over the size limit (`payload_too_large`).
     */
    413: Problem;
    /**
     * The body is not sent as `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type CreateGameError = CreateGameErrors[keyof CreateGameErrors];
export type CreateGameResponses = {
    /**
     * Document created, URL follows
     */
    201: Created;
};
export type CreateGameResponse = CreateGameResponses[keyof CreateGameResponses];
export type GetGameData = {
    body?: never;
    path: {
        /**
         * The table's id.
         */
        game_id: string;
    };
    query?: never;
    url: '/v1/games/{game_id}';
};
export type GetGameErrors = {
    /**
     * No token, or a token this table does not know (`unauthorized`).
     */
    401: Problem;
    /**
     * No such table or route (`not_found`).
     */
    404: Problem;
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type GetGameError = GetGameErrors[keyof GetGameErrors];
export type GetGameResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: GameView;
};
export type GetGameResponse = GetGameResponses[keyof GetGameResponses];
export type SendCommandData = {
    /**
     * One command; `type` chooses it.
     */
    body: Command;
    headers?: {
        /**
         * Apply only at this version, as `"<version>"`; otherwise 412.
         */
        'If-Match'?: string;
        /**
         * A retry with the same key and body gets the first answer again.
         */
        'Idempotency-Key'?: string;
    };
    path: {
        /**
         * The table's id.
         */
        game_id: string;
    };
    query?: never;
    url: '/v1/games/{game_id}/commands';
};
export type SendCommandErrors = {
    /**
     * No token, or a token this table does not know (`unauthorized`).
     */
    401: Problem;
    /**
     * A valid token that may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * No such table or route (`not_found`).
     */
    404: Problem;
    /**
     * The rules or the table's state forbid it now: `not_your_turn`, `illegal_move`, `game_not_open`, `game_full`, `game_over` or `name_taken`; an arena table or set before its whole set finished (`set_in_play`); an entrant waiting in another pool or seated in a set in play (`arena_busy`); `detail` says why.
     */
    409: Problem;
    /**
     * `If-Match` names a version that is no longer current (`version_mismatch`).
     */
    412: Problem;
    /**
     * The body is over the size limit (`payload_too_large`).
     */
    413: Problem;
    /**
     * The body is not sent as `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type SendCommandError = SendCommandErrors[keyof SendCommandErrors];
export type SendCommandResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: CommandResult;
};
export type SendCommandResponse = SendCommandResponses[keyof SendCommandResponses];
export type ListEventsData = {
    body?: never;
    path: {
        /**
         * The table's id.
         */
        game_id: string;
    };
    query?: {
        /**
         * Only events with a greater version.
         */
        after?: number;
        /**
         * Wait up to this many seconds for an event.
         */
        wait?: number;
    };
    url: '/v1/games/{game_id}/events';
};
export type ListEventsErrors = {
    /**
     * No token, or a token this table does not know (`unauthorized`).
     */
    401: Problem;
    /**
     * No such table or route (`not_found`).
     */
    404: Problem;
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type ListEventsError = ListEventsErrors[keyof ListEventsErrors];
export type ListEventsResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: EventPage;
};
export type ListEventsResponse = ListEventsResponses[keyof ListEventsResponses];
export type SeatHousePlayerData = {
    /**
     * The house player's name.
     */
    body: JoinRequest;
    path: {
        /**
         * The table's id.
         */
        game_id: string;
    };
    query?: never;
    url: '/v1/games/{game_id}/house-players';
};
export type SeatHousePlayerErrors = {
    /**
     * No token, or a token this table does not know (`unauthorized`).
     */
    401: Problem;
    /**
     * A valid token that may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * No such table or route (`not_found`).
     */
    404: Problem;
    /**
     * The rules or the table's state forbid it now: `not_your_turn`, `illegal_move`, `game_not_open`, `game_full`, `game_over` or `name_taken`; an arena table or set before its whole set finished (`set_in_play`); an entrant waiting in another pool or seated in a set in play (`arena_busy`); `detail` says why.
     */
    409: Problem;
    /**
     * The body is over the size limit (`payload_too_large`).
     */
    413: Problem;
    /**
     * The body is not sent as `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type SeatHousePlayerError = SeatHousePlayerErrors[keyof SeatHousePlayerErrors];
export type SeatHousePlayerResponses = {
    /**
     * Document created, URL follows
     */
    201: HouseSeated;
};
export type SeatHousePlayerResponse = SeatHousePlayerResponses[keyof SeatHousePlayerResponses];
export type JoinGameData = {
    /**
     * The player's name.
     */
    body: JoinRequest;
    path: {
        /**
         * The table's id.
         */
        game_id: string;
    };
    query?: never;
    url: '/v1/games/{game_id}/players';
};
export type JoinGameErrors = {
    /**
     * No such table or route (`not_found`).
     */
    404: Problem;
    /**
     * The rules or the table's state forbid it now: `not_your_turn`, `illegal_move`, `game_not_open`, `game_full`, `game_over` or `name_taken`; an arena table or set before its whole set finished (`set_in_play`); an entrant waiting in another pool or seated in a set in play (`arena_busy`); `detail` says why.
     */
    409: Problem;
    /**
     * The body is over the size limit (`payload_too_large`).
     */
    413: Problem;
    /**
     * The body is not sent as `application/json` (`unsupported_media_type`).
     */
    415: Problem;
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type JoinGameError = JoinGameErrors[keyof JoinGameErrors];
export type JoinGameResponses = {
    /**
     * Document created, URL follows
     */
    201: Joined;
};
export type JoinGameResponse = JoinGameResponses[keyof JoinGameResponses];
export type GetRecordData = {
    body?: never;
    path: {
        /**
         * The table's id.
         */
        game_id: string;
    };
    query?: {
        /**
         * Only events with a greater version.
         */
        after?: number;
        /**
         * Events per page.
         */
        limit?: number;
    };
    url: '/v1/games/{game_id}/record';
};
export type GetRecordErrors = {
    /**
     * No token, or a token this table does not know (`unauthorized`).
     */
    401: Problem;
    /**
     * No such table or route (`not_found`).
     */
    404: Problem;
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type GetRecordError = GetRecordErrors[keyof GetRecordErrors];
export type GetRecordResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: GameRecord;
};
export type GetRecordResponse = GetRecordResponses[keyof GetRecordResponses];
export type StartGameData = {
    body?: never;
    path: {
        /**
         * The table's id.
         */
        game_id: string;
    };
    query?: never;
    url: '/v1/games/{game_id}/start';
};
export type StartGameErrors = {
    /**
     * No token, or a token this table does not know (`unauthorized`).
     */
    401: Problem;
    /**
     * A valid token that may not do this (`forbidden`).
     */
    403: Problem;
    /**
     * No such table or route (`not_found`).
     */
    404: Problem;
    /**
     * The rules or the table's state forbid it now: `not_your_turn`, `illegal_move`, `game_not_open`, `game_full`, `game_over` or `name_taken`; an arena table or set before its whole set finished (`set_in_play`); an entrant waiting in another pool or seated in a set in play (`arena_busy`); `detail` says why.
     */
    409: Problem;
    /**
     * The body is over the size limit (`payload_too_large`).
     */
    413: Problem;
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type StartGameError = StartGameErrors[keyof StartGameErrors];
export type StartGameResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: GameView;
};
export type StartGameResponse = StartGameResponses[keyof StartGameResponses];
export type StreamEventsData = {
    body?: never;
    headers?: {
        /**
         * Resume after this version.
         */
        'Last-Event-ID'?: string;
    };
    path: {
        /**
         * The table's id.
         */
        game_id: string;
    };
    query?: {
        /**
         * Only events with a greater version.
         */
        after?: number;
        /**
         * The token, for browsers' EventSource, which sets no header.
         */
        token?: string;
    };
    url: '/v1/games/{game_id}/stream';
};
export type StreamEventsErrors = {
    /**
     * No token, or a token this table does not know (`unauthorized`).
     */
    401: Problem;
    /**
     * No such table or route (`not_found`).
     */
    404: Problem;
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type StreamEventsError = StreamEventsErrors[keyof StreamEventsErrors];
export type StreamEventsResponses = {
    /**
     * Server-Sent Events: `id` the version, `event` the type, `data` the event's JSON; a comment every 15 s keeps the connection open.
     */
    200: unknown;
};
export type ListViewsData = {
    body?: never;
    path: {
        /**
         * The table's id.
         */
        game_id: string;
    };
    query?: {
        /**
         * Only views at a greater version.
         */
        after?: number;
        /**
         * Views per page.
         */
        limit?: number;
    };
    url: '/v1/games/{game_id}/views';
};
export type ListViewsErrors = {
    /**
     * No token, or a token this table does not know (`unauthorized`).
     */
    401: Problem;
    /**
     * No such table or route (`not_found`).
     */
    404: Problem;
    /**
     * The body or a parameter is malformed (`invalid_request`).
     */
    422: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type ListViewsError = ListViewsErrors[keyof ListViewsErrors];
export type ListViewsResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: PastViews;
};
export type ListViewsResponse = ListViewsResponses[keyof ListViewsResponses];
export type HealthData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/v1/health';
};
export type HealthErrors = {
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
};
export type HealthError = HealthErrors[keyof HealthErrors];
export type HealthResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: Health;
};
export type HealthResponse = HealthResponses[keyof HealthResponses];
export type ListKindsData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/v1/kinds';
};
export type ListKindsErrors = {
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
};
export type ListKindsError = ListKindsErrors[keyof ListKindsErrors];
export type ListKindsResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: Kinds;
};
export type ListKindsResponse = ListKindsResponses[keyof ListKindsResponses];
export type GetRulesData = {
    body?: never;
    path: {
        /**
         * The game kind, as `GET /v1/kinds` names it.
         */
        kind: string;
    };
    query?: never;
    url: '/v1/kinds/{kind}/rules';
};
export type GetRulesErrors = {
    /**
     * No such table or route (`not_found`).
     */
    404: Problem;
    /**
     * Too many requests (`rate_limited`); `Retry-After` says when to try again.
     */
    429: Problem;
};
export type GetRulesError = GetRulesErrors[keyof GetRulesErrors];
export type GetRulesResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: string;
};
export type GetRulesResponse = GetRulesResponses[keyof GetRulesResponses];
export type ReadyData = {
    body?: never;
    path?: never;
    query?: never;
    url: '/v1/ready';
};
export type ReadyErrors = {
    /**
     * The store does not answer, or is full: nothing was changed (`unavailable`); or a change was sent and its answer never came: it may or may not have been applied (`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). `Retry-After` says when to try again.
     */
    503: Problem;
};
export type ReadyError = ReadyErrors[keyof ReadyErrors];
export type ReadyResponses = {
    /**
     * Request fulfilled, document follows
     */
    200: Health;
};
export type ReadyResponse = ReadyResponses[keyof ReadyResponses];
