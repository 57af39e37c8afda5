// A small Markdown reader for the games' rules (`GET /v1/kinds/{kind}/rules`): headings,
// paragraphs, lists (nested by indentation), tables, code blocks, and inline code, bold, italics
// and links. It builds elements, never HTML from the text, so the text cannot inject anything.
// Links within the rules lead to their headings; a link to another page keeps its words only
// (the rules name the service's docs, which this page does not carry).

// @ts-check

import { h } from "./ui.js";

/** "Clocks, leaving and the house" → "clocks-leaving-and-the-house", as the rules' links write it. */
export function slug(text) {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, "")
    .trim()
    .replace(/\s/g, "-");
}

/**
 * The Markdown `text` as elements. `prefix` makes the headings' ids unique on the page; a heading
 * `#` becomes `<h{top}>`, `##` the next level, and so on.
 * @param {string} text
 * @param {{prefix?: string, top?: number}} [options]
 * @returns {HTMLElement[]}
 */
export function markdown(text, { prefix = "md-", top = 3 } = {}) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const inline = (s) => spans(s, prefix);
  const out = [];
  let i = 0;
  const isList = (line) => /^\s*([-*+]|\d+[.)])\s+/.test(line);
  const isTable = (at) => /^\s*\|/.test(lines[at] ?? "") && /^\s*\|?\s*:?-{3,}/.test(lines[at + 1] ?? "");
  const startsBlock = (at) =>
    /^\s*$/.test(lines[at]) || /^#{1,6}\s/.test(lines[at]) || /^```/.test(lines[at]) || isTable(at);

  while (i < lines.length) {
    const line = lines[i];
    if (/^\s*$/.test(line)) {
      i++;
    } else if (/^```/.test(line)) {
      const code = [];
      for (i++; i < lines.length && !/^```/.test(lines[i]); i++) code.push(lines[i]);
      i++;
      out.push(h("pre", {}, h("code", {}, code.join("\n"))));
    } else if (/^#{1,6}\s/.test(line)) {
      const [, marks, title] = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line) || ["", "#", line];
      const level = Math.min(6, top + marks.length - 1);
      out.push(h(`h${level}`, { id: prefix + slug(title) }, inline(title)));
      i++;
    } else if (isTable(i)) {
      const rows = [];
      for (; i < lines.length && /^\s*\|/.test(lines[i]); i++) rows.push(cells(lines[i]));
      const [head, , ...body] = rows;
      out.push(
        h(
          "div",
          { class: "md-table" },
          h(
            "table",
            {},
            h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, inline(c))))),
            h(
              "tbody",
              {},
              body.map((r) => h("tr", {}, r.map((c) => h("td", {}, inline(c))))),
            ),
          ),
        ),
      );
    } else if (isList(line)) {
      const items = [];
      for (; i < lines.length; i++) {
        const l = lines[i];
        if (/^\s*$/.test(l)) {
          // A blank line ends the list unless the next line goes on with it.
          if (isList(lines[i + 1] ?? "") || /^\s{2,}\S/.test(lines[i + 1] ?? "")) continue;
          break;
        }
        const m = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(l);
        if (m) items.push({ indent: m[1].length, ordered: /\d/.test(m[2]), text: m[3] });
        else if (/^\s/.test(l) && items.length) items[items.length - 1].text += ` ${l.trim()}`;
        else break;
      }
      out.push(list(items, inline));
    } else {
      const para = [];
      for (; i < lines.length && !startsBlock(i) && !(para.length && isList(lines[i])); i++)
        para.push(lines[i].trim());
      out.push(h("p", {}, inline(para.join(" "))));
    }
  }
  return out;
}

function cells(row) {
  return row
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => c.trim());
}

/** Items with their indentation → nested lists. */
function list(items, inline) {
  const root = { el: null, indent: -1, children: [] };
  const stack = [root];
  for (const item of items) {
    while (stack.length > 1 && stack[stack.length - 1].indent >= item.indent) stack.pop();
    const node = { ...item, children: [] };
    stack[stack.length - 1].children.push(node);
    stack.push(node);
  }
  const build = (nodes) =>
    h(
      nodes[0]?.ordered ? "ol" : "ul",
      {},
      nodes.map((n) => h("li", {}, inline(n.text), n.children.length ? build(n.children) : null)),
    );
  return build(root.children);
}

const INLINE = /(`+)([^`]+?)\1|\*\*(.+?)\*\*|\*([^*\s][^*]*?)\*|\[([^\]]+)\]\(([^)\s]*)\)/g;

/** A line's inline marks as nodes: code, bold, italics, links. */
function spans(text, prefix) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    if (m[2] != null) out.push(h("code", {}, m[2]));
    else if (m[3] != null) out.push(h("strong", {}, spans(m[3], prefix)));
    else if (m[4] != null) out.push(h("em", {}, spans(m[4], prefix)));
    else {
      const [words, href] = [m[5], m[6]];
      out.push(href.startsWith("#") ? h("a", { href: `#${prefix}${href.slice(1)}` }, spans(words, prefix)) : words);
    }
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
