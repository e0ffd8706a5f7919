"""The board's PIN: watching is open, changing the game needs the PIN.

A correct PIN starts a session kept on the board (:class:`Sessions`); the phone's
signed cookie carries only its id. Signing out ends it on the board, and a new PIN ends
every one, whatever a cookie still says. Every change must also carry the session's
CSRF token in the ``X-CSRF-Token`` header.

Wrong PINs are limited twice: ``PIN_TRIES`` a minute from one address
(:class:`Attempts`), and a budget for the whole board, from every address together, with
a delay that grows (:class:`Budget`). Phones already signed in go on pegging meanwhile:
only signing in waits. A sign-in sent again with the same ``Idempotency-Key`` is
answered as the first time (no second session, no second wrong PIN counted).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from pathlib import Path

from flask import Blueprint, abort, current_app, jsonify, request, session
from flask_babel import gettext as _

from pegboard.panel.bodies import idempotency_key, json_body

PIN_TRIES = 5
PIN_WINDOW = 60.0  # seconds
ADDRESSES = 10_000  # addresses whose wrong PINs are remembered, at most
SESSION_DAYS = 30  # a phone stays signed in this long
SESSIONS = 256  # the most sessions kept (the oldest ends first)
SIGN_INS = 256  # sign-in answers kept for a retry with the same key

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
        most: int = ADDRESSES,
    ) -> None:
        self.limit, self.window, self.clock, self.most = limit, window, clock, most
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()
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
            self._failures.move_to_end(client)
            while len(self._failures) > self.most:  # address rotation: forget the oldest
                self._failures.popitem(last=False)

    def blocked(self, client: str) -> bool:
        with self._lock:
            now = self.clock()
            blocked = len(self._recent(client, now)) >= self.limit
            if not self._failures[client]:
                del self._failures[client]
            return blocked

    def retry_after(self, client: str) -> int:
        with self._lock:
            failures = self._recent(client, self.clock())
            return max(1, round(failures[0] + self.window - self.clock())) if failures else 0


class Budget:
    """Wrong PINs for the whole board, from every address together.

    Each wrong PIN adds one to a level that drains by one every ``drain`` seconds. While
    the level is at most ``free``, signing in is open. Each wrong PIN above it closes
    signing in for the whole board for a delay that doubles with each one: ``base``,
    2 ``base``, 4 ``base``, ... at most ``longest``.

    The arithmetic, with the defaults (10 free, drain 60 s, base 1 s, longest 1 h): a
    guesser, from any number of addresses, can never go faster than the drain for long:
    over a time T it makes at most T / 60 s guesses plus the level it ends at (never above
    about 10 + log2(3600) + 1 = 23). The default PIN has 6 digits: finding it takes
    (10**6 + 1) / 2 = 500,000 guesses on average, so 500,000 minutes: 347 days, 11
    months. (A 4-digit PIN set in the config falls in 5,000 minutes: 3.5 days.)

    >>> now = [0.0]
    >>> budget = Budget(free=2, drain=60, base=1, longest=3600, clock=lambda: now[0])
    >>> for _ in range(4):
    ...     budget.fail()
    >>> budget.wait()  # the 3rd failure closed it for 1 s, the 4th for 2 s
    2.0
    >>> now[0] = 2.0; budget.wait()
    0.0
    """

    def __init__(
        self,
        free: int = 10,
        drain: float = 60.0,
        base: float = 1.0,
        longest: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.free, self.drain, self.base, self.longest = free, drain, base, longest
        self.clock = clock
        self._level, self._at, self._until = 0.0, clock(), 0.0
        self._lock = threading.Lock()

    def wait(self) -> float:
        """Seconds until signing in opens again (0: open)."""
        with self._lock:
            return max(0.0, self._until - self.clock())

    def fail(self) -> None:
        """One more wrong PIN."""
        with self._lock:
            now = self.clock()
            self._level = max(0.0, self._level - (now - self._at) / self.drain) + 1
            self._at = now
            over = self._level - self.free
            if over > 0:
                delay = min(self.base * 2 ** min(over - 1, 64), self.longest)
                self._until = max(self._until, now + delay)


class Sessions:
    """Signed-in phones, kept on the board: an id each, ending after ``days`` or when
    signed out; all end when the PIN (``epoch``) changes. Kept in ``path`` (if given),
    so a restart keeps them; only digests of the ids are written."""

    def __init__(
        self,
        epoch: str,
        path: Path | None = None,
        days: float = SESSION_DAYS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.epoch, self.path, self.days, self.clock = epoch, path, days, clock
        self._lock = threading.Lock()
        self._ends: dict[str, float] = self._load()

    def start(self) -> str:
        """A new session: its id, for the phone's cookie."""
        sid = secrets.token_urlsafe(24)
        with self._lock:
            self._ends[_digest(sid)] = self.clock() + self.days * 86_400
            self._prune()
            self._save()
        return sid

    def live(self, sid: object) -> bool:
        if not isinstance(sid, str):
            return False
        with self._lock:
            return self._ends.get(_digest(sid), 0) > self.clock()

    def end(self, sid: object) -> None:
        if isinstance(sid, str):
            with self._lock:
                if self._ends.pop(_digest(sid), None) is not None:
                    self._save()

    def _prune(self) -> None:
        now = self.clock()
        for key in [key for key, end in self._ends.items() if end <= now]:
            del self._ends[key]
        while len(self._ends) > SESSIONS:
            del self._ends[min(self._ends, key=self._ends.__getitem__)]

    def _load(self) -> dict[str, float]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8")) if self.path else {}
            ends = data["sessions"] if data.get("epoch") == self.epoch else {}
            return {str(key): float(end) for key, end in ends.items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}  # none kept, or unreadable: every phone signs in again

    def _save(self) -> None:
        if self.path is None:
            return
        temporary = self.path.with_suffix(".new")
        temporary.touch(mode=0o600)
        temporary.write_text(json.dumps({"epoch": self.epoch, "sessions": self._ends}))
        os.replace(temporary, self.path)


