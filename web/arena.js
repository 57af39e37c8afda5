// The arena's pages (docs/arena.md): `arena.html?kind=<kind>&players=<n>` is a pool's leaderboard
// (`GET /v1/arena/leaderboard`), best first by the conservative rating mu - 3 sigma; each
// entrant's name leads to `arena.html?entrant=<id>`, its page: its ratings per pool and its recent
// matches, each a link to that table's replay (replay.html, as a spectator: the arena shows a
// table only once its whole set has finished). The calls are the TypeScript client's arena helper
// (client/arena.js); this page names no game: the games are the service's (`GET /v1/kinds`).

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { ArenaMatch, EntrantPage, Leaderboard, LeaderboardEntry, PoolRating } from "../sdk/typescript/src/gen/types.gen.js" */

import { API_BASE, API_PARAM, ApiError, api, asApiError } from "./api.js";
import { Arena } from "./client/arena.js";
import { gameOf, titles } from "./games.js";
import { h, humanize, listWords, messageBox, problemWords, replace } from "./ui.js";

const root = document.getElementById("app");
const params = new URLSearchParams(location.search);
const arena = new Arena({ baseUrl: API_BASE });
const gameTitle = (kind) => gameOf(kind)?.title ?? humanize(kind);

/** A link to this folder's page `file` with `query`, keeping an http(s) `?api=`. */
function link(file, query) {
  const q = new URLSearchParams(query);
  if (API_PARAM) q.set("api", API_PARAM);
  const search = q.toString();
  return search ? `${file}?${search}` : file;
}

const entrantLink = (id) => link("arena.html", { entrant: id });
const replayLink = (table) => link("replay.html", { table, as: "spectator" });
const fixed = (x, digits = 1) => (typeof x === "number" ? x.toFixed(digits) : "–");
const when = (at) => (at ? new Date(at).toLocaleString() : "–");

/** A table in a box of its own that scrolls sideways on a narrow screen (the page does not). */
function scroller(tag, props, ...children) {
  return h("div", { class: "scroll" }, h(tag, props, ...children));
}

function errorMessage(err) {
  const error = asApiError(err);
  if (!(error instanceof ApiError)) {
    console.warn(err);
    return { kind: "error", title: "Something went wrong", text: "Reload the page and try again." };
  }
  return { kind: "error", ...problemWords(error) };
}

// ---- a pool's leaderboard ----

/** @param {LeaderboardEntry} e */
function rankRow(e) {
  return h(
    "tr",
    { dataset: { entrant: e.entrant_id } },
    h("td", { class: "number" }, e.rank),
    h(
      "td",
      {},
      h("a", { href: entrantLink(e.entrant_id) }, e.name),
      e.standing ? h("span", { class: "badge house standing", title: "A standing entrant: the yardstick" }, "standing") : null,
    ),
    h("td", { class: "number", title: "mu - 3 sigma" }, fixed(e.ordinal)),
    h("td", { class: "number" }, `${fixed(e.mu)} ± ${fixed(3 * e.sigma)}`),
    h("td", { class: "number" }, e.matches),
    h("td", {}, when(e.last_played)),
  );
}

/** @param {Leaderboard} board */
function boardTable(board) {
  if (!board.entries.length)
    return h("p", { class: "quiet" }, "No one is rated in this pool yet: enter the arena to be the first.");
  return scroller(
    "table",
    { class: "leaderboard" },
    h(
      "caption",
      { class: "visually-hidden" },
      `${gameTitle(board.kind)}, tables of ${board.players}: the leaderboard`,
    ),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { class: "number", scope: "col" }, "Rank"),
        h("th", { scope: "col" }, "Entrant"),
        h("th", { class: "number", scope: "col", title: "mu - 3 sigma: ranks by it" }, "Rating"),
        h("th", { class: "number", scope: "col", title: "mu ± 3 sigma" }, "Skill"),
        h("th", { class: "number", scope: "col", title: "sets played" }, "Matches"),
        h("th", { scope: "col" }, "Last played"),
      ),
    ),
    h("tbody", {}, board.entries.map(rankRow)),
  );
}

