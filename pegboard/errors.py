"""One family of errors, each with a message a player can read.

Each family is also a built-in exception, so callers may catch either
(``CardError`` is a ``ValueError``). An error is raised with an English sentence or
with a :class:`~pegboard.i18n.Phrase`; ``str(error)`` is the English either way, and
:func:`pegboard.i18n.phrase_of` says it in the language of whoever hears it. This
module imports nothing of pegboard's: every other module may raise these.
"""

from __future__ import annotations


class PegboardError(Exception):
    """Root of every error pegboard raises on purpose."""


class CardError(PegboardError, ValueError):
    """A card token that cannot be read, or a card given twice."""


class PlayError(PegboardError, ValueError):
    """A card that cannot be laid in the play (it would pass 31)."""


class RuleError(PegboardError, ValueError):
    """An entry the rules refuse: impossible claim, wrong order, game over."""


class StoreError(PegboardError, OSError):
    """The saved game cannot be opened or written safely."""


class ConflictError(StoreError):
    """Someone else wrote to the game first (a button and a phone at once): look again."""


class ConfigError(PegboardError, ValueError):
    """A configuration file or setting that is wrong."""


class LayoutError(ConfigError):
    """A board layout that is inconsistent."""


class LinkError(PegboardError, OSError):
    """The serial link to the LED controller failed."""


class ClubError(PegboardError, ValueError):
    """A club night's request that cannot be made (a player twice, a round drawn before
    the last one ended, a table not in the night): nothing changed."""


class ReaderError(PegboardError, ValueError):
    """A photo the card reader cannot read: not an image, too big, blurred, no card face in
    it, a joker, or more cards than a show holds. Nothing was read."""


class CameraError(PegboardError, OSError):
    """The board's own camera cannot be opened or did not take the photo (no picamera2, no
    camera, an empty folder of the simulated one): nothing was read."""
