// The check of every opening of a card this tab receives in live play (docs/api.md, "Fair
// deals"): the TypeScript client's OpeningsChecker (client/proofs.js, compiled from
// sdk/typescript/src/extras/proofs.ts), fed the events the page follows and the views it shows.
//
// A deal's commitment comes in its `round_dealt` event, or in the view's game block (a tab
// opened in the middle of a round follows only the last events); the cards an event or a view
// shows face up come from the game's module (`seen`, `shown`): each must have its opening.

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { GameEvent, GameView } from "../sdk/typescript/src/gen/types.gen.js" */

import { OpeningsChecker } from "./client/proofs.js";
import { gameOf } from "./games.js";

/**
 * A new check for one viewer (a seat's token, or a spectator); `onProblem` hears each problem.
 * Null where the browser cannot compute SHA-256 (a page served over plain http to another host).
 * @param {(problem: string) => void} onProblem
 */
export function openingsCheck(onProblem) {
  // WebCrypto is there only in a secure context (https, or this machine): elsewhere nothing is
  // checked, and the page says so rather than that every card checked.
  if (!globalThis.crypto?.subtle) return null;
  const checker = new OpeningsChecker(onProblem);
  let round = null; // the round of the events followed, from the first deal they bring
  return {
    checker,
    /** @param {GameEvent} event */
    event(event) {
      const d = /** @type {Record<string, any>} */ (event.data || {});
      const [kind, type] = event.type.split(".", 2);
      if (Number.isInteger(d.round) && typeof d.commitment === "string") round = d.round;
      const done = checker.observe(event);
      if (round == null) return done;
      const groups = gameOf(kind)?.seen?.(type, d) ?? [];
      return Promise.all([done, ...groups.filter((cards) => cards.length).map((cards) => checker.saw(round, cards))]);
    },
    /** @param {GameView} view */
    view(view) {
      const v = /** @type {Record<string, any>} */ (view);
      const block = v[view.kind];
      const steps = [];
      // Only a block that names its scheme tells a deal (a view from before openings says none).
      if (view.round && typeof block?.commitment === "string" && typeof block?.scheme === "string")
        steps.push(checker.deal(view.round, block.commitment, block.deck_size ?? 0, block.scheme));
      steps.push(checker.view(view));
      const shown = gameOf(view.kind)?.shown?.(view) ?? [];
      if (view.round && shown.length) steps.push(checker.saw(view.round, shown));
      return Promise.all(steps);
    },
  };
}
