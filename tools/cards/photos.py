"""``python -m tools.cards photos``: the README's photos (``docs/cards/``): a show spread and a
show fanned, of held-out decks, and what the reader made of each (printed, to paste)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from PIL import Image

from pegboard.reader import read
from pegboard.rules.cards import Card
from tools.cards.decks import CACHE, render_deck
from tools.cards.scenes import compose, faces_of_deck

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cards"
SHOWS = (
    ("spread.jpg", "svg-tigullio-international", "5H 5C 5S JD 5D", False, 7),
    ("fanned.jpg", "svg-nicu-white", "7H 8H 9D 9S 10C", True, 8),
)


def main() -> None:
    DOCS.mkdir(parents=True, exist_ok=True)
    for name, deck, cards, fanned, seed in SHOWS:
        faces = faces_of_deck(render_deck(deck, CACHE))
        laid = [faces[(c.rank - 1, c.suit)] for c in map(Card.parse, cards.split())]
        scene = compose(random.Random(seed), laid, fanned)
        path = DOCS / name
        Image.fromarray(scene.rgb).save(path, "JPEG", quality=82)
        reading = read(path.read_bytes(), photo=f"docs/cards/{name}")
        print(json.dumps(reading.as_json(Card.parse(cards.split()[-1])), ensure_ascii=False))
