// A table's replay, at `replay.html?table=<id>` (a finished table links here): step forward and
// back through the match, version by version, as the viewer who opened it — this tab's seat, by
// the token the table's page keeps for it, or a spectator (`&as=spectator`, or a tab with no
// seat). Each step draws the view the service served that viewer at that version (the service
// keeps them: this page folds no rules), says the step's event in words, and checks the openings
// it carries, and the view's, against their deal's commitment; a failed one is a warning.
// `&v=<version>` opens at that step, and the address follows the steps, so a step can be shared.

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { GameView, Opening } from "../sdk/typescript/src/gen/types.gen.js" */
/** @import { TableRecord } from "./replay_data.js" */

import { API_BASE, API_PARAM, ApiError } from "./api.js";
import { SCHEME } from "./client/proofs.js";
import { gameOf, titles } from "./games.js";
import { PastViews, Proofs, openingsOf, readRecord } from "./replay_data.js";
import { cardWords, h, humanize, listWords, messageBox, plural, problemWords, replace } from "./ui.js";
import { describe } from "./words.js";

const root = document.getElementById("app");
const params = new URLSearchParams(location.search);
const gameTitle = (kind) => gameOf(kind)?.title ?? humanize(kind);
const LOG_LINES = 40; // the newest steps "What happened" lists, as the table's log
const UNCHECKED = "This browser checks cards only over https (or on this machine): nothing was checked.";

/** A link to this folder's page `file` with `query`, keeping an http(s) `?api=`. */
function link(file, query) {
  const q = new URLSearchParams(query);
  if (API_PARAM) q.set("api", API_PARAM);
  const search = q.toString();
  return search ? `${file}?${search}` : file;
}

/**
 * The seat token this tab holds at `id`: the one the table's page keeps in sessionStorage (app.js,
 * `store`, keyed by the API and the table); null for a spectator.
 * @param {string} id
 */
function seatToken(id) {
  try {
    return JSON.parse(sessionStorage.getItem(`kronikas|${API_BASE}|${id}`))?.token || null;
  } catch {
    return null;
  }
}

function errorMessage(err) {
  if (!(err instanceof ApiError)) {
    console.warn(err);
    return { kind: "error", title: "Something went wrong", text: "Reload the page and try again." };
  }
  return { kind: "error", ...problemWords(err) };
}

// =================================================================================================

