"""``python -m tools.cards decks|train|photos``."""

import sys

if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else ""
    if what == "decks":
        from tools.cards.decks import main

        main()
    elif what == "photos":
        from tools.cards.photos import main

        main()
    elif what == "train":
        from tools.cards.train import main

        main(sys.argv[2:])
    else:
        sys.exit("usage: python -m tools.cards decks|train|photos")
