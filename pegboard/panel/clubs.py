"""A club's link to the board (see :mod:`pegboard.club`): the director pairs the board
once with its PIN and is given the board's key; from then on the club's requests are
signed with that key (no cookie, no CSRF token: a web page elsewhere has no key), and
what the board sends of a game is signed with it too.

- ``POST /api/pair`` ``{"pin": "…"}``: the board's key (hex), made at the first pairing
  and kept in the data folder's ``board-key``. Wrong PINs count as wrong sign-ins do.
- ``GET /api/log?game=N`` (signed): a finished game's whole log, chained entry by entry,
  with the board's signature of its head; a game still being played answers only where
  it stands (``over``, ``versions``): its entries could tell a verdict the board keeps
  while a count may be mugged, so no one is sent them before the game ends. Without
  ``game``: the game being played. A finished game whose stored entries no longer
  chain (the file was edited) answers 409 with ``"whole": false`` and where it broke
  (``entry``).
- A signed request may make any change a signed-in phone may (the signatures are
  checked by :mod:`pegboard.panel.signing`).
"""

from __future__ import annotations

from typing import Any, cast

from flask import Blueprint, Response, abort, current_app, jsonify, request
from flask_babel import gettext as _

from pegboard.errors import StoreError
from pegboard.i18n import phrase_of
from pegboard.panel import language
from pegboard.panel.api import keeper
from pegboard.panel.auth import pin_checked
from pegboard.panel.bodies import json_body
from pegboard.panel.signing import club_required, keys
from pegboard.panel.tries import Tries

bp = Blueprint("clubs", __name__, url_prefix="/api")


@bp.post("/pair")
def pair() -> Response:
    """The board's key, for the PIN: ``{"pin": "…"}`` (counted as a sign-in is)."""
    pin = json_body().get("pin")
    if not isinstance(pin, str) or not pin:
        abort(400, description=_('send the PIN as JSON: {"pin": "1234"}'))
    tries = cast(Tries, current_app.extensions["pegboard.tries"])
    right = pin_checked(tries, request.remote_addr or "unknown", pin)
    if not isinstance(right, bool):
        return right
    if not right:
        abort(401, description=_("wrong PIN"))
    return jsonify(key=keys().made().hex())


@bp.get("/log")
@club_required
def game_log() -> Response:
    """A finished game's log and the board's signature of it; where a game being
    played stands."""
    door = keeper()
    asked = request.args.get("game")
    if asked is not None and (not asked.isascii() or not asked.isdigit() or len(asked) > 9):
        abort(400, description=_("give game=N, the number of a stored game"))
    game = door.game_id if asked is None else int(asked)
    found = door.games(only=game) if game is not None else []
    if not found:
        abort(404, description=_("there is no game {game} on this board").format(game=game))
    listed = found[0]
    answer: dict[str, Any] = {"game": game, "over": listed.summary.over}
    answer["versions"] = listed.versions
    if answer["over"]:
        try:
            log = door.log(listed.id)
        except StoreError as error:  # the file's chain is broken: no log to count
            said = phrase_of(error).say(language())
            entry = getattr(error, "version", None)  # where its chain breaks
            refused = jsonify(error=said, whole=False, entry=entry, **answer)
            refused.status_code = 409
            return refused
        answer.update(log=log.as_dict(), signature=keys().made().sign(log))
    return jsonify(answer)
