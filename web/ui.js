// Small DOM helpers, card pictures and names, and refusals in words. No framework: each render
// builds its part of the page again from the view, which is small.

// @ts-check: type-checked against the client generated from the OpenAPI document (make test).

/**
 * `h("button", {class: "x", onclick: f}, "text", child)` → an element. Props starting with "on"
 * are listeners, `dataset`/`aria` objects are spread, false/null props and children are skipped.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value == null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "class") el.className = value;
    else if (key in el && typeof value !== "string") el[key] = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/**
 * Replace the content of `root` with `children`, keeping the keyboard focus on the element with
 * the same `data-key` (a re-render must not throw a keyboard player back to the top).
 */
export function replace(root, ...children) {
  const key = /** @type {HTMLElement | null | undefined} */ (document.activeElement?.closest?.("[data-key]"))
    ?.dataset.key;
  const hadFocus = root.contains(document.activeElement);
  root.replaceChildren(...children.flat(Infinity).filter((c) => c != null && c !== false));
  if (hadFocus && key) root.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus({ preventScroll: true });
}

// ---- cards ----

const RANKS = { 7: "Seven", 8: "Eight", 9: "Nine", 10: "Ten", U: "Under", O: "Over", K: "King", A: "Ace" };
const RANKS_PLURAL = {
  7: "sevens",
  8: "eights",
  9: "nines",
  10: "tens",
  U: "Unders",
  O: "Overs",
  K: "Kings",
  A: "Aces",
};
const SUITS = { H: "Hearts", B: "Bells", L: "Leaves", A: "Acorns" };

/** "AH" → "Ace of Hearts": a card in words, for its picture, its button and screen readers. */
export function cardName(code) {
  if (code === "XC") return "Coloured Chronicler";
  if (code === "XP") return "Pale Chronicler";
  const rank = RANKS[code.slice(0, -1)];
  const suit = SUITS[code.slice(-1)];
  return rank && suit ? `${rank} of ${suit}` : "an unknown card";
}

/** "AH" → "the Ace of Hearts", for sentences. */
export function cardWords(code) {
  return `the ${cardName(code)}`;
}

export function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** "7" → "sevens", for "2 cards as sevens". */
export function rankPlural(rank) {
  return RANKS_PLURAL[rank] || rank;
}

/** "house_pause_seconds" → "House pause seconds": a name from the wire, in words. */
export function humanize(name) {
  const words = String(name).replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function plural(n, one, many = `${one}s`) {
  return `${n} ${n === 1 ? one : many}`;
}

const CARDS = new URL("cards/", import.meta.url);

/**
 * A card's picture; `code` null draws the back.
 * @param {string | null} code
 * @param {{size?: string}} [options]
 */
export function cardImage(code, { size = "" } = {}) {
  return h("img", {
    class: `card ${size}`.trim(),
    src: new URL(`${code || "back"}.svg`, CARDS).href,
    alt: code ? cardName(code) : "a card face down",
    draggable: "false",
  });
}

/**
 * A row of cards, labelled for screen readers.
 * @param {string[]} codes
 * @param {{label?: string, size?: string}} [options]
 */
export function cardRow(codes, { label, size = "" } = {}) {
  return h(
    "ul",
    { class: "cards", "aria-label": label },
    codes.map((c) => h("li", {}, cardImage(c, { size }))),
  );
}

/**
 * A card a player can choose: a toggle button (Enter and Space press it, as every button), its
 * accessible name the card's, its state in aria-pressed.
 */
export function cardToggle(code, { pressed, onToggle, key, disabled = false }) {
  return h(
    "button",
    {
      type: "button",
      class: "card-toggle",
      "aria-pressed": pressed ? "true" : "false",
      "aria-label": cardName(code),
      dataset: { key, card: code },
      disabled,
      onclick: onToggle,
    },
    cardImage(code),
  );
}

// ---- moves ----

/**
 * A row of move buttons. A move that cannot be made now is greyed out and says why: its reason
 * is shown under the buttons and is the button's description (aria-describedby), so a person
 * who sees it greyed out, or hears it read out, learns what is missing.
 * @param {string} label the group's name, for screen readers
 * @param {{key: string, label: string, why?: string | null, cls?: string, onclick: () => void}[]} moves
 * @param {{sticky?: boolean}} [options]
 */
export function actionBar(label, moves, { sticky = false } = {}) {
  const reasons = [];
  const buttons = moves.map((m) => {
    const why = m.why || null;
    const id = `why-${m.key}`;
    if (why) reasons.push(h("span", { id, class: "why-item" }, h("strong", {}, m.label), `: ${why}`));
    return h(
      "button",
      {
        type: "button",
        class: m.cls || "",
        dataset: { key: m.key },
        disabled: !!why,
        title: why,
        "aria-describedby": why ? id : null,
        onclick: m.onclick,
      },
      m.label,
    );
  });
  return h(
    "div",
    { class: `actions${sticky ? " sticky" : ""}`, role: "group", "aria-label": label },
    h("div", { class: "buttons" }, buttons),
    reasons.length ? h("p", { class: "why" }, reasons) : null,
  );
}

// ---- refusals ----

const HINTS = {
  not_your_turn: "It is not your turn for that.",
  illegal_move: "That move is not allowed.",
  version_mismatch: "The table moved on before your move arrived. Look at it again and choose anew.",
  game_over: "The match is over.",
  game_not_open: "This table has started already.",
  game_full: "Every seat at this table is taken.",
  rate_limited: "Too many requests at once.",
  unauthorized: "This tab’s seat is not known at this table.",
  forbidden: "That is not yours to do.",
  not_found: "There is no such table (it may have expired).",
  unavailable: "The service is busy or down for a moment. Try again.",
};

/**
 * An ApiError in words: `{title, text}`. The service's `detail` says why; the page puts a short
 * hint before it. Never the raw body.
 */
export function problemWords(err, hint) {
  const title = err.title || "Something went wrong";
  let detail = err.detail || "";
  if (err.code === "rate_limited" && err.retryAfter)
    detail = `Wait ${plural(err.retryAfter, "second")} and try again.`;
  // A hint for a malformed request replaces the validator's detail, which is written for programs.
  if (hint && err.code === "invalid_request") return { title, text: hint };
  const lead = hint || HINTS[err.code] || "";
  return { title, text: [lead, detail].filter(Boolean).join(" ") };
}

/** A message box: role=alert for refusals (read out at once), role=status for news. */
export function messageBox(msg) {
  if (!msg) return null;
  return h(
    "div",
    { class: `message ${msg.kind || "info"}`, role: msg.kind === "error" ? "alert" : "status" },
    msg.title ? h("strong", {}, msg.title, msg.text ? ": " : "") : null,
    msg.text || "",
  );
}

/** m:ss (or h:mm:ss) left until `deadlineMs` of the server's clock `nowMs`. */
export function countdown(deadlineMs, nowMs) {
  // Rounded: the server's clock is known to within a fraction of a second, not better.
  const left = Math.max(0, Math.round((deadlineMs - nowMs) / 1000));
  const s = left % 60;
  const m = Math.floor(left / 60) % 60;
  const hours = Math.floor(left / 3600);
  const ss = String(s).padStart(2, "0");
  return hours ? `${hours}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
