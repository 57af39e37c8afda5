// Cheat at the table: the pile, the last play and call, the hand to choose from, and the moves
// that `legal` allows (docs/rules.md, "Cheat"; the view's `cheat` block in docs/api.md).

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { CheatGameView, CheatPlayerView } from "../sdk/typescript/src/gen/types.gen.js" */
/** @typedef {import("./games.js").TableContext<CheatGameView>} Context */

import { actionBar, cardImage, cardRow, cardToggle, h, plural, rankPlural } from "./ui.js";

export const title = "Cheat";

/** The game in a few plain sentences, beside the table and in the lobby. */
export const howTo = [
  "Get rid of all your cards first.",
  "On your turn, choose 1 to 4 cards from your hand and press Play. They go face down on the pile, announced as the rank that is due: sevens first, then eights, nines, tens, Unders, Overs, Kings, Aces, and round again.",
  "Your cards need not be of that rank: you may bluff.",
  "After each play anyone else may press “Cheat!”. The cards are turned up: a lie sends the whole pile to the liar; an honest play sends it to the caller.",
  "Your last card can still be called: if it stands, you finish first. The rest are placed by the cards they hold, and places score points.",
  "A round that reaches its most plays (300 unless the table says otherwise) ends after the last one is settled: everyone is placed by the cards they hold.",
];

/** The table options in a player's words, by name; an option not here keeps the service's words. */
export const optionWords = {
  decks: { label: "Decks", help: "One deck seats up to 4 players; two decks seat 5 to 8." },
  max_play: { label: "Most cards in one play", help: "How many cards a player may put down at once." },
  rounds: { label: "Rounds", help: "How many rounds the match lasts; points add up over them." },
  place_points: {
    label: "Points for each place",
    help: "Points for 1st, 2nd, 3rd… place in a round, separated by commas. Places further down score nothing.",
  },
  max_plays: {
    label: "Most plays in a round",
    help: "After this many plays the round ends and players are placed by the cards they hold.",
  },
  chroniclers: {
    label: "Play with the Chroniclers",
    help: "Adds two jokers: the Coloured Chronicler always counts as true; the Pale one is a bluff that must be called, or its player takes the pile.",
  },
  house_pause_seconds: {
    label: "House’s pause (seconds)",
    help: "How long a computer player waits before playing, so you have time to call “Cheat!”.",
  },
};

/**
 * A Cheat event in words, for the log; undefined for a type this module does not know.
 * `w`: {me (seat or null), who(seat), Who(seat), cards(codes)}.
 */
export function describe(type, d, { me, who, Who, cards }) {
  switch (type) {
    case "round_dealt":
      return `Round ${d.round}: ${who(d.dealer)} dealt${d.set_aside ? `, ${plural(d.set_aside, "card")} set aside` : ""}. ${Who(d.turn)} ${d.turn === me ? "start" : "starts"} with sevens.`;
    case "cards_played":
      // The cards only for the seat that played them: what it may know, whatever a frame says.
      return `${Who(d.seat)} put down ${plural(d.count, "card")} as ${rankPlural(d.rank)}${d.cards && d.seat === me && me != null ? ` (${cards(d.cards)})` : ""}.`;
    case "cheat_called":
      return `${Who(d.caller)} called “Cheat!” on ${d.seat === me ? "your" : `${who(d.seat)}’s`} ${rankPlural(d.rank)}: ${cards(d.cards || [])} — ${d.honest ? "honest" : "a lie"}.`;
    case "pile_taken":
      return `${Who(d.seat)} took the pile (${plural(d.count, "card")}).`;
    case "penalty_taken":
      return `The Pale Chronicler went uncalled: ${who(d.seat)} took the pile (${plural(d.count, "card")}).`;
    case "play_accepted":
      return `${Who(d.seat)} let ${d.player === me ? "your" : `${who(d.player)}’s`} last play stand.`;
    case "round_ended":
      return d.reason === "max_plays"
        ? `Round ${d.round} is over: it reached its most plays, and the fewest cards place first.`
        : `Round ${d.round} is over: ${who(d.winner)} went out first.`;
  }
  return undefined;
}

/**
 * The cards a Cheat event shows this tab face up, in groups seen together: each must come with
 * its opening (proofs.js). A seat's dealt hand, its own cards played, a call's turned-up cards,
 * a pile it takes.
 */
export function seen(type, d) {
  switch (type) {
    case "round_dealt":
      return (d.hands || []).filter(Boolean);
    case "cheat_called":
    case "cards_played":
    case "pile_taken":
    case "penalty_taken":
      return d.cards ? [d.cards] : [];
  }
  return [];
}

