"""The board after a change of the front door's: one immutable snapshot (:class:`Change`)
the door builds once and hands, in order, to every subscriber (the LED painter, the
panel's live streams, the voice), and that every reader takes whole
(:attr:`pegboard.keeper.Scorekeeper.now`): no one reads the door part by part, so no two
parts of what one draws come from two different moments.

>>> change = Change("dial", 3, None, (2, 0, 0, 0), seat=0, dial=True)
>>> change.versions, dict(change.lit), change.brightness
(Versions(changes=3, lit=0), {}, 1.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

from pegboard.game import State
from pegboard.i18n import Phrase
from pegboard.keeper.photo import BoardPhoto
from pegboard.keeper.said import SILENCE


class Versions(NamedTuple):
    """How far the door has come: its changes, and the LED frames shown (see
    :meth:`pegboard.keeper.Scorekeeper.versions`)."""

    changes: int
    lit: int


Lit = Mapping[str, str]  # hole id -> colour of every lit hole (never changed: replaced)
NOTHING_LIT: Lit = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Change:
    """One change announced by the front door, and the board after it: one immutable
    snapshot, built once (under the door's lock, by the thread that made the change: the
    writer, for an entry) and handed in order to every subscriber. A subscriber reads the
    board from it and never from the door, so what it draws is what changed.

    ``what`` is ``"game"`` (an entry, a new game), ``"dial"`` (a count being dialled),
    ``"refused"`` (nothing changed: ``said`` says why), ``"brightness"``, ``"repeat"``
    (say the last announcement again: nothing changed), ``"photo"`` (the board's camera
    read the count due: ``photo``) or ``"lit"`` (the LEDs now show ``lit``);
    ``"replayed"`` is never announced: a request made before, answered again
    (:meth:`Scorekeeper.once`). ``version`` counts the changes (a "lit" one is not
    counted: ``lit_version`` counts those); ``seat`` is whose dial or entry it was, when
    known; ``dial`` is True when it came from a seat's own controls. ``state``,
    ``dials``, ``lit``, ``brightness``, ``message``, ``game_id`` and ``photo`` (the board's
    camera's reading of the count due, until the game moves on) are the board's after
    the change (as :attr:`Scorekeeper.now` tells them)."""

    what: str
    version: int
    state: State | None
    dials: tuple[int, ...]
    said: Phrase = SILENCE
    seat: int | None = None
    dial: bool = False
    before: State | None = None
    lit: Lit = field(default_factory=lambda: NOTHING_LIT)
    lit_version: int = 0
    brightness: float = 1.0
    message: Phrase = SILENCE
    game_id: int | None = None
    photo: BoardPhoto | None = None

    @property
    def versions(self) -> Versions:
        """How far the door had come with this change."""
        return Versions(self.version, self.lit_version)


def latest(kept: Change, heard: Change) -> Change:
    """The later of two of the door's snapshots (a follower that reads :attr:`now` as it
    subscribes may hear an older one told after)."""
    return heard if heard.versions >= kept.versions else kept
