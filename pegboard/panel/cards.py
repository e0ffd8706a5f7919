"""``POST /api/cards``: a photo of a show in, the cards the reader saw out; ``POST
/api/camera``: the same, of a photo taken by the board's own camera.

Signed in, with the CSRF token, as every change is (a paired club's signed request too).
The body of ``/api/cards`` is the photo itself (``Content-Type: image/jpeg``, ``image/png``
or ``image/webp``; the page scales it down before sending), at most :data:`PHOTO_BYTES`;
what is no image, too big or a decompression bomb is refused with one line (4xx JSON
``{"error": ...}``). ``/api/camera`` takes no body: a board without a camera answers 404,
a shot that failed 409, each in one line. The photo is read in memory and never kept.
``?starter=5H`` adds the show's count, as ``pegboard cards --starter`` does.
``?seat=1&kind=hand`` (or ``crib``) names the count the photo is of: the game checks the
cards read sure (:mod:`pegboard.keeper.photo`: a card another player laid or showed is
refused by name) and, when every card was read sure, checks them as that count's (the
starter the one turned, the cards laid the hand's) and the answer adds ``"shown"``, the
count's cards. A check that fails is one line (409, as the rules refuse an entry) and
changes nothing. Nothing of what the cards score is told unless ``starter`` is asked for:
with Muggins on the phone never asks. One photo is read at a time: the board's cores are
few.

The answer is the object ``pegboard cards --json`` prints for one photo::

    {"photo": "photo", "cards": [{"card": "5♥", "sure": true, "box": [x0, y0, x1, y1]}, ...]}
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, request
from flask_babel import gettext as _

from pegboard.errors import CameraError
from pegboard.i18n import phrase_of
from pegboard.keeper import Count, CountKind, State
from pegboard.keeper.photo import Busy, read_one, shown_of
from pegboard.panel import language
from pegboard.panel.api import keeper, the_board
from pegboard.panel.auth import pin_required
from pegboard.rules.cards import Card

PHOTO_BYTES = 2 * 1024 * 1024  # the page sends a photo scaled to 1600 pixels: ~300 kB
TYPES = ("image/jpeg", "image/png", "image/webp")

bp = Blueprint("cards", __name__, url_prefix="/api")


@bp.post("/cards")
@pin_required
def read_cards() -> Response:
    kind = (request.mimetype or "").lower()
    if kind not in TYPES:
        abort(415, description=_("send the photo as a JPEG, PNG or WebP image"))
    request.max_content_length = PHOTO_BYTES
    if (request.content_length or 0) > PHOTO_BYTES:
        abort(
            413, description=_("the photo is too big: {kb} kB at most").format(kb=PHOTO_BYTES >> 10)
        )
    starter, state, count = _asked()  # refused before the photo is read
    data = request.get_data(cache=False)
    return _answer(data, request.args.get("name", "photo")[:100], starter, state, count)


@bp.post("/camera")
@pin_required
def board_camera() -> Response:
    shoot = the_board().camera
    if shoot is None:
        abort(404, description=_("this board has no camera: see [camera] in its config"))
    starter, state, count = _asked()  # refused before the photo is taken
    try:
        data = shoot()
    except CameraError as error:
        abort(409, description=phrase_of(error).say(language()))
    return _answer(data, "camera", starter, state, count)


def _asked() -> tuple[Card | None, State | None, Count | None]:
    """The starter asked for (``?starter=``), the game, and the count named."""
    starter = request.args.get("starter")
    state = keeper().state
    return (Card.parse(starter) if starter else None), state, _count_named(state)


def _answer(
    data: bytes, name: str, starter: Card | None, state: State | None, count: Count | None
) -> Response:
    """The photo ``data`` read and, for ``count``, checked: the answer of both routes."""
    try:
        reading = read_one(data, name)
    except Busy as error:
        abort(503, description=phrase_of(error).say(language()))
    answer = reading.as_json(starter)
    if count is not None and state is not None:
        shown = shown_of(state, count, reading.cards)
        if shown is not None:
            answer["shown"] = [str(card) for card in shown]
    return jsonify(answer)


def _count_named(state: State | None) -> Count | None:
    """The count of ``state``'s deal named by ``?seat=&kind=`` (None: none named),
    refused when the deal has no such count (a seat of the game's; the crib the dealer's)."""
    seat, kind = request.args.get("seat"), request.args.get("kind")
    if seat is None and kind is None:
        return None
    number = int(seat) if seat is not None and seat.isascii() and seat.isdigit() else -1
    if (
        state is None
        or kind not in (CountKind.HAND, CountKind.CRIB)
        or not 0 <= number < len(state.players)
        or (kind == CountKind.CRIB and number != state.dealer)
    ):
        abort(400, description=_("name a count of this deal: seat=N and kind=hand or kind=crib"))
    return Count(number, CountKind(kind))
