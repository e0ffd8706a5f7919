"""A photo of a show read and checked for a count of the deal, for whoever took it: a phone
(``POST /api/cards``), the board's own camera (``POST /api/camera``, the advance button's
long press: :mod:`pegboard.camera.held`). One photo is read at a time: the board's cores
are few.

The cards read sure are checked against the deal (:mod:`pegboard.game.photo`: a card
another player laid or showed is refused by name) and, when every card was read sure and
there are enough, checked as that count's: :func:`shown_of` gives them. Nothing of what
they score is worked out here.

:class:`BoardPhoto` is what the board's camera read for the count due, as the door's
snapshots carry it (:attr:`pegboard.keeper.Change.photo`, kept by :class:`Photos` while
the game stands as it was) to every phone whose pad for that count is open: the cards, not
what they score.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from pegboard.errors import PegboardError
from pegboard.game import Count, State
from pegboard.game.photo import not_anothers, shown_cards
from pegboard.game.values import CountKind
from pegboard.i18n import N_, Phrase, phrase_of
from pegboard.reader.seen import Seen
from pegboard.rules.cards import Card

if TYPE_CHECKING:
    from pegboard.reader import Reading

WAIT_SECONDS = 20.0  # for the photo before this one to be read
_one_at_a_time = threading.BoundedSemaphore(1)


class Busy(PegboardError):
    """Another photo is being read, and was not done within :data:`WAIT_SECONDS`."""


def read_one(data: bytes, name: str) -> Reading:
    """``data`` read by the card reader, after the photo being read before it (ReaderError:
    no photo the reader can read; Busy: the board is still reading others)."""
    from pegboard.reader import read

    if not _one_at_a_time.acquire(timeout=WAIT_SECONDS):
        raise Busy(Phrase(N_("the board is reading another photo: try again")))
    try:
        return read(data, photo=name)
    finally:
        _one_at_a_time.release()


def shown_of(state: State, count: Count, seen: Sequence[Seen]) -> tuple[Card, ...] | None:
    """The cards of ``count`` in a photo of its show, when every card was read sure and
    there are enough (else None: the rest are picked by hand); RuleError if a card read
    sure cannot be that count's. Changes nothing."""
    sure = [one.card for one in seen if one.sure]
    if len(sure) == len(seen) and len(sure) >= state.size_of(count.kind):
        return shown_cards(state, count, sure)
    not_anothers(state, count, sure)
    return None


def show_due(state: State | None) -> Count | None:
    """The hand or crib due to be counted now (None: no count of the show is due)."""
    due = None if state is None else state.due
    if due is None or due.kind not in (CountKind.HAND, CountKind.CRIB):
        return None
    return due


class Photos:
    """The door's keeping of the board's photos: the last one read, numbered, told while the
    game stands as it was when it was read (any entry moves it on)."""

    def __init__(self) -> None:
        self._last: tuple[BoardPhoto, int] | None = None  # and the game's version then
        self._count = 0

    def keep(self, state: State | None, photo: BoardPhoto) -> bool:
        """Keep ``photo`` if its count is still due in ``state`` (True), numbered."""
        if state is None or show_due(state) != photo.count:
            return False
        self._count += 1
        self._last = replace(photo, number=self._count), state.version
        return True

    def of(self, state: State | None) -> BoardPhoto | None:
        """The photo kept, while ``state`` is the game it was read in."""
        if self._last is None or state is None or self._last[1] != state.version:
            return None
        return self._last[0]


@dataclass(frozen=True, slots=True)
class BoardPhoto:
    """What the board's camera read for ``count``: the cards seen and, when all were sure,
    the count's cards (``shown``); or why nothing was read (``error``). ``number`` counts
    the board's photos (the door sets it), so a phone picks each one once."""

    count: Count
    cards: tuple[Seen, ...] = ()
    shown: tuple[Card, ...] | None = None
    error: Phrase | None = None
    number: int = 0


def board_photo(state: State, count: Count, shoot: Callable[[], bytes]) -> BoardPhoto:
    """A photo of ``count``'s show taken by ``shoot`` (the board's camera), read and checked
    (what went wrong, the shot included, is its ``error``, in one line)."""
    try:
        reading = read_one(shoot(), "camera")
        return BoardPhoto(count, reading.cards, shown_of(state, count, reading.cards))
    except PegboardError as error:
        return BoardPhoto(count, error=phrase_of(error))
