"""The board's PIN: watching is open, changing the game needs the PIN.

A correct PIN marks the session cookie as signed in. Every change must also carry the
session's CSRF token in the ``X-CSRF-Token`` header. Each client gets at most
``PIN_TRIES`` wrong PINs per minute.
"""

from __future__ import annotations

import functools
import hmac
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable

from flask import Blueprint, abort, current_app, jsonify, request, session
from flask_babel import gettext as _

PIN_TRIES = 5
PIN_WINDOW = 60.0  # seconds

bp = Blueprint("auth", __name__, url_prefix="/api")


class Attempts:
    """Wrong PINs per client within a sliding window.

    >>> clock = iter([0, 1, 2, 61]).__next__
    >>> tries = Attempts(limit=2, window=60, clock=clock)
    >>> tries.fail("a"); tries.fail("a"); tries.blocked("a")
    True
    >>> tries.blocked("a")  # at t=61 the first failure has left the window
    False
    """

    def __init__(
        self,
        limit: int = PIN_TRIES,
        window: float = PIN_WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, client: str, now: float) -> deque[float]:
        failures = self._failures.setdefault(client, deque())
        while failures and failures[0] <= now - self.window:
            failures.popleft()
        return failures

    def fail(self, client: str) -> None:
        with self._lock:
            now = self.clock()
            self._recent(client, now).append(now)

    def blocked(self, client: str) -> bool:
        with self._lock:
            now = self.clock()
            return len(self._recent(client, now)) >= self.limit

    def retry_after(self, client: str) -> int:
        with self._lock:
            failures = self._recent(client, self.clock())
            return max(1, round(failures[0] + self.window - self.clock())) if failures else 0


def csrf_token() -> str:
    """The session's CSRF token, made on first use."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return session["csrf"]


def signed_in() -> bool:
    return session.get("pin_ok") == current_app.config["PIN_EPOCH"]


def pin_required(view: Callable) -> Callable:
    """A change to the game: needs a signed-in session and its CSRF token."""

    @functools.wraps(view)
    def checked(*args, **kwargs):
        _check_csrf()
        if not signed_in():
            abort(401, description=_("enter the board's PIN first"))
        return view(*args, **kwargs)

    return checked


def _check_csrf() -> None:
    sent = request.headers.get("X-CSRF-Token", "")
    known = session.get("csrf", "")
    if not known or not hmac.compare_digest(sent.encode(), known.encode()):
        abort(403, description=_("missing or wrong CSRF token: reload the page"))


def _client() -> str:
    return request.remote_addr or "unknown"


@bp.get("/session")
def who_am_i():
    return jsonify(signed_in=signed_in(), csrf=csrf_token())


@bp.post("/login")
def login():
    _check_csrf()
    attempts: Attempts = current_app.extensions["pegboard.attempts"]
    client = _client()
    if attempts.blocked(client):
        response = jsonify(error=_("too many wrong PINs: wait a minute and try again"))
        response.headers["Retry-After"] = str(attempts.retry_after(client))
        return response, 429
    body = request.get_json(silent=True)
    pin = body.get("pin") if isinstance(body, dict) else None
    if not isinstance(pin, str) or not pin:
        abort(400, description=_('send the PIN as JSON: {"pin": "1234"}'))
    expected = current_app.config["PIN"]
    if not hmac.compare_digest(pin.encode(), expected.encode()):
        attempts.fail(client)
        abort(401, description=_("wrong PIN"))
    session.clear()
    session["pin_ok"] = current_app.config["PIN_EPOCH"]
    return jsonify(signed_in=True, csrf=csrf_token())


@bp.post("/logout")
def logout():
    _check_csrf()
    session.clear()
    return jsonify(signed_in=False, csrf=csrf_token())
