"""The board's PIN: watching is open, changing the game needs the PIN.

A correct PIN starts a session kept on the board (:class:`Sessions`); the phone's
signed cookie carries only its id. Signing out ends it on the board, and a new PIN ends
every one, whatever a cookie still says. Every change must also carry the session's
CSRF token in the ``X-CSRF-Token`` header.

A signed-in phone can let another phone in without the PIN: it shows a one-time link
(and its QR code), good for one phone within LINK_SECONDS (:class:`Invites`), whatever
the Idempotency-Key a replayed request carries.

Wrong PINs are counted for each address and for the whole board, and kept across
restarts (:mod:`pegboard.panel.tries`: a guesser slows only itself; the figures are
there). Phones already signed in go on pegging meanwhile: only signing in waits. A
sign-in sent again with the same ``Idempotency-Key`` is answered as the first time (no
second session, no second wrong PIN counted).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import segno
from flask import Blueprint, Response, abort, current_app, jsonify, request, session
from flask_babel import gettext as _

from pegboard.files import is_number, read_json, write_private
from pegboard.panel import signing
from pegboard.panel.bodies import idempotency_key, json_body
from pegboard.panel.tries import Tries

SESSION_DAYS = 30  # a phone stays signed in this long
SESSIONS = 256  # the most sessions kept (the oldest ends first)
SIGN_INS = 256  # sign-in answers kept for a retry with the same key
LINK_SECONDS = 60  # a one-time link lets one phone in within this
LINKS = 32  # one-time links open at once, at most (the oldest goes first)
P = ParamSpec("P")  # a view's arguments
R = TypeVar("R")  # what a view answers
# A sign-in's request key -> what was sent (a digest) and the session it started (None: none).
SignIns = OrderedDict[str, tuple[str, str | None]]

bp = Blueprint("auth", __name__, url_prefix="/api")


class Invites:
    """One-time links: each lets one phone in, once, within ``seconds``; only digests of
    their tokens are kept, in memory (a restart ends them).

    >>> now = [0.0]
    >>> links = Invites(seconds=60, clock=lambda: now[0])
    >>> token = links.make()
    >>> links.take(token), links.take(token)  # once
    (True, False)
    >>> late = links.make()
    >>> now[0] = 61.0; links.take(late)  # a minute and a second later: too late
    False
    """

    def __init__(
        self,
        seconds: float = LINK_SECONDS,
        most: int = LINKS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seconds, self.most, self.clock = seconds, most, clock
        self._ends: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def make(self) -> str:
        token = secrets.token_urlsafe(24)
        with self._lock:
            self._ends[_digest(token)] = self.clock() + self.seconds
            while len(self._ends) > self.most:
                self._ends.popitem(last=False)
        return token

    def take(self, token: object) -> bool:
        """True, once, for a token made within ``seconds``."""
        if not isinstance(token, str) or len(token) > 100:
            return False
        with self._lock:
            return self._ends.pop(_digest(token), 0.0) > self.clock()


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
        self._ends: dict[str, float] = self._load()  # ValueError: damaged (refused at start)

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
        data = read(self.path) if self.path is not None else None
        if data is None or data["epoch"] != self.epoch:
            return {}  # none kept, or a new PIN since: every phone signs in again
        return dict(data["sessions"])

    def _save(self) -> None:
        if self.path is not None:
            write_private(self.path, json.dumps({"epoch": self.epoch, "sessions": self._ends}))


def read(path: Path) -> dict[str, Any] | None:
    """The sessions kept in ``path`` (None: no file yet); ValueError when it is damaged."""
    data = read_json(path)
    if data is None:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("epoch"), str):
        raise ValueError("it holds no sessions")
    ends = data.get("sessions")
    if not isinstance(ends, dict) or not all(map(is_number, ends.values())):
        raise ValueError("it holds no sessions")
    return data


def _digest(sid: str) -> str:
    return hashlib.sha256(sid.encode()).hexdigest()


def csrf_token() -> str:
    """The session's CSRF token, made on first use."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return str(session["csrf"])


def sessions() -> Sessions:
    kept: Sessions = current_app.extensions["pegboard.sessions"]
    return kept


def signed_in() -> bool:
    return sessions().live(session.get("sid"))