/** The round for the headline: a match of Cheat has a set number of rounds. */
/** @param {CheatGameView} view */
export function roundText(view) {
  return `Round ${view.round} of ${view.options.rounds}`;
}

/** What the players list says of a seat. */
/** @param {CheatPlayerView} player */
export function playerFacts(player) {
  return [plural(player.hand_size, "card"), plural(player.points ?? 0, "point")];
}

/**
 * The middle of the table and this seat's hand and moves.
 * `ctx`: {view, legal, me (seat or null), who(seat), Who(seat), ui (this table's local state),
 * send(command, hint), message(text), rerender()}.
 */
/** @param {Context} ctx */
export function render(ctx) {
  const { view, legal, ui } = ctx;
  const c = view.cheat;
  if (!c) return [];
  const hand = view.me?.hand ?? [];

  // Chosen cards are kept by position: with two decks a hand may hold the same code twice.
  const handKey = hand.join(",");
  if (ui.handKey !== handKey) {
    ui.handKey = handKey;
    ui.chosen = new Set();
  }
  const chosen = [...ui.chosen].sort((a, b) => a - b).map((i) => hand[i]);

  return [
    h(
      "section",
      { class: "panel middle", "aria-label": "The table" },
      status(ctx),
      pile(ctx),
      lastCall(ctx),
      penalty(ctx),
    ),
    view.me
      ? h(
          "section",
          { class: "panel hand", "aria-label": "Your hand" },
          h(
            "h2",
            {},
            "Your hand ",
            h(
              "span",
              { class: "quiet" },
              `(${plural(hand.length, "card")}${chosen.length ? `, ${chosen.length} chosen` : ""})`,
            ),
          ),
          ctx.readOnly
            ? cardRow(hand, { label: "Your cards" })
            : h(
                "ul",
                { class: "cards choose", "aria-label": "Your cards: press a card to choose it" },
                hand.map((code, i) =>
                  h(
                    "li",
                    {},
                    cardToggle(code, {
                      pressed: ui.chosen.has(i),
                      key: `hand-${i}-${code}`,
                      onToggle: () => {
                        ui.chosen.has(i) ? ui.chosen.delete(i) : ui.chosen.add(i);
                        ctx.rerender();
                      },
                    }),
                  ),
                ),
              ),
          ctx.notice,
          view.status === "playing" && !ctx.readOnly ? actions(ctx, chosen) : null,
        )
      : null,
  ];
}

/** @param {Context} ctx */
function status({ view, legal, me, who, Who, whose, timer }) {
  const c = view.cheat;
  const last = c.last_play;
  const max = view.options.max_play;
  let text;
  if (legal.includes("accept")) {
    text = `${Who(last.seat)} has no cards left. Call “Cheat!” on that play, or accept it.`;
  } else if (legal.includes("play")) {
    text = `Your turn: put down 1 to ${max} cards; they are announced as ${rankPlural(c.rank)}.`;
    if (legal.includes("call") && last)
      text += ` Or call “Cheat!” on ${whose(last.seat)} ${rankPlural(last.rank)}.`;
  } else if (legal.includes("call") && last) {
    text = `${Who(view.turn)} ${view.turn === me ? "are" : "is"} next. You may call “Cheat!” on ${whose(last.seat)} ${rankPlural(last.rank)}.`;
  } else if (view.turn != null) {
    text = view.turn === me ? "Your turn." : `Waiting for ${who(view.turn)}.`;
  } else {
    text = "";
  }
  return h("p", { class: "status", dataset: { testid: "status" } }, text, " ", timer());
}

/** @param {Context} ctx */
function pile({ view, who }) {
  const c = view.cheat;
  const last = c.last_play;
  return h(
    "div",
    { class: "pile-row" },
    h(
      "div",
      { class: "pile" },
      c.pile_size ? cardImage(null) : h("div", { class: "card empty", role: "img", "aria-label": "no pile" }),
      h(
        "p",
        {},
        h("strong", {}, `Pile: ${plural(c.pile_size, "card")}`),
        c.set_aside ? h("br") : null,
        c.set_aside ? `${plural(c.set_aside, "card")} set aside` : null,
      ),
    ),
    h(
      "div",
      { class: "facts" },
      h(
        "p",
        { class: "rank-due" },
        "To announce: ",
        h("strong", { dataset: { testid: "rank" } }, rankPlural(c.rank)),
      ),
      last
        ? h(
            "p",
            {},
            "Last play: ",
            h("strong", {}, `${who(last.seat)}, ${plural(last.count, "card")} as ${rankPlural(last.rank)}`),
            c.window_open ? " — may be called" : "",
          )
        : h("p", { class: "quiet" }, "No play on the pile yet."),
    ),
  );
}

