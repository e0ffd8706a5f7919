"""Several panels behind one server (:mod:`pegboard.panel.server`): each app mounted at
a path prefix of its own (``/table/3``), on one port and one loop, mounted and unmounted
while the server runs.

A request under a prefix goes to its app with the prefix moved from ``PATH_INFO`` to
``SCRIPT_NAME`` (as WSGI mounts an app, and as werkzeug's ``DispatcherMiddleware`` does):
the app sees the paths it has at a board's root (``/api/state``) and makes its addresses
under the prefix (``url_for``, ``request.script_root``). The prefix alone is sent on to
the prefix with a slash (the page's root). Any other request goes to the ``root`` app (the
club's own pages), or, without one, is the panel's JSON 404; so is a request to a prefix
unmounted (a table of the night that went).

The server holds the live streams of every app mounted: it follows the mounts
(:meth:`Mounts.follow`) to hear each app's broadcasts from its mounting to its unmounting.

>>> from flask import Flask, request
>>> mounts, app = Mounts(), Flask("table")
>>> _ = app.get("/api/state")(lambda: {"at": request.script_root})
>>> mounts.mount("/table/3", app)
>>> answered = []
>>> def call(path):
...     environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "SCRIPT_NAME": "",
...                "SERVER_NAME": "localhost", "SERVER_PORT": "80", "wsgi.url_scheme": "http"}
...     body = b"".join(mounts(environ, lambda status, headers: answered.append(status)))
...     return answered[-1], body
>>> call("/table/3/api/state")
('200 OK', b'{"at":"/table/3"}\\n')
>>> call("/table/3")[0], call("/table/4/api/state")[0]
('308 Permanent Redirect', '404 Not Found')
>>> mounts.unmount("/table/3") is app, call("/table/3/api/state")[0]
(True, '404 Not Found')
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterable
from wsgiref.types import StartResponse, WSGIApplication, WSGIEnvironment

from flask import Flask
from werkzeug.exceptions import NotFound

from pegboard.panel import SECURITY_HEADERS

Hook = Callable[[Flask], Callable[[], None]]  # an app mounted -> the call that undoes it
PREFIX = re.compile(r"(/[A-Za-z0-9_.~-]+)+")  # "/table/3": segments, no slash at the end
NOT_FOUND = json.dumps({"error": NotFound.description}).encode()


class Mounts:
    """A WSGI app: the apps mounted by prefix, the rest to ``root`` (None: 404)."""

    def __init__(self, root: WSGIApplication | None = None) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._apps: dict[str, Flask] = {}
        self._hooks: dict[int, Hook] = {}  # by the number of its following
        self._followed = 0
        self._undo: dict[tuple[str, int], Callable[[], None]] = {}  # by (prefix, following)

    def __len__(self) -> int:
        return len(self._apps)

    def mount(self, prefix: str, app: Flask) -> None:
        """Serve ``app`` under ``prefix`` from now on (ValueError: taken, or no prefix)."""
        if not PREFIX.fullmatch(prefix):
            raise ValueError(f"{prefix!r} is no path prefix (one like /table/3)")
        with self._lock:
            if prefix in self._apps:
                raise ValueError(f"{prefix} is mounted already")
            self._apps[prefix] = app
            for number, hook in self._hooks.items():
                self._undo[prefix, number] = hook(app)

    def unmount(self, prefix: str) -> Flask | None:
        """Serve nothing under ``prefix`` from now on: the app it served (None: none)."""
        with self._lock:
            app = self._apps.pop(prefix, None)
            for number in self._hooks:
                self._undone(prefix, number)
            return app

    def follow(self, hook: Hook) -> Callable[[], None]:
        """Call ``hook(app)`` for every app mounted, now and later; the call it returns is
        made when that app is unmounted. Returns the call that stops following (and undoes
        every hook). Hooks run under the mounts' lock: keep them short."""
        with self._lock:
            number = self._followed = self._followed + 1
            self._hooks[number] = hook
            for prefix, app in self._apps.items():
                self._undo[prefix, number] = hook(app)

        def stop() -> None:
            with self._lock:
                if self._hooks.pop(number, None) is not None:
                    for prefix in self._apps:
                        self._undone(prefix, number)

        return stop

    def _undone(self, prefix: str, number: int) -> None:
        """The hook of following ``number`` undone for the app at ``prefix`` (under the lock)."""
        undo = self._undo.pop((prefix, number), None)
        if undo is not None:
            undo()

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "") or "/"
        found = self._find(path)
        if found is None:
            if self.root is not None:
                return self.root(environ, start_response)
            return _not_found(start_response)
        prefix, app = found
        script = environ.get("SCRIPT_NAME", "")
        if path == prefix:  # the page's root is the prefix with a slash
            query = environ.get("QUERY_STRING", "")
            where = f"{script}{prefix}/" + (f"?{query}" if query else "")
            start_response("308 Permanent Redirect", [("Location", where), *_headers(0)])
            return [b""]
        environ["SCRIPT_NAME"] = script + prefix
        environ["PATH_INFO"] = path[len(prefix) :]
        return app(environ, start_response)

    def _find(self, path: str) -> tuple[str, Flask] | None:
        """The prefix (and its app) ``path`` is under: the longest, looked for from the end."""
        head = path
        with self._lock:
            while head:
                app = self._apps.get(head)
                if app is not None:
                    return head, app
                head = head.rpartition("/")[0]
        return None


def _headers(length: int, kind: str | None = None) -> list[tuple[str, str]]:
    typed = [("Content-Type", kind)] if kind else []
    return [*typed, ("Content-Length", str(length)), *SECURITY_HEADERS.items()]


def _not_found(start_response: StartResponse) -> list[bytes]:
    """What the panel answers a path it has not (its JSON error)."""
    start_response("404 Not Found", _headers(len(NOT_FOUND), "application/json"))
    return [NOT_FOUND]
