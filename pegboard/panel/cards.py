"""``POST /api/cards``: a photo of a show in, the cards the reader saw out.

Signed in, with the CSRF token, as every change is (a paired club's signed request too).
The body is the photo itself (``Content-Type: image/jpeg``, ``image/png`` or ``image/webp``;
the page scales it down before sending), at most :data:`PHOTO_BYTES`; what is no image, too
big or a decompression bomb is refused with one line (4xx JSON ``{"error": ...}``). The photo
is read in memory and never kept. ``?starter=5H`` adds the show's count, as
``pegboard cards --starter`` does. ``?seat=1&kind=hand`` (or ``crib``) names the count the
photo is of: the game checks the cards read sure (:mod:`pegboard.game.photo`: a card
another player laid or showed is refused by name) and, when every card was read sure,
checks them as that count's (the starter the one turned, the cards laid the hand's) and
the answer adds ``"shown"``, the count's cards.
A check that fails is one line (409, as the rules refuse an entry) and changes nothing.
Nothing of what the cards score is told unless ``starter`` is asked for: with Muggins on
the phone never asks. One photo is read at a time: the board's cores are few.

The answer is the object ``pegboard cards --json`` prints for one photo::

    {"photo": "photo", "cards": [{"card": "5♥", "sure": true, "box": [x0, y0, x1, y1]}, ...]}
"""

from __future__ import annotations

import threading

from flask import Blueprint, Response, abort, jsonify, request
from flask_babel import gettext as _

from pegboard.keeper import Count, CountKind, State, not_anothers, shown_cards
from pegboard.panel.api import keeper
from pegboard.panel.auth import pin_required
from pegboard.rules.cards import Card

PHOTO_BYTES = 2 * 1024 * 1024  # the page sends a photo scaled to 1600 pixels: ~300 kB
TYPES = ("image/jpeg", "image/png", "image/webp")
WAIT_SECONDS = 20.0  # for the photo before this one to be read

bp = Blueprint("cards", __name__, url_prefix="/api")
_one_at_a_time = threading.BoundedSemaphore(1)


@bp.post("/cards")
@pin_required
def read_cards() -> Response:
    from pegboard.reader import read

    kind = (request.mimetype or "").lower()
    if kind not in TYPES:
        abort(415, description=_("send the photo as a JPEG, PNG or WebP image"))
    request.max_content_length = PHOTO_BYTES
    if (request.content_length or 0) > PHOTO_BYTES:
        abort(
            413, description=_("the photo is too big: {kb} kB at most").format(kb=PHOTO_BYTES >> 10)
        )
    starter = request.args.get("starter")
    card = Card.parse(starter) if starter else None
    state = keeper().state
    count = _count_named(state)  # refused before the photo is read
    data = request.get_data(cache=False)
    if not _one_at_a_time.acquire(timeout=WAIT_SECONDS):
        abort(503, description=_("the board is reading another photo: try again"))
    try:
        reading = read(data, photo=request.args.get("name", "photo")[:100])
    finally:
        _one_at_a_time.release()
    answer = reading.as_json(card)
    if count is not None and state is not None:
        sure = [seen.card for seen in reading.cards if seen.sure]
        if len(sure) == len(reading.cards) and len(sure) >= state.size_of(count.kind):
            answer["shown"] = [str(card) for card in shown_cards(state, count, sure)]
        else:  # some unsure, or fewer than the count has: the rest are picked by hand
            not_anothers(state, count, sure)
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
