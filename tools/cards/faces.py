"""Synthetic card faces drawn from fonts: a corner index (rank glyph above a suit pip) in each of
two corners, pips, court pictures, jokers and backs, with where each index's glyph and pip are.

The fonts are Debian's, each under a licence that lets a model trained on them ship under MIT:
DejaVu and Hack (Bitstream Vera licence); Liberation, Carlito, Cantarell, EB Garamond, Lato,
Computer Modern Unicode, Gentium, Charis, Andika, Junicode, Cardo, Old Standard, Fira Code,
Inconsolata, Comfortaa, Quicksand, STIX, Vollkorn, Dosis, Yanone Kaffeesatz, League Spartan,
Play and Cabin (SIL OFL 1.1); Caladea, Open Sans, Roboto and Roboto Slab (Apache 2.0); PT
(ParaType Free Font Licence); TeX Gyre (GUST Font Licence). Linux Libertine and Biolinum (OFL)
are held out. The suit pips are the glyphs of fonts that have them, or shapes drawn here.
A rank glyph is drawn as the font has it, or bolder, sheared, narrower or wider, and a three
now and then flat-topped (the font's ezh, Ʒ), as many decks print it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
JOKER = 13  # the rank head's class for a joker; NONE for no index at all
NONE = 14
SUIT_GLYPHS = "♣♦♥♠"  # in Suit's order
W = 240

FONT_DIRS = (
    "/usr/share/fonts/truetype",
    "/usr/share/fonts/opentype",
    "/usr/share/texmf/fonts/opentype/public",  # TeX Gyre
)
# Each folder a Debian font package's (fonts-crosextra-carlito and -caladea share one).
TRAIN_FONTS = (
    "dejavu/",
    "hack/",
    "liberation/",
    "crosextra/",
    "open-sans/",
    "roboto/",
    "roboto-slab/",
    "cantarell/",
    "ebgaramond/",
    "lato/",
    "cmu/",
    "gentium/",
    "charis/",
    "andika/",
    "junicode/",
    "cardo/",
    "fonts-oldstandard/",
    "firacode/",
    "inconsolata/",
    "comfortaa/",
    "quicksand/",
    "stix/STIXGeneral",
    "vollkorn/",
    "dosis/",
    "yanone-kaffeesatz/",
    "league-spartan/",
    "play/",
    "cabin/",
    "paratype/",
    "tex-gyre/",
)
HELD_OUT_FONTS = ("linux-libertine/",)
# Fonts with all four suit symbols (the rest of the pips are drawn).
SUIT_FONTS = (
    "dejavu/DejaVuSans",
    "dejavu/DejaVuSerif",
    "liberation/Liberation",
    "tex-gyre/texgyreadventor",
    "tex-gyre/texgyrepagella",
    "stix/STIXGeneral-Regular",
)
CHECK = "A23456789JQK10"  # a font for ranks has every one of these


def fonts(prefixes: tuple[str, ...], needs: str = CHECK) -> list[Path]:
    """The font files under ``prefixes`` that draw every character of ``needs``."""
    found = []
    for root in FONT_DIRS:
        for path in sorted(Path(root).rglob("*")):
            rel = str(path.relative_to(root))
            wanted = path.suffix in (".ttf", ".otf") and any(rel.startswith(p) for p in prefixes)
            light = any(word in rel for word in ("Math", "Thin", "ExtraLight"))
            if wanted and not light and _draws(str(path), needs):
                found.append(path)
    return found


@cache
def _draws(path: str, chars: str) -> bool:
    """Whether the font maps every one of ``chars`` to a glyph of its own."""
    from fontTools.ttLib import TTFont

    with TTFont(path, lazy=True) as font:
        cmap = font.getBestCmap() or {}
    return all(ord(c) in cmap for c in chars)


@cache
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


Box = tuple[float, float, float, float]


@dataclass
class Face:
    image: Image.Image  # RGBA, W wide
    rank: int  # 0..12, JOKER, or NONE (a back)
    suit: int  # 0..3 (meaningless for a joker or back)
    indices: list[tuple[Box, Box]]  # (glyph box, pip box) of each corner index, upright first


@cache
def _suit_fonts() -> list[Path]:
    return fonts(SUIT_FONTS, SUIT_GLYPHS)


def _ink(rng: random.Random, red: bool) -> tuple[int, int, int, int]:
    if red:
        return (rng.randint(170, 235), rng.randint(0, 45), rng.randint(0, 55), 255)
    v = rng.randint(0, 45)
    return (v, v, v + rng.randint(0, 15), 255)


def _pip_shape(rng: random.Random, suit: int, size: float, fill: tuple[int, ...]) -> Image.Image:
    """One suit pip, ``size`` pixels tall, on a transparent tile, its ink tight to the box."""
    s = max(4, round(size * 4))  # drawn large, then scaled down: smooth edges
    tile = Image.new("RGBA", (s * 2, s * 2), (0, 0, 0, 0))
    d = ImageDraw.Draw(tile)
    if rng.random() < 0.45:
        font = _font(str(rng.choice(_suit_fonts())), s * 2)
        d.text((s, s), SUIT_GLYPHS[suit], font=font, fill=fill, anchor="mm")
    else:
        c, r = s, s * 0.5
        wide = rng.uniform(0.8, 1.15)
        if suit == 1:  # diamond
            d.polygon(
                [(c, c - r), (c + r * 0.78 * wide, c), (c, c + r), (c - r * 0.78 * wide, c)], fill
            )
        elif suit in (2, 3):  # heart, spade (an upside-down heart with a stem)
            lobe = r * rng.uniform(0.5, 0.58) * wide
            sign = 1 if suit == 2 else -1
            top = c - sign * r * 0.45
            for dx in (-lobe * 0.9, lobe * 0.9):
                d.ellipse([c + dx - lobe, top - lobe, c + dx + lobe, top + lobe], fill)
            d.polygon(
                [
                    (c - lobe * 1.85, top + sign * lobe * 0.35),
                    (c + lobe * 1.85, top + sign * lobe * 0.35),
                    (c, c + sign * r),
                ],
                fill,
            )
            if suit == 3:
                d.polygon(
                    [(c, c), (c - r * 0.35, c + r * 1.05), (c + r * 0.35, c + r * 1.05)], fill
                )
        else:  # club
            lobe = r * rng.uniform(0.36, 0.44) * wide
            for cx, cy in (
                (c, c - r * 0.45),
                (c - r * 0.5, c + r * 0.1),
                (c + r * 0.5, c + r * 0.1),
            ):
                d.ellipse([cx - lobe, cy - lobe, cx + lobe, cy + lobe], fill)
            d.polygon([(c, c), (c - r * 0.35, c + r * 1.0), (c + r * 0.35, c + r * 1.0)], fill)
    box = tile.getbbox()
    if box is None:
        return Image.new("RGBA", (2, 2), (0, 0, 0, 0))
    tile = tile.crop(box)
    h = max(3, round(size))
    w = max(3, round(tile.width * h / tile.height))
    return tile.resize((w, h), Image.Resampling.LANCZOS)


def _text(
    font_path: Path,
    text: str,
    height: float,
    fill: tuple[int, ...],
    squeeze: float,
    bold: int = 0,
    shear: float = 0.0,
) -> Image.Image:
    """``text`` in a font, its ink ``height`` pixels tall, cropped tight: ``bold`` pixels of
    stroke added at the drawing size (160), ``shear`` leaning its top to the right."""
    big = _font(str(font_path), 160)
    tile = Image.new("RGBA", (160 * (len(text) + 2), 300), (0, 0, 0, 0))
    ImageDraw.Draw(tile).text(
        (60, 20), text, font=big, fill=fill, stroke_width=bold, stroke_fill=fill
    )
    if shear:
        tile = tile.transform(tile.size, Image.Transform.AFFINE, (1, shear, -shear * 150, 0, 1, 0))
    box = tile.getbbox()
    if box is None:
        return Image.new("RGBA", (2, 2), (0, 0, 0, 0))
    tile = tile.crop(box)
    h = max(4, round(height))
    w = max(2, round(tile.width * h / tile.height * squeeze))
    return tile.resize((w, h), Image.Resampling.LANCZOS)


def _rank_tile(
    rng: random.Random, font: Path, rank: int, height: float, fill: tuple[int, ...]
) -> Image.Image:
    """A rank's glyph as some deck might print it."""
    text = RANKS[rank]
    if rank == 2 and rng.random() < 0.3 and _draws(str(font), "\u01b7"):
        text = "\u01b7"  # a flat-topped three
    squeeze = rng.uniform(0.5, 0.9) if rank == 9 else rng.uniform(0.7, 1.3)
    bold = rng.choice([0, 0, rng.randint(2, 9)])
    shear = rng.choice([0.0, 0.0, rng.uniform(-0.15, 0.25)])
    return _text(font, text, height, fill, squeeze, bold, shear)


