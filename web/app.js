// The page: the lobby (open a table, pick an open one) at `/`, and a table at `/?table=<id>`.
//
// A table's seat token, the host token, the last event seen and the log are kept per browser tab
// in sessionStorage, keyed by the table's id: a reload puts the person back in their seat and
// follows the stream from where it was; another tab can be another player.
//
// The tab's identity is its token, never a seat number: the seat is read from each view's
// `me.seat` (seats move down when a player leaves before the start). When the token stops
// holding a seat (401), the tab forgets it and watches as a spectator, and says so.

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).
/** @import { GameEvent, GameView, KindInfo, LobbyEntry, OptionInfo } from "../sdk/typescript/src/gen/types.gen.js" */

import { API_BASE, API_PARAM, ApiError, api, clock } from "./api.js";
import { gameOf, titles } from "./games.js";
import { seatSocket } from "./socket.js";
import { follow } from "./stream.js";
import { markdown } from "./markdown.js";
import { openingsCheck } from "./proofs.js";
import { countdown, h, humanize, listWords, messageBox, plural, problemWords, replace } from "./ui.js";
import { describe } from "./words.js";

const SEAT_MOVES = ["leave", "back"]; // the seat's own moves in every game, drawn by this module
const gameTitle = (kind) => gameOf(kind)?.title ?? humanize(kind);

const root = document.getElementById("app");
const connection = document.getElementById("connection");
const params = new URLSearchParams(location.search);

// ---- links: the table travels in the query; `?api=` comes along when it is an http(s) origin ----

function pageLink(table) {
  const q = new URLSearchParams();
  if (table) q.set("table", table);
  if (API_PARAM) q.set("api", API_PARAM); // only an http(s) origin: any other `?api=` was ignored
  const search = q.toString();
  return `${location.pathname}${search ? `?${search}` : ""}`;
}

/** The replay of `table` (replay.js), in this tab: it sees the match as this tab's seat. */
function replayLink(table) {
  const q = new URLSearchParams({ table });
  if (API_PARAM) q.set("api", API_PARAM);
  return `replay.html?${q}`;
}

// ---- what this tab keeps of a table ----

const store = {
  // Keyed by the API too: a link with another `?api=` must never be handed this table's tokens.
  key: (id) => `kronikas|${API_BASE}|${id}`,
  get(id) {
    try {
      return JSON.parse(sessionStorage.getItem(this.key(id))) || {};
    } catch {
      return {};
    }
  },
  set(id, patch) {
    const next = { ...this.get(id), ...patch };
    sessionStorage.setItem(this.key(id), JSON.stringify(next));
    return next;
  },
  flash(msg) {
    if (msg === undefined) {
      const kept = sessionStorage.getItem("kronikas.flash");
      sessionStorage.removeItem("kronikas.flash");
      return kept ? JSON.parse(kept) : null;
    }
    sessionStorage.setItem("kronikas.flash", JSON.stringify(msg));
  },
};

const NAME_KEY = "kronikas.name"; // a convenience, not a secret: the last name typed in this browser
const lastName = () => localStorage.getItem(NAME_KEY) || "";

function errorMessage(err, hint) {
  if (!(err instanceof ApiError)) {
    console.warn(err);
    return { kind: "error", title: "Something went wrong", text: "Reload the page and try again." };
  }
  return { kind: "error", ...problemWords(err, hint) };
}

// ---- the countdown: every [data-deadline] element shows the time left by the server's clock ----

setInterval(() => {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-deadline]"))) {
    el.textContent = countdown(Date.parse(el.dataset.deadline), clock.now());
  }
}, 250);

function timer(deadline) {
  if (!deadline) return null;
  return h(
    "span",
    { class: "timer", title: "time left", dataset: { deadline } },
    countdown(Date.parse(deadline), clock.now()),
  );
}

// =================================================================================================
// The lobby