/** @param {string} id */
async function replay(id) {
  const asSpectator = params.get("as") === "spectator";
  let token = asSpectator ? null : seatToken(id);
  const R = {
    /** @type {TableRecord | null} */
    record: null,
    /** @type {PastViews | null} */
    views: null,
    /** @type {Proofs | null} */
    proofs: null,
    wanted: 0, // the step asked for last (a slow page may answer after the next was asked)
    message: null,
  };

  const main = h("div", { class: "table-main replay", "aria-busy": "true" });
  const logList = h("ul", { class: "log" });
  const summary = h(
    "div",
    { dataset: { testid: "proofs-summary" } },
    h("p", { class: "quiet" }, "Checking…"),
  );
  replace(
    root,
    main,
    h(
      "div",
      { class: "side" },
      h(
        "section",
        { class: "panel proofs-box", "aria-labelledby": "proofs-title" },
        h("h2", { id: "proofs-title" }, "Proofs"),
        summary,
      ),
      h(
        "section",
        { class: "panel log-box", "aria-labelledby": "log-title" },
        h("h2", { id: "log-title" }, "What happened"),
        logList,
      ),
    ),
  );
  replace(main, h("p", { class: "panel quiet" }, "Loading the record…"));

  try {
    R.record = await readRecord(id, token);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 401 || !token) return fail(err);
    // The tab's token holds no seat here any more: the replay is the spectator's.
    token = null;
    R.message = {
      kind: "info",
      title: "Your seat is not known here",
      text: "You see the match as a spectator.",
    };
    try {
      R.record = await readRecord(id, null);
    } catch (again) {
      return fail(again);
    }
  }
  const record = R.record;
  R.views = new PastViews(id, token, record.events.length);
  R.proofs = new Proofs(record);
  document.title = `Replay: ${gameTitle(record.table.kind)} · Krónikás`;

  // ---- the controls: built once, so the keyboard's focus stays on them from step to step ----

  const last = record.events.length;
  const slider = h("input", {
    id: "replay-step",
    type: "range",
    min: 1,
    max: last,
    step: 1,
    value: 1,
    dataset: { key: "slider" },
    oninput: () => go(Number(slider.value)),
  });
  const where = h("p", { class: "step-count", dataset: { testid: "step-count" } });
  const button = (key, label, keys, to) =>
    h(
      "button",
      { type: "button", dataset: { key }, "aria-keyshortcuts": keys, onclick: () => go(to()) },
      label,
    );
  const buttons = {
    first: button("first", "First", "Home", () => 1),
    back: button("back", "Back", "ArrowLeft", () => R.wanted - 1),
    forward: button("forward", "Forward", "ArrowRight", () => R.wanted + 1),
    last: button("last", "Last", "End", () => last),
  };
  buttons.forward.classList.add("primary");
  const controls = h(
    "section",
    { class: "panel replay-controls", "aria-label": "Replay controls" },
    h("div", { class: "buttons", role: "group", "aria-label": "Step" }, Object.values(buttons)),
    h("div", { class: "slider" }, h("label", { for: "replay-step" }, "Step"), slider),
    where,
    h(
      "p",
      { class: "quiet keys" },
      "Keys: ← and → step back and forward, Home and End go to the first and the last step.",
    ),
  );
  // Read out as it changes: a step's words and proofs, to whoever cannot see the page.
  const stepBox = h("section", { class: "panel step", "aria-label": "This step", "aria-live": "polite" });

  const head = h(
    "section",
    { class: "panel head", "aria-labelledby": "table-title" },
    h("h1", { id: "table-title" }, `Replay: ${gameTitle(record.table.kind)}`),
    h(
      "p",
      { class: "quiet", dataset: { testid: "viewer" } },
      token
        ? "Seen from your seat: your cards, and what you were shown at each step."
        : "Seen as a spectator: what anyone watching was shown at each step.",
    ),
    h(
      "p",
      { class: "row replay-links" },
      h("a", { href: link("./", { table: id }) }, "Back to the table"),
      token
        ? h("a", { href: link("replay.html", { table: id, as: "spectator" }) }, "See it as a spectator")
        : null,
    ),
  );

  addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const target = /** @type {HTMLElement} */ (e.target);
    if (target.closest?.("input, textarea, select")) return; // the slider steps by itself
    const to = { ArrowRight: R.wanted + 1, ArrowLeft: R.wanted - 1, Home: 1, End: last }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    go(to);
  });

  checkAll();
  if (!last) {
    replace(
      main,
      head,
      messageBox(R.message),
      h("p", { class: "panel" }, "Nothing has happened at this table yet."),
    );
    return;
  }
  const start = Number(params.get("v"));
  go(Number.isInteger(start) && start >= 1 ? start : 1);

  // ---- stepping ----

  /** Show step `version` (kept within the match), once its view is here. */
  async function go(version) {
    version = Math.min(Math.max(1, version), last);
    R.wanted = version;
    paintControls(version);
    let view;
    try {
      view = await R.views.at(version);
    } catch (err) {
      if (R.wanted !== version) return;
      R.message = errorMessage(err);
      return paint(null, version);
    }
    if (R.wanted !== version) return; // a later step was asked for meanwhile
    const query = new URLSearchParams(location.search);
    query.set("v", String(version));
    history.replaceState(null, "", `?${query}`);
    paint(view, version);
  }

  function paintControls(version) {
    slider.value = String(version);
    buttons.first.disabled = buttons.back.disabled = version <= 1;
    buttons.forward.disabled = buttons.last.disabled = version >= last;
    where.textContent = `Step ${version} of ${last}`;
  }

  /**
   * @param {GameView | null} view
   * @param {number} version
   */
  function paint(view, version) {
    main.removeAttribute("aria-busy");
    main.dataset.version = String(version);
    if (view) main.dataset.status = view.status;
    const event = record.events[version - 1];
    const names = Object.fromEntries((view?.players ?? record.table.players).map((p) => [p.seat, p.name]));
    const me = view?.me?.seat ?? null;
    const words = event ? describe(event, names, me) : "";
    replace(
      stepBox,
      h("h2", {}, `Step ${version}`),
      h("p", { class: "step-words", dataset: { testid: "step-words" } }, words),
      proofLine(event, view),
    );
    replace(main, head, messageBox(R.message), controls, stepBox, view ? drawView(view, names) : null);
    paintLog(version, names, me);
  }

  /** The step's openings (the event's, and the view's own), checked; a warning when one fails. */
  function proofLine(event, view) {
    const line = h(
      "div",
      { class: "proof-line", dataset: { testid: "step-proofs" } },
      h("p", { class: "quiet" }, "Checking the proofs…"),
    );
    const carried = openingsOf(event);
    const held = /** @type {Opening[]} */ (view?.openings ?? []);
    if (!R.proofs.able) {
      line.dataset.failed = "0";
      replace(line, h("p", { class: "quiet" }, UNCHECKED));
      return line;
    }
    Promise.all([R.proofs.all(carried), view ? R.proofs.ofView(view) : []]).then(([checks, problems]) => {
      const failed = checks.filter((c) => !c.ok).map((c) => c.opening);
      line.dataset.failed = String(failed.length + problems.length);
      if (failed.length || problems.length) {
        const texts = [failed.length ? failedWords(failed) : "", ...problems.map((p) => `${capital(p)}.`)];
        const text = `${texts.filter(Boolean).join(" ")} This record cannot be trusted.`;
        replace(line, messageBox({ kind: "error", title: "A proof failed", text }));
        return;
      }
      replace(
        line,
        h(
          "p",
          { class: carried.length || held.length ? "proof ok" : "quiet" },
          carried.length
            ? `Proven at this step: ${listWords(carried.map((o) => cardWords(o.card)))}, each against ${roundsWords(carried)}’s commitment.`
            : "No card is opened at this step.",
          held.length
            ? ` The ${plural(held.length, "card")} you see of this deal ${held.length === 1 ? "is" : "are"} proven too.`
            : "",
        ),
      );
    });
    return line;
  }

  /** The whole record's openings, checked once, for the side panel. */
  async function checkAll() {
    const old = [...record.deals.values()].some((d) => d.scheme !== SCHEME)
      ? h(
          "p",
          { class: "quiet" },
          "Deals stored before cards were proven one by one open no card: their whole deck was revealed at the round’s end.",
        )
      : null;
    if (!R.proofs.able) {
      summary.dataset.failed = "0";
      return replace(summary, h("p", { class: "quiet" }, UNCHECKED), old);
    }
    const each = record.events.map((e) => ({ version: e.version, openings: openingsOf(e) }));
    const results = await Promise.all(
      each.map(async (s) => ({ ...s, checks: await R.proofs.all(s.openings) })),
    );
    const count = results.reduce((n, s) => n + s.checks.length, 0);
    const bad = results.filter((s) => s.checks.some((c) => !c.ok));
    const disagreements = await R.proofs.disagreements;
    summary.dataset.failed = String(bad.length + disagreements.length);
    const steps = `${bad.length === 1 ? "step" : "steps"} ${listWords(bad.map((s) => String(s.version)))}`;
    replace(
      summary,
      bad.length || disagreements.length
        ? messageBox({
            kind: "error",
            title: "Proofs failed",
            text: [
              bad.length ? `A card opened at ${steps} does not match its deal’s commitment.` : "",
              disagreements.length ? `The openings disagree: ${disagreements.join("; ")}.` : "",
              "This record cannot be trusted.",
            ]
              .filter(Boolean)
              .join(" "),
          })
        : h(
            "p",
            { class: count ? "proof ok" : "quiet" },
            count
              ? `Every card opened to ${token ? "you" : "a spectator"} (${plural(count, "opening")}) matches its deal’s commitment, and they agree.`
              : "No card was opened in this record.",
          ),
      old,
    );
  }

  /**
   * "What happened" up to the step shown, newest first (the step shown is the first, in bold).
   * @param {number} version
   * @param {Record<number, string>} names
   * @param {number | null} me
   */
  function paintLog(version, names, me) {
    const shown = record.events.slice(Math.max(0, version - LOG_LINES), version).reverse();
    replace(
      logList,
      shown.map((event) => h("li", { dataset: { v: event.version } }, describe(event, names, me))),
    );
  }

  /**
   * The view of the step, drawn by its game's module as a table's page draws it, without moves.
   * @param {GameView} view
   * @param {Record<number, string>} names
   */
  function drawView(view, names) {
    const game = gameOf(view.kind);
    const me = view.me?.seat ?? null;
    const who = (seat) =>
      seat == null ? "nobody" : seat === me ? "you" : (names[seat] ?? `seat ${seat + 1}`);
    const Who = (seat) => capital(who(seat));
    const ctx = {
      view,
      legal: [], // a replay makes no move
      me,
      who,
      Who,
      whose: (seat) => (seat === me ? "your" : `${who(seat)}’s`),
      name: (seat) => (seat === me ? `${names[seat]} (you)` : (names[seat] ?? `seat ${seat + 1}`)),
      timer: () => null,
      ui: {},
      send: async () => {},
      rerender: () => {},
      message: () => {},
      notice: null,
      readOnly: true,
    };
    const round = view.round ? (game?.roundText?.(view) ?? `Round ${view.round}`) : "";
    const status =
      { open: "waiting for players", playing: "playing", finished: "finished" }[view.status] || view.status;
    const won = (view.winners || []).map(who);
    return [
      h(
        "p",
        { class: "panel quiet", dataset: { testid: "headline" } },
        [round, status, view.seeded ? "seeded (not a fair deal)" : ""].filter(Boolean).join(" · "),
      ),
      view.status === "finished" && won.length
        ? h(
            "section",
            { class: "panel winners", role: "status" },
            h(
              "h2",
              {},
              `The match is over. ${capital(listWords(won))} ${won.length === 1 && won[0] !== "you" ? "wins" : "win"}!`,
            ),
          )
        : null,
      view.players.length ? players(view, game, ctx) : null,
      view.status !== "open" && game ? game.render(ctx) : null,
      game?.results?.(ctx),
    ];
  }

  function fail(err) {
    replace(
      main,
      messageBox(errorMessage(err)),
      h("p", { class: "panel" }, h("a", { href: link("./", { table: id }) }, "Back to the table")),
    );
    main.removeAttribute("aria-busy");
  }
}

