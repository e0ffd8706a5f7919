"""A club's link to the board (see :mod:`pegboard.club`): the director pairs with the
board once by its PIN, which never crosses the Wi-Fi (SPAKE2, :mod:`pegboard.pairing`),
and pins the board's public key; from then on the club's requests are signed with the
pairing key (no cookie, no CSRF token: a web page elsewhere has no key) and every
answer is signed by the board (:mod:`pegboard.panel.signing`).

- ``POST /api/pair`` ``{"spake": "…"}`` (hex): the board's SPAKE2 message and the
  exchange's id; nothing else, so a wrong PIN learns nothing.
- ``POST /api/pair/confirm`` ``{"pairing": "…", "proof": "…"}``: the director proves
  it derived the same key (else a wrong PIN is counted, as a wrong sign-in is, and the
  exchange ends); the board answers with its public key and its own proof over it, and
  keeps the pairing key.
- ``POST /api/club/start`` (signed; an ``Idempotency-Key``): start a game for the
  club's seat ``asked`` (``{"night", "table", "round", "nonce"}``), kept with the game
  and signed with its end.
- ``GET /api/log?game=N`` (signed): where a game stands (``over``, ``versions``, what
  was ``asked`` at its start, the length its end was signed at: ``ended``); a finished
  game's whole log too, chained entry by entry, with the board's signature of its end
  (made when it ended, kept in the game file). A game being played sends no entries:
  they could tell a verdict the board keeps while a count may be mugged. A finished
  game whose stored entries no longer chain (the file was edited) answers 409 with
  ``"whole": false`` and where it broke (``entry``).
- A signed request may make any change a signed-in phone may.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from typing import Any, cast

from flask import Blueprint, Response, abort, current_app, jsonify, request
from flask_babel import gettext as _

from pegboard.errors import StoreError
from pegboard.i18n import phrase_of
from pegboard.pairing import Agreed, PairingError, asked, board_answer
from pegboard.panel import actions, language
from pegboard.panel.api import digest, keeper, simulated
from pegboard.panel.bodies import idempotency_key, json_body
from pegboard.panel.signing import club_required, identity, pairings
from pegboard.panel.tries import Tries

bp = Blueprint("clubs", __name__, url_prefix="/api")
EXCHANGE_SECONDS = 60.0  # a pairing's exchange must be confirmed within this
EXCHANGES = 32  # exchanges waiting at once, at most (the oldest goes first)
ASKED = ("night", "table", "round", "nonce")  # what a club's start of a game carries


class Exchanges:
    """Pairings begun and not yet confirmed: each is confirmed once, by the address that
    began it, within ``seconds``; kept in memory only."""

    def __init__(self, seconds: float = EXCHANGE_SECONDS, most: int = EXCHANGES) -> None:
        self.seconds, self.most = seconds, most
        self._waiting: OrderedDict[str, tuple[Agreed, str, float]] = OrderedDict()
        self._lock = threading.Lock()

    def begin(self, agreed: Agreed, address: str) -> str:
        exchange = secrets.token_hex(8)
        with self._lock:
            self._waiting[exchange] = (agreed, address, time.monotonic() + self.seconds)
            while len(self._waiting) > self.most:
                self._waiting.popitem(last=False)
        return exchange

    def take(self, exchange: object, address: str) -> Agreed | None:
        if not isinstance(exchange, str):
            return None
        with self._lock:
            agreed, began, until = self._waiting.pop(exchange, (None, "", 0.0))
        return agreed if began == address and until > time.monotonic() else None


def _hex(data: dict[str, Any], name: str) -> bytes:
    sent = data.get(name)
    try:
        return bytes.fromhex(sent) if isinstance(sent, str) and len(sent) <= 256 else b""
    except ValueError:
        return b""


def _client() -> str:
    return request.remote_addr or "unknown"


def _waiting(tries: Tries) -> Response | None:
    """A 429 while this address must wait (too many wrong PINs), else None."""
    wait = tries.wait(_client())
    if not wait:
        return None
    response = jsonify(error=_("too many wrong PINs: wait a minute and try again"))
    response.headers["Retry-After"] = str(max(1, round(wait)))
    response.status_code = 429
    return response


@bp.post("/pair")
def pair() -> Response:
    """The board's SPAKE2 message in answer to the club's (see the module's words)."""
    said = _hex(json_body(), "spake")
    if not said:
        abort(400, description=_('send the club\'s pairing message as JSON: {"spake": "…"}'))
    tries = cast(Tries, current_app.extensions["pegboard.tries"])
    busy = _waiting(tries)
    if busy is not None:
        return busy
    try:
        answer, agreed = board_answer(current_app.config["PIN"], said)
    except PairingError:
        abort(400, description=_("that is no pairing message"))
    exchange = cast(Exchanges, current_app.extensions["pegboard.exchanges"])
    return jsonify(pairing=exchange.begin(agreed, _client()), spake=answer.hex())


@bp.post("/pair/confirm")
def confirm() -> Response:
    """The club's proof checked (a wrong one counts as a wrong PIN); the board's key
    and its own proof."""
    data = json_body()
    tries = cast(Tries, current_app.extensions["pegboard.tries"])
    busy = _waiting(tries)
    if busy is not None:
        return busy
    exchange = cast(Exchanges, current_app.extensions["pegboard.exchanges"])
    agreed = exchange.take(data.get("pairing"), _client())
    if agreed is None:
        abort(409, description=_("this pairing is out of date: pair again"))
    if not agreed.check_club(_hex(data, "proof")):
        tries.fail(_client())
        abort(401, description=_("wrong PIN"))
    tries.forgive(_client())
    public = identity().public
    pairing = pairings().add(agreed.pairing_key())
    return jsonify(key=pairing, public=public.hex(), proof=agreed.board_proof(public).hex())


def asked_text(sent: object) -> str:
    """What a club asked at a game's start, as kept and signed (its fields in order,
    each a short text or number); 400 for anything else."""
    if not isinstance(sent, dict) or set(sent) != set(ASKED):
        abort(400, description=_("say the club's night, table, round and nonce"))
    if not all(isinstance(sent[f], int | str) and len(str(sent[f])) <= 64 for f in ASKED):
        abort(400, description=_("say the club's night, table, round and nonce"))
    return asked(*(sent[name] for name in ASKED))


@bp.post("/club/start")
@club_required
def club_start() -> Response:
    """A game started for a club's seat (its settings, and ``asked``)."""
    data = json_body()
    wanted = asked_text(data.pop("asked", None))
    key = idempotency_key()
    if key is None:
        abort(400, description=_("send an Idempotency-Key with a club's start"))
    door, sim = keeper(), simulated()

    def start(keyed: tuple[str, str]) -> Any:
        return actions.act(door, "new_game", data, sim=sim, key=keyed)

    door.once(key, digest("club_start", {**data, "asked": wanted}), start)
    game = door.game_id
    assert game is not None  # a game was started (or had been, by this key)
    door.ask(game, wanted)
    return jsonify(game=game, asked=wanted)


@bp.get("/log")
@club_required
def game_log() -> Response:
    """Where a game stands, what it was started for, and a finished one's log with the
    board's signature of its end."""
    door = keeper()
    sent = request.args.get("game")
    if sent is not None and (not sent.isascii() or not sent.isdigit() or len(sent) > 9):
        abort(400, description=_("give game=N, the number of a stored game"))
    game = door.game_id if sent is None else int(sent)
    found = door.games(only=game) if game is not None else []
    if not found:
        abort(404, description=_("there is no game {game} on this board").format(game=game))
    listed = found[0]
    answer: dict[str, Any] = {"game": game, "over": listed.summary.over}
    answer["versions"] = listed.versions
    try:
        log = door.log(listed.id)
    except StoreError as error:  # the file's chain is broken: no log to count
        said = phrase_of(error).say(language())
        entry = getattr(error, "version", None)  # where its chain breaks
        refused = jsonify(error=said, whole=False, entry=entry, **answer)
        refused.status_code = 409
        return refused
    answer["asked"], answer["ended"] = log.asked, log.ended
    if answer["over"]:
        answer["log"] = log.as_dict()
    return jsonify(answer)
