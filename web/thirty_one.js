// Thirty-One at the table: the three table cards, the hand, the dealer's choice, swaps, pass and
// show, the last circuit, lives, and the round's hands and scores (docs/rules.md, "Thirty-One").

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { ThirtyOneGameView, ThirtyOnePlayerView } from "../sdk/typescript/src/gen/types.gen.js" */
/** @typedef {import("./games.js").TableContext<ThirtyOneGameView>} Context */

import { actionBar, cardRow, cardToggle, cardWords, h, listWords, plural } from "./ui.js";

export const title = "Thirty-One";

/** The game in a few plain sentences, beside the table and in the lobby. */
export const howTo = [
  "Each player holds 3 cards; 3 more lie face up on the table. Aim for the best hand.",
  "A hand scores the values of its cards of one suit: Aces 11, Kings, Overs, Unders and tens 10, the others their number. Below 21 a hand scores 0. Three of a rank score 30.5, three Aces 33 and win at once.",
  "The dealer first keeps their hand or exchanges it for the table. Then, on your turn: swap one card with the table, swap all three, pass, or show.",
  "Showing ends the round: everyone else has one last turn, then the lowest hand loses a life.",
  "Lose a life with none left and you are out. The last player in wins.",
];

/** The table options in a player's words, by name; an option not here keeps the service's words. */
export const optionWords = {
  lives: { label: "Lives", help: "Each player starts with this many; with 0, the first lost round puts a player out." },
  max_circuits: {
    label: "Most circuits in a round",
    help: "After this many times round the table without a show, the player on turn must show.",
    empty: "Leave it empty for no limit.",
  },
  chronicler: {
    label: "Play with the Coloured Chronicler",
    help: "Adds a joker that counts as whichever card gives its hand the best score.",
  },
};

/**
 * The seat's own facts the service adds to its view (`me`): the hand's score, each swap it may
 * make with the score after it, and the score after taking the whole table. Absent, nothing is shown.
 * @typedef {{score?: number, swaps?: {give: string, take: string, score: number}[], swap_all?: number | null}} Facts
 */

/**
 * A Thirty-One event in words, for the log; undefined for a type this module does not know.
 * `w`: {me (seat or null), who(seat), Who(seat), cards(codes)}.
 */
export function describe(type, d, { me, who, Who, cards }) {
  switch (type) {
    case "round_dealt":
      return `Round ${d.round}: ${who(d.dealer)} dealt; the table shows ${cards(d.table || [])}.`;
    case "hand_kept":
      return `${Who(d.seat)} kept ${d.seat === me ? "your" : "their"} hand.`;
    case "hand_exchanged":
      return `${Who(d.seat)} exchanged ${d.seat === me ? "your" : "their"} hand for the table.`;
    case "card_swapped":
      return `${Who(d.seat)} gave ${cardWords(d.give)} for ${cardWords(d.take)}.`;
    case "hands_swapped":
      return `${Who(d.seat)} swapped ${d.seat === me ? "your" : "their"} whole hand with the table.`;
    case "passed":
      return `${Who(d.seat)} passed.`;
    case "hand_shown":
      return `${Who(d.seat)} showed ${cards(d.hand || [])}.`;
    case "round_ended": {
      if (d.three_aces != null)
        return `Round ${d.round}: three Aces for ${who(d.three_aces)}! Everyone else loses a life.`;
      const lost = (d.lost_life || []).map(who);
      const out = (d.out || []).map(who);
      return `Round ${d.round} is over: ${lost.length ? `${listWords(lost)} lost a life` : "nobody lost a life"}${out.length ? `; ${listWords(out)} ${out.length === 1 && out[0] !== "you" ? "is" : "are"} out` : ""}.`;
    }
  }
  return undefined;
}

/**
 * The cards a Thirty-One event shows this tab face up, in groups seen together: each must come
 * with its opening (proofs.js). The table dealt (and this seat's hand), a hand laid on the table,
 * a card given to it and the one taken, a hand shown, the hands scored.
 */
export function seen(type, d) {
  switch (type) {
    case "round_dealt":
      return [[...(d.hands || []).filter(Boolean).flat(), ...(d.table || [])]];
    case "hand_exchanged":
    case "hands_swapped":
      return [d.table || []];
    case "card_swapped":
      return [[d.give, d.take]];
    case "hand_shown":
      return [d.hand || []];
    case "round_ended":
      return [(d.hands || []).filter(Boolean).flat()];
  }
  return [];
}

