"""The page itself: one HTML page and the board drawing."""

from __future__ import annotations

from flask import Blueprint, Response, render_template

from pegboard.game.settings import PALETTE
from pegboard.panel.api import table

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    return render_template("index.html", palette=PALETTE)


@bp.get("/board.svg")
def board_svg():
    return Response(table().board_svg(), mimetype="image/svg+xml")
