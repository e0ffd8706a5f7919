"""The live stream: one broadcaster for every phone that follows the board.

A phone opens ``/api/events`` (server-sent events) and hears, in its own language:

- ``state``: the board (the panel's snapshot) after a change, with the game's ``chain``
  as stored (:func:`~pegboard.panel.view.chain`: what a club following the board
  witnesses), and what the history
  gained as ``game.history = {"count", "at", "prev", "from", "entries"}``: the phone's
  copy of the history at ``prev`` becomes the copy at ``at`` by keeping its first
  ``from`` lines and adding ``entries``. Without ``prev`` (a first stream, or after a
  jump too long to send), the phone reads the history at ``at`` from
  ``/api/history``, page by page (:meth:`Live.board_at` keeps the recent boards for it).
  Its event id is its tag ``at``: a phone that takes the stream up again (the board ends
  each after a while) sends it back as ``Last-Event-ID``, and its first message then
  tells what the history gained since, so nothing is missed.
- ``dials``: the counts being dialled, when only they changed;
- ``frame``: the lit holes, when the LEDs change;
- ``again``: the board ends this stream (each lasts a while): the browser asks again.

One thread renders each change once for each language being followed and hands the
messages to the sinks: the evented server's hub (:mod:`pegboard.panel.server`), which
writes them to every stream it holds without a thread per stream, or, under any other
WSGI server (Flask's test client), one :class:`Feed` per stream, read by the thread
that serves it. Changes that come faster than they are sent are sent together.
"""

from __future__ import annotations

import json
import queue
import secrets
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from pegboard.keeper import Change, Scorekeeper, State, latest
from pegboard.panel.view import chain, history, snapshot

HEARTBEAT = 5.0  # seconds between keep-alive comments: a gone phone is found by a write
RETRY_MS = (1000, 4000)  # a phone takes up a stream the board ended after this (spread)
KEPT = 256  # recent boards kept, so a phone can page the history it was told of
MOST_LINES = 100  # history lines in one message; a longer jump is read from /api/history
NUDGE = 1.0  # how often the broadcaster looks whether the board is closing

Sink = Callable[["Broadcast"], None]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A board that was broadcast: its tag (``at``) and the door's snapshot it shows."""

    at: str
    now: Change

    @property
    def state(self) -> State | None:
        return self.now.state


@dataclass(frozen=True, slots=True)
class Handover:
    """A live stream the app opened, handed to the server that writes it: its language,
    the number of the last round its first message covers (later ones follow it), that
    message, the call that stops following its language, whether its phone is signed
    in (such a stream is never ended to make room for a watcher's), and the broadcaster
    it follows (``source``: a server holding several panels' streams tells them apart)."""

    lang: str
    seen: int
    first: bytes
    release: Callable[[], None]
    signed_in: bool = False
    source: object = None


@dataclass(frozen=True, slots=True)
class Broadcast:
    """One round of messages: ``number`` counts rounds; ``texts`` holds the
    server-sent events of the round for each language being followed."""

    number: int
    texts: dict[str, bytes]