def pin_required(view: Callable[P, R]) -> Callable[P, R]:
    """A change to the game: needs a signed-in session and its CSRF token, or a paired
    club's signed request."""

    @functools.wraps(view)
    def checked(*args: P.args, **kwargs: P.kwargs) -> R:
        if signing.signed():
            return view(*args, **kwargs)
        if request.headers.get(signing.PAIRING):  # a club's, not signed with a pairing kept
            signing.refuse_club()
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
def who_am_i() -> Response:
    return jsonify(signed_in=signed_in(), csrf=csrf_token())


def pin_checked(tries: Tries, client: str, pin: str) -> Response | bool:
    """``pin`` checked against the board's for ``client``: a 429 answer while it must
    wait (nothing checked), else whether it is right (a wrong one counted, a right one
    forgives the wrong ones before)."""
    wait = tries.wait(client)
    if wait:
        response = jsonify(error=_("too many wrong PINs: wait a minute and try again"))
        response.headers["Retry-After"] = str(max(1, round(wait)))
        response.status_code = 429
        return response
    if not hmac.compare_digest(pin.encode(), current_app.config["PIN"].encode()):
        tries.fail(client)
        return False
    tries.forgive(client)
    return True


@bp.post("/login")
def login() -> Response:
    _check_csrf()
    tries: Tries = current_app.extensions["pegboard.tries"]
    pin = json_body().get("pin")
    if not isinstance(pin, str) or not pin:
        abort(400, description=_('send the PIN as JSON: {"pin": "1234"}'))

    def check() -> str | Response | None:
        right = pin_checked(tries, _client(), pin)
        if not isinstance(right, bool):  # not checked, not remembered: the same key may try again
            return right
        return sessions().start() if right else None

    return _sign_in_once(hashlib.sha256(pin.encode()).hexdigest(), check, _("wrong PIN"))


@bp.post("/invite")
@pin_required
def invite() -> Response:
    """A one-time link (and its QR code) that lets another phone in without the PIN."""
    token = current_app.extensions["pegboard.invites"].make()
    link = f"{request.url_root}#join={token}"  # the panel's root: a hosted table's too
    qr = segno.make(link, error="m").svg_data_uri(scale=5, border=2)
    return jsonify(link=link, seconds=LINK_SECONDS, qr=qr)


@bp.post("/join")
def join() -> Response:
    """Sign in with a one-time link's token: ``{"token": "..."}``."""
    _check_csrf()
    token = json_body().get("token")
    if not isinstance(token, str) or not token:
        abort(400, description=_('send the link\'s token as JSON: {"token": "..."}'))
    links: Invites = current_app.extensions["pegboard.invites"]

    def check() -> str | None:
        return sessions().start() if links.take(token) else None

    refused = _("this link was used already or is out of date: ask for a new one")
    return _sign_in_once(_digest(token), check, refused, single_use=True)


def _sign_in_once(
    asked: str,
    check: Callable[[], str | Response | None],
    refused: str,
    *,
    single_use: bool = False,
) -> Response:
    """Sign in if ``check()`` starts a session (its id), else 401 with ``refused`` (or
    ``check``'s own answer: not yet). Sent again with the same Idempotency-Key, the first
    answer (``asked``: a digest of what was sent, so the same key with another request is
    a 422) — for a ``single_use`` token (a one-time link) only to the phone it signed in
    already: anyone else replaying the request is refused, whatever its key."""
    answered: SignIns = current_app.extensions["pegboard.sign_ins"]
    key = idempotency_key()
    if key is not None and key in answered:  # the same sign-in again: the first answer
        first_asked, first = answered[key]
        if first_asked != asked:
            message = _("this request key was used for another request: send a new one")
            abort(422, description=message)
        if first is None or not sessions().live(first):
            abort(401, description=refused)
        if single_use and session.get("sid") != first:  # another phone: the link was used
            abort(401, description=refused)
        return _signed_in_as(first)
    sid = check()
    if isinstance(sid, Response):
        return sid
    if key is not None:
        answered[key] = (asked, sid)
        while len(answered) > SIGN_INS:
            answered.popitem(last=False)
    if sid is None:
        abort(401, description=refused)
    return _signed_in_as(sid)


def _signed_in_as(sid: str) -> Response:
    session.clear()
    session["sid"] = sid
    return jsonify(signed_in=True, csrf=csrf_token())


@bp.post("/logout")
def logout() -> Response:
    """Ends this phone's session on the board (sent twice, the same)."""
    _check_csrf()
    sessions().end(session.get("sid"))
    session.clear()
    return jsonify(signed_in=False, csrf=csrf_token())
