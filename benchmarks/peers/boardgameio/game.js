// The card game boardgame.io serves for the peers bench: the shape of the follow workload's Cheat
// tables (benchmarks/follow.py). Two seats, a dealt hand each; one move, "play a card" from one's
// own hand, one a turn, the turn passing to the other seat; when both hands are empty a new round
// is dealt, and after `rounds` rounds the match ends (the generator then starts another).
//
// Each seat sees its own hand and the other's card count (`playerView`), as our service shows a
// Cheat seat its own cards only; the pile is a count, as Cheat's is face down. The move runs on
// the server only (`client: false`, as bgio's docs advise for secret state): the client sends it
// and is told the outcome.
import { createRequire } from 'node:module';

// boardgame.io 0.50 ships CommonJS packages without `exports`: required, not imported.
const { INVALID_MOVE } = createRequire(import.meta.url)('boardgame.io/core');

const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
const DECK = RANKS.flatMap((rank) => ['S', 'H', 'D', 'C'].map((suit) => rank + suit));

function deal(random) {
  const deck = random.Shuffle(DECK);
  return [deck.slice(0, 26), deck.slice(26)];
}

export const CardGame = {
  name: 'cards',
  // A patch a move instead of the whole state when BGIO_DELTA=1 (bgio's `deltaState` option).
  deltaState: process.env.BGIO_DELTA === '1',

  setup: ({ random }, setupData) => ({
    rounds: (setupData && setupData.rounds) || 100,
    round: 1,
    hands: deal(random),
    pile: 0,
    last: null,
  }),

  playerView: ({ G, playerID }) => ({
    ...G,
    hands: G.hands.map((hand, seat) => (String(seat) === playerID ? hand : hand.length)),
  }),

  turn: { minMoves: 1, maxMoves: 1 },

  moves: {
    play: {
      client: false,
      move: ({ G, playerID, random }, card) => {
        const seat = Number(playerID);
        const hand = G.hands[seat];
        const at = hand.indexOf(card);
        if (at < 0) return INVALID_MOVE;
        hand.splice(at, 1);
        G.pile += 1;
        G.last = { seat, count: 1 };
        if (G.hands[0].length === 0 && G.hands[1].length === 0) {
          G.round += 1;
          if (G.round <= G.rounds) {
            G.hands = deal(random);
            G.pile = 0;
          }
        }
      },
    },
  },

  endIf: ({ G }) => (G.round > G.rounds ? { rounds: G.rounds } : undefined),
};
