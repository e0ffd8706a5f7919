"""``python -m tools.cards photos``: the README's photos (``docs/cards/``), a show spread and a
hand fanned of held-out decks (the benchmark's first two, Standard and Nicu White), each laid
by the benchmark's scene maker with the first seed (0, not one picked for a good reading), and
then what ``pegboard cards`` makes of the JPEG written (printed, to paste into the README).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from PIL import Image

from pegboard.cli import main as pegboard
from pegboard.rules.cards import Card
from tools.cards.decks import CACHE, render_deck
from tools.cards.scenes import compose, faces_of_deck

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "cards"
SEED = 0
QUALITY = 80  # a phone's JPEG, well under 200 kB at 1000 pixels
# (file, deck, cards laid in order, fanned, the starter to count with)
SHOWS = (
    ("spread.jpg", "svg-standard", "5H 5C 5S JD 5D", False, "5D"),
    ("fanned.jpg", "svg-nicu-white", "7H 8H 9D 9S 10C", True, None),
)


def main() -> None:
    DOCS.mkdir(parents=True, exist_ok=True)
    os.chdir(ROOT)  # the command is shown with the path the README gives
    for name, deck, cards, fanned, starter in SHOWS:
        faces = faces_of_deck(render_deck(deck, CACHE))
        laid = [faces[(c.rank - 1, c.suit)] for c in map(Card.parse, cards.split())]
        scene = compose(random.Random(SEED), laid, fanned)
        path = DOCS / name
        Image.fromarray(scene.rgb).save(path, "JPEG", quality=QUALITY)
        shown = f"docs/cards/{name}"
        args = ["cards", shown, *(["--starter", starter] if starter else [])]
        print(f"$ pegboard cards {shown}" + (f" --starter {starter}" if starter else ""))
        print(f"  ({path.stat().st_size // 1024} kB, {deck}, {cards}, seed {SEED})", flush=True)
        pegboard(args)
