"""The page itself: one HTML page in the phone's language (with the board drawn in it
and the board as it stands, so a phone shows it before its script asks for anything),
the board drawing alone, the web app manifest, and the language switch.

Every address the page names is the panel's own, from its root: ``/`` on a board,
``/table/3/`` on a club's hosted table (:mod:`pegboard.panel.mounts`). The templates make
them with ``url_for``; the page tells its scripts its root (``data-root``), and they
resolve every path of the API against it.

The page names its files (styles, modules, icons) under ``/static/v/<version>/``, the
version a digest of every file the board serves there: a phone keeps them for a year and
asks again only when the board's files change (a new version, new addresses). Every
module a module imports is named relative to it, so it comes from the same version. The
page, its files and the board's drawing go gzipped to a phone that takes it."""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
from pathlib import Path

from flask import (
    Blueprint,
    Response,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from pegboard.board.svg import board_svg as draw_board
from pegboard.i18n import LANGUAGES, NAMES, language_of
from pegboard.keeper import PALETTE, Scorekeeper, skunk_lines, variants_allowed
from pegboard.panel import LANGUAGE_COOKIE, LANGUAGE_DAYS, language
from pegboard.panel.api import board_view, keeper
from pegboard.panel.auth import csrf_token, signed_in
from pegboard.panel.signing import identity
from pegboard.rules.cards import DECK, Suit, card_name, suit_name

bp = Blueprint("pages", __name__)

RED = (Suit.DIAMONDS, Suit.HEARTS)
THEME = "#3b2f22"  # the wood of the header, the app's title bar
ICONS = (
    (192, "icon-192.png", "any"),
    (512, "icon-512.png", "any"),
    (512, "icon-maskable.png", "maskable"),
)
YEAR = 365 * 24 * 3600  # how long a phone keeps a file named with its version
# What goes gzipped (the icons' PNGs are compressed already), and from what size.
GZIPPED = (
    "text/",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
)
GZIP_FROM = 512  # bytes
OUR_PAGES = ("static", "pages.asset", "pages.index", "pages.board_svg", "pages.manifest")


@functools.cache
def files_version(folder: str) -> str:
    """A digest of every file under ``folder`` (its names and contents)."""
    digest = hashlib.sha256()
    for path in sorted(Path(folder).rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def asset(filename: str) -> str:
    """The address of one of the page's files, with the version of the board's files."""
    version = files_version(str(current_app.static_folder))
    return url_for("pages.asset", version=version, filename=filename)


@bp.record_once
def _names(state: BlueprintSetupState) -> None:
    state.app.add_template_global(asset)


@bp.get("/static/v/<version>/<path:filename>", endpoint="asset")
def asset_file(version: str, filename: str) -> Response:
    """A file of the page: kept for a year when named with the files' version (another
    version's address, from a page of before an update, gets today's file, not kept)."""
    response = current_app.send_static_file(filename)
    if version == files_version(str(current_app.static_folder)):
        response.cache_control.max_age = YEAR
        response.cache_control.public = True
        response.cache_control.immutable = True
        response.cache_control.no_cache = None
    return response


@bp.after_app_request
def _gzipped(response: Response) -> Response:
    """The page, its files and the drawing, gzipped for a phone that takes gzip."""
    compressible = (response.mimetype or "").startswith(GZIPPED)
    takes = "gzip" in request.headers.get("Accept-Encoding", "").lower()
    if request.endpoint not in OUR_PAGES or not compressible:
        return response
    response.vary.add("Accept-Encoding")
    if response.status_code != 200 or not takes or "Content-Encoding" in response.headers:
        return response
    response.direct_passthrough = False
    body = response.get_data()
    if len(body) < GZIP_FROM:
        return response
    tag, _ = response.get_etag()
    response.set_data(_squeezed(body) if tag else gzip.compress(body, 6, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    if tag:  # the same file, encoded: a weak match
        response.set_etag(tag, weak=True)
    return response


@functools.lru_cache(maxsize=128)
def _squeezed(body: bytes) -> bytes:
    """A static file gzipped once (the board's files do not change while it runs)."""
    return gzip.compress(body, 9, mtime=0)


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
        "state": board_view(door, lang),
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
    icons = [{"src": asset("icon.svg"), "sizes": "any", "type": "image/svg+xml"}] + [
        {
            "src": asset(name),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": purpose,
        }
        for size, name, purpose in ICONS
    ]
    root = url_for("pages.index")  # "/" on a board, "/table/3/" on a club's hosted table
    app = {
        "id": root,
        "name": _("pegboard: the cribbage board"),
        "short_name": "pegboard",
        "description": _("Follow the board, peg and check every count from your phone."),
        "lang": language(),
        "start_url": root,
        "scope": root,
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
    response = redirect(url_for("pages.index"), code=303)
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
