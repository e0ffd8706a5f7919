"""The order of the door's changes: made one at a time by a thread of their own, told to the
subscribers in the order made.

A :class:`Line` runs jobs one at a time in the order they are given, on a thread of its
own (started at the first job; it ends when the line is dropped): the front door's writer
is one, so an entry waiting on the game file holds up no one but the entries behind it.
A :class:`Teller` tells each change made to every subscriber, in order, without the lock
it was made under; no one waits on a subscriber: who makes a change while a change is
being told (another thread, or a subscriber itself, hearing one) queues it and leaves it
to the teller, who tells it to everyone once the change before it is told to everyone.
So every subscriber hears every change in the order made, and a slow subscriber holds up
only the telling.

>>> line, done = Line("cook"), []
>>> line.put(done.append, "eggs")
>>> line.run(lambda: done.append("toast") or len(done))
2
>>> teller, heard = Teller(), []
>>> _ = teller.subscribe(heard.append)
>>> teller.queue("served")
>>> teller.tell()
>>> heard
['served']
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, TypeVar

from pegboard.errors import PegboardError

log = logging.getLogger(__name__)
T = TypeVar("T")


class Line:
    """Jobs done one at a time, in the order given, by the line's own thread ``name``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._pool = ThreadPoolExecutor(1, thread_name_prefix=name)
        self._here = threading.local()  # .inside: this thread is the line's

    @property
    def inside(self) -> bool:
        """True on the line's own thread (a job that asks the line for more work)."""
        return getattr(self._here, "inside", False)

    def run(self, job: Callable[[], T]) -> T:
        """Do ``job`` after every job given before it and return what it returns (or
        raise what it raised); a job of the line's own is done at once."""
        if self.inside:
            return job()
        return self._pool.submit(self._do, job).result()

    def put(self, job: Callable[..., Any], *args: Any) -> None:
        """Do ``job(*args)`` after every job given before it; no one waits for it. A
        refusal (a PegboardError) was told by the job; anything else is logged."""
        self._pool.submit(self._do, self._quiet, job, *args)

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until every job given so far is done; False after ``timeout`` seconds."""
        if self.inside:
            return True
        try:
            self._pool.submit(_nothing).result(timeout)
        except TimeoutError:
            return False
        return True

    def _do(self, job: Callable[..., T], *args: Any) -> T:
        self._here.inside = True
        try:
            return job(*args)
        finally:
            self._here.inside = False

    def _quiet(self, job: Callable[..., Any], *args: Any) -> None:
        try:
            job(*args)
        except PegboardError:
            pass
        except Exception:
            log.exception("%s: %r failed", self.name, job)


class Teller(Generic[T]):
    """Tells every subscriber each change queued, in the order queued, one teller at a
    time: :meth:`queue` under the lock the change is made under, then :meth:`tell` once
    that lock is let go."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queued: deque[T] = deque()
        # Taken, never waited for: held by whoever is telling. Not re-entrant: a
        # subscriber that makes a change while it is told one only queues it, and the
        # teller tells it after the one being told (a re-entrant lock told it at once,
        # to the subscribers after this one before the change they had not heard yet).
        self._telling = threading.Lock()
        self._subscribers: list[Callable[[T], None]] = []

    def subscribe(self, callback: Callable[[T], None]) -> Callable[[], None]:
        """Call ``callback(change)`` for every change told from now on; returns the
        unsubscribe."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def queue(self, change: T) -> None:
        """Queue ``change`` to be told, after the changes queued before it."""
        with self._lock:
            self._queued.append(change)

    def tell(self) -> None:
        """Tell every change queued so far, unless someone is telling (another thread,
        or this one, from a subscriber): the teller tells them, in turn (call it holding
        no lock a subscriber takes)."""
        while self._telling.acquire(blocking=False):
            try:
                self._tell_all()
            finally:
                self._telling.release()
            with self._lock:  # queued as the telling ended: tell it too
                if not self._queued:
                    return

    def _tell_all(self) -> None:
        while True:
            with self._lock:
                if not self._queued:
                    return
                change = self._queued.popleft()
                callbacks = list(self._subscribers)
            for callback in callbacks:
                try:
                    callback(change)
                except Exception:  # one broken listener must not stop the game or the rest
                    log.exception("a subscriber failed: %r", callback)


def _nothing() -> None:
    """A job that does nothing: done once every job before it is."""
