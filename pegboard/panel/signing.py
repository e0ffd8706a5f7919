"""A paired club's requests, and the board's signed answers to them.

Pairing (:mod:`pegboard.panel.clubs`, :mod:`pegboard.pairing`) leaves the board and the
director with a pairing key that never crossed the Wi-Fi. Each request of the club is
signed with it (HMAC-SHA256 over its method, its path and query, the time it was made,
a nonce of its own and the SHA-256 of its body: :func:`request_signature`), names the
pairing (``X-Pegboard-Pairing``), is made within SIGNED_SECONDS of the board's clock
and is taken once (its nonce is remembered while it could still be good).

The board signs every answer to such a request with its identity (Ed25519,
:mod:`pegboard.identity`) over the request's nonce, the status and the body
(:func:`pegboard.pairing.answered`, in ``X-Pegboard-Answer``): the director, which
pinned the board's public key at pairing, takes no answer the board did not give to
that very request.

The pairing keys are kept in the data folder (``pairings``) with the PIN's epoch: a new
PIN ends every pairing, and the club is told to pair again (:data:`PAIR_AGAIN`).
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
from typing import Any, TypeVar, cast

from flask import Response, abort, current_app, g, request
from flask_babel import gettext as _
from werkzeug.exceptions import Unauthorized

from pegboard.files import read_json, write_private
from pegboard.identity import Identity
from pegboard.pairing import answered

PAIRINGS = "pegboard.pairings"  # in app.extensions: the clubs paired (Pairings)
IDENTITY = "pegboard.identity"  # in app.extensions: the board's key pair (Identity)
SIGNATURE, TIME, NONCE = "X-Pegboard-Signature", "X-Pegboard-Time", "X-Pegboard-Nonce"
PAIRING, ANSWER = "X-Pegboard-Pairing", "X-Pegboard-Answer"
SIGNED_SECONDS = 300  # a signed request is good this long either side of the board's clock
MOST_PAIRINGS = 16  # clubs paired at once (the oldest pairing ends first)
NONCES = 4096  # nonces of signed requests remembered (each is good SIGNED_SECONDS)
View = TypeVar("View", bound=Callable[..., Any])


def request_signature(
    key: bytes, method: str, target: str, at: int, nonce: str, body: bytes
) -> str:
    """The signature of a request: ``target`` is its path and query as sent
    (``/api/log?game=3``), ``at`` when it was made (Unix seconds), ``nonce`` its own.

    >>> request_signature(bytes(32), "GET", "/api/log?game=3", 0, "n", b"")[:16]
    '5c10a26913d957ef'
    """
    body_hash = hashlib.sha256(body).hexdigest()
    signed = f"{method.upper()}\n{target}\n{at}\n{nonce}\n{body_hash}"
    return hmac.new(key, signed.encode(), hashlib.sha256).hexdigest()


class Pairings:
    """The pairing keys of the clubs paired with this board, by pairing id, kept in
    ``path`` (None: in memory only) under the PIN's ``epoch``: a file kept under
    another PIN holds none. A damaged file raises ValueError (start-up refuses it)."""

    def __init__(self, epoch: str, path: Path | None) -> None:
        self.epoch, self.path = epoch, path
        self._lock = threading.Lock()
        kept = read(path) if path is not None else None
        fresh = kept is not None and kept["epoch"] == epoch
        self.ended = kept is not None and not fresh  # pairings a new PIN ended
        self._keys: OrderedDict[str, bytes] = (
            OrderedDict(
                (pairing, bytes.fromhex(key))
                for pairing, key in (kept or {}).get("keys", {}).items()
            )
            if fresh
            else OrderedDict()
        )
        self._nonces: OrderedDict[str, float] = OrderedDict()

    def add(self, key: bytes) -> str:
        """A new pairing with ``key``: its id."""
        pairing = secrets.token_hex(8)
        with self._lock:
            self._keys[pairing] = key
            while len(self._keys) > MOST_PAIRINGS:
                self._keys.popitem(last=False)
            if self.path is not None:
                keys = {p: k.hex() for p, k in self._keys.items()}
                write_private(self.path, json.dumps({"epoch": self.epoch, "keys": keys}))
        return pairing

    def key(self, pairing: str) -> bytes | None:
        with self._lock:
            return self._keys.get(pairing)

    def fresh(self, nonce: str, now: float) -> bool:
        """True once for each ``nonce`` (a request replayed is not taken again)."""
        with self._lock:
            for old in [n for n, at in self._nonces.items() if at < now - 2 * SIGNED_SECONDS]:
                del self._nonces[old]
            if nonce in self._nonces:
                return False
            self._nonces[nonce] = now
            while len(self._nonces) > NONCES:
                self._nonces.popitem(last=False)
            return True


def read(path: Path) -> dict[str, Any] | None:
    """The pairings kept in ``path`` (None: none yet); ValueError when it is damaged."""
    data = read_json(path)
    if data is None:
        return None
    if not isinstance(data, dict):
        raise ValueError("it holds no pairings")
    keys = data.get("keys")
    if not isinstance(keys, dict) or not isinstance(data.get("epoch"), str):
        raise ValueError("it holds no pairings")
    for key in keys.values():
        if not isinstance(key, str) or len(bytes.fromhex(key)) != 32:
            raise ValueError(f"{key!r} is no pairing key")
    return data


def pairings() -> Pairings:
    return cast(Pairings, current_app.extensions[PAIRINGS])


def identity() -> Identity:
    return cast(Identity, current_app.extensions[IDENTITY])


def signed() -> bool:
    """Whether this request comes from a paired club: signed with a pairing key, made
    within SIGNED_SECONDS of now, never seen before."""
    if "club_nonce" in g:
        return True
    sent, at = request.headers.get(SIGNATURE, ""), request.headers.get(TIME, "")
    nonce = request.headers.get(NONCE, "")
    key = pairings().key(request.headers.get(PAIRING, ""))
    if key is None or not sent or not at.isascii() or not at.isdigit() or len(at) > 12:
        return False
    if not 16 <= len(nonce) <= 64 or abs(time.time() - int(at)) > SIGNED_SECONDS:
        return False
    query = request.query_string.decode("latin-1")
    target = request.path + (f"?{query}" if query else "")
    body = request.get_data()
    expected = request_signature(key, request.method, target, int(at), nonce, body)
    if not hmac.compare_digest(expected, sent) or not pairings().fresh(nonce, time.time()):
        return False
    g.club_nonce = nonce  # the answer is signed for it (sign_answer)
    return True


def club_required(view: View) -> View:
    """Only a paired club's signed request."""

    @functools.wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Any:
        if not signed():
            refuse_club()
        return view(*args, **kwargs)

    return cast(View, checked)


def refuse_club() -> None:
    """Refuse a club's request that is not signed with a pairing the board has (401);
    one signed with a pairing a new PIN ended is told to pair again."""
    if request.headers.get(PAIRING) and pairings().ended:
        raise PairAgain(_("this board's PIN changed: pair it again"))
    abort(401, description=_("pair the club with this board first"))


class PairAgain(Unauthorized):
    """A club's request signed with a pairing a new PIN ended: its answer says
    ``"pair": true`` beside the error."""

    fields = {"pair": True}  # noqa: RUF012 (read only)


def sign_answer(response: Response) -> Response:
    """Every answer to a club's request (one with a nonce), signed by the board
    (after_request): a refusal too, so the club knows it is the board's."""
    nonce = g.get("club_nonce") or request.headers.get(NONCE, "")
    if 16 <= len(nonce) <= 64 and not response.is_streamed:
        said = answered(nonce, response.status_code, response.get_data())
        response.headers[ANSWER] = identity().sign(said).hex()
    return response