def _paste(card: Image.Image, tile: Image.Image, x: float, y: float, flip: bool = False) -> Box:
    """Paste ``tile`` with its top-left at (x, y); or rotated half a turn with its box mirrored
    through the card's centre. Returns the box it took."""
    if flip:
        tile = tile.rotate(180)
        x, y = card.width - x - tile.width, card.height - y - tile.height
    card.alpha_composite(tile, (round(x), round(y)))
    return (round(x), round(y), round(x) + tile.width, round(y) + tile.height)


PIP_LAYOUT: dict[
    int, list[tuple[float, float]]
] = {  # (column -1/0/1, row 0..1) of each pip of 2..10
    2: [(0, 0), (0, 1)],
    3: [(0, 0), (0, 0.5), (0, 1)],
    4: [(-1, 0), (1, 0), (-1, 1), (1, 1)],
    5: [(-1, 0), (1, 0), (0, 0.5), (-1, 1), (1, 1)],
    6: [(-1, 0), (1, 0), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
    7: [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (-1, 1), (1, 1)],
    8: [(-1, 0), (1, 0), (0, 0.25), (-1, 0.5), (1, 0.5), (0, 0.75), (-1, 1), (1, 1)],
    9: [
        (-1, 0),
        (1, 0),
        (-1, 1 / 3),
        (1, 1 / 3),
        (0, 0.5),
        (-1, 2 / 3),
        (1, 2 / 3),
        (-1, 1),
        (1, 1),
    ],
    10: [
        (-1, 0),
        (1, 0),
        (0, 1 / 6),
        (-1, 1 / 3),
        (1, 1 / 3),
        (-1, 2 / 3),
        (1, 2 / 3),
        (0, 5 / 6),
        (-1, 1),
        (1, 1),
    ],
}


def _picture(rng: random.Random, card: Image.Image, box: Box, red: bool) -> None:
    """A court card's picture: shapes in a court card's colours inside a frame."""
    d = ImageDraw.Draw(card)
    x0, y0, x1, y1 = box
    if rng.random() < 0.7:
        d.rectangle(box, outline=_ink(rng, red), width=rng.randint(1, 3))
    palette = [
        _ink(rng, True),
        _ink(rng, False),
        (40, 60, 170, 255),
        (230, 190, 40, 255),
        (240, 200, 170, 255),
    ]
    for _ in range(rng.randint(8, 30)):
        colour = rng.choice(palette)
        a, b = rng.uniform(x0, x1), rng.uniform(y0, y1)
        r = rng.uniform(3, (x1 - x0) / 3)
        kind = rng.random()
        if kind < 0.4:
            d.ellipse([a - r, b - r * rng.uniform(0.5, 1.5), a + r, b + r], fill=colour)
        elif kind < 0.7:
            pts = [(rng.uniform(x0, x1), rng.uniform(y0, y1)) for _ in range(rng.randint(3, 6))]
            d.polygon(pts, fill=colour)
        else:
            d.line(
                [(a, b), (rng.uniform(x0, x1), rng.uniform(y0, y1))],
                fill=colour,
                width=rng.randint(1, 4),
            )


def make_face(rng: random.Random, font_list: list[Path], rank: int, suit: int) -> Face:
    """One card face; ``rank`` 0..12, JOKER, or NONE for a back."""
    h = round(W * rng.uniform(1.36, 1.56))
    paper = tuple(rng.randint(228, 255) for _ in range(3))
    paper = (paper[0], paper[1], min(paper[1], paper[2]) - rng.randint(0, 18), 255)
    card = Image.new("RGBA", (W, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(card)
    radius = rng.randint(6, 18)
    d.rounded_rectangle([0, 0, W - 1, h - 1], radius, fill=paper, outline=(150, 150, 150, 255))
    if rng.random() < 0.35:
        inset = rng.randint(4, 12)
        d.rounded_rectangle(
            [inset, inset, W - 1 - inset, h - 1 - inset],
            radius // 2,
            outline=_ink(rng, rng.random() < 0.5),
            width=rng.randint(1, 2),
        )
    if rank == NONE:
        _back(rng, card)
        return Face(card, NONE, 0, [])
    red = suit in (1, 2) if rank != JOKER else rng.random() < 0.5
    ink = _ink(rng, red)
    font = rng.choice(font_list)
    glyph_h = h * rng.uniform(0.065, 0.11)
    pip_h = glyph_h * rng.uniform(0.55, 1.0)
    gap = glyph_h * rng.uniform(0.04, 0.4)
    column = W * rng.uniform(0.07, 0.13)
    top = h * rng.uniform(0.02, 0.065)
    if rank == JOKER:
        letters = [_text(font, ch, glyph_h * 0.55, ink, 1.0) for ch in "JOKER"]
        indices: list[tuple[Box, Box]] = []
        for flip in (False, True):
            y, boxes = top, []
            for tile in letters:
                boxes.append(_paste(card, tile, column - tile.width / 2, y, flip))
                y += tile.height + glyph_h * 0.12
            column_box = (
                min(b[0] for b in boxes),
                min(b[1] for b in boxes),
                max(b[2] for b in boxes),
                max(b[3] for b in boxes),
            )
            indices.append((column_box, column_box))
        _picture(rng, card, (W * 0.25, h * 0.2, W * 0.75, h * 0.8), red)
        return Face(card, JOKER, 0, indices)
    glyph_tile = _rank_tile(rng, font, rank, glyph_h, ink)
    pip_tile = _pip_shape(rng, suit, pip_h, ink)
    indices = []
    for flip in (False, True):
        g = _paste(card, glyph_tile, column - glyph_tile.width / 2, top, flip)
        p = _paste(card, pip_tile, column - pip_tile.width / 2, top + glyph_tile.height + gap, flip)
        indices.append((g, p))
    _middle(rng, card, rank, suit, ink, red)
    return Face(card, rank, suit, indices)


def _middle(
    rng: random.Random, card: Image.Image, rank: int, suit: int, ink: tuple[int, ...], red: bool
) -> None:
    h = card.height
    if rank == 0:
        big = _pip_shape(rng, suit, W * rng.uniform(0.2, 0.45), ink)
        _paste(card, big, (W - big.width) / 2, (h - big.height) / 2)
        return
    if rank >= 10:
        frame = (W * rng.uniform(0.18, 0.26), h * rng.uniform(0.1, 0.16))
        _picture(rng, card, (frame[0], frame[1], W - frame[0], h - frame[1]), red)
        if rng.random() < 0.6:
            pip = _pip_shape(rng, suit, W * 0.12, ink)
            _paste(card, pip, frame[0] + 4, frame[1] + 4)
        return
    size = W * rng.uniform(0.13, 0.2)
    pip = _pip_shape(rng, suit, size, ink)
    cx, half = W / 2, W * rng.uniform(0.16, 0.25)
    ytop, ybot = h * rng.uniform(0.1, 0.2), h * rng.uniform(0.8, 0.9) - pip.height
    for col, row in PIP_LAYOUT[rank + 1]:
        x = cx + col * half - pip.width / 2
        y = ytop + row * (ybot - ytop)
        tile = pip.rotate(180) if row > 0.5 else pip
        card.alpha_composite(tile, (round(x), round(y)))


def _back(rng: random.Random, card: Image.Image) -> None:
    d = ImageDraw.Draw(card)
    colour = rng.choice(
        [(30, 50, 150, 255), (170, 30, 40, 255), (30, 110, 60, 255), (60, 60, 60, 255)]
    )
    inset = rng.choice([0, rng.randint(6, 16)])
    d.rounded_rectangle([inset, inset, W - 1 - inset, card.height - 1 - inset], 8, fill=colour)
    step = rng.randint(5, 14)
    light = (*(min(255, c + 90) for c in colour[:3]), 255)
    for k in range(-card.height, W + card.height, step):
        d.line([(k, inset), (k + card.height, card.height)], fill=light, width=1)
        if rng.random() < 0.5:
            d.line([(k, card.height), (k + card.height, inset)], fill=light, width=1)


def random_face(rng: random.Random, font_list: list[Path]) -> Face:
    roll = rng.random()
    if roll < 0.03:
        return make_face(rng, font_list, NONE, 0)
    if roll < 0.05:
        return make_face(rng, font_list, JOKER, 0)
    return make_face(rng, font_list, rng.randrange(13), rng.randrange(4))


def unit(angle: float) -> tuple[float, float]:
    return math.cos(angle), math.sin(angle)
