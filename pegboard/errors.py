"""One family of errors, each with a message a player can read.

Each family is also a built-in exception, so callers may catch either
(``CardError`` is a ``ValueError``). An error is raised with an English sentence or
with a :class:`~pegboard.i18n.Phrase`; ``str(error)`` is the English either way, and
``error.phrase`` says it in the language of whoever hears it.

>>> from pegboard.i18n import N_, Phrase
>>> error = RuleError(Phrase.of(N_("{card} is given twice"), card="5♥"))
>>> str(error), error.phrase.say("de")
('5♥ is given twice', '5♥ ist doppelt angegeben')
>>> RuleError("a {sentence} of no template").phrase.say("fi")
'a {sentence} of no template'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pegboard.i18n imports this module
    from pegboard.i18n import Phrase


class PegboardError(Exception):
    """Root of every error pegboard raises on purpose."""

    @property
    def phrase(self) -> Phrase:
        """What the error says, in any language; a plain sentence is said as it stands."""
        from pegboard.i18n import Phrase

        said = self.args[0] if len(self.args) == 1 else None
        return said if isinstance(said, Phrase) else Phrase.as_is(str(self))


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
