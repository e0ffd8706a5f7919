"""The panel's HTTP server: one port, one event loop (tornado) for every connection, the
Flask app's calls on a small pool of threads, the live streams held by the loop.

Why not waitress alone: a WSGI server gives each response a worker thread until it
ends, and a live stream never ends, so 32 open streams took all 32 workers and the panel
stopped for everyone (and a stream cannot hand its thread back). Here the loop reads
every request whole (within the limits below) before a worker sees it, and writes every
live stream itself: the Flask app opens a stream (checks its Host, picks its language,
renders its first message) in a worker like any request and hands it over
(:mod:`pegboard.panel.live`); one broadcaster thread renders each change once per
language and the loop writes it to each stream. Streams cost memory, not threads.

Tornado was chosen over an ASGI server (uvicorn, hypercorn) because it bounds the
time a request's head and body may take (``header_seconds``, ``body_seconds``: uvicorn
has no such deadline, so a request trickled a byte at a time holds its connection
forever), refuses a body over ``body_bytes`` before reading it, keeps bodies in memory
(nothing is spooled to disk), serves a WSGI app with no adapter package, installs from
PyPI on Raspberry Pi OS (Python 3.11) and monkey-patches nothing (gpiozero runs real
threads). On top of it: a cap on open connections, in all and per address (one address
cannot take them all), TCP keepalive and a user timeout so a phone that vanished is
dropped within seconds, and a stream whose writes do not drain is dropped.

>>> server = PanelServer(lambda environ, start: [], "127.0.0.1", 0)
>>> server.port > 0
True
>>> server.close()
"""

from __future__ import annotations

import asyncio
import logging
import socket
import sys
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from io import BytesIO
from typing import Any

from tornado import httputil, netutil
from tornado.escape import url_unescape
from tornado.httpserver import HTTPServer
from tornado.iostream import IOStream

from pegboard.panel.api import HUB, STREAM
from pegboard.panel.hosts import LOCAL_ADDRESS
from pegboard.panel.live import HEARTBEAT, STILL_HERE, Broadcast

log = logging.getLogger(__name__)

BUSY = (
    b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 5\r\nConnection: close\r\n"
    b"Content-Length: 0\r\n\r\n"
)


@dataclass(frozen=True)
class Limits:
    """What one connection, and all of them, may take."""

    threads: int = 8  # the Flask app's calls at once (the rest wait their turn)
    connections: int = 800  # open at once, streams included (below the usual 1024 files)
    per_address: int = 48  # open at once from one address (a phone opens 6 at most)
    header_seconds: float = 10.0  # a request's head must arrive within this (also idle)
    body_seconds: float = 10.0  # and its body within this
    header_bytes: int = 16 * 1024
    body_bytes: int = 64 * 1024  # larger: refused before it is read
    stall_seconds: float = 10.0  # a stream whose writes do not drain this long is dropped
    stream_backlog: int = 64 * 1024  # bytes waiting for a stream; more: it is dropped
    vanish_seconds: float = 10.0  # unacknowledged data this long: the phone is gone


class PanelServer:
    """Serve the WSGI ``app`` on ``host``:``port`` (0: any free port) until :meth:`stop`.
    The port is bound at once (so a taken port fails here, before serving)."""

    def __init__(self, app: Any, host: str, port: int, limits: Limits | None = None) -> None:
        self.app, self.limits = app, limits or Limits()
        self._sockets = netutil.bind_sockets(port, host or None)
        self._loop = asyncio.new_event_loop()
        self._stopping = asyncio.Event()
        self._pool = ThreadPoolExecutor(self.limits.threads, thread_name_prefix="panel")
        self.hub = Hub(self.limits)
        self._answering: set[asyncio.Future] = set()

    @property
    def port(self) -> int:
        return self._sockets[0].getsockname()[1]

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
        http = _Connections(
            self._request,
            limits,
            idle_connection_timeout=limits.header_seconds,
            body_timeout=limits.body_seconds,
            max_header_size=limits.header_bytes,
            max_body_size=limits.body_bytes,
            max_buffer_size=limits.body_bytes + limits.header_bytes,
        )
        http.add_sockets(self._sockets)
        live = self.app_live()
        unhook = live.add_sink(lambda sent: loop.call_soon_threadsafe(self.hub.send, sent))
        beat = asyncio.ensure_future(self.hub.beat())
        try:
            await self._stopping.wait()
        finally:
            unhook()
            beat.cancel()
            http.stop()
            self.hub.close()
            await http.close_all_connections()

    def app_live(self):
        """The app's broadcaster (made now, so every change is followed from the start)."""
        from pegboard.panel.api import the_live

        with self.app.app_context():
            return the_live()

    # --- one request ------------------------------------------------------------------------

    def _request(self, request: httputil.HTTPServerRequest) -> None:
        task = asyncio.ensure_future(self._respond(request))
        self._answering.add(task)  # held until done (the loop keeps only weak references)
        task.add_done_callback(self._answering.discard)

    async def _respond(self, request: httputil.HTTPServerRequest) -> None:
        connection = request.connection
        if connection.stream.closed():  # gone before it was answered
            return
        environ = wsgi_environ(request)
        loop = asyncio.get_running_loop()
        try:
            status, headers, body = await loop.run_in_executor(self._pool, self._call, environ)
        except Exception:  # the app answers every error itself: this is a bug of ours
            log.exception("the panel failed on %s %s", request.method, request.path)
            status, headers = "500 Internal Server Error", [("Content-Type", "application/json")]
            body = b'{"error": "internal error: nothing was changed"}'
        code, reason = status.split(" ", 1)
        head = httputil.HTTPHeaders()
        for name, value in headers:
            head.add(name, value)
        start = httputil.ResponseStartLine("HTTP/1.1", int(code), reason)
        stream = environ.get(STREAM)
        if connection.stream.closed():  # the phone went away meanwhile
            if stream is not None:
                stream[3]()
            return
        if stream is not None and int(code) == 200:
            head.pop("Content-Length", None)  # it goes on: chunked
            connection.write_headers(start, head)
            self.hub.add(connection, *stream)
            return
        if "Content-Length" not in head:
            head["Content-Length"] = str(len(body))
        connection.write_headers(start, head, chunk=body)
        connection.finish()

    def _call(self, environ: dict[str, Any]) -> tuple[str, list, bytes]:
        """The app's answer, whole (on a worker thread)."""
        answer: dict[str, Any] = {}

        def start_response(status: str, headers: list, exc_info: object = None):
            answer["status"], answer["headers"] = status, headers
            return parts.append

        parts: list[bytes] = []
        result = self.app(environ, start_response)
        try:
            parts.extend(result)
        finally:
            getattr(result, "close", lambda: None)()
        return answer["status"], answer["headers"], b"".join(parts)


