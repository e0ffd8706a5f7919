"""``pegboard cards PHOTO... [--json] [--starter CARD]``: what the reader makes of photos.

A photo that cannot be opened, or is no image, is one line on stderr and exit 2 (nothing is
read). A photo that is an image but shows nothing readable (blurred, card backs, no cards)
says so on its own line (``"error"`` in the JSON) and the command exits 1.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pegboard.errors import ReaderError
from pegboard.i18n import phrase_of, translations

EXIT_UNREAD = 1


def add_cards(sub: Any, gettext: Callable[[str], str]) -> None:
    _ = gettext
    cards = sub.add_parser("cards", help=_("read the cards in photos of a show"))
    cards.add_argument(
        "photos", nargs="+", type=Path, metavar=_("photo"), help=_("JPEG, PNG or WebP photos")
    )
    cards.add_argument("--json", action="store_true", help=_("print JSON"))
    cards.add_argument("--starter", "-s", help=_("the starter card, e.g. 5D: also count the hand"))
    cards.set_defaults(run=cmd_cards)


def cmd_cards(args: argparse.Namespace) -> int:
    from pegboard.reader import Reading, decode
    from pegboard.reader.corners import read_image
    from pegboard.rules.cards import Card

    starter = Card.parse(args.starter) if args.starter else None
    t = translations(args.lang)
    pixels = []
    for path in args.photos:
        try:
            data = path.read_bytes()
        except OSError as e:
            raise ReaderError(
                t.gettext("cannot open {photo}: {reason}").format(photo=path, reason=e.strerror)
            ) from e
        try:
            pixels.append(decode(data))
        except ReaderError as e:
            raise ReaderError(f"{path}: {phrase_of(e).say(args.lang)}") from e
    out: list[dict[str, Any]] = []
    unread = False
    for path, rgb in zip(args.photos, pixels, strict=True):
        try:
            reading = Reading(str(path), read_image(rgb))
        except ReaderError as e:
            unread = True
            said = phrase_of(e).say(args.lang)
            out.append({"photo": str(path), "cards": [], "error": said})
            if not args.json:
                print(f"{path}: {said}")
            continue
        out.append(reading.as_json(starter))
        if not args.json:
            _print(reading, starter, t)
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    return EXIT_UNREAD if unread else 0


def _print(reading: Any, starter: Any, t: Any) -> None:
    cards = " ".join(str(s.card) + ("" if s.sure else "?") for s in reading.cards)
    print(f"{reading.photo}: {cards}")
    if not all(s.sure for s in reading.cards):
        print("  " + t.gettext("? unsure: check these cards"))
    if starter is not None:
        count = reading.count(starter)
        if count is None:
            print(
                "  " + t.gettext("no count: four cards besides the starter must be read, all sure")
            )
        else:
            print(
                "  "
                + t.gettext("with the starter {starter}: {count}").format(
                    starter=starter, count=count
                )
            )
