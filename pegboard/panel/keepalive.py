"""Keep-alive connections held fairly as the board nears its limit
(:mod:`pegboard.panel.server`).

A phone keeps a few connections open between requests (keep-alive), and so can anyone
on the Wi-Fi: 17 addresses holding 48 each (a ``GET /healthz`` every 7 s keeps each
alive) took every connection a Pi has, and a new phone got 429 every time. So the
server knows which connections are *idle* (between two requests: waiting for the next
one's head) and, once the board is **crowded** (``Limits.crowded`` of its connections
open):

- an idle connection is closed after ``crowded_idle_seconds`` rather than
  ``header_seconds`` (a browser opens a new one when it needs it);
- an address keeps at most ``crowded_per_address`` connections: its next one closes
  its own oldest idle one first;
- when every connection is taken, a newcomer is let in by closing the oldest idle
  connection of the address that holds the most (more than the newcomer's own), so a
  new phone, and a signed-in phone's request, always get through.

A connection in the middle of a request, and a live stream, is never idle: only the
hub (:mod:`pegboard.panel.hub`) ends streams.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from tornado import httputil
from tornado.iostream import IOStream


class KeepAlive:
    """The idle connections (stream -> since when) and their addresses."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._idle: dict[IOStream, tuple[str, float]] = {}

    def idle(self, stream: IOStream, address: str) -> None:
        """``stream`` waits for its next request's head from now."""
        self._idle[stream] = (address, self.clock())

    def busy(self, stream: IOStream) -> None:
        """``stream`` is in a request (or gone)."""
        self._idle.pop(stream, None)

    def oldest(self, address: str | None = None, *, most: Any = None) -> IOStream | None:
        """The oldest idle connection of ``address`` (None: of the address that holds
        the most connections by ``most``, a Counter of open connections)."""
        if address is None and most is not None:
            holders = {a for a, _ in self._idle.values()}
            if not holders:
                return None
            address = max(holders, key=lambda a: most[a])
        found = [(since, stream) for stream, (a, since) in self._idle.items() if a == address]
        return min(found, key=lambda pair: pair[0])[1] if found else None

    def stale(self, seconds: float) -> list[IOStream]:
        """The connections idle for more than ``seconds``."""
        now = self.clock()
        return [stream for stream, (_, since) in self._idle.items() if now - since > seconds]

    def close(self, stream: IOStream) -> None:
        self.busy(stream)
        stream.close()


class Watched(httputil.HTTPMessageDelegate):
    """A request's delegate that tells when its head has come: the connection is busy."""

    def __init__(self, delegate: httputil.HTTPMessageDelegate, busy: Callable[[], None]) -> None:
        self.delegate, self._busy = delegate, busy

    def headers_received(
        self,
        start_line: httputil.RequestStartLine | httputil.ResponseStartLine,
        headers: httputil.HTTPHeaders,
    ) -> Awaitable[None] | None:
        self._busy()
        return self.delegate.headers_received(start_line, headers)

    def data_received(self, chunk: bytes) -> Awaitable[None] | None:
        return self.delegate.data_received(chunk)

    def finish(self) -> None:
        self.delegate.finish()

    def on_connection_close(self) -> None:
        self._busy()
        self.delegate.on_connection_close()
