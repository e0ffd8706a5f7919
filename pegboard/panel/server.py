"""The panel's HTTP server: one port, one event loop (tornado) for every connection, the
Flask app's calls on a small pool of threads, the live streams held by the loop.

Why not waitress alone: a WSGI server gives each response a worker thread until it
ends, and a live stream never ends, so 32 open streams took all 32 workers and the panel
stopped for everyone (and a stream cannot hand its thread back). Here the loop reads
every request whole (within the limits below) before a worker sees it, and writes every
live stream itself. The app runs on the pool behind tornado's request callback
(:mod:`pegboard.panel.container`, by tornado's public API); a live stream opened by the
app (it checks its Host, picks its language, renders its first message in a worker like
any request) is handed over to the hub (:mod:`pegboard.panel.hub`) instead of being
answered whole. One broadcaster thread
renders each change once per language and the loop writes it to each stream. Streams
cost memory, not threads. A club serves all of a night's hosted tables so, on one port
(:mod:`pegboard.panel.mounts`): one loop and one pool for every table's panel, each
table's broadcaster writing to its own table's streams.

Tornado was chosen over an ASGI server (uvicorn, hypercorn) because it bounds the
time a request's head and body may take (``header_seconds``, ``body_seconds``: uvicorn
has no such deadline, so a request trickled a byte at a time holds its connection
forever), refuses a body over ``body_bytes`` before reading it, keeps bodies in memory
(nothing is spooled to disk), serves a WSGI app with no adapter package, installs from
PyPI on Raspberry Pi OS (Python 3.11) and monkey-patches nothing (gpiozero runs real
threads). On top of it: a cap on open connections that grows with what the machine can
hold (:func:`machine_connections`), in all and per address; a share of them no watcher's
stream may take, kept for signed-in phones; fair room for a newcomer when they are all
taken (the hub ends a stream of the address that holds the most); TCP keepalive and a
user timeout so a phone that vanished is dropped within seconds; and a stream whose
writes do not drain is dropped.

>>> server = PanelServer(lambda environ, start: [], "127.0.0.1", 0)
>>> server.port > 0 and server.limits.connections >= 64
True
>>> server.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import socket
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

from flask import Flask
from tornado import httputil, netutil
from tornado.http1connection import HTTP1ServerConnection
from tornado.httpserver import HTTPServer
from tornado.iostream import IOStream

from pegboard.panel.api import Board
from pegboard.panel.container import BUSY, Panel
from pegboard.panel.hub import Hub
from pegboard.panel.keepalive import KeepAlive, Watched
from pegboard.panel.live import Broadcast
from pegboard.panel.mounts import Mounts

log = logging.getLogger(__name__)

FILES_KEPT = 128  # open files the board needs besides the connections (game file, Pico, ...)
CONNECTION_KB = 256  # the most one connection may hold: its stream's backlog and buffers
MOST_CONNECTIONS = 8192


@dataclass(frozen=True)
class Limits:
    """What one connection, and all of them, may take."""

    threads: int = 8  # the Flask app's calls at once (the rest wait their turn)
    connections: int = 0  # open at once, streams included; 0: what the machine can hold
    per_address: int = 48  # open at once from one address (a phone opens 6 at most)
    reserve: float = 0.125  # the share of connections no watcher's stream may take
    stream_seconds: float = 600.0  # a stream lasts about this long; the phone takes it up again
    header_seconds: float = 10.0  # a request's head must arrive within this (also idle)
    body_seconds: float = 10.0  # and its body within this
    header_bytes: int = 16 * 1024
    body_bytes: int = 2 * 1024 * 1024 + 64 * 1024  # larger: refused before it is read (a photo
    # for POST /api/cards is the largest body; the app holds every other one to 16 kB)
    stall_seconds: float = 10.0  # a stream whose writes do not drain this long is dropped
    stream_backlog: int = 64 * 1024  # bytes waiting for a stream; more: it is dropped
    vanish_seconds: float = 10.0  # unacknowledged data this long: the phone is gone
    crowded: float = 0.75  # the share of connections open from which keep-alive is held
    crowded_per_address: int = 8  # tighter: an address keeps this many (a phone opens 6)
    crowded_idle_seconds: float = 2.0  # and an idle one is closed after this

    @property
    def watcher_streams(self) -> int:
        """Streams the phones that are not signed in may hold together."""
        return max(1, self.connections - max(1, round(self.connections * self.reserve)))

    def sized(self) -> Limits:
        """These limits with ``connections`` worked out, if 0, from the machine."""
        return self if self.connections else replace(self, connections=machine_connections())


def machine_connections() -> int:
    """As many connections as this machine can hold: within the open files allowed (the
    soft limit raised to the hard one, as any program may) and the memory available
    (CONNECTION_KB each, at most half of it), between 64 and MOST_CONNECTIONS."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MOST_CONNECTIONS + FILES_KEPT
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass  # kept as it is
    files = MOST_CONNECTIONS if soft == resource.RLIM_INFINITY else soft - FILES_KEPT
    return max(64, min(files, _available_kb() // 2 // CONNECTION_KB, MOST_CONNECTIONS))


def _available_kb() -> int:
    """The memory available to programs (Linux: MemAvailable), else a Pi Zero's."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 256 * 1024


class PanelServer:
    """Serve the WSGI ``app`` on ``host``:``port`` (0: any free port) until :meth:`stop`.
    The port is bound at once (so a taken port fails here, before serving). The app's
    broadcaster (:class:`~pegboard.panel.api.Board`), if it has one, feeds the live streams;
    ``app`` may be :class:`~pegboard.panel.mounts.Mounts`: the panels mounted in it (a
    club's hosted tables), each its broadcaster's streams, from its mounting to its going."""

    def __init__(self, app: Any, host: str, port: int, limits: Limits | None = None) -> None:
        self.app, self.limits = app, (limits or Limits()).sized()
        self._sockets = netutil.bind_sockets(port, host or None)
        self._loop = asyncio.new_event_loop()
        self._stopping = asyncio.Event()
        self._pool = ThreadPoolExecutor(self.limits.threads, thread_name_prefix="panel")
        self.hub = Hub(self.limits)

    @property
    def port(self) -> int:
        return int(self._sockets[0].getsockname()[1])

    def run(self) -> None:
        """Serve until :meth:`stop` (on this thread)."""
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._serve())
        finally:
            self.close()

    def stop(self) -> None:
        """End :meth:`run`: safe from any thread and from a signal handler."""
        if not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._stopping.set)

    def close(self) -> None:
        """Release the port and the threads; safe twice."""
        for sock in self._sockets:
            sock.close()
        self._pool.shutdown(wait=False, cancel_futures=True)
        if not self._loop.is_running() and not self._loop.is_closed():
            self._loop.close()

    async def _serve(self) -> None:
        loop = asyncio.get_running_loop()
        limits = self.limits
        http = _Connections.of(Panel(self.app, self._pool, self.hub), limits, self.hub)
        http.add_sockets(self._sockets)

        def hook(app: Flask) -> Callable[[], None]:
            """Hear the broadcasts of ``app``'s board, until the call returned."""
            board = Board.find(app)
            if board is None:  # an app without a board has no broadcasts
                return _nothing
            source = board.live

            def sink(sent: Broadcast) -> None:  # on the broadcaster's thread: to the loop
                loop.call_soon_threadsafe(self.hub.send, sent, source)

            stop = source.add_sink(sink)

            def unhook() -> None:  # its streams end with it (on the loop)
                stop()
                with contextlib.suppress(RuntimeError):  # the loop closed: no stream is left
                    loop.call_soon_threadsafe(self.hub.forget, source)

            return unhook

        unhook: Callable[[], None] = _nothing
        if isinstance(self.app, Mounts):  # each app mounted, from its mounting to its going
            unhook = self.app.follow(hook)
        elif isinstance(self.app, Flask):
            unhook = hook(self.app)
        beat = asyncio.ensure_future(self.hub.beat())
        sweep = asyncio.ensure_future(http.sweep())
        try:
            await self._stopping.wait()
        finally:
            unhook()
            beat.cancel()
            sweep.cancel()
            http.stop()
            self.hub.close()
            await http.close_all_connections()


class _Connections(HTTPServer):
    """Tornado's HTTP server with a cap on open connections, in all and per address, and
    TCP settings that find a vanished phone. When every connection is taken, an idle
    keep-alive connection of the address that holds the most is closed, or the hub ends
    a stream of it, to let a newcomer in; a crowded board holds keep-alive tighter
    (:mod:`pegboard.panel.keepalive`)."""

    limits: Limits
    hub: Hub
    keepalive: KeepAlive
    _open: Counter[str]  # open connections by address
    _address_of: dict[IOStream, str]

    @classmethod
    def of(cls, panel: Panel, limits: Limits, hub: Hub) -> _Connections:
        """The server of ``panel``, held to ``limits``."""
        http = cls(
            panel,
            idle_connection_timeout=limits.header_seconds,
            body_timeout=limits.body_seconds,
            max_header_size=limits.header_bytes,
            max_body_size=limits.body_bytes,
            max_buffer_size=limits.body_bytes + limits.header_bytes,
        )
        http.limits, http.hub, http.keepalive = limits, hub, KeepAlive()
        http._open, http._address_of = Counter(), {}
        return http

    def handle_stream(self, stream: IOStream, address: Any) -> None:
        ip = address[0] if isinstance(address, tuple) else ""
        if not self._room_for(ip):
            stream.write(BUSY).add_done_callback(lambda _: stream.close())
            return
        _tune(stream.socket, self.limits)
        self._open[ip] += 1
        self._address_of[stream] = ip
        super().handle_stream(stream, address)

    def _room_for(self, ip: str) -> bool:
        """Whether a new connection from ``ip`` may open (an idle one, its own or of
        the address holding the most, closed for it when the board is crowded or full)."""
        limits, holds = self.limits, self._open[ip]
        if holds >= limits.per_address:
            return self._close_idle(self.keepalive.oldest(ip))
        crowded = self._crowded() and holds >= limits.crowded_per_address
        if crowded and self._close_idle(self.keepalive.oldest(ip)):  # its own idle one goes
            return True
        if self._open.total() < limits.connections:
            return True
        oldest = self.keepalive.oldest(most=self._open)
        if oldest is not None and self._open[self._address_of.get(oldest, "")] > holds:
            return self._close_idle(oldest)
        return self.hub.make_room(ip, holds)

    def _close_idle(self, stream: IOStream | None) -> bool:
        """Close an idle connection (its place is taken at once); False: there is none."""
        if stream is None:
            return False
        ip = self._address_of.pop(stream, None)
        if ip is not None:  # counted out now: on_close finds nothing to count
            self._open[ip] -= 1
            if not self._open[ip]:
                del self._open[ip]
        self.keepalive.close(stream)
        return True

    def _crowded(self) -> bool:
        return self._open.total() >= self.limits.connections * self.limits.crowded

    async def sweep(self) -> None:
        """While the board is crowded, close keep-alive connections idle too long."""
        while True:
            await asyncio.sleep(min(1.0, self.limits.crowded_idle_seconds / 2))
            if self._crowded():
                for stream in self.keepalive.stale(self.limits.crowded_idle_seconds):
                    self._close_idle(stream)

    def start_request(
        self, server_conn: object, request_conn: httputil.HTTPConnection
    ) -> httputil.HTTPMessageDelegate:
        """Each request's delegate, watched: the connection is idle until its head comes."""
        stream = cast(HTTP1ServerConnection, server_conn).stream
        ip = self._address_of.get(stream)
        if ip is not None:
            self.keepalive.idle(stream, ip)
        delegate = super().start_request(server_conn, request_conn)
        return Watched(delegate, lambda: self.keepalive.busy(stream))

    def on_close(self, server_conn: Any) -> None:
        self.keepalive.busy(server_conn.stream)
        ip = self._address_of.pop(server_conn.stream, None)
        if ip is not None:
            self._open[ip] -= 1
            if not self._open[ip]:
                del self._open[ip]
        super().on_close(server_conn)


def _tune(sock: socket.socket, limits: Limits) -> None:
    """Keepalive probes on an idle connection, and a limit on unacknowledged data: a
    phone switched off is found within seconds, not hours (Linux; elsewhere skipped)."""
    if sock.family not in (socket.AF_INET, socket.AF_INET6):
        return
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    seconds = max(1, int(limits.vanish_seconds))
    for option, value in (
        ("TCP_KEEPIDLE", seconds),
        ("TCP_KEEPINTVL", max(1, seconds // 3)),
        ("TCP_KEEPCNT", 3),
        ("TCP_USER_TIMEOUT", seconds * 1000),
    ):
        if hasattr(socket, option):
            sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, option), value)


def _nothing() -> None:
    """What stops the broadcasts of an app without a board."""