def _digest(sid: str) -> str:
    return hashlib.sha256(sid.encode()).hexdigest()


def csrf_token() -> str:
    """The session's CSRF token, made on first use."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return session["csrf"]


def sessions() -> Sessions:
    return current_app.extensions["pegboard.sessions"]


def signed_in() -> bool:
    return sessions().live(session.get("sid"))


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
    budget: Budget = current_app.extensions["pegboard.budget"]
    pin = json_body().get("pin")
    if not isinstance(pin, str) or not pin:
        abort(400, description=_('send the PIN as JSON: {"pin": "1234"}'))
    answered: OrderedDict = current_app.extensions["pegboard.sign_ins"]
    key = idempotency_key()
    asked = hashlib.sha256(pin.encode()).hexdigest()
    if key is not None and key in answered:  # the same sign-in again: the first answer
        first_asked, sid = answered[key]
        if first_asked != asked:
            message = _("this request key was used for another request: send a new one")
            abort(422, description=message)
        if sid is None or not sessions().live(sid):
            abort(401, description=_("wrong PIN"))
        return _signed_in_as(sid)
    client = _client()
    wait = max(budget.wait(), attempts.retry_after(client) if attempts.blocked(client) else 0)
    if wait:
        response = jsonify(error=_("too many wrong PINs: wait a minute and try again"))
        response.headers["Retry-After"] = str(max(1, round(wait)))
        return response, 429
    expected = current_app.config["PIN"]
    right = hmac.compare_digest(pin.encode(), expected.encode())
    sid = sessions().start() if right else None
    if key is not None:
        answered[key] = (asked, sid)
        while len(answered) > SIGN_INS:
            answered.popitem(last=False)
    if not right:
        attempts.fail(client)
        budget.fail()
        abort(401, description=_("wrong PIN"))
    return _signed_in_as(sid)


def _signed_in_as(sid: str):
    session.clear()
    session["sid"] = sid
    return jsonify(signed_in=True, csrf=csrf_token())


@bp.post("/logout")
def logout():
    """Ends this phone's session on the board (sent twice, the same)."""
    _check_csrf()
    sessions().end(session.get("sid"))
    session.clear()
    return jsonify(signed_in=False, csrf=csrf_token())
