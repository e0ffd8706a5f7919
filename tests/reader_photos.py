"""Photos of held-out decks for the reader's tests: Debian's decks rendered into a temporary
folder (only the faces a test lays), laid on a table by the training's own scene maker, made
the same way every run."""

from __future__ import annotations

import io
import random
import shutil
from pathlib import Path

from needs import missing

from pegboard.rules.cards import Card


def need_decks() -> None:
    if not Path("/usr/share/carddecks/svg-standard").is_dir() or not shutil.which("rsvg-convert"):
        missing("Debian's card decks (kdegames-card-data-kf5) and rsvg-convert (librsvg2-bin)")


def ids(cards):
    from tools.cards.decks import RANK_IDS, SUIT_IDS

    out = []
    for token in cards:
        card = Card.parse(token)
        out.append(f"{RANK_IDS[card.rank - 1]}_{SUIT_IDS[card.suit]}")
    return (*out, "back")


def render(folder, decks, cards):
    """``decks`` (their faces of ``cards`` and the back) by name."""
    from tools.cards.decks import render_deck
    from tools.cards.scenes import faces_of_deck

    return {name: faces_of_deck(render_deck(name, folder, only=ids(cards))) for name in decks}


def jpeg(faces, fanned, seed):
    """A JPEG of ``faces`` laid on a table, made the same way every run."""
    from PIL import Image

    from tools.cards.scenes import compose

    scene = compose(random.Random(seed), faces, fanned)
    out = io.BytesIO()
    Image.fromarray(scene.rgb).save(out, "JPEG", quality=90)
    return out.getvalue()


def photo(decks, deck, cards, fanned, seed):
    faces = decks[deck]
    return jpeg([faces[(c.rank - 1, c.suit)] for c in map(Card.parse, cards)], fanned, seed)


def backs_photo(decks, n=3, seed=3):
    return jpeg([decks["svg-standard"][(14, 0)]] * n, fanned=False, seed=seed)
