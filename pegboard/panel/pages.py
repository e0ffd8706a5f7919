"""The page itself: one HTML page in the phone's language (with the board drawn in it
and the board as it stands, so a phone shows it before its script asks for anything),
the board drawing alone, the web app manifest, and the language switch."""

from __future__ import annotations

import json

from flask import Blueprint, Response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from pegboard.board.svg import board_svg as draw_board
from pegboard.i18n import LANGUAGES, NAMES, language_of
from pegboard.keeper import PALETTE, Scorekeeper, skunk_lines, variants_allowed
from pegboard.panel import LANGUAGE_COOKIE, LANGUAGE_DAYS, language
from pegboard.panel.api import keeper, simulated
from pegboard.panel.auth import csrf_token, signed_in
from pegboard.panel.signing import identity
from pegboard.panel.view import snapshot
from pegboard.rules.cards import DECK, Suit, card_name, suit_name

bp = Blueprint("pages", __name__)

RED = (Suit.DIAMONDS, Suit.HEARTS)
THEME = "#3b2f22"  # the wood of the header, the app's title bar
ICONS = (
    (192, "icon-192.png", "any"),
    (512, "icon-512.png", "any"),
    (512, "icon-maskable.png", "maskable"),
)


@bp.get("/")
def index() -> str:
    lang = language()
    suits = [  # the pack the page draws, suit by suit, each card with its spoken name
        {
            "symbol": suit.symbol,
            "name": suit_name(suit, lang),
            "red": suit in RED,
            "cards": [(str(c), card_name(c, lang)) for c in DECK if c.suit is suit],
        }
        for suit in Suit
    ]
    door = keeper()
    board = {
        "session": {"signed_in": signed_in(), "csrf": csrf_token()},
        "state": snapshot(door, lang, sim=simulated()),
    }
    return render_template(
        "index.html",
        palette=PALETTE,
        lang=lang,
        languages=[(code, NAMES[code]) for code in LANGUAGES],
        suits=suits,
        board=board,
        drawing=_drawing(door),
        theme=THEME,
        variants=variants_allowed(door.layout),
        fingerprint=identity().fingerprint,
    )


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """What a phone needs to add the board to its home screen as an app that opens
    straight to the board, full screen, in the phone's language."""
    icons = [
        {"src": url_for("static", filename="icon.svg"), "sizes": "any", "type": "image/svg+xml"}
    ] + [
        {
            "src": url_for("static", filename=name),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": purpose,
        }
        for size, name, purpose in ICONS
    ]
    app = {
        "id": "/",
        "name": _("pegboard: the cribbage board"),
        "short_name": "pegboard",
        "description": _("Follow the board, peg and check every count from your phone."),
        "lang": language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#f4efe4",
        "theme_color": THEME,
        "icons": icons,
    }
    text = json.dumps(app, ensure_ascii=False)
    return Response(text, mimetype="application/manifest+json")


@bp.post("/language")
def choose_language() -> BaseResponse:
    """The language switch: this phone keeps its choice (a cookie), then the page reloads."""
    chosen = language_of(request.form.get("lang"))
    response = redirect("/", code=303)
    if chosen is not None:
        response.set_cookie(
            LANGUAGE_COOKIE,
            chosen,
            max_age=LANGUAGE_DAYS * 24 * 3600,
            samesite="Strict",
            httponly=True,
        )
    return response


@bp.get("/board.svg")
def board_svg() -> Response:
    return Response(_drawing(keeper()), mimetype="image/svg+xml")


def _drawing(door: Scorekeeper) -> str:
    """The board's drawing with the current game's skunk lines."""
    state = door.state
    lines = () if state is None else skunk_lines(state.settings)
    return draw_board(door.layout, skunk_lines=lines)