async function lobby() {
  document.title = "Krónikás";
  /** @type {{kinds: KindInfo[] | null, kind: string | null, tables: LobbyEntry[] | ApiError | null}} */
  const state = { kinds: null, kind: null, tables: null };
  const playBox = h("section", { class: "panel play-now", "aria-labelledby": "play-title" });
  const createBox = h("section", { class: "panel", "aria-labelledby": "create-title" });
  const listBox = h("section", { class: "panel", "aria-labelledby": "open-title" });
  replace(root, h("h1", { class: "visually-hidden" }, "Krónikás card tables"), playBox, createBox, listBox);

  /** Each game: what it is, a one-click game against the house, how to play and its rules. */
  function renderPlay(message) {
    const title = h("h2", { id: "play-title" }, "Play now");
    if (!state.kinds) {
      replace(playBox, title, messageBox(message) || h("p", { class: "quiet" }, "Loading the games…"));
      return;
    }
    const notice = h("div", {}, messageBox(message));
    replace(
      playBox,
      title,
      h("p", { class: "quiet" }, "Play at once against the computer (the house), or open a table for friends below."),
      notice,
      h(
        "ul",
        { class: "games" },
        state.kinds.map((k) => {
          const game = gameOf(k.kind);
          const house = Math.min(2, k.max_players - 1);
          const label = `Play ${gameTitle(k.kind)} against the house`;
          const go = h(
            "button",
            {
              type: "button",
              class: "primary",
              dataset: { key: `play-${k.kind}` },
              onclick: async () => {
                go.disabled = true;
                go.title = "Opening the table…";
                go.textContent = "Opening the table…";
                const fail = (msg) => {
                  replace(notice, messageBox(msg));
                  go.disabled = false;
                  go.removeAttribute("title");
                  go.textContent = label;
                };
                // A visitor who never typed a name plays as "Player", which is not remembered.
                const name = lastName();
                await createTable(k, {}, name || "Player", house, fail, { start: true, remember: !!name });
              },
            },
            label,
          );
          return h(
            "li",
            { class: "game" },
            h("h3", {}, gameTitle(k.kind), " ", h("span", { class: "quiet" }, `${k.min_players} to ${k.max_players} players`)),
            game ? h("p", {}, game.howTo[0]) : null,
            h("p", { class: "quiet" }, `You and ${plural(house, "house player")}; the game starts at once.`),
            go,
            game ? rulesBox(k.kind, game) : null,
          );
        }),
      ),
    );
  }

  /** The form for one kind; built again only when the kind changes, so typed values stay. */
  function renderCreate(message) {
    const title = h("h2", { id: "create-title" }, "Open a table");
    if (!state.kinds) {
      replace(createBox, title, messageBox(message) || h("p", { class: "quiet" }, "Loading the games…"));
      return;
    }
    const kind = state.kinds.find((k) => k.kind === state.kind) || state.kinds[0];
    const label = `Open a ${gameTitle(kind.kind)} table`;
    const notice = h("div", {}, messageBox(message));
    const submit = h("button", { type: "submit", class: "primary" }, label);
    const fail = (msg) => {
      replace(notice, messageBox(msg));
      submit.disabled = false;
      submit.removeAttribute("title");
      submit.textContent = label;
    };

    const form = h(
      "form",
      {
        class: "create",
        onsubmit: async (e) => {
          e.preventDefault();
          if (submit.disabled || !form.reportValidity()) return;
          const data = new FormData(form);
          let options;
          try {
            options = Object.fromEntries(
              kind.options
                .filter((o) => o.type in PARSERS)
                .map((o) => [o.name, PARSERS[o.type](data.get(o.name), o)]),
            );
          } catch (err) {
            return fail({ kind: "error", title: "Check the options", text: err.message });
          }
          submit.disabled = true;
          submit.title = "Opening the table…";
          submit.textContent = "Opening…";
          const name = String(data.get("name") || "").trim();
          await createTable(kind, options, name, Number(data.get("house") || 0), fail);
        },
      },
      h(
        "fieldset",
        { class: "kinds" },
        h("legend", {}, "Game"),
        state.kinds.map((k) =>
          h(
            "label",
            { class: "choice" },
            h("input", {
              type: "radio",
              name: "kind",
              value: k.kind,
              checked: k.kind === kind.kind,
              onchange: () => {
                state.kind = k.kind;
                renderCreate();
                createBox.querySelector(`input[value="${k.kind}"]`)?.focus();
              },
            }),
            ` ${gameTitle(k.kind)} `,
            h("span", { class: "quiet" }, `(${k.min_players}–${k.max_players} players)`),
          ),
        ),
      ),
      h(
        "fieldset",
        {},
        h("legend", {}, "Seats"),
        field(
          "Your name",
          h("input", {
            id: "opt-name",
            name: "name",
            maxlength: 32,
            value: lastName(),
            autocomplete: "nickname",
          }),
          "The name the others see. Leave it empty to open the table without sitting at it.",
        ),
        field(
          "House players",
          h("input", {
            id: "opt-house",
            name: "house",
            type: "number",
            min: 0,
            max: kind.max_players - 1,
            value: 1,
          }),
          "Seats the computer plays. With one, you can start at once; friends can still join until you start.",
        ),
      ),
      h(
        "details",
        { class: "more" },
        h("summary", {}, "More options"),
        h("fieldset", {}, h("legend", {}, "Options"), kind.options.map((o) => optionField(o, kind.kind))),
      ),
      notice,
      submit,
    );
    replace(createBox, title, form);
  }

  function renderList() {
    const refresh = h(
      "button",
      { type: "button", onclick: loadList, dataset: { key: "refresh" } },
      "Refresh",
    );
    let body;
    if (state.tables instanceof ApiError) body = messageBox(errorMessage(state.tables));
    else if (!state.tables) body = h("p", { class: "quiet" }, "Loading…");
    else if (!state.tables.length)
      body = h("p", { class: "quiet" }, "No table is waiting for players. Open one below.");
    else
      body = h(
        "ul",
        { class: "tables" },
        state.tables.map((t) =>
          h(
            "li",
            {},
            h("a", { href: pageLink(t.id) }, `${gameTitle(t.kind)} table ${t.id.slice(0, 6)}`),
            h(
              "span",
              { class: "quiet" },
              ` ${plural(t.players, "player")} seated, opened ${ago(t.created_at)}`,
            ),
          ),
        ),
      );
    replace(listBox, h("div", { class: "row" }, h("h2", { id: "open-title" }, "Open tables"), refresh), body);
  }

  async function loadList() {
    try {
      state.tables = (await api.lobby("open")).games;
    } catch (err) {
      state.tables = err;
    }
    renderList();
  }

  const flash = store.flash();
  renderPlay();
  renderCreate(flash);
  renderList();
  loadList();
  // The list keeps itself fresh while the lobby is on screen.
  setInterval(() => document.visibilityState === "visible" && loadList(), 15_000);
  try {
    state.kinds = await api.kinds();
  } catch (err) {
    renderPlay(errorMessage(err));
    return renderCreate(errorMessage(err));
  }
  renderPlay();
  renderCreate(flash);
}

