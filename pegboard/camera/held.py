"""The board's photos of the show: the advance button's long press (the door's ``"repeat"``,
from the pins or the simulated board's screen) while a hand or crib is due to be counted,
on a board with a camera, takes a photo of it, reads and checks it for that count and hands
it to the front door (:meth:`Scorekeeper.show_photo
<pegboard.keeper.Scorekeeper.show_photo>`), whose snapshots carry it to every phone until
the game moves on: a phone whose pad for that count is open picks its cards, as with a
photo of its own. The long press still has the last announcement said again. A long press
counts as nothing else (:class:`pegboard.inputs.Switch`): a hold never also advances.

The shot and its reading take a while (a second or so on a Pi): they are made on a thread
of their own; the door's subscriber only notes the count and returns.
"""

from __future__ import annotations

import logging

from pegboard.camera.base import Camera
from pegboard.keeper import Change, Count, Scorekeeper
from pegboard.keeper.order import Line
from pegboard.keeper.photo import board_photo, show_due

log = logging.getLogger(__name__)


class Shots:
    """Photos of the counts due when ``keeper``'s advance button is held, taken by
    ``camera`` one at a time, from its making until :meth:`close`."""

    def __init__(self, keeper: Scorekeeper, camera: Camera) -> None:
        self.keeper, self.camera = keeper, camera
        self._line = Line("camera")
        self._unsubscribe = keeper.subscribe(self._heard)

    def __repr__(self) -> str:
        return f"<Shots {self.camera!r}>"

    def close(self) -> None:
        """No photo is asked for after it (one being taken is still handed over)."""
        self._unsubscribe()

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until every photo asked for so far is handed to the door (False after
        ``timeout`` seconds)."""
        return self._line.settle(timeout)

    def _heard(self, change: Change) -> None:
        count = show_due(change.state) if change.what == "repeat" else None
        if count is not None:
            self._line.put(self._taken, count)

    def _taken(self, count: Count) -> None:
        state = self.keeper.state
        if state is None:
            return
        photo = board_photo(state, count, self.camera.shoot)
        if photo.error is not None:
            log.info("the board's photo of %s: %s", count, photo.error)
        self.keeper.show_photo(photo)  # dropped by the door if the game moved on meanwhile