/** The cards a view shows face up besides this seat's hand: the table's. */
export function shown(view) {
  return view.thirty_one?.table ?? [];
}

/** @param {ThirtyOnePlayerView} player */
export function playerFacts(player) {
  if (player.out) return ["out"];
  return [player.lives === 0 ? "0 lives (swimming)" : plural(player.lives, "life", "lives")];
}

/** @param {Context} ctx */
export function render(ctx) {
  const { view, legal, ui, who, Who, me } = ctx;
  const t = view.thirty_one;
  if (!t) return [];
  const hand = view.me?.hand ?? [];
  const canSwap = legal.includes("swap");

  // A choice survives a re-render only while the cards are the same.
  const key = `${hand.join(",")}|${t.table.join(",")}`;
  if (ui.key !== key) Object.assign(ui, { key, give: null, take: null });

  const pick = (side, i) => () => {
    ui[side] = ui[side] === i ? null : i;
    ctx.rerender();
  };
  const cards = (codes, side, label) =>
    canSwap
      ? h(
          "ul",
          { class: "cards choose", "aria-label": `${label}: press one to choose it` },
          codes.map((code, i) =>
            h(
              "li",
              {},
              cardToggle(code, {
                pressed: ui[side] === i,
                key: `${side}-${i}-${code}`,
                onToggle: pick(side, i),
              }),
            ),
          ),
        )
      : cardRow(codes, { label });

  const shown = view.players.filter((p) => t.shown?.[p.seat] && p.seat !== me);
  const score = /** @type {Facts} */ (view.me ?? {}).score;
  return [
    h(
      "section",
      { class: "panel middle", "aria-label": "The table" },
      h("p", { class: "status", dataset: { testid: "status" } }, statusText(ctx), " ", ctx.timer()),
      h("p", { class: "quiet" }, phaseText(ctx)),
      h("h2", {}, "On the table"),
      cards(t.table, "take", "The table’s cards"),
      shown.length
        ? h(
            "div",
            { class: "shown" },
            h("h2", {}, "Shown hands"),
            shown.map((p) =>
              h(
                "div",
                { class: "shown-hand" },
                h("p", {}, `${Who(p.seat)}${t.shown_by === p.seat ? " (showed)" : ""}:`),
                cardRow(t.shown[p.seat], { label: `${who(p.seat)}’s hand`, size: "small" }),
              ),
            ),
          )
        : null,
    ),
    view.me && hand.length
      ? h(
          "section",
          { class: "panel hand", "aria-label": "Your hand" },
          h(
            "h2",
            {},
            "Your hand ",
            typeof score === "number" ? h("span", { class: "quiet" }, `(scores ${formatScore(score)})`) : null,
          ),
          cards(hand, "give", "Your cards"),
          ctx.notice,
          view.status === "playing" && !ctx.readOnly ? actions(ctx, hand, t.table) : null,
        )
      : null,
  ];
}

/** @param {Context} ctx */
function phaseText({ view, who }) {
  const t = view.thirty_one;
  if (t.phase === "dealer_choice")
    return `Round ${view.round}: the dealer, ${who(view.dealer)}, keeps or exchanges their hand first.`;
  if (t.phase === "last_circuit")
    return `Round ${view.round}, last circuit: ${who(t.shown_by)} showed; everyone else has one last turn.`;
  return `Round ${view.round}, circuit ${t.circuit ?? 1}.`;
}

/** @param {Context} ctx */
function statusText({ view, legal, me, who }) {
  if (legal.includes("keep")) return "You dealt: keep your hand, or exchange it for the table.";
  if (legal.length) {
    if (view.thirty_one.phase === "last_circuit")
      return "Your last turn: swap to reach at least 21 (your hand is then shown), or pass.";
    return "Your turn: swap one card, swap all, pass or show.";
  }
  if (view.turn == null) return "";
  return view.turn === me ? "Your turn." : `Waiting for ${who(view.turn)}.`;
}

