"""Write the web table's card pictures: `python3 tools/gen_cards.py` → web/cards/*.svg.

The 32 cards of the Hungarian deck, the two Chroniclers and a back, drawn from a few shapes of our
own. Every file is plain SVG 1.1 (no fonts, scripts or links to fetch), with a <title> that names
the card and its wire code, so it reads the same as an <img> in any browser, offline.
Run it again after a change and commit what it writes; the output is deterministic.
"""

from __future__ import annotations

import sys
from pathlib import Path

W, H = 200, 300
"""A card is 2:3; corners and pips are sized to stay readable at about 50 px wide (a phone)."""

SUITS = {
    # code: (name, fill, dark line and text colour)
    "H": ("hearts", "#d32f2f", "#b71c1c"),
    "B": ("bells", "#f2b705", "#8a5a00"),
    "L": ("leaves", "#43a047", "#1b5e20"),
    "A": ("acorns", "#a86b32", "#5a3412"),
}
RANKS = {
    "7": "Seven",
    "8": "Eight",
    "9": "Nine",
    "10": "Ten",
    "U": "Under",
    "O": "Over",
    "K": "King",
    "A": "Ace",
}

LINE = 'stroke="{dark}" stroke-width="4"'
"""The outline every suit symbol is drawn with."""

# Each suit symbol is drawn in a 100 × 100 box, centred on (50, 50).
SYMBOLS = {
    "H": (
        '<path d="M50 90C22 68 6 52 6 32C6 17 17 7 30 7C39 7 46 12 50 20'
        f'C54 12 61 7 70 7C83 7 94 17 94 32C94 52 78 68 50 90Z" fill="{{fill}}" {LINE}/>'
    ),
    "B": (
        '<circle cx="50" cy="15" r="8" fill="none" stroke="{dark}" stroke-width="5"/>'
        f'<circle cx="50" cy="57" r="36" fill="{{fill}}" {LINE}/>'
        f'<path d="M15 49Q50 63 85 49M16 59Q50 73 84 59" fill="none" {LINE}/>'
        '<path d="M50 78V93" stroke="{dark}" stroke-width="5"/>'
        '<circle cx="50" cy="78" r="6" fill="{dark}"/>'
    ),
    "L": (
        '<path d="M50 4C70 22 93 40 88 63C84 79 66 84 50 73C34 84 16 79 12 63C7 40 30 22 50 4Z"'
        f' fill="{{fill}}" {LINE}/>'
        '<path d="M50 14V97M50 38L32 28M50 38L68 28M50 54L27 46M50 54L73 46"'
        f' fill="none" {LINE} stroke-linecap="round"/>'
    ),
    "A": (
        '<path d="M50 22L55 5" stroke="{dark}" stroke-width="6" stroke-linecap="round"/>'
        f'<path d="M27 50C27 74 38 92 50 96C62 92 73 74 73 50Z" fill="{{fill}}" {LINE}/>'
        '<path d="M18 50C18 28 82 28 82 50Z" fill="{dark}"/>'
        '<path d="M28 36L40 48M40 32L54 48M54 31L68 46M34 48L46 33M48 48L62 32M62 48L73 38"'
        ' stroke="{fill}" stroke-width="3"/>'
    ),
}

# Pip centres of the number cards: two columns, and a few in the middle between them.
_COLUMNS = [(x, y) for y in (75, 150, 225) for x in (75, 125)]
PIPS = {
    "7": [*_COLUMNS, (100, 113)],
    "8": [*_COLUMNS, (100, 112), (100, 188)],
    "9": [(x, y) for y in (75, 125, 175, 225) for x in (75, 125)] + [(100, 150)],
    "10": [(x, y) for y in (75, 125, 175, 225) for x in (75, 125)] + [(100, 100), (100, 200)],
}

FONT = (
    "font-family=\"'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif\""
    ' font-weight="bold"'
)


def card_name(code: str) -> str:
    """The words a screen reader says for a card: 'Ace of hearts (AH)'."""
    if code == "XC":
        return "Coloured Chronicler (XC)"
    if code == "XP":
        return "Pale Chronicler (XP)"
    return f"{RANKS[code[:-1]]} of {SUITS[code[-1]][0]} ({code})"


def symbol(cx: float, cy: float, size: float, flip: bool = False) -> str:
    """The card's suit symbol (defined once as #s), centred on (cx, cy), `size` wide."""
    rotate = " rotate(180 50 50)" if flip else ""
    move = f"translate({cx - size / 2:g} {cy - size / 2:g}) scale({size / 100:g}){rotate}"
    return f'<use href="#s" xlink:href="#s" transform="{move}"/>'


def text(x: float, y: float, size: int, colour: str, words: str) -> str:
    return (
        f'<text x="{x:g}" y="{y:g}" text-anchor="middle" font-size="{size}" {FONT}'
        f' fill="{colour}">{words}</text>'
    )


def frame(title: str, body: str, defs: str = "", border: str = "#333") -> str:
    return f"""<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" \
viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img">
<title>{title}</title>
<defs>{defs}</defs>
<rect x="2" y="2" width="{W - 4}" height="{H - 4}" rx="16" fill="#fffdf7" stroke="{border}" \
stroke-width="3"/>
{body}
</svg>
"""


