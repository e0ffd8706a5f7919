"""The one server of a night's hosted tables: every table's panel on one port and one
loop, each under a path of its own (``/table/3/``: :mod:`pegboard.panel.mounts`),
mounted when the table is added and unmounted when it goes, the server running on.

``pegboard club`` serves the club's own pages from the same hall (its ``root``), so the
whole night is on the club's port: ``http://CLUB/`` the room's screen,
``http://CLUB/table/3/`` table 3's phones. A director made without a hall (a script, a
test) makes one of its own on a free port when it hosts its first table.

>>> hall = Hall("127.0.0.1").start()
>>> hall.address == f"http://localhost:{hall.port}", len(hall.mounts)
(True, 0)
>>> hall.close()
"""

from __future__ import annotations

import threading
from wsgiref.types import WSGIApplication

from flask import Flask

from pegboard import lan
from pegboard.panel.mounts import Mounts
from pegboard.panel.server import Limits, PanelServer

# Connections one address may hold open: a venue's Wi-Fi may show every phone as one address
# (a router's NAT), so as many as some twenty tables' phones at a board's 48 each.
PER_ADDRESS = 1024


def prefix_of(table: int) -> str:
    """Where table ``table``'s panel is served in the hall.

    >>> prefix_of(3)
    '/table/3'
    """
    return f"/table/{table}"


class Hall:
    """The hosted tables' server on ``host``:``port`` (0: a free port), its port bound at
    once; the requests under no table's path go to ``root`` (None: 404). The ``limits``
    are a board's (:class:`~pegboard.panel.server.Limits`) but for ``PER_ADDRESS``. Serve it
    with :meth:`run` (on the caller's thread) or :meth:`start` (on a thread of its own)."""

    def __init__(
        self,
        host: str,
        port: int = 0,
        root: WSGIApplication | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.mounts = Mounts(root)
        limits = limits or Limits(per_address=PER_ADDRESS)
        self.server = PanelServer(self.mounts, host, port, limits)
        self.port = self.server.port
        self.address = lan.panel_urls(host, self.port)[0][0].rstrip("/")
        self._thread: threading.Thread | None = None

    def mount(self, table: int, app: Flask) -> str:
        """Serve table ``table``'s panel ``app`` from now on: its address."""
        self.mounts.mount(prefix_of(table), app)
        return self.address + prefix_of(table)

    def unmount(self, table: int) -> None:
        """Serve table ``table`` no more: its paths answer 404, its live streams end."""
        self.mounts.unmount(prefix_of(table))

    def run(self) -> None:
        """Serve until :meth:`stop` (on this thread)."""
        self.server.run()

    def start(self) -> Hall:
        """Serve on a thread of its own, until :meth:`close`."""
        self._thread = threading.Thread(target=self.run, name="hall", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """End :meth:`run`: safe from any thread and from a signal handler."""
        self.server.stop()

    def close(self) -> None:
        """Stop serving and wait for the thread :meth:`start` made; safe twice."""
        self.stop()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None
        self.server.close()