def wsgi_environ(request: httputil.HTTPServerRequest) -> dict[str, Any]:
    """The WSGI environ of a request read whole (PEP 3333), with the address it came in
    on (for the Host check) and the mark that the loop holds live streams."""
    local = request.connection.stream.socket.getsockname()
    environ = {
        "REQUEST_METHOD": request.method,
        "SCRIPT_NAME": "",
        "PATH_INFO": url_unescape(request.path, encoding=None, plus=False).decode("latin-1"),
        "QUERY_STRING": request.query,
        "REMOTE_ADDR": request.remote_ip,
        "SERVER_NAME": local[0],
        "SERVER_PORT": str(local[1]),
        "SERVER_PROTOCOL": request.version,
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": BytesIO(request.body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        LOCAL_ADDRESS: local[0],
        HUB: True,
    }
    for name, value in request.headers.get_all():
        if name == "Content-Type":
            environ["CONTENT_TYPE"] = value
        elif name == "Content-Length":
            environ["CONTENT_LENGTH"] = value
        else:
            key = "HTTP_" + name.replace("-", "_").upper()
            environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ


class _Connections(HTTPServer):
    """Tornado's HTTP server with a cap on open connections, in all and per address, and
    TCP settings that find a vanished phone."""

    def initialize(self, request_callback: Callable, limits: Limits, **options: Any) -> None:
        super().initialize(request_callback, **options)
        self.limits = limits
        self._open: Counter[str] = Counter()
        self._address_of: dict[IOStream, str] = {}

    def handle_stream(self, stream: IOStream, address: Any) -> None:
        ip = address[0] if isinstance(address, tuple) else ""
        limits = self.limits
        if sum(self._open.values()) >= limits.connections or self._open[ip] >= limits.per_address:
            stream.write(BUSY).add_done_callback(lambda _: stream.close())
            return
        _tune(stream.socket, limits)
        self._open[ip] += 1
        self._address_of[stream] = ip
        super().handle_stream(stream, address)

    def on_close(self, server_conn: Any) -> None:
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


class Hub:
    """The live streams the loop holds: each broadcast written to the streams of its
    language, a comment every few seconds on a quiet one (a vanished phone shows up as a
    write that fails), and a stream dropped when its phone leaves or stops reading."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._streams: set[_Stream] = set()
        self._recent: deque[Broadcast] = deque(maxlen=64)  # for streams being handed over

    def __len__(self) -> int:
        return len(self._streams)

    def add(self, connection: Any, lang: str, seen: int, first: bytes, release: Callable) -> None:
        """A stream handed over by the app: its first message, then what it missed."""
        stream = _Stream(self, connection, lang, release)
        self._streams.add(stream)
        connection.set_close_callback(lambda: self.drop(stream))
        stream.write(first)
        for broadcast in self._recent:
            if broadcast.number > seen:
                stream.write(broadcast.texts.get(lang, b""))

    def send(self, broadcast: Broadcast) -> None:
        self._recent.append(broadcast)
        for stream in list(self._streams):
            stream.write(broadcast.texts.get(stream.lang, b""))

    async def beat(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            now = time.monotonic()
            for stream in list(self._streams):
                stream.check(now)

    def drop(self, stream: _Stream) -> None:
        if stream in self._streams:
            self._streams.discard(stream)
            stream.close()

    def close(self) -> None:
        for stream in list(self._streams):
            self.drop(stream)


class _Stream:
    """One live stream: one write at a time, the rest queued (and joined) behind it."""

    def __init__(self, hub: Hub, connection: Any, lang: str, release: Callable) -> None:
        self.hub, self.connection, self.lang, self._release = hub, connection, lang, release
        self._waiting: list[bytes] = []
        self._queued = 0
        self._writing_since: float | None = None
        self._last = time.monotonic()

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

    def _written(self, future: asyncio.Future) -> None:
        self._writing_since = None
        if future.exception() is not None:
            self.hub.drop(self)
        elif self._waiting:
            self._flush()

    def check(self, now: float) -> None:
        """Drop a stream whose write has not drained; say something on a quiet one."""
        since = self._writing_since
        if since is not None and now - since > self.hub.limits.stall_seconds:
            self.hub.drop(self)
        elif since is None and now - self._last >= HEARTBEAT:
            self.write(STILL_HERE)

    def close(self) -> None:
        self._release()
        self.connection.close()