async function leaderboard() {
  replace(root, h("p", { class: "panel quiet" }, "Loading the leaderboard…"));
  let kinds;
  try {
    kinds = await api.kinds();
  } catch (err) {
    replace(root, messageBox(errorMessage(err)));
    return;
  }
  const kind = kinds.some((k) => k.kind === params.get("kind")) ? params.get("kind") : kinds[0]?.kind;
  const info = kinds.find((k) => k.kind === kind);
  const wanted = Number(params.get("players") || 2);
  const players = info && wanted >= info.min_players && wanted <= info.max_players ? wanted : info?.min_players ?? 2;
  const pick = h(
    "form",
    { class: "pools", method: "get", action: "arena.html" },
    h(
      "label",
      {},
      "Game ",
      h(
        "select",
        { name: "kind", "data-key": "kind", onchange: (e) => e.target.form.requestSubmit() },
        kinds.map((k) => h("option", { value: k.kind, selected: k.kind === kind }, gameTitle(k.kind))),
      ),
    ),
    h(
      "label",
      {},
      "Players ",
      h(
        "select",
        { name: "players", "data-key": "players", onchange: (e) => e.target.form.requestSubmit() },
        Array.from({ length: (info?.max_players ?? 2) - (info?.min_players ?? 2) + 1 }, (_, i) => {
          const n = (info?.min_players ?? 2) + i;
          return h("option", { value: n, selected: n === players }, n);
        }),
      ),
    ),
    API_PARAM ? h("input", { type: "hidden", name: "api", value: API_PARAM }) : null,
    h("button", { type: "submit" }, "Show"),
  );
  let body;
  try {
    body = boardTable(await arena.leaderboard(kind, players));
  } catch (err) {
    body = messageBox(errorMessage(err));
  }
  replace(
    root,
    h(
      "section",
      { class: "arena panel", "aria-labelledby": "arena-title" },
      h("h1", { id: "arena-title" }, "Arena leaderboard"),
      h(
        "p",
        { class: "quiet" },
        "Bots, agents and people play rated matches on duplicate deals; the house and a random player are ",
        "standing entrants, the yardstick. Ranked by the conservative rating mu - 3 sigma.",
      ),
      pick,
      body,
    ),
  );
}

// ---- an entrant's page ----

/** A column's header: `#Name` is a column of numbers, aligned as they are. */
const header = (name) =>
  name.startsWith("#")
    ? h("th", { class: "number", scope: "col" }, name.slice(1))
    : h("th", { scope: "col" }, name);

/** @param {PoolRating} r */
function ratingRow(r) {
  return h(
    "tr",
    {},
    h(
      "td",
      {},
      h("a", { href: link("arena.html", { kind: r.kind, players: r.players }) }, `${gameTitle(r.kind)} (${r.players})`),
    ),
    h("td", { class: "number" }, fixed(r.ordinal)),
    h("td", { class: "number" }, `${fixed(r.mu)} ± ${fixed(3 * r.sigma)}`),
    h("td", { class: "number" }, r.matches),
    h("td", {}, when(r.last_played)),
  );
}

/** @param {ArenaMatch} m */
function matchRow(m) {
  return h(
    "tr",
    { dataset: { table: m.table_id } },
    h("td", {}, when(m.finished_at)),
    h("td", {}, `${gameTitle(m.kind)} (${m.players})`),
    h("td", { class: "number" }, m.seat),
    h("td", { class: "number" }, m.position),
    h("td", { class: "number" }, Number.isInteger(m.place) ? m.place : fixed(m.place)),
    h("td", {}, h("a", { href: replayLink(m.table_id), class: "replay" }, "Replay")),
  );
}

/** @param {EntrantPage} page */
function entrantSection(page) {
  const ratings = page.ratings;
  return h(
    "section",
    { class: "arena panel", "aria-labelledby": "entrant-name" },
    h(
      "h1",
      { id: "entrant-name" },
      page.name,
      page.standing ? h("span", { class: "badge house standing" }, "standing") : null,
    ),
    h("p", { class: "quiet" }, `Plays ${listWords((page.games || []).map(gameTitle))}.`),
    h("h2", {}, "Ratings"),
    ratings.length
      ? scroller(
          "table",
          { class: "ratings" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ["Pool", "#Rating", "#Skill", "#Matches", "Last played"].map(header),
            ),
          ),
          h(
            "tbody",
            {},
            ratings.map(ratingRow),
          ),
        )
      : h("p", { class: "quiet" }, "Not rated yet: no set of its has finished."),
    h("h2", {}, "Recent matches"),
    (page.matches || []).length
      ? scroller(
          "table",
          { class: "matches" },
          h(
            "thead",
            {},
            h(
              "tr",
              {},
              ["Finished", "Game", "#Seat", "#Hand position", "#Place", "Record"].map(header),
            ),
          ),
          h("tbody", {}, page.matches.map(matchRow)),
        )
      : h("p", { class: "quiet" }, "No finished matches yet."),
    h("p", {}, h("a", { href: link("arena.html", {}) }, "All leaderboards")),
  );
}

/** @param {string} id */
async function entrant(id) {
  replace(root, h("p", { class: "panel quiet" }, "Loading…"));
  try {
    replace(root, entrantSection(await arena.entrant(id)));
  } catch (err) {
    replace(root, messageBox(errorMessage(err)), h("p", {}, h("a", { href: link("arena.html", {}) }, "All leaderboards")));
  }
}

// =================================================================================================

/** @type {HTMLAnchorElement} */ (document.getElementById("home")).href = link("./", {});
/** @type {HTMLAnchorElement} */ (document.getElementById("leaderboards")).href = link("arena.html", {});
document.getElementById("games").textContent = listWords(titles);
/** @type {HTMLAnchorElement} */ (document.getElementById("api-docs")).href = `${API_BASE}/schema`;
const entrantId = params.get("entrant");
if (entrantId) entrant(entrantId);
else leaderboard();
