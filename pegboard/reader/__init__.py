"""The card reader: a photo of a show in, the cards seen out (``Card`` values, each with its
box on the photo and how sure the reader is).

It reads each card's corner index (the rank glyph above the suit pip), so a show spread on the
table and a show fanned in the hand (only the corner of each card in sight) read alike. The
classifier was trained by the project (``python -m tools.cards train``) on synthetic scenes
drawn from fonts, never on the decks it is measured on; its weights ship in this package and
load on the first photo. Nothing here is imported by ``pegboard serve`` until a photo comes:
OpenCV and numpy load then.

Below the panel and the command line, above the rules core: it imports ``pegboard.rules`` and
nothing else of pegboard's, and no web or hardware.

>>> reading = Reading("show.jpg", (Seen(Card.parse("5H"), (10, 20, 60, 90), 0.99),))
>>> reading.as_json()
{'photo': 'show.jpg', 'cards': [{'card': '5♥', 'sure': True, 'box': [10, 20, 60, 90]}]}
>>> Reading("s.jpg", reading.cards).as_json(Card.parse("5S"))["count"] is None  # one card
True
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from typing import Any

from pegboard.errors import ReaderError
from pegboard.i18n import N_, Phrase
from pegboard.reader.seen import SURE, Seen
from pegboard.rules.cards import Card
from pegboard.rules.scoring import show_total

__all__ = ["MAX_BYTES", "MAX_PIXELS", "SURE", "Reading", "Seen", "decode", "read"]

MAX_BYTES = 12 * 1024 * 1024  # a phone's photo, before the page scales it down
MAX_PIXELS = 40_000_000  # width x height; anything larger is refused before it is decoded
FORMATS = ("JPEG", "PNG", "WEBP")


@dataclass(frozen=True, slots=True)
class Reading:
    """What one photo showed."""

    photo: str
    cards: tuple[Seen, ...]

    def count(self, starter: Card) -> int | None:
        """The show's count with ``starter``: only when four other cards are read, all sure."""
        hand = [s.card for s in self.cards if s.card != starter]
        if len(hand) != 4 or not all(s.sure for s in self.cards):
            return None
        return show_total(hand, starter)

    def as_json(self, starter: Card | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"photo": self.photo, "cards": [s.as_json() for s in self.cards]}
        if starter is not None:
            out["starter"] = str(starter)
            out["count"] = self.count(starter)
        return out


def decode(data: bytes) -> Any:
    """The photo's pixels (h, w, 3 RGB), upright as the camera held it; ReaderError if it is
    no JPEG, PNG or WebP image, or too big (in bytes, or in pixels: a decompression bomb)."""
    if len(data) > MAX_BYTES:
        raise ReaderError(
            Phrase.of(N_("The photo is too big: {mb} MB at most."), mb=MAX_BYTES >> 20)
        )
    import numpy as np
    from PIL import Image, ImageOps, UnidentifiedImageError

    not_photo = ReaderError(Phrase(N_("That is not a photo: send a JPEG, PNG or WebP image.")))
    too_many = ReaderError(
        Phrase.of(
            N_("The photo has too many pixels: {mp} million at most."), mp=MAX_PIXELS // 1_000_000
        )
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data), formats=FORMATS)
            if image.width * image.height > MAX_PIXELS:
                raise too_many
            upright = ImageOps.exif_transpose(image).convert("RGB")
            return np.asarray(upright)
        except ReaderError:
            raise
        except (Image.DecompressionBombWarning, Image.DecompressionBombError) as e:
            raise too_many from e
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as e:  # broken too
            raise not_photo from e


def read(data: bytes, photo: str = "") -> Reading:
    """Read the cards in a photo's bytes; ReaderError (one line) when none can be read."""
    from pegboard.reader.corners import read_image

    return Reading(photo, read_image(decode(data)))
