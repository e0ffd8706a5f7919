"""The panel's WSGI app served on tornado's loop (:mod:`pegboard.panel.server`): each
request read whole by the loop, translated to a WSGI environ by tornado's own
:meth:`tornado.wsgi.WSGIContainer.environ`, run on the pool, its answer written back by
the loop through tornado's public connection API.

The handling of a request is ours, not :class:`~tornado.wsgi.WSGIContainer`'s (whose
``handle_request`` writes as it goes and logs through a private hook): the app runs on
a worker in one go, its body joined there, and the loop writes the whole answer, or
hands the stream the app opened to the hub (:mod:`pegboard.panel.hub`); a failure of
ours is a 500 that says nothing was changed. No line is logged per request (a board's
journal would fill with every phone's reads); failures are logged where they happen.
Tornado is pinned to the major this is tested with (``pyproject.toml``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from wsgiref.types import WSGIApplication, WSGIEnvironment

from tornado import httputil
from tornado.http1connection import HTTP1Connection
from tornado.ioloop import IOLoop
from tornado.iostream import StreamClosedError
from tornado.wsgi import WSGIContainer

from pegboard.panel.api import HUB, STREAM
from pegboard.panel.hosts import LOCAL_ADDRESS
from pegboard.panel.hub import Hub
from pegboard.panel.live import Handover

if TYPE_CHECKING:
    from _typeshed import OptExcInfo

log = logging.getLogger(__name__)

BUSY = (
    b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 5\r\nConnection: close\r\n"
    b"Content-Length: 0\r\n\r\n"
)
FAILED = b'{"error": "internal error: nothing was changed"}'
Headers = list[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class Answer:
    """What the app answered a request: its status line, headers and whole body, or the
    live stream it opened (``handover``: its head is written, then the hub writes it)."""

    status: str
    headers: Headers
    body: bytes
    handover: Handover | None = None


class Panel:
    """Tornado's request callback (``HTTPServer(Panel(...))``) running ``app`` on
    ``pool``; a live stream the app opens goes to ``hub``."""

    def __init__(self, app: WSGIApplication, pool: Executor, hub: Hub) -> None:
        self.app, self.pool, self.hub = app, pool, hub
        self._translate = WSGIContainer(app, executor=pool).environ  # tornado's own

    def __call__(self, request: httputil.HTTPServerRequest) -> None:
        IOLoop.current().spawn_callback(self.handle, request)

    async def handle(self, request: httputil.HTTPServerRequest) -> None:
        """Answer ``request`` (on the loop): the app on the pool, then the answer written."""
        connection = _connection(request)
        if connection.stream.closed():  # gone before it was answered
            return
        try:
            environ = self.environ(request)
            loop = asyncio.get_running_loop()
            answer = await loop.run_in_executor(self.pool, self.call, environ)
            if answer.handover is not None:
                self._stream(request, answer)
            else:
                _write(connection, answer)
        except StreamClosedError:
            pass  # the phone went away meanwhile
        except Exception:  # the app answers every error itself: this is a bug of ours
            log.exception("the panel failed on %s %s", request.method, request.path)
            failed = Answer(
                "500 Internal Server Error", [("Content-Type", "application/json")], FAILED
            )
            try:
                _write(connection, failed)
            except Exception:  # it had begun answering, or is gone: end it
                connection.close()

    def environ(self, request: httputil.HTTPServerRequest) -> WSGIEnvironment:
        """The request as WSGI has it (tornado's translation), with the address it came
        in on (for the Host check) and the mark that the loop holds live streams."""
        try:
            environ = self._translate(request)
        except ValueError:  # a Host whose port is no number: the app's Host check refuses it
            request.host = request.host.rpartition(":")[0]
            environ = self._translate(request)
        environ[LOCAL_ADDRESS] = connection_address(request)
        environ[HUB] = True
        return environ

    def call(self, environ: WSGIEnvironment) -> Answer:
        """The app's answer to ``environ`` (on a worker thread), its body read whole."""
        said: list[tuple[str, Headers]] = []
        written: list[bytes] = []  # by the write() of WSGI's start_response, if the app does

        def start(
            status: str, headers: Headers, exc_info: OptExcInfo | None = None
        ) -> Callable[[bytes], object]:
            said.append((status, headers))  # nothing is sent before the app returns
            return written.append

        body = self.app(environ, start)
        try:
            data = b"".join([*written, *body])
        finally:
            getattr(body, "close", lambda: None)()
        if not said:
            raise RuntimeError("the app answered without a status")
        status, headers = said[-1]
        handover = environ.get(STREAM)
        if handover is not None and not status.startswith("200"):
            handover.release()  # refused: answered whole
            handover = None
        return Answer(status, headers, data, handover)

    def _stream(self, request: httputil.HTTPServerRequest, answer: Answer) -> None:
        """Write a live stream's head and hand it to the hub (a 429 if it has no room)."""
        connection, handover = _connection(request), answer.handover
        assert handover is not None and request.remote_ip is not None  # a stream; a server's
        if connection.stream.closed() or not self.hub.admit(handover, request.remote_ip):
            handover.release()
            if not connection.stream.closed():
                connection.stream.write(BUSY).add_done_callback(lambda _: connection.close())
            return
        head = httputil.HTTPHeaders()
        for name, value in answer.headers:
            if name.lower() != "content-length":  # it goes on: chunked
                head.add(name, value)
        connection.write_headers(httputil.ResponseStartLine("HTTP/1.1", 200, "OK"), head)
        self.hub.add(connection, handover, request.remote_ip)


def _write(connection: HTTP1Connection, answer: Answer) -> None:
    """Write ``answer`` whole on ``connection``."""
    code, _, reason = answer.status.partition(" ")
    head = httputil.HTTPHeaders()
    for name, value in answer.headers:
        head.add(name, value)
    if code != "304" and "Content-Length" not in head:
        head["Content-Length"] = str(len(answer.body))
    start = httputil.ResponseStartLine("HTTP/1.1", int(code), reason)
    connection.write_headers(start, head, chunk=answer.body)
    connection.finish()


def _connection(request: httputil.HTTPServerRequest) -> HTTP1Connection:
    """The connection a request came on: tornado's HTTP server gives each request one."""
    assert isinstance(request.connection, HTTP1Connection)
    return request.connection


def connection_address(request: httputil.HTTPServerRequest) -> str:
    """The address of this board's a request came in on."""
    address: Any = _connection(request).stream.socket.getsockname()
    return str(address[0])