/**
 * How to play a game, and its full rules from the service (`GET /v1/kinds/{kind}/rules`), read
 * when the person opens them.
 * @param {string} kind
 * @param {import("./games.js").GameModule} game
 * @param {{open?: boolean}} [options]
 */
function rulesBox(kind, game, { open = false } = {}) {
  const body = h("div", { class: "rules-text" }, h("p", { class: "quiet" }, "Loading the rules…"));
  let asked = false;
  const full = h(
    "details",
    {
      class: "rules",
      ontoggle: async () => {
        if (!full.open || asked) return;
        asked = true;
        try {
          replace(body, markdown(await api.rules(kind), { prefix: `rules-${kind}-`, top: 3 }));
        } catch (err) {
          asked = false;
          replace(body, messageBox(errorMessage(err)));
        }
      },
    },
    h("summary", {}, `The full rules of ${game.title}`),
    body,
  );
  return h(
    "details",
    { class: "how-to", open },
    h("summary", {}, `How to play ${game.title}`),
    h("ol", {}, game.howTo.map((line) => h("li", {}, line))),
    full,
  );
}

function ago(iso) {
  const s = Math.max(0, Math.round((clock.now() - Date.parse(iso)) / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return `${plural(Math.floor(s / 60), "minute")} ago`;
  return `${plural(Math.floor(s / 3600), "hour")} ago`;
}

// One input per option of /v1/kinds, so a new option shows without a change here.
const PARSERS = {
  integer: (raw, o) => (String(raw ?? "").trim() === "" ? (o.nullable ? null : o.default) : Number(raw)),
  boolean: (raw) => raw === "on",
  string: (raw, o) => String(raw ?? o.default),
  integer_list: (raw, o) => {
    const items = String(raw ?? "")
      .split(/[\s,;]+/)
      .filter(Boolean);
    if (items.some((x) => !/^\d+$/.test(x)))
      throw new Error(`${humanize(o.name)}: write whole numbers separated by commas.`);
    return items.map(Number);
  },
};

/** What the options every game has say, in a player's words (the clock belongs to the seats). */
const SHARED_WORDS = {
  turn_seconds: {
    label: "Seconds for each move",
    help: "When a player's time runs out, the computer plays for them until they are back.",
    empty: "Leave it empty for no clock.",
  },
  reveal: {
    label: "Show every card at the end",
    help: "Whether everyone sees every card of every deal once the match is over. Until then, each card is shown only to those who may know it.",
    choices: { never: "Never", match_end: "When the match ends" },
  },
};

/**
 * @param {OptionInfo} o
 * @param {string} kind
 */
function optionField(o, kind) {
  const id = `opt-${o.name}`;
  const words = gameOf(kind)?.optionWords?.[o.name] ?? SHARED_WORDS[o.name];
  let input;
  if (o.type === "boolean") {
    input = h("input", { id, name: o.name, type: "checkbox", checked: !!o.default });
  } else if (o.type === "integer") {
    input = h("input", {
      id,
      name: o.name,
      type: "number",
      inputmode: "numeric",
      step: 1,
      min: o.minimum,
      max: o.maximum,
      value: o.default ?? "",
      placeholder: o.nullable ? "none" : null,
      required: !o.nullable,
    });
  } else if (o.type === "string") {
    const choices = /** @type {string[]} */ (o.choices || []);
    input = h(
      "select",
      { id, name: o.name },
      choices.map((c) => h("option", { value: c, selected: c === o.default }, words?.choices?.[c] ?? c)),
    );
  } else if (o.type === "integer_list") {
    input = h("input", {
      id,
      name: o.name,
      value: (/** @type {number[] | null} */ (o.default) || []).join(", "),
      inputmode: "numeric",
      required: (o.min_items ?? 0) > 0,
    });
  } else {
    return null; // a type this page does not know: the table keeps its default
  }
  // The limits are on the input (min, max); the words say them for a person. The service's own
  // description is written for programs ("null: …"): only its first sentence is kept.
  const limits =
    o.type === "integer" && o.minimum != null && o.maximum != null
      ? `From ${o.minimum.toLocaleString("en")} to ${o.maximum.toLocaleString("en")}.`
      : "";
  const help = words?.help ?? (o.description || "").replace(/\s*\([^)]*\)|[;:] ?null:.*$/g, "");
  const empty = o.nullable ? (words?.empty ?? "Leave it empty for none.") : "";
  return field(words?.label ?? humanize(o.name), input, [help, limits, empty].filter(Boolean).join(" "));
}

function field(label, input, help) {
  const helpId = `help-${input.id}`;
  if (help) input.setAttribute("aria-describedby", helpId);
  const checkbox = input.type === "checkbox";
  return h(
    "div",
    { class: `field${checkbox ? " check" : ""}` },
    checkbox ? [input, h("label", { for: input.id }, label)] : [h("label", { for: input.id }, label), input],
    help ? h("p", { class: "help", id: helpId }, help) : null,
  );
}

/**
 * Open the table, sit at it (when a name was given), seat the house players, start it when asked
 * (`start`: a game against the house), then go there. `remember`: keep the name for next time.
 */
async function createTable(kind, options, name, house, fail, { start = false, remember = true } = {}) {
  let created;
  try {
    created = await api.create(kind.kind, options);
  } catch (err) {
    return fail(errorMessage(err));
  }
  const id = created.game.id;
  store.set(id, { hostToken: created.host_token });
  const notes = [];
  if (name) {
    if (remember) localStorage.setItem(NAME_KEY, name);
    try {
      const joined = await api.join(id, name);
      store.set(id, { token: joined.token, name });
    } catch (err) {
      notes.push(problemWords(err, "You could not sit down:").text);
    }
  }
  const taken = name ? [name] : [];
  for (let i = 1; i <= house; i++) {
    const houseName = freeHouseName(taken);
    taken.push(houseName);
    try {
      await api.addHouse(id, created.host_token, houseName);
    } catch (err) {
      notes.push(houseProblem(err));
      break;
    }
  }
  if (start && !notes.length) {
    try {
      await api.start(id, created.host_token);
    } catch (err) {
      notes.push(problemWords(err, "The game could not start:").text);
    }
  }
  if (notes.length) store.flash({ kind: "error", title: "The table is open", text: notes.join(" ") });
  location.assign(pageLink(id));
}

/**
 * The first "House N" that nobody at the table is called: two players may not share a name,
 * compared ignoring case (409 name_taken), and a person may well have called themselves "House 1".
 */
function freeHouseName(names) {
  const taken = new Set(names.map((n) => n.normalize("NFKC").toLowerCase()));
  for (let n = 1; ; n++) if (!taken.has(`house ${n}`)) return `House ${n}`;
}

function houseProblem(err) {
  if (err instanceof ApiError && (err.status === 404 || err.status === 405))
    return "This service cannot seat house players yet.";
  return problemWords(err, "The house could not sit down:").text;
}

// =================================================================================================
// A table

function table(id) {
  const kept = store.get(id);
  const T = {
    id,
    token: kept.token || null, // this tab's seat
    hostToken: kept.hostToken || null,
    view: /** @type {GameView | null} */ (null),
    etag: /** @type {number | null} */ (null), // the version of the view shown, from the ETag header
    lastSeen: kept.lastSeen ?? null, // the last event heard on the stream
    log: kept.log || [],
    message: store.flash(),
    busy: false,
    ui: {}, // the game module's choices (cards chosen), kept across renders
    stream: null,
    streamToken: null, // who the stream was opened for: the token, and the seat it held then
    streamSeat: null,
    houseUnavailable: false,
    transport: "socket", // "stream" once the socket cannot be used (socket.js): the stream and HTTP
    proofs: null, // the check of the openings this tab's viewer receives (proofs.js), and for whom
    proofsFor: undefined,
    // A command's answer whose view waits for its check until the events up to it are checked.
    answered: /** @type {{view: GameView, version: number, token: string | null} | null} */ (null),
  };

  const main = h("div", { class: "table-main" });
  const logList = h("ul", { class: "log", "aria-live": "polite", "aria-relevant": "additions" });
  // Beside the table: how to play (drawn once the kind is known), what happened, and the table's
  // details for whoever asks (its version is of no use to a player, and takes room).
  const helpBox = h("section", { class: "panel help-box", "aria-label": "How to play", hidden: true });
  const about = h("dl", { class: "about-list" });
  replace(
    root,
    main,
    h(
      "div",
      { class: "side" },
      helpBox,
      h(
        "section",
        { class: "panel log-box", "aria-labelledby": "log-title" },
        h("h2", { id: "log-title" }, "What happened"),
        logList,
      ),
      h(
        "details",
        { class: "panel about" },
        h("summary", {}, "About this table"),
        about,
      ),
    ),
  );
  let helpFor = null;
  // What the check of the openings says: a word when one fails (kept across renders), and how
  // many cards it has proven, beside the table's details.
  const proofWord = h("div", { dataset: { testid: "proofs" } });
  const provenText = h("dd", { dataset: { testid: "proven" } }, "0");
  for (const entry of T.log) logList.append(h("li", { dataset: { v: entry.v } }, entry.text));

  const names = () => Object.fromEntries((T.view?.players || []).map((p) => [p.seat, p.name]));
  const mySeat = () => T.view?.me?.seat ?? null;
  const who = (seat) =>
    seat == null ? "nobody" : seat === mySeat() ? "you" : (names()[seat] ?? `seat ${seat + 1}`);
  const Who = (seat) => {
    const w = who(seat);
    return w.charAt(0).toUpperCase() + w.slice(1);
  };
  const whose = (seat) => (seat === mySeat() ? "your" : `${who(seat)}’s`);
  const name = (seat) =>
    seat === mySeat() ? `${names()[seat]} (you)` : (names()[seat] ?? `seat ${seat + 1}`);

  // ---- the openings: every one this tab receives is checked ----

  /** The check for the viewer `token` is: a new one whenever the tab becomes another viewer. */
  function proofsOf(token) {
    if (T.proofsFor !== token) {
      T.proofsFor = token;
      replace(proofWord);
      const failed = (problem) => {
        if (T.proofsFor !== token) return;
        const problems = T.proofs.checker.problems;
        replace(
          proofWord,
          messageBox({
            kind: "error",
            title: "A card does not check against its deal",
            text: `${problem}${problems.length > 1 ? ` (and ${plural(problems.length - 1, "more problem")})` : ""}. The service may not be dealing fairly.`,
          }),
        );
      };
      T.proofs = openingsCheck(failed);
    }
    return T.proofs;
  }

  /** Count the cards proven once the checks asked so far are done. */
  function proven(proofs, check) {
    if (!proofs) {
      provenText.textContent = "none: this browser checks cards only on https";
      return;
    }
    check(proofs).then(() => {
      if (T.proofs === proofs) provenText.textContent = String(proofs.checker.proven);
    });
  }

  // ---- the view ----

  /**
   * Show a view fetched with `token`, unless a newer one is shown or the tab's seat changed.
   * A command's answer (`answered`) carries no openings: the events that opened its cards do
   * (docs/api.md), so its view is checked once the events up to its version are (`onEvent`).
   * @param {GameView} view
   * @param {number | null} etag
   * @param {string | null} token
   * @param {boolean} [answered]
   */
  function show(view, etag, token, answered = false) {
    if (token !== T.token) return false; // asked before a join or a leave: it sees another seat
    const version = etag ?? view.version;
    if (T.view && version < T.etag) return true; // an answer overtaken by a newer one
    const changed = !T.view || version !== T.etag;
    T.view = view;
    T.etag = version;
    if (changed && answered && (T.lastSeen ?? 0) < version) T.answered = { view, version, token };
    else if (changed) proven(proofsOf(token), (proofs) => proofs.view(view));
    if (T.lastSeen != null && version >= T.lastSeen) clearTimeout(soon); // nothing left to fetch
    followIdentity();
    if (changed) render();
    return true;
  }

  /** This tab's token holds no seat any more (401): forget it, watch, and tell the person. */
  function lostSeat(token) {
    if (!token || token !== T.token) return false;
    T.token = null;
    T.view = null; // the seat's view: the spectator's replaces it whatever its version
    store.set(T.id, { token: null });
    T.message = {
      kind: "error",
      title: "Your seat is gone",
      text: "This table no longer knows this tab’s seat (a player who leaves before the start gives it up); you are watching.",
    };
    restartStream();
    return true;
  }

  let loading = null;
  let again = false;
  let soon = null;
  /** Fetch the view again; calls while one is on the way make one more fetch after it. */
  function refresh() {
    if (loading) {
      again = true;
      return loading;
    }
    loading = (async () => {
      do {
        again = false;
        const token = T.token;
        try {
          const r = await api.view(T.id, token);
          const mended = T.message?.transient; // the message of a failed refresh, mended now
          if (mended) T.message = null;
          if (!show(r.body, r.etag, token)) again = true;
          else if (mended) render();
        } catch (err) {
          if (token !== T.token) {
            again = true; // the seat changed meanwhile: ask again with the new token
          } else if (err.status === 401 && lostSeat(token)) {
            again = true; // carry on as a spectator
          } else {
            T.message = { ...errorMessage(err), transient: true };
            render();
          }
        }
      } while (again);
    })().finally(() => (loading = null));
    return loading;
  }
  const refreshSoon = () => {
    clearTimeout(soon);
    // One fetch for the events of one command; over the socket, only when no view follows them.
    soon = setTimeout(refresh, T.transport === "socket" ? 1000 : 30);
  };

  // ---- the stream ----

  /** @param {GameEvent} event */
  function onEvent(event) {
    clock.fromEvent(event.at);
    if (T.lastSeen != null && event.version <= T.lastSeen) return;
    T.lastSeen = event.version;
    // Events of a stream opened for another viewer (the tab joined or left meanwhile) are not its.
    if (T.streamToken === T.token) proven(proofsOf(T.token), (proofs) => proofs.event(event));
    const held = T.answered;
    if (held && event.version >= held.version) {
      T.answered = null;
      if (held.token === T.token && T.streamToken === T.token)
        proven(proofsOf(held.token), (proofs) => proofs.view(held.view));
    }
    const text = describe(event, names(), mySeat());
    T.log.unshift({ v: event.version, text });
    T.log.length = Math.min(T.log.length, 40);
    logList.prepend(h("li", { dataset: { v: event.version } }, text));
    while (logList.children.length > 40) logList.lastChild.remove();
    store.set(T.id, { lastSeen: T.lastSeen, log: T.log });
    if (!T.view || event.version > T.etag) {
      refreshSoon();
    }
  }

  /**
   * Follow the table as who this tab is now: a stream opened for another token or another seat
   * (the seats moved down) is opened again, so no frame is ever read for a seat not ours.
   */
  function followIdentity() {
    if (T.stream && (T.streamToken !== T.token || T.streamSeat !== (T.token ? mySeat() : null)))
      restartStream();
  }

  function restartStream() {
    T.stream?.stop();
    const after = T.lastSeen ?? Math.max(0, (T.view?.version ?? 0) - 12);
    let connections = 0;
    const token = T.token;
    T.streamToken = token;
    T.streamSeat = token ? mySeat() : null;
    connection.dataset.transport = T.transport; // which one the page follows by (tests read it)
    const onState = (state, detail) => {
      connection.textContent = {
        connecting: "connecting…",
        live: "live",
        waiting: `reconnecting in ${Math.round((detail?.delay ?? 0) / 1000)} s`,
        stopped: "not following",
      }[state];
      connection.className = `connection ${state}`;
      // After a drop the view may have moved on (the socket's `welcome` brings it).
      if (state === "live" && connections++ > 0 && T.transport !== "socket") refresh();
      if (state === "stopped" && detail instanceof ApiError) {
        // The stream ended and reconnecting was refused: a 401 means the seat is gone.
        if (detail.status === 401 && lostSeat(token)) {
          refresh();
          return;
        }
        T.message = errorMessage(detail);
        render();
      }
    };
    if (T.transport === "socket") {
      T.stream = seatSocket(T.id, {
        token,
        after,
        onEvent,
        onView: (view, version) => show(view, version, token),
        onState,
        onFallback: () => {
          T.transport = "stream";
          T.stream = null;
          restartStream();
        },
      });
    } else {
      T.stream = follow(T.id, { token, after, onEvent, onState });
    }
  }

  // ---- moves ----

  async function send(command, hint) {
    if (T.busy || !T.view) return;
    T.busy = true;
    try {
      const token = T.token;
      const link = T.stream;
      const r =
        link && "command" in link && T.streamToken === token
          ? await link.command(command, T.etag) // over the socket
          : await api.command(T.id, token, T.etag, command);
      T.message = null;
      if (command.type === "leave" && r.body.game.status === "open") {
        // Before the start, leaving frees the seat and voids its token: watch from here on.
        T.token = null;
        store.set(T.id, { token: null });
        T.message = { kind: "info", text: "You left the table." };
        T.view = null;
        restartStream();
        refresh();
        return;
      }
      show(r.body.game, r.etag, token, true);
      render();
    } catch (err) {
      T.message = errorMessage(err, hint);
      render();
      if (err.code === "version_mismatch" || err.code === "not_your_turn") refresh();
    } finally {
      T.busy = false;
    }
  }

  async function join(nameInput) {
    const wanted = nameInput.value.trim();
    if (!wanted) {
      T.message = { kind: "error", title: "Your name", text: "Write the name the others will see." };
      return render();
    }
    localStorage.setItem(NAME_KEY, wanted);
    try {
      const joined = await api.join(T.id, wanted);
      T.token = joined.token;
      store.set(T.id, { token: joined.token, name: wanted });
      T.message = null;
      T.view = null; // the spectator's view: the seat's replaces it whatever its version
      show(joined.game, joined.game.version, T.token); // and it follows the stream as the seat
      render();
    } catch (err) {
      T.message = errorMessage(err);
      render();
      refresh();
    }
  }

  async function start() {
    try {
      await api.start(T.id, T.hostToken);
      T.message = null;
      refresh();
    } catch (err) {
      T.message = errorMessage(err);
      render();
    }
  }

  async function addHouse() {
    try {
      await api.addHouse(T.id, T.hostToken, freeHouseName(T.view.players.map((p) => p.name)));
      T.message = null;
      refresh();
    } catch (err) {
      if (err.status === 404 || err.status === 405) T.houseUnavailable = true;
      T.message = { kind: "error", title: err.title || "House player", text: houseProblem(err) };
      render();
    }
  }

  // ---- drawing ----

  function render() {
    const view = T.view;
    if (!view) {
      replace(main, messageBox(T.message) || h("p", { class: "quiet" }, "Loading the table…"));
      return;
    }
    const game = gameOf(view.kind);
    const legal = view.legal || [];
    const gameLegal = legal.filter((type) => !SEAT_MOVES.includes(type));
    document.title = `${gameTitle(view.kind)} · Krónikás`;
    main.dataset.version = view.version;
    main.dataset.status = view.status;
    if (game && helpFor !== view.kind) {
      helpFor = view.kind;
      replace(helpBox, rulesBox(view.kind, game, { open: view.status !== "finished" }));
      helpBox.hidden = false;
    }
    replace(
      about,
      h("dt", {}, "Table"),
      h("dd", {}, T.id),
      h("dt", {}, "Version"),
      h("dd", { dataset: { testid: "version" } }, String(view.version)),
      h("dt", { title: "Cards this tab was shown, each checked against its deal’s commitment" }, "Cards proven"),
      provenText,
    );
    const ctx = {
      view,
      legal: gameLegal,
      me: mySeat(),
      who,
      Who,
      whose,
      name,
      timer: () => timer(view.deadline),
      ui: T.ui,
      send,
      rerender: render,
      message: (text) => {
        T.message = { kind: "error", title: "Not yet", text };
        render();
      },
    };
    // While a seat plays, messages go next to its moves, where the eye is; else at the top.
    const atHand = view.status === "playing" && (view.me?.hand?.length ?? 0) > 0 && !!game;
    ctx.notice = atHand ? messageBox(T.message) : null;
    replace(
      main,
      h(
        "section",
        { class: "panel head", "aria-labelledby": "table-title" },
        h("h1", { id: "table-title" }, `${gameTitle(view.kind)}`),
        headline(view),
        proofWord,
        view.status === "open" ? share() : null,
      ),
      atHand ? null : messageBox(T.message),
      view.status === "open" ? seating(view) : null,
      view.status === "finished" ? finished(view) : null,
      players(view, game),
      view.status !== "open" && game ? game.render(ctx) : null,
      game ? null : plainTable(view),
      game?.results?.(ctx),
      seatMoves(view, legal),
    );
  }

  /** A table of a kind this page has no module for: who is on turn; players and log say the rest. */
  /** @param {GameView} view */
  function plainTable(view) {
    const turn =
      view.status !== "playing" || view.turn == null
        ? null
        : view.turn === mySeat()
          ? "Your turn."
          : `Waiting for ${who(view.turn)}.`;
    return h(
      "section",
      { class: "panel middle", "aria-label": "The table", dataset: { testid: "plain-table" } },
      h(
        "p",
        { class: "quiet" },
        `This page cannot draw a ${gameTitle(view.kind)} table yet: it shows the players, the status and what happened.`,
      ),
      turn
        ? h("p", { class: "status", dataset: { testid: "status" } }, turn, " ", timer(view.deadline))
        : null,
    );
  }

  /** @param {GameView} view */
  function headline(view) {
    const game = gameOf(view.kind);
    const round = view.round ? (game?.roundText?.(view) ?? `Round ${view.round}`) : "";
    const status =
      { open: "waiting for players", playing: "playing", finished: "finished" }[view.status] || view.status;
    return h(
      "p",
      { class: "quiet" },
      [round, status, view.seeded ? "seeded (not a fair deal)" : ""].filter(Boolean).join(" · "),
      view.me ? ` · you are ${view.players[view.me.seat]?.name}` : "",
    );
  }

  function share() {
    const url = new URL(pageLink(T.id), location.href).href;
    const input = h("input", { id: "share", readonly: true, value: url, onfocus: (e) => e.target.select() });
    return h(
      "div",
      { class: "share" },
      h("label", { for: "share" }, "Link to share"),
      h(
        "div",
        { class: "row" },
        input,
        h(
          "button",
          {
            type: "button",
            dataset: { key: "copy" },
            onclick: async () => {
              try {
                await navigator.clipboard.writeText(url);
                T.message = { kind: "info", text: "The link is copied." };
              } catch {
                input.select();
                T.message = { kind: "info", text: "Select the link and copy it." };
              }
              render();
            },
          },
          "Copy",
        ),
      ),
    );
  }

  /** @param {GameView} view */
  function seating(view) {
    const kind = view.kind;
    const parts = [];
    if (!view.me && T.token == null) {
      const input = h("input", {
        id: "join-name",
        name: "name",
        maxlength: 32,
        required: true,
        value: lastName(),
        autocomplete: "nickname",
      });
      parts.push(
        h(
          "form",
          {
            class: "join row",
            onsubmit: (e) => {
              e.preventDefault();
              join(input);
            },
          },
          h("label", { for: "join-name" }, "Your name"),
          input,
          h("button", { type: "submit", class: "primary" }, "Join"),
        ),
      );
    }
    if (T.hostToken) {
      const enough = view.players.length >= 2;
      parts.push(
        h(
          "div",
          { class: "actions" },
          h(
            "button",
            {
              type: "button",
              class: "primary",
              dataset: { key: "start" },
              disabled: !enough,
              title: enough ? null : "At least two players are needed.",
              "aria-describedby": enough ? null : "why-start",
              onclick: start,
            },
            "Start",
          ),
          T.houseUnavailable
            ? null
            : h(
                "button",
                { type: "button", dataset: { key: "house" }, onclick: addHouse },
                "Add a house player",
              ),
          enough
            ? null
            : h(
                "span",
                { class: "quiet", id: "why-start" },
                "At least two players are needed: add a house player, or share the link.",
              ),
        ),
      );
    } else {
      parts.push(
        h("p", { class: "quiet" }, `The host starts the ${gameTitle(kind)} game when everyone is seated.`),
      );
    }
    return h("section", { class: "panel seating", "aria-label": "Seats" }, parts);
  }

  /** @param {GameView} view */
  function finished(view) {
    const won = view.winners.map(who);
    const verb = won.length === 1 && won[0] !== "you" ? "wins" : "win";
    const text = won.length ? `${listWords(won)} ${verb}!` : "";
    return h(
      "section",
      { class: "panel winners", role: "status" },
      h("h2", {}, `The match is over. ${text.charAt(0).toUpperCase()}${text.slice(1)}`),
      h(
        "p",
        { class: "row" },
        h("a", { href: replayLink(T.id) }, "Replay the match"),
        h("a", { href: pageLink(null) }, "Open another table"),
      ),
    );
  }

  /**
   * @param {GameView} view
   * @param {import("./games.js").GameModule | null} game
   */
  function players(view, game) {
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
              class: `player${onTurn ? " turn" : ""}${p.seat === mySeat() ? " me" : ""}${p.out ? " out" : ""}`,
              "aria-current": onTurn ? "true" : null,
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
            onTurn ? timer(view.deadline) : null,
          );
        }),
      ),
    );
  }

  /** Moves of the seat itself rather than of the game (issue 16): leave, and back after a timeout. */
  function seatMoves(view, legal) {
    if (!legal.includes("leave") && !legal.includes("back")) return null;
    const away = view.players[mySeat()]?.away;
    return h(
      "section",
      { class: "panel actions seat-moves", "aria-label": "Your seat" },
      away
        ? h("p", { class: "status" }, "Your time ran out: the house plays for you until you are back.")
        : null,
      legal.includes("back")
        ? h(
            "button",
            {
              type: "button",
              class: "primary",
              dataset: { key: "back" },
              onclick: () => send({ type: "back" }),
            },
            "I’m back",
          )
        : null,
      legal.includes("leave")
        ? h(
            "button",
            {
              type: "button",
              dataset: { key: "leave" },
              onclick: () => {
                const final = view.status !== "open";
                if (!final || confirm("Leave this match? The house plays your seat to the end."))
                  send({ type: "leave" });
              },
            },
            "Leave the table",
          )
        : null,
    );
  }

  render();
  refresh().then(restartStream);
  addEventListener("pagehide", () => T.stream?.stop());
}

// =================================================================================================

/** @type {HTMLAnchorElement} */ (document.getElementById("home")).href = pageLink(null);
document.getElementById("games").textContent = listWords(titles);
/** @type {HTMLAnchorElement} */ (document.getElementById("api-docs")).href = `${API_BASE}/schema`;
/** @type {HTMLAnchorElement} */ (document.getElementById("arena")).href = API_PARAM
  ? `arena.html?${new URLSearchParams({ api: API_PARAM })}`
  : "arena.html";
const tableId = params.get("table");
if (tableId) table(tableId);
else lobby();