/** @param {Context} ctx */
function lastCall({ view, whose, Who }) {
  const call = view.cheat.last_call;
  if (!call) return null;
  return h(
    "div",
    { class: `call ${call.honest ? "honest" : "lie"}`, dataset: { testid: "last-call" } },
    h(
      "p",
      {},
      `${Who(call.caller)} called “Cheat!” on ${whose(call.seat)} ${rankPlural(call.rank)}. The cards turned up:`,
    ),
    cardRow(call.cards, { label: "The cards turned up", size: "small" }),
    h("p", {}, h("strong", {}, call.honest ? "Honest!" : "A lie!"), ` ${Who(call.taker)} took the pile.`),
  );
}

/** @param {Context} ctx */
function penalty({ view, Who }) {
  const p = view.cheat.last_penalty;
  if (!p) return null;
  return h(
    "p",
    { class: "call lie" },
    `A play with the Pale Chronicler went uncalled: ${Who(p.seat)} took the pile as a penalty (${plural(p.count, "card")}).`,
  );
}

/** @param {Context} ctx */
function actions(ctx, chosen) {
  const { view, legal, ui, send, me, who } = ctx;
  const c = view.cheat;
  const rank = rankPlural(c.rank);
  const last = c.last_play;
  const waiting = view.turn == null ? "Nobody is on turn." : `Waiting for ${who(view.turn)} to play.`;
  const playWhy = legal.includes("play")
    ? null
    : legal.includes("accept")
      ? "The last player has no cards left: call “Cheat!” or accept the play first."
      : view.turn !== me
        ? waiting
        : "Not now.";
  const callWhy = legal.includes("call")
    ? null
    : !last
      ? "There is no play to call."
      : last.seat === me
        ? "You cannot call your own play."
        : !c.window_open
          ? "The last play can no longer be called."
          : "Not now.";
  return actionBar(
    "Your moves",
    [
      {
        key: "play",
        label: chosen.length ? `Play ${plural(chosen.length, "card")} as ${rank}` : "Play",
        cls: "primary",
        why: playWhy,
        onclick: () =>
          send(
            { type: "play", cards: chosen },
            chosen.length ? null : "Choose one or more cards from your hand first.",
          ),
      },
      { key: "call", label: "Cheat!", cls: "danger", why: callWhy, onclick: () => send({ type: "call" }) },
      ...(legal.includes("accept")
        ? [{ key: "accept", label: "Accept", onclick: () => send({ type: "accept" }) }]
        : []),
      {
        key: "clear",
        label: "Clear choice",
        why: chosen.length === 0 ? "No card is chosen." : null,
        onclick: () => {
          ui.chosen.clear();
          ctx.rerender();
        },
      },
    ],
    { sticky: true },
  );
}

/** The round's places and points, from `last_round`. */
/** @param {Context} ctx */
export function results({ view, who, name }) {
  const r = view.last_round;
  if (!r) return null;
  const seats = view.players.map((p) => p.seat).filter((s) => r.places[s] != null);
  seats.sort((a, b) => r.places[a] - r.places[b]);
  return h(
    "section",
    { class: "panel results", "aria-label": `Round ${r.round} results` },
    h(
      "h2",
      {},
      r.reason === "max_plays"
        ? `Round ${r.round}: it reached its most plays; the fewest cards placed first`
        : `Round ${r.round}: ${who(r.winner)} went out first`,
    ),
    h(
      "table",
      {},
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, "Place"),
          h("th", { scope: "col" }, "Player"),
          h("th", { scope: "col" }, "Cards left"),
          h("th", { scope: "col" }, "Points"),
          h("th", { scope: "col" }, "Total"),
        ),
      ),
      h(
        "tbody",
        {},
        seats.map((s) =>
          h(
            "tr",
            {},
            h("td", {}, ordinal(r.places[s])),
            h("th", { scope: "row" }, name(s)),
            h("td", {}, r.hand_sizes[s] ?? "–"),
            h("td", {}, `+${r.points[s] ?? 0}`),
            h("td", {}, view.players[s].points ?? 0),
          ),
        ),
      ),
    ),
  );
}

function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${s}`;
}