def event(name: str, data: object, tag: str | None = None) -> bytes:
    """One server-sent event (``tag``: its id)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    head = "" if tag is None else f"id: {tag}\n"
    return f"{head}event: {name}\ndata: {text}\n\n".encode()


STILL_HERE = b": still here\n\n"
AGAIN = b"event: again\ndata: {}\n\n"  # the board ends this stream: ask again at once


class Live:
    """The board's changes, rendered once per language and handed to every sink; its
    thread runs from its making until the board closes."""

    def __init__(self, keeper: Scorekeeper, *, sim: bool = False, camera: bool = False) -> None:
        self._keeper, self._sim, self._camera = keeper, sim, camera
        self._lock = threading.Condition()
        self._boot = secrets.token_hex(4)  # tags from an earlier run never match
        self._boards: deque[Snapshot] = deque(maxlen=KEPT)
        self._made = 0  # boards recorded
        self._number = 0  # rounds broadcast
        self._changed: set[str] = set()  # kinds of change not yet broadcast
        self._latest = keeper.now  # the last change heard: the board after it
        self._languages: Counter[str] = Counter()
        self._sinks: list[Sink] = []
        keeper.subscribe(self._noted)
        with self._lock:
            self._latest = latest(self._latest, keeper.now)  # one made while subscribing
            self._record(self._latest)
        threading.Thread(target=self._run, name="live", daemon=True).start()

    # --- who listens --------------------------------------------------------------------

    def follow(self, lang: str) -> Callable[[], None]:
        """Render every change in ``lang`` from now on, until the returned call."""
        with self._lock:
            self._languages[lang] += 1
        done = threading.Event()

        def release() -> None:
            if not done.is_set():
                done.set()
                with self._lock:
                    self._languages[lang] -= 1
                    if self._languages[lang] <= 0:
                        del self._languages[lang]

        return release

    def add_sink(self, sink: Sink) -> Callable[[], None]:
        """Hand every broadcast to ``sink`` (called on the broadcaster's thread: keep it
        short). Returns the call that stops it."""
        with self._lock:
            self._sinks.append(sink)
        return lambda: self._drop_sink(sink)

    def _drop_sink(self, sink: Sink) -> None:
        with self._lock:
            if sink in self._sinks:
                self._sinks.remove(sink)

    # --- what a phone reads ---------------------------------------------------------------

    def hello(self, lang: str, since: str | None = None) -> tuple[int, bytes]:
        """The first message of a stream (follow ``lang`` first): how soon to come back
        when the stream ends, the latest board broadcast with its history (what it
        gained since the board tagged ``since``, when that one is still kept, else to be
        read at its tag) and the lit holes; and the number of the last round it covers
        (later rounds follow it)."""
        with self._lock:
            number, board, lit = self._number, self._boards[-1], self._latest
        before = None if since is None else self.board_at(since)
        retry = secrets.randbelow(RETRY_MS[1] - RETRY_MS[0]) + RETRY_MS[0]
        first = self._board(board, before, lang)
        return number, f"retry: {retry}\n\n".encode() + first + _frame(lit)

    def board_at(self, at: str) -> Snapshot | None:
        """The recent board tagged ``at``, if still kept."""
        with self._lock:
            return next((board for board in reversed(self._boards) if board.at == at), None)

    # --- broadcasting -----------------------------------------------------------------------

    def _noted(self, change: Change) -> None:
        """The door's subscriber (on the thread that made the change): note it, return."""
        with self._lock:
            self._changed.add(change.what)
            self._latest = latest(self._latest, change)
            self._lock.notify()

    def _run(self) -> None:
        while not self._keeper.closing:
            with self._lock:
                self._lock.wait_for(lambda: self._changed, timeout=NUDGE)
                changed, self._changed, latest = self._changed, set(), self._latest
            if changed:
                self._broadcast(changed, latest)

    def _broadcast(self, changed: set[str], now: Change) -> None:
        """One round of the changes ``changed`` (their kinds), the board after them
        ``now``: the board (or the dials) and the frame, in every language followed."""
        board = changed & {"game", "refused", "brightness", "photo"}
        dials = {"version": now.version, "pending": [value or None for value in now.dials]}
        frame = _frame(now) if "lit" in changed else b""
        with self._lock:  # the round's number, its board and its languages go together
            before = self._boards[-1]
            after = self._record(now) if board else None
            self._number += 1
            number, languages, sinks = self._number, list(self._languages), list(self._sinks)

        def render(lang: str) -> bytes:
            if after is not None:
                return self._board(after, before, lang) + frame
            return (event("dials", dials) if "dial" in changed else b"") + frame

        texts = {lang: render(lang) for lang in languages}
        for sink in sinks:
            sink(Broadcast(number, texts))

    def _record(self, now: Change) -> Snapshot:
        """Keep a board (under the lock)."""
        self._made += 1
        board = Snapshot(f"{self._boot}.{self._made}", now)
        self._boards.append(board)
        return board

    def _board(self, board: Snapshot, before: Snapshot | None, lang: str) -> bytes:
        """The ``state`` message of ``board`` in ``lang``, its history told as what it
        gained since ``before`` (or only counted)."""
        view = snapshot(self._keeper, lang, sim=self._sim, camera=self._camera, now=board.now)
        if board.state is not None:  # a board with a game: the view has its "game"
            view["game"]["history"] = _gained(board.at, board.state, before, lang)
        view["chain"] = chain(self._keeper)  # what a club that follows the board witnesses
        return event("state", view, board.at)


def _frame(now: Change) -> bytes:
    return event("frame", {"holes": dict(now.lit)})


def _gained(at: str, state: State, before: Snapshot | None, lang: str) -> dict[str, Any]:
    """What the history of ``state`` (the board tagged ``at``) gained since ``before``'s:
    keep the first ``from`` lines, add ``entries``. Without a ``prev``, read it whole."""
    lines = state.history
    told: dict[str, Any] = {"count": len(lines), "at": at, "prev": None}
    old = () if before is None or before.state is None else before.state.history
    kept = _common(old, lines)  # lines equal in value are the same to a phone
    if before is not None and len(lines) - kept <= MOST_LINES:
        told |= {"prev": before.at, "from": kept, "entries": history(state, lang, kept)}
    return told


def _common(old: tuple[object, ...], new: tuple[object, ...]) -> int:
    """How many lines two histories share from the start (the same lines are the same
    objects, so the usual case is quick)."""
    shared = min(len(old), len(new))
    if old[:shared] == new[:shared]:
        return shared
    low, high = 0, shared  # the longest prefix that agrees: the first difference is near the end
    while low < high:
        middle = (low + high + 1) // 2
        if old[:middle] == new[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


class Feed:
    """One live stream read by its own thread (a WSGI server that holds one per
    stream): the broadcasts in its language, queued; a comment when nothing happens."""

    def __init__(self, live: Live, lang: str, closing: Callable[[], bool]) -> None:
        self.lang, self._closing = lang, closing
        self._queue: queue.SimpleQueue[Broadcast] = queue.SimpleQueue()
        self._release = live.follow(lang)
        self._stop = live.add_sink(self._queue.put)
        self.seen, self.first = live.hello(lang)

    def __iter__(self) -> Iterator[bytes]:
        """The first message, then every later broadcast, until the board closes."""
        try:
            yield self.first
            while not self._closing():
                try:
                    broadcast = self._queue.get(timeout=HEARTBEAT)
                except queue.Empty:
                    yield STILL_HERE
                    continue
                if broadcast.number > self.seen and broadcast.texts.get(self.lang):
                    yield broadcast.texts[self.lang]
        finally:
            self.close()

    def close(self) -> None:
        self._stop()
        self._release()
