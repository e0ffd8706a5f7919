"""``python -m tools.cards decks|train|photos``."""

import sys

if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "decks":
        from tools.cards.decks import main as decks

        decks()
    elif what == "photos":
        from tools.cards.photos import main as photos

        photos()
    elif what == "train":
        from tools.cards.train import main as train

        train(sys.argv[2:])
    else:
        sys.exit("usage: python -m tools.cards decks|train|photos")