/**
 * Who sat at the table at the step, with what the game says of each.
 * @param {GameView} view
 * @param {import("./games.js").GameModule | null} game
 * @param {{me: number | null, name: (seat: number) => string}} ctx
 */
function players(view, game, { me, name }) {
  return h(
    "section",
    { class: "panel players", "aria-labelledby": "players-title" },
    h("h2", { id: "players-title", class: "visually-hidden" }, "Players"),
    h(
      "ul",
      {},
      view.players.map((p) => {
        const onTurn = view.turn === p.seat && view.status === "playing";
        const marks = [
          p.seat === view.dealer && view.status === "playing" ? "dealer" : null,
          p.house ? "house" : null,
          p.away ? "away" : null,
          p.left ? "left" : null,
        ].filter(Boolean);
        return h(
          "li",
          {
            class: `player${onTurn ? " turn" : ""}${p.seat === me ? " me" : ""}${p.out ? " out" : ""}`,
            "aria-current": onTurn ? "true" : null,
            dataset: { seat: p.seat },
          },
          h(
            "span",
            { class: "name" },
            onTurn ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶ ") : null,
            name(p.seat),
            onTurn ? h("span", { class: "visually-hidden" }, " (on turn)") : null,
          ),
          marks.map((m) => h("span", { class: `badge ${m}` }, m)),
          h(
            "span",
            { class: "facts quiet" },
            view.status === "open" ? "" : (game?.playerFacts(p) || []).join(" · "),
          ),
        );
      }),
    ),
  );
}

/** @param {Opening[]} failed */
function failedWords(failed) {
  const cards = failed.map(
    (o) => `${cardWords(o.card)} at position ${o.position} of round ${o.round}’s deck`,
  );
  return `${capital(listWords(cards))} ${failed.length === 1 ? "does" : "do"} not match the deal’s commitment.`;
}

/** @param {Opening[]} openings */
function roundsWords(openings) {
  const rounds = [...new Set(openings.map((o) => o.round))];
  return rounds.length === 1 ? `round ${rounds[0]}` : `rounds ${listWords(rounds.map(String))}`;
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// =================================================================================================

/** @type {HTMLAnchorElement} */ (document.getElementById("home")).href = link("./", {});
document.getElementById("games").textContent = listWords(titles);
/** @type {HTMLAnchorElement} */ (document.getElementById("api-docs")).href = `${API_BASE}/schema`;
const tableId = params.get("table");
if (tableId) replay(tableId);
else
  replace(
    root,
    h(
      "p",
      { class: "panel" },
      "Which table? ",
      h("a", { href: link("./", {}) }, "Pick one in the lobby"),
      ".",
    ),
  );
