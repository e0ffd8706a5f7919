"""The card faces the reader is measured on: Debian's decks (kdegames-card-data-kf5), rendered
once into ``.cache/cards/DECK/CARD.png`` (outside git) with ``rsvg-convert``.

Every one of these decks is licensed GPL or LGPL (``/usr/share/doc/kdegames-card-data-kf5/
copyright``; Konqi's grant is to members of the KDE project only), so none of them trains the
model that ships under our MIT licence: they are all held out, for the benchmark and the tests.
``svg-konqi-modern`` has no page size rsvg-convert can render by id;
``svg-xskat-german`` has German suits (acorns, leaves, hearts, bells), not a cribbage deck.
"""

from __future__ import annotations

import gzip
import subprocess
import tempfile
from pathlib import Path

DECKS_DIR = Path("/usr/share/carddecks")
CACHE = Path(__file__).resolve().parents[2] / ".cache" / "cards"
# The French-suited decks, each by its folder under /usr/share/carddecks.
DECKS = (
    "svg-ancient-egyptians",
    "svg-dondorf",
    "svg-future",
    "svg-gm-paris",
    "svg-jolly-royal",
    "svg-nicu-ornamental",
    "svg-nicu-white",
    "svg-oxygen",
    "svg-oxygen-air",
    "svg-oxygen-white",
    "svg-penguins",
    "svg-standard",
    "svg-tigullio-international",
    "svg-xskat-french",
)
RANK_IDS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
SUIT_IDS = ("club", "diamond", "heart", "spade")  # in Suit's order: C D H S
WIDTH = 240


def element_ids() -> list[str]:
    """The SVG ids of the 52 faces (rank-major, as ``DECK``), then the back and the jokers."""
    faces = [f"{r}_{s}" for r in RANK_IDS for s in SUIT_IDS]
    return [*faces, "back", "red_joker", "black_joker"]


def deck_svg(deck: str) -> Path:
    return next((DECKS_DIR / deck).glob("*.svg*"))


def render_deck(
    deck: str, cache: Path = CACHE, width: int = WIDTH, only: tuple[str, ...] = ()
) -> Path:
    """Render one deck's faces (``only`` these ids, if given) into the cache (skips those
    already there)."""
    out = cache / deck
    out.mkdir(parents=True, exist_ok=True)
    source = deck_svg(deck)
    with tempfile.TemporaryDirectory() as tmp:
        svg = Path(tmp) / "deck.svg"
        data = source.read_bytes()
        svg.write_bytes(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data)
        text = svg.read_text(errors="replace")
        for ident in element_ids():
            png = out / f"{ident}.png"
            if (only and ident not in only) or png.exists() or f'id="{ident}"' not in text:
                continue
            subprocess.run(
                ["rsvg-convert", "-i", ident, "-w", str(width), str(svg), "-o", str(png)],
                check=True,
                capture_output=True,
            )
    return out


def main() -> None:
    for deck in DECKS:
        try:
            print(deck, render_deck(deck), flush=True)
        except subprocess.CalledProcessError as e:  # e.g. an SVG with no page size
            why = e.stderr.decode(errors="replace").strip() or f"exit status {e.returncode}"
            print(deck, f"not rendered: rsvg-convert: {why}", flush=True)
