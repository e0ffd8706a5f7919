"""An adapter that follows the front door from a thread of its own.

The door calls :meth:`Follower.heard` on the thread telling the change (the one that made
it, or another telling at the time), so it must only note the change and return (the
button-to-LED path waits for nobody); the follower's thread does the work in
:meth:`Follower.run` until :meth:`Follower.close`, from the door's snapshots it was told
(:attr:`Follower.now`: the board after the last change heard), never reading the door.
The LED painter and the voice are followers.
"""

from __future__ import annotations

import threading

from pegboard.keeper.change import Change, latest
from pegboard.keeper.door import Scorekeeper


class Follower:
    """Subscribes to ``keeper`` and starts its thread named ``name``. A subclass sets up
    its own fields first, then calls ``super().__init__``; it waits on ``self._cond``
    and stops when ``self._closed`` is set."""

    def __init__(self, keeper: Scorekeeper, name: str) -> None:
        self.keeper = keeper
        self._cond = threading.Condition()
        self._closed = False
        self.now = keeper.now  # the board after the last change heard
        self._unsubscribe = keeper.subscribe(self._told)
        with self._cond:
            self.now = latest(self.now, keeper.now)  # one made while subscribing
        self._thread = threading.Thread(target=self.run, name=name, daemon=True)
        self._thread.start()

    def _told(self, change: Change) -> None:
        with self._cond:
            self.now = latest(self.now, change)
        self.heard(change)

    def heard(self, change: Change) -> None:
        """Note ``change`` (under ``self._cond``) and return at once (:attr:`now` is
        already the board after it)."""
        raise NotImplementedError

    def run(self) -> None:
        """The follower's thread: work until ``self._closed``."""
        raise NotImplementedError

    @property
    def alive(self) -> bool:
        """True while the follower's thread runs."""
        return self._thread.is_alive()

    def close(self, timeout: float = 5.0) -> None:
        """Stop following and end the thread. Safe twice."""
        self._unsubscribe()
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)