/** @param {Context} ctx */
function actions(ctx, hand, table) {
  const { view, legal, ui, send, me, who } = ctx;
  const t = view.thirty_one;
  const facts = /** @type {Facts} */ (view.me ?? {});
  const last = t.phase === "last_circuit";
  const waiting = view.turn == null ? "Nobody is on turn." : `Waiting for ${who(view.turn)}.`;
  /** Why `type` cannot be played now: null when it can. */
  const why = (type, ownReason) => (legal.includes(type) ? null : view.turn !== me ? waiting : ownReason);
  const scores = (n) => (typeof n === "number" ? ` (scores ${formatScore(n)})` : "");

  if (legal.includes("keep") || legal.includes("exchange"))
    return actionBar(
      "Your moves",
      [
        { key: "keep", label: "Keep my hand", cls: "primary", onclick: () => send({ type: "keep" }) },
        { key: "exchange", label: "Exchange with the table", onclick: () => send({ type: "exchange" }) },
      ],
      { sticky: true },
    );

  const chosen = ui.give != null && ui.take != null;
  const give = chosen ? hand[ui.give] : null;
  const take = chosen ? table[ui.take] : null;
  const after = chosen ? facts.swaps?.find((w) => w.give === give && w.take === take) : undefined;
  const swapLabel = chosen
    ? `Swap ${cardWords(give)} for ${cardWords(take)}${scores(after?.score)}`
    : "Swap one card";
  return actionBar(
    "Your moves",
    [
      {
        key: "swap",
        label: swapLabel,
        cls: "primary",
        why: why("swap", last ? "No swap of one card brings your hand to 21 or more." : "Not now."),
        onclick: () => {
          if (!chosen) {
            ctx.message("Choose one card of your hand and one card of the table first.");
            return;
          }
          send({ type: "swap", give, take });
        },
      },
      {
        key: "swap_all",
        label: `Swap all${scores(facts.swap_all)}`,
        why: why("swap_all", "The table’s cards score under 21: taking them all is not allowed."),
        onclick: () => send({ type: "swap_all" }),
      },
      {
        key: "pass",
        label: "Pass",
        why: why("pass", t.passed?.includes(me) ? "You passed last time: swap or show now." : "Not now."),
        onclick: () => send({ type: "pass" }),
      },
      {
        key: "show",
        label: "Show",
        cls: "danger",
        why: why("show", last ? "Someone has shown: this is the last circuit." : "Not now."),
        onclick: () => send({ type: "show" }),
      },
    ],
    { sticky: true },
  );
}

/** The round's hands, scores and lives, from `last_round`. */
/** @param {Context} ctx */
export function results({ view, name, who }) {
  const r = view.last_round;
  if (!r) return null;
  const out = r.out.map(who);
  const summary =
    r.three_aces != null
      ? `three Aces for ${who(r.three_aces)}!`
      : out.length
        ? `${listWords(out)} ${out.length === 1 && out[0] !== "you" ? "is" : "are"} out`
        : r.lost_life.length
          ? `${listWords(r.lost_life.map(who))} lost a life`
          : "nobody lost a life";
  const seats = view.players
    .map((p) => p.seat)
    .filter((s) => r.hands[s] != null || r.scores[s] != null || r.lost_life.includes(s));
  return h(
    "section",
    { class: "panel results", "aria-label": `Round ${r.round} results` },
    h("h2", {}, `Round ${r.round}: ${summary}`),
    h(
      "table",
      {},
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, "Player"),
          h("th", { scope: "col" }, "Hand"),
          h("th", { scope: "col" }, "Score"),
          h("th", { scope: "col" }, "Lives"),
        ),
      ),
      h(
        "tbody",
        {},
        seats.map((s) =>
          h(
            "tr",
            { class: r.lost_life.includes(s) ? "lost" : "" },
            h("th", { scope: "row" }, name(s)),
            h("td", {}, r.hands[s] ? cardRow(r.hands[s], { label: `${name(s)}’s hand`, size: "tiny" }) : "–"),
            h("td", {}, r.scores[s] != null ? formatScore(r.scores[s]) : "–"),
            h(
              "td",
              {},
              r.out.includes(s)
                ? "out"
                : r.lost_life.includes(s)
                  ? `lost one (${view.players[s].lives} left)`
                  : String(view.players[s].lives),
            ),
          ),
        ),
      ),
    ),
  );
}

function formatScore(n) {
  return String(n);
}