def corners(index: str, colour: str, with_suit: bool) -> str:
    """The index in the top-left corner, and again upside down in the bottom-right one."""
    size = {1: 52, 2: 40}.get(len(index), 34) if with_suit else 32
    one = text(31, 53, size, colour, index) + (symbol(31, 80, 30) if with_suit else "")
    return f'<g>{one}</g>\n<g transform="rotate(180 {W / 2:g} {H / 2:g})">{one}</g>'


def figure(rank: str, suit: str) -> str:
    """Under, Over and King: a standing figure; the Under holds the suit low, the Over high."""
    _, fill, dark = SUITS[suit]
    panel = f'fill="{fill}" fill-opacity="0.14" stroke="{dark}" stroke-width="2"'
    parts = [
        f'<rect x="46" y="54" width="108" height="192" rx="10" {panel}/>',
        f'<path d="M72 150Q100 138 128 150L142 236H58Z" fill="{fill}" stroke="{dark}"'
        ' stroke-width="3"/>',
        f'<circle cx="100" cy="128" r="18" fill="#f6d7b8" stroke="{dark}" stroke-width="3"/>',
    ]
    arm = f'stroke="{dark}" stroke-width="6" stroke-linecap="round"'
    if rank == "K":
        parts.append(
            '<path d="M80 112L82 90L91 102L100 86L109 102L118 90L120 112Z" fill="#f2b705"'
            f' stroke="{dark}" stroke-width="3" stroke-linejoin="round"/>'
        )
        parts.append(symbol(100, 190, 40))
    elif rank == "O":
        parts += [f'<path d="M128 150L142 104" {arm}/>', symbol(140, 84, 40)]
    else:
        parts += [f'<path d="M72 152L60 206" {arm}/>', symbol(66, 222, 40)]
    return "\n".join(parts)


def ace(suit: str) -> str:
    dark = SUITS[suit][2]
    ring = f'fill="none" stroke="{dark}" stroke-width="3" stroke-dasharray="6 6"'
    return f'<circle cx="100" cy="150" r="70" {ring}/>\n{symbol(100, 150, 104)}'


def suit_card(rank: str, suit: str) -> str:
    _, fill, dark = SUITS[suit]
    defs = f'<g id="s">{SYMBOLS[suit].format(fill=fill, dark=dark)}</g>'
    if rank in PIPS:
        middle = "\n".join(symbol(x, y, 32, flip=y > 150) for x, y in PIPS[rank])
    elif rank == "A":
        middle = ace(suit)
    else:
        middle = figure(rank, suit)
    return frame(card_name(rank + suit), corners(rank, dark, True) + "\n" + middle, defs)


def chronicler(code: str) -> str:
    """The Chroniclers: an open chronicle and a quill; the Coloured one in the four suit colours."""
    pale = code == "XP"
    colours = ["#bdbdbd"] * 4 if pale else [SUITS[s][1] for s in "HBLA"]
    ink = "#757575" if pale else "#283593"
    line = f'stroke="{ink}" stroke-width="3"'
    page = f'fill="#fff" {line}'
    parts = [
        corners(code, ink, False),
        f'<rect x="46" y="54" width="108" height="192" rx="10"'
        f' fill="{"#f5f5f5" if pale else "#e8eaf6"}" stroke="{ink}" stroke-width="2"/>',
        f'<path d="M100 110C84 100 66 100 54 106V176C66 170 84 170 100 180Z" {page}/>',
        f'<path d="M100 110C116 100 134 100 146 106V176C134 170 116 170 100 180Z" {page}/>',
        f'<path d="M62 122H92M62 134H92M62 146H86M108 122H138M108 134H138M108 146H130" {line}/>',
        '<path d="M128 196C136 160 150 124 160 92C148 118 134 150 124 194Z"'
        f' fill="{colours[0]}" stroke="{ink}" stroke-width="2"/>',
        *(
            f'<rect x="{46 + i * 27}" y="222" width="27" height="14" fill="{c}"/>'
            for i, c in enumerate(colours)
        ),
        text(100, 212, 19, ink, "Pale" if pale else "Coloured"),
        text(100, 90, 17, ink, "Chronicler"),
    ]
    return frame(card_name(code), "\n".join(parts), border=ink)


def back() -> str:
    gold = "#c9a227"
    defs = (
        '<pattern id="p" width="20" height="20" patternUnits="userSpaceOnUse"'
        ' patternTransform="rotate(45)"><rect width="20" height="20" fill="#7b1f2a"/>'
        f'<path d="M0 10H20M10 0V20" stroke="{gold}" stroke-width="2"/></pattern>'
    )
    body = "\n".join(
        [
            '<rect x="14" y="14" width="172" height="272" rx="10" fill="url(#p)"'
            f' stroke="{gold}" stroke-width="3"/>',
            f'<circle cx="100" cy="150" r="40" fill="#7b1f2a" stroke="{gold}" stroke-width="4"/>',
            text(100, 167, 46, "#f3e3b0", "K"),
        ]
    )
    return frame("The back of a card", body, defs)


def all_cards() -> dict[str, str]:
    cards = {rank + suit: suit_card(rank, suit) for suit in SUITS for rank in RANKS}
    cards["XC"] = chronicler("XC")
    cards["XP"] = chronicler("XP")
    cards["back"] = back()
    return cards


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    cards = all_cards()
    for name, svg in cards.items():
        (out / f"{name}.svg").write_text(svg, encoding="utf-8")
    print(f"wrote {len(cards)} cards to {out}")


if __name__ == "__main__":
    default = Path(__file__).resolve().parent.parent / "web" / "cards"
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else default)
