"""Requests signed with the board's key: what a paired club (:mod:`pegboard.panel.clubs`)
sends, and the key itself, kept in the data folder.

A request is signed with HMAC-SHA256 over its method, its path and query, the time it
was made (Unix seconds, in ``X-Pegboard-Time``: within SIGNED_SECONDS of the board's
clock) and the SHA-256 of its body (:func:`request_signature`).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from flask import abort, current_app, request
from flask_babel import gettext as _

from pegboard.files import read_private, write_private
from pegboard.keeper import BoardKey

KEYS = "pegboard.board_key"  # in app.extensions: the board's key (Keys)
SIGNATURE, TIME = "X-Pegboard-Signature", "X-Pegboard-Time"
SIGNED_SECONDS = 300  # a signed request is good this long either side of the board's clock
View = TypeVar("View", bound=Callable[..., Any])


def request_signature(key: BoardKey, method: str, target: str, at: int, body: bytes) -> str:
    """The signature of a request: ``target`` is its path and query as sent
    (``/api/log?game=3``), ``at`` when it was made (Unix seconds).

    >>> key = BoardKey(bytes(32))
    >>> request_signature(key, "GET", "/api/log?game=3", 0, b"")[:16]
    '00bd2716eb3f630c'
    """
    signed = f"{method.upper()}\n{target}\n{at}\n{hashlib.sha256(body).hexdigest()}"
    return hmac.new(key.secret, signed.encode(), hashlib.sha256).hexdigest()


class Keys:
    """The board's key, kept in ``path`` (None: in memory only), made at the first
    pairing. A damaged file raises ValueError when read (start-up refuses it)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._key = read(path) if path is not None else None

    @property
    def key(self) -> BoardKey | None:
        return self._key

    def made(self) -> BoardKey:
        """The board's key: the one kept, else a new one, kept from now on."""
        with self._lock:
            if self._key is None:
                key = BoardKey.generate()
                if self.path is not None:
                    write_private(self.path, key.hex())
                self._key = key
            return self._key


def read(path: Path) -> BoardKey | None:
    """The key kept in ``path`` (None: none yet); ValueError when it holds none."""
    text = read_private(path)
    return None if text is None else BoardKey.from_hex(text)


def keys() -> Keys:
    return cast(Keys, current_app.extensions[KEYS])


def signed() -> bool:
    """Whether this request comes from a paired club: signed with the board's key,
    made within SIGNED_SECONDS of now."""
    sent, at = request.headers.get(SIGNATURE, ""), request.headers.get(TIME, "")
    key = keys().key
    if key is None or not sent or not at.isascii() or not at.isdigit() or len(at) > 12:
        return False
    if abs(time.time() - int(at)) > SIGNED_SECONDS:
        return False
    query = request.query_string.decode("latin-1")
    target = request.path + (f"?{query}" if query else "")
    expected = request_signature(key, request.method, target, int(at), request.get_data())
    return hmac.compare_digest(expected, sent)


def club_required(view: View) -> View:
    """Only a paired club's signed request."""

    @functools.wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if not signed():
            abort(401, description=_("pair the club with this board first"))
        return view(*args, **kwargs)

    return cast(View, checked)
