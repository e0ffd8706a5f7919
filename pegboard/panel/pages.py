"""The page itself: one HTML page, the board drawing, and the score-race chart."""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from pegboard.panel.api import table

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    return render_template("index.html")


@bp.get("/board.svg")
def board_svg():
    return Response(table().board_svg(), mimetype="image/svg+xml")
