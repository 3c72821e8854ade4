"""Draw the project's deck as SVG files: every face in two designs and two colourings, and the backs.

    python scripts/draw_cards.py [OUT]      # default: frontend/static/frontend/cards

Designs: `full` has both corner indices, the pip layout of each rank and drawn court cards, for
cards big enough to show them; `compact` has a jumbo index and one big pip, for small screens,
where a pip layout is too small to read. Colourings: `two` (spades and clubs black, hearts and
diamonds red) and `four` (spades black, hearts red, diamonds blue, clubs green).
The output is deterministic: tests/frontend/test_deck.py checks the committed files against it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

W, H = 250, 350  # the card's drawing units; 63.5 x 88.9 mm cards have this 1 : 1.4 shape
RANKS = "A23456789TJQK"
SUITS = "SHDC"
FONT = "'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif"
PAPER = "#fdfcf8"
EDGE = "#8f8f8f"
GOLD = "#d9a521"
SKIN = "#f6d7b8"
COLOURS = {
    "two": {"S": "#141414", "H": "#c8102e", "D": "#c8102e", "C": "#141414"},
    "four": {"S": "#141414", "H": "#c8102e", "D": "#1558c0", "C": "#117a3a"},
}
# Each suit sign drawn in a 100 x 100 box.
SUIT_PATHS = {
    "H": "M50 95C36 80 3 61 3 33C3 15 16 5 30 5C40 5 47 11 50 20C53 11 60 5 70 5C84 5 97 15 97 33C97 61 64 80 50 95Z",
    "D": "M50 3Q68 28 88 50Q68 72 50 97Q32 72 12 50Q32 28 50 3Z",
    "S": "M50 3C64 22 97 40 97 64C97 80 85 89 72 89C63 89 57 85 53 78C54 87 58 92 66 97H34C42 92 46 87 47 78"
    "C43 85 37 89 28 89C15 89 3 80 3 64C3 40 36 22 50 3Z",
    "C": "M50 5A21 21 0 0 1 67 39A21 21 0 1 1 56 74C57 85 60 91 68 97H32C40 91 43 85 44 74A21 21 0 1 1 33 39"
    "A21 21 0 0 1 50 5Z",
}
RANK_TEXT = {"T": "10"}
ADVANCE = {"A": 0.7, "T": 1.08, "J": 0.4, "Q": 0.76, "K": 0.7}  # index width per font size; digits 0.62
# Pip centres of the number cards, in card units; pips below the middle are drawn upside down.
LEFT, MID, RIGHT = 80, 125, 170
TOP, BOTTOM, MIDDLE = 98, 252, 175
ROW4 = (98, 149.3, 200.7, 252)
PIPS: dict[str, list[tuple[float, float]]] = {
    "2": [(MID, TOP), (MID, BOTTOM)],
    "3": [(MID, TOP), (MID, MIDDLE), (MID, BOTTOM)],
    "4": [(LEFT, TOP), (RIGHT, TOP), (LEFT, BOTTOM), (RIGHT, BOTTOM)],
    "5": [(LEFT, TOP), (RIGHT, TOP), (MID, MIDDLE), (LEFT, BOTTOM), (RIGHT, BOTTOM)],
    "6": [(x, y) for y in (TOP, MIDDLE, BOTTOM) for x in (LEFT, RIGHT)],
    "7": [(x, y) for y in (TOP, MIDDLE, BOTTOM) for x in (LEFT, RIGHT)] + [(MID, 136.5)],
    "8": [(x, y) for y in (TOP, MIDDLE, BOTTOM) for x in (LEFT, RIGHT)] + [(MID, 136.5), (MID, 213.5)],
    "9": [(x, y) for y in ROW4 for x in (LEFT, RIGHT)] + [(MID, MIDDLE)],
    "T": [(x, y) for y in ROW4 for x in (LEFT, RIGHT)] + [(MID, 124), (MID, 226)],
}
PIP = 44  # size of a number card's pip


def number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def svg(body: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'viewBox="0 0 {W} {H}" width="{W}" height="{H}">{body}</svg>\n'
    )


def blank(fill: str = PAPER) -> str:
    return (
        f'<rect x="1.5" y="1.5" width="{W - 3}" height="{H - 3}" rx="16" fill="{fill}" stroke="{EDGE}"'
        ' stroke-width="3"/>'
    )


def pip(suit: str, x: float, y: float, size: float, colour: str, *, flip: bool = False) -> str:
    turn = " rotate(180 50 50)" if flip else ""
    at = f"translate({number(x - size / 2)} {number(y - size / 2)}) scale({number(size / 100)}){turn}"
    return f'<path transform="{at}" d="{SUIT_PATHS[suit]}" fill="{colour}"/>'


def upside_down(body: str) -> str:
    return f'<g transform="rotate(180 {W / 2} {H / 2})">{body}</g>'


def index(rank: str, suit: str, colour: str, *, size: float) -> str:
    """Rank and suit side by side in the top-left corner: a fanned column shows both."""
    text = RANK_TEXT.get(rank, rank)
    width = size * ADVANCE.get(rank, 0.62)
    # A fixed text length keeps the index the same whatever sans-serif font the reader has.
    fit = f' textLength="{number(width)}" lengthAdjust="spacingAndGlyphs"'
    x0 = 12
    baseline = 12 + size * 0.74
    glyph = (
        f'<text x="{x0}" y="{number(baseline)}" font-family="{FONT}" font-weight="700" font-size="{number(size)}"'
        f' fill="{colour}"{fit}>{text}</text>'
    )
    mark = size * 0.62
    return glyph + pip(suit, x0 + width + size * 0.1 + mark / 2, 12 + size * 0.37, mark, colour)


def number_face(rank: str, suit: str, colour: str) -> str:
    parts = [blank()]
    corner = index(rank, suit, colour, size=58)
    parts += [corner, upside_down(corner)]
    if rank == "A":
        parts.append(pip(suit, W / 2, H / 2, 120 if suit != "S" else 140, colour))
    else:
        for x, y in PIPS[rank]:
            parts.append(pip(suit, x, y, PIP, colour, flip=y > MIDDLE + 1))
    return "".join(parts)


def court_half(rank: str, suit: str, colour: str) -> str:
    """The top half of a double-headed court figure; the bottom half is the same turned round."""
    dark = "#1b1b1b"
    line = f'stroke="{dark}" stroke-width="1.6" stroke-linejoin="round"'
    robe = (
        '<path d="M52 175V156C52 140 70 132 96 128L125 140L154 128C180 132 198 140 198 156V175Z"'
        f' fill="{colour}" {line}/>'
        f'<path d="M96 128L125 175L154 128L143 126L125 154L107 126Z" fill="{GOLD}" {line}/>'
        f'<path d="M60 175V158C60 148 70 142 84 138L88 175Z" fill="{PAPER}" fill-opacity=".28"/>'
        f'<path d="M190 175V158C190 148 180 142 166 138L162 175Z" fill="{PAPER}" fill-opacity=".28"/>'
        f'<path d="M52 166H98M152 166H198" stroke="{GOLD}" stroke-width="5"/>'
    )
    neck = f'<rect x="116" y="116" width="18" height="16" fill="{SKIN}" {line}/>'
    face = (
        f'<ellipse cx="125" cy="100" rx="21" ry="24" fill="{SKIN}" {line}/>'
        f'<circle cx="117" cy="97" r="2.4" fill="{dark}"/><circle cx="133" cy="97" r="2.4" fill="{dark}"/>'
        f'<path d="M125 99L122 107H127" fill="none" stroke="{dark}" stroke-width="1.4"/>'
        f'<path d="M118 112Q125 116 132 112" fill="none" stroke="{dark}" stroke-width="1.8" stroke-linecap="round"/>'
    )
    if rank == "K":
        hat = (
            f'<path d="M100 84L102 54L113 70L125 48L137 70L148 54L150 84Z" fill="{GOLD}" {line}/>'
            f'<circle cx="125" cy="72" r="4.5" fill="{colour}"/><path d="M100 84H150" stroke="{dark}"'
            ' stroke-width="3"/>'
        )
        hair = (
            '<path d="M104 104C102 122 110 134 125 137C140 134 148 122 146 104C140 118 110 118 104 104Z"'
            f' fill="#6b4220" {line}/>'
        )
        held = (
            '<path d="M178 62V140" stroke="#9aa4ad" stroke-width="6"/><path d="M168 128H188"'
            f' stroke="{GOLD}" stroke-width="6"/>'
        )
    elif rank == "Q":
        hat = (
            f'<path d="M106 80L108 60L117 70L125 56L133 70L142 60L144 80Z" fill="{GOLD}" {line}/>'
            f'<circle cx="125" cy="71" r="3.5" fill="{colour}"/>'
        )
        hair = (
            '<path d="M104 82C94 100 96 124 104 140L110 110C108 94 114 86 125 84C136 86 142 94 140 110L146'
            f' 140C154 124 156 100 146 82Z" fill="#a8652a" {line}/>'
        )
        held = (
            f'<path d="M176 140V96" stroke="#2f7d3a" stroke-width="4"/>'
            f'<path d="M176 76l5 10 11 1-8 7 3 11-11-6-11 6 3-11-8-7 11-1z" fill="{GOLD}" {line}/>'
        )
    else:
        hat = (
            f'<path d="M100 88C96 68 110 58 126 58C144 58 154 70 150 88Z" fill="{colour}" {line}/>'
            f'<path d="M100 88H150" stroke="{GOLD}" stroke-width="5"/>'
            f'<path d="M146 70C160 52 176 50 188 56C174 60 162 68 152 82Z" fill="{GOLD}" {line}/>'
        )
        hair = (
            '<path d="M104 90C101 104 103 116 108 124L112 96ZM146 90C149 104 147 116 142 124L138 96Z"'
            f' fill="#4a2a12" {line}/>'
        )
        held = (
            '<path d="M178 60V140" stroke="#7a5230" stroke-width="5"/><circle cx="178" cy="58" r="6"'
            f' fill="{GOLD}" {line}/>'
        )
    return robe + held + neck + hair + face + hat + pip(suit, 74, 84, 34, colour)


def court_figure(rank: str, suit: str, colour: str) -> str:
    half = court_half(rank, suit, colour)
    half = f'<g transform="translate(125 175) scale(.84) translate(-125 -175)">{half}</g>'
    frame = f'<rect x="40" y="66" width="170" height="218" rx="6" fill="#fbf4e4" stroke="{colour}" stroke-width="3"/>'
    return (
        frame
        + '<clipPath id="frame"><rect x="42" y="68" width="166" height="214" rx="5"/></clipPath>'
        + f'<g clip-path="url(#frame)">{half}{upside_down(half)}</g>'
        + f'<line x1="40" y1="175" x2="210" y2="175" stroke="{colour}" stroke-width="2"/>'
    )


def court_face(rank: str, suit: str, colour: str) -> str:
    corner = index(rank, suit, colour, size=58)
    return blank() + corner + upside_down(corner) + court_figure(rank, suit, colour)


def compact_face(rank: str, suit: str, colour: str) -> str:
    """Jumbo index: the rank and suit fill the top third, then one big pip (or a small court figure)."""
    corner = index(rank, suit, colour, size=96)
    small = index(rank, suit, colour, size=44)
    if rank in "JQK":
        drawn = court_figure(rank, suit, colour)
        figure = f'<g transform="translate(53 118) scale(.85) translate(-40 -66)">{drawn}</g>'
    else:
        figure = pip(suit, W / 2, 228, 128, colour)
    return blank() + corner + figure + upside_down(small)


BACKS = {
    "blue": ("#1d4f91", "#0e2b52", "lattice"),
    "red": ("#a3162b", "#5c0b18", "lattice"),
    "green": ("#17603f", "#0a3622", "rings"),
}


def back(name: str) -> str:
    fill, edge, motif = BACKS[name]
    if motif == "lattice":
        tile = (
            '<pattern id="m" width="20" height="20" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
            '<rect width="20" height="20" fill="none"/><path d="M0 10H20M10 0V20" stroke="#fff"'
            ' stroke-opacity=".22" stroke-width="4"/>'
            "</pattern>"
        )
    else:
        tile = (
            '<pattern id="m" width="24" height="24" patternUnits="userSpaceOnUse">'
            '<circle cx="12" cy="12" r="7" fill="none" stroke="#fff" stroke-opacity=".25" stroke-width="3"/>'
            '<circle cx="0" cy="0" r="3" fill="#fff" fill-opacity=".2"/><circle cx="24" cy="24" r="3"'
            ' fill="#fff" fill-opacity=".2"/>'
            '<circle cx="24" cy="0" r="3" fill="#fff" fill-opacity=".2"/><circle cx="0" cy="24" r="3"'
            ' fill="#fff" fill-opacity=".2"/>'
            "</pattern>"
        )
    return (
        f"<defs>{tile}</defs>"
        f'<rect x="1.5" y="1.5" width="{W - 3}" height="{H - 3}" rx="16" fill="{fill}" stroke="{edge}"'
        ' stroke-width="3"/>'
        f'<rect x="16" y="16" width="{W - 32}" height="{H - 32}" rx="8" fill="url(#m)" stroke="#fff"'
        ' stroke-opacity=".7" stroke-width="4"/>'
        f'<g transform="translate({W / 2 - 28} {H / 2 - 28}) scale(.56)"><circle cx="50" cy="50" r="48"'
        f' fill="{fill}" stroke="#fff" stroke-opacity=".7" stroke-width="6"/>'
        f'<path transform="translate(22 22) scale(.56)" d="{SUIT_PATHS["S"]}" fill="#fff" fill-opacity=".85"/></g>'
    )


def files() -> Iterator[tuple[str, str]]:
    """Every file of the deck: (path under the cards folder, its text)."""
    for colouring, colours in COLOURS.items():
        for suit in SUITS:
            for rank in RANKS:
                card = rank + suit
                colour = colours[suit]
                full = court_face(rank, suit, colour) if rank in "JQK" else number_face(rank, suit, colour)
                yield f"full-{colouring}/{card}.svg", svg(full)
                yield f"compact-{colouring}/{card}.svg", svg(compact_face(rank, suit, colour))
    for name in BACKS:
        yield f"backs/{name}.svg", svg(back(name))


def main(out: Path) -> None:
    for name, text in files():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    root = Path(__file__).resolve().parents[1]
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else root / "frontend/static/frontend/cards")
