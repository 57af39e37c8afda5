/** One card of a deal proven: `card` lies at `position` (0 first) of round `round`'s deck. */
export interface CardOpening {
    round: number;
    position: number;
    card: string;
    salt: string;
    path: string[];
}
/** The `scheme` of a deal committed card by card, whose cards come with openings. */
export declare const SCHEME = "merkle-sha256";
/** The `scheme` of a deal stored before: one hash of the whole deck, shown by `deck_revealed`. */
export declare const OLD_SCHEME = "deck-sha256";
/**
 * Whether `opening` proves its card at its position of a deal of `deckSize` cards whose
 * `commitment` is this root: true only if every part is well formed (hashes as 64 lowercase hex
 * digits, the salt as 32) and the path leads from the leaf to the root.
 */
export declare function verifyOpening(opening: CardOpening, commitment: string, deckSize: number): Promise<boolean>;
/**
 * How many positions of a deal of `deckSize` cards may hold `card`: one or two decks of 32
 * (`deckSize / 32`, rounded down), and at most one of each Chronicler (`XC`, `XP`) beside them.
 */
export declare function copies(card: string, deckSize: number): number;
/**
 * Every opening one viewer received during a match, and whether they agree: each proves its card
 * against its deal's commitment; no position holds two cards; no card lies at more positions
 * than the deck holds copies of it; every card the viewer saw (`saw`) is opened.
 *
 * `problems` lists each disagreement found, in words, as it is found (`onProblem` hears each).
 * The calls run one after the other in the order they are made, whatever awaits them; an opening
 * or a card seen before its deal is known waits for it (`deal`, or `observe` of `round_dealt`).
 */
export declare class OpeningsChecker {
    #private;
    private readonly onProblem?;
    readonly problems: string[];
    constructor(onProblem?: ((problem: string) => void) | undefined);
    /** How many positions are proven so far, of every deal (each opening that checked, once). */
    get proven(): number;
    /** The deal of `round`: its commitment (root), its deck's size and its scheme. */
    deal(round: number, commitment: string, deckSize: number, scheme?: string): Promise<void>;
    /** Take one opening: false if it disagrees (its problem is added to `problems`). */
    add(opening: CardOpening): Promise<boolean>;
    /**
     * The viewer saw these cards together in `round` (a hand, the table, cards turned up): false
     * if one is not opened to it there (as many times as it is listed). Before the round's deal is
     * known, they wait for it.
     */
    saw(round: number, cards: readonly string[]): Promise<boolean>;
    /**
     * Take what a view tells, whatever its game: the openings it holds, and the hand it shows (`me.hand`), seen in its `round`.
     * A command's answer's view holds none (`openings: []`): observe the events up to its version first, which brought them.
     */
    view(view: unknown): Promise<void>;
    /** Take what one event tells: a deal (`commitment`, `deck_size`, `scheme`), and the openings it carries, whatever its game. */
    observe(event: unknown): Promise<void>;
}
