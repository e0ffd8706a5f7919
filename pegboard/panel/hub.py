"""The live streams the panel's server holds (:mod:`pegboard.panel.server`), fairly.

Each broadcast is written to the streams of its language, a comment goes out every few
seconds on a quiet one (a vanished phone shows up as a write that fails), and a stream is
dropped when its phone leaves or stops reading. No stream is held for ever: each ends
after about ``stream_seconds`` and its phone takes it up again at once, telling the
board the last message it had, so it misses nothing (see :mod:`pegboard.panel.live`).

Streams of phones that are not signed in (watchers) may hold all the connections but a
reserve kept for signed-in phones. When the watchers' share is full, a new one is let in
by ending the oldest stream of the address that holds the most, if it holds more than
the newcomer would: an address holding many streams gives way to one holding few, so a
table's worth of phones always gets in, whoever holds the rest. A signed-in phone's
stream is never ended to make room.

One server may serve several panels (:mod:`pegboard.panel.mounts`: a club's hosted
tables): each stream is of the broadcaster (``source``) of the panel that opened it, and
hears that one's broadcasts only; the room the streams take is the server's, shared.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter, deque
from typing import Any

from pegboard.panel.live import AGAIN, HEARTBEAT, STILL_HERE, Broadcast, Handover

RECENT = 64  # broadcasts kept for each source, for the streams being handed over


class Hub:
    """The live streams; ``limits`` is the server's :class:`~pegboard.panel.server.Limits`."""

    def __init__(self, limits: Any) -> None:
        self.limits = limits
        self._streams: dict[_Stream, None] = {}  # oldest first
        self._watching: Counter[str] = Counter()  # watchers' streams by address
        self._recent: dict[object, deque[Broadcast]] = {}  # by source: for streams handed over

    def __len__(self) -> int:
        return len(self._streams)

    @property
    def watchers(self) -> int:
        """Streams of phones that are not signed in."""
        return sum(self._watching.values())

    def admit(self, handover: Handover, address: str) -> bool:
        """Whether there is room for the stream ``handover`` from ``address`` (made, if
        need be): none for a watcher's while the watchers' share is full and no address
        holds more than this one would."""
        full = not handover.signed_in and self.watchers >= self.limits.watcher_streams
        return not full or self.make_room(address, self._watching[address])

    def add(self, connection: Any, handover: Handover, address: str) -> None:
        """A stream handed over by the app (:meth:`admit` first): its first message,
        then what it missed."""
        stream = _Stream(self, connection, handover, address)
        self._streams[stream] = None
        if not handover.signed_in:
            self._watching[address] += 1
        connection.set_close_callback(lambda: self.drop(stream))
        stream.write(handover.first)
        for broadcast in self._recent.get(handover.source, ()):
            if broadcast.number > handover.seen:
                stream.write(broadcast.texts.get(handover.lang, b""))

    def make_room(self, address: str, holds: int) -> bool:
        """End the oldest watcher's stream of the address holding the most streams, if it
        holds more than ``address`` would with one more (``holds`` + 1)."""
        if not self._watching:
            return False
        greedy, most = self._watching.most_common(1)[0]
        if greedy == address or most <= holds + 1:
            return False
        oldest = next(s for s in self._streams if s.address == greedy and not s.signed_in)
        self.drop(oldest)
        return True

    def send(self, broadcast: Broadcast, source: object = None) -> None:
        """Write ``broadcast`` (of the broadcaster ``source``) to the streams of ``source``."""
        self._recent.setdefault(source, deque(maxlen=RECENT)).append(broadcast)
        for stream in list(self._streams):
            if stream.source is source:
                stream.write(broadcast.texts.get(stream.lang, b""))

    def forget(self, source: object) -> None:
        """End the streams of ``source`` and forget its broadcasts (its panel went)."""
        self._recent.pop(source, None)
        for stream in [s for s in self._streams if s.source is source]:
            self.drop(stream)

    async def beat(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            now = time.monotonic()
            for stream in list(self._streams):
                stream.check(now)

    def drop(self, stream: _Stream, *, finish: bool = False) -> None:
        """Stop writing ``stream``: its connection closed, or (``finish``) its response
        ended whole, so the phone takes it up again."""
        if stream in self._streams:
            del self._streams[stream]
            if not stream.signed_in:
                self._watching[stream.address] -= 1
                if self._watching[stream.address] <= 0:
                    del self._watching[stream.address]
            stream.close(finish)

    def close(self) -> None:
        for stream in list(self._streams):
            self.drop(stream)


class _Stream:
    """One live stream: one write at a time, the rest queued (and joined) behind it."""

    def __init__(self, hub: Hub, connection: Any, handover: Handover, address: str) -> None:
        self.hub, self.connection, self.address = hub, connection, address
        self.lang, self.signed_in, self._release = (
            handover.lang,
            handover.signed_in,
            handover.release,
        )
        self.source = handover.source
        self._waiting: list[bytes] = []
        self._queued = 0
        self._writing_since: float | None = None
        self._last = time.monotonic()
        spread = random.uniform(0.8, 1.2)  # the phones of one moment do not come back together
        self._ends = self._last + hub.limits.stream_seconds * spread

    def write(self, data: bytes) -> None:
        if not data:
            return
        self._waiting.append(data)
        self._queued += len(data)
        if self._queued > self.hub.limits.stream_backlog:
            self.hub.drop(self)  # it stopped reading
        elif self._writing_since is None:
            self._flush()

    def _flush(self) -> None:
        data, self._waiting, self._queued = b"".join(self._waiting), [], 0
        self._writing_since = self._last = time.monotonic()
        self.connection.write(data).add_done_callback(self._written)

    def _written(self, future: asyncio.Future[None]) -> None:
        self._writing_since = None
        if future.exception() is not None:
            self.hub.drop(self)
        elif self._waiting:
            self._flush()

    def check(self, now: float) -> None:
        """Drop a stream whose write has not drained; end one that has lasted its time;
        say something on a quiet one."""
        since = self._writing_since
        if since is not None and now - since > self.hub.limits.stall_seconds:
            self.hub.drop(self)
        elif since is None and now >= self._ends:
            self.hub.drop(self, finish=True)
        elif since is None and now - self._last >= HEARTBEAT:
            self.write(STILL_HERE)

    def close(self, finish: bool) -> None:
        self._release()
        if finish and not self.connection.stream.closed():
            self.connection.set_close_callback(None)
            self.connection.write(AGAIN)
            self.connection.finish()  # the phone's browser asks for the stream again
        else:
            self.connection.close()
