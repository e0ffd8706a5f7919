"""The page itself: one HTML page in the phone's language, the board drawing, and the
language switch."""

from __future__ import annotations

from flask import Blueprint, Response, redirect, render_template, request

from pegboard.board.svg import board_svg as draw_board
from pegboard.i18n import LANGUAGES, NAMES, language_of
from pegboard.keeper import PALETTE, skunk_lines
from pegboard.panel import LANGUAGE_COOKIE, LANGUAGE_DAYS, language
from pegboard.panel.api import keeper
from pegboard.rules.cards import DECK, Suit, card_name, suit_name

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    lang = language()
    suits = [  # (symbol, name, [(card, its name)]) for the card picker, suit by suit
        (suit.symbol, suit_name(suit, lang), [(str(c), card_name(c, lang)) for c in cards])
        for suit in Suit
        for cards in [[card for card in DECK if card.suit is suit]]
    ]
    return render_template(
        "index.html",
        palette=PALETTE,
        lang=lang,
        languages=[(code, NAMES[code]) for code in LANGUAGES],
        suits=suits,
    )


@bp.post("/language")
def choose_language():
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
def board_svg():
    door = keeper()
    state = door.state
    lines = () if state is None else skunk_lines(state.settings)
    return Response(draw_board(door.layout, skunk_lines=lines), mimetype="image/svg+xml")
