"""The phone panel: a Flask app that watches the board and, with the PIN, changes the game.

``create_app(config, keeper)`` builds the app over the board's front door
(:class:`~pegboard.keeper.Scorekeeper`: every change and every view of the game goes
through it); the app keeps its services in ``app.extensions`` (the door, the broadcaster
of its live streams, the sessions, the wrong-PIN budget). The service passes
``config["SIM"]`` when the board is simulated (its on-screen dials work), the board's own
language in ``config["LANGUAGE"]``, the names it answers to in ``config["HOSTS"]``
(:mod:`pegboard.panel.hosts`) and the data folder's files that keep the signed-in
sessions, the wrong PINs, the clubs paired with the board and the board's identity
(``config["SESSIONS_FILE"]``, ``config["TRIES_FILE"]``, ``config["PAIRINGS_FILE"]``,
``config["IDENTITY_FILE"]``: :mod:`pegboard.panel.clubs`).
:mod:`pegboard.panel.server` serves it.

Each phone reads the panel in its own language (Flask-Babel, the catalogues of
:mod:`pegboard.i18n`): the one chosen on the page (a cookie, so each phone remembers
its own), else the best of its ``Accept-Language``, else the board's language.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, current_app, jsonify, request
from flask_babel import Babel, get_locale
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from pegboard.errors import ConflictError, LinkError, PegboardError, RuleError, StoreError
from pegboard.i18n import LOCALE_DIR, N_, check_language, language_of, negotiate, phrase_of
from pegboard.identity import Identity
from pegboard.keeper import KeyReused, Scorekeeper
from pegboard.panel.bodies import MOST_BYTES
from pegboard.panel.hosts import LOCAL_ADDRESS, allowed

log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "PIN": None,  # the board's PIN; required
    "MAX_CONTENT_LENGTH": MOST_BYTES,  # no request body needs more
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Strict",
    "SIM": False,
    "LANGUAGE": "en",  # the board's own: for a phone that asks for none the board speaks
    "BABEL_TRANSLATION_DIRECTORIES": str(LOCALE_DIR),
    "HOSTS": ("localhost",),  # the board's names (its addresses are always allowed)
    "SESSIONS_FILE": None,  # None: sessions end with the process
    "TRIES_FILE": None,  # None: the wrong PINs are forgotten with the process
    "PAIRINGS_FILE": None,  # None: the clubs paired end with the process
    "IDENTITY_FILE": None,  # None: a key pair of the process's own
}
# Read at start: a damaged one is a ValueError.
KEPT_FILES = ("SESSIONS_FILE", "TRIES_FILE", "PAIRINGS_FILE", "IDENTITY_FILE")
LANGUAGE_COOKIE = "pegboard_lang"  # the language chosen on this phone
LANGUAGE_DAYS = 400  # how long a phone remembers it (the most browsers keep a cookie)

# Nothing from outside the LAN: every asset comes from this board.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}


def create_app(
    config: dict[str, Any] | None = None,
    keeper: Scorekeeper | None = None,
    *,
    camera: Callable[[], bytes] | None = None,
) -> Flask:
    """The panel over ``keeper`` (None: every view of the board answers 503); ``camera``
    takes a photo with the board's own camera (``POST /api/camera``), if it has one."""
    web = files("pegboard._web")
    app = Flask(__name__, static_folder=None, template_folder=str(web / "templates"))
    app.url_map.merge_slashes = False  # "//x" is no path of ours: 404, never a redirect
    app.static_folder = str(web / "static")
    app.add_url_rule("/static/<path:filename>", "static", app.send_static_file)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    if not app.config.get("PIN"):
        raise PegboardError("the panel needs the board's PIN")
    app.config["LANGUAGE"] = check_language(app.config["LANGUAGE"])
    app.config["BABEL_DEFAULT_LOCALE"] = app.config["LANGUAGE"]
    Babel(app, locale_selector=choose_language)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secrets.token_hex(32)
    # Changing the PIN signs every phone out.
    epoch = hashlib.sha256((app.config["SECRET_KEY"] + app.config["PIN"]).encode()).hexdigest()

    from pegboard.panel import api, auth, cards, clubs, live, pages, signing, tries

    if keeper is not None:
        shows = live.Live(keeper, sim=bool(app.config["SIM"]), camera=camera is not None)
        api.Board(keeper, shows, camera).init_app(app)
    api.GameList().init_app(app)

    kept = {name: app.config[name] and Path(app.config[name]) for name in KEPT_FILES}
    app.extensions["pegboard.tries"] = tries.Tries(kept["TRIES_FILE"])
    app.extensions["pegboard.invites"] = auth.Invites()
    app.extensions["pegboard.sign_ins"] = OrderedDict()
    app.extensions["pegboard.sessions"] = auth.Sessions(epoch[:16], kept["SESSIONS_FILE"])
    app.extensions[signing.PAIRINGS] = signing.Pairings(epoch[:16], kept["PAIRINGS_FILE"])
    me = kept["IDENTITY_FILE"]
    app.extensions[signing.IDENTITY] = Identity.made(me) if me else Identity.generate()
    app.extensions["pegboard.exchanges"] = clubs.Exchanges()
    names = frozenset(name.lower() for name in app.config["HOSTS"])

    answer_only_to(app, names, N_("this board does not answer to the name {host}"))
    refuse_cross_site(app, forms=frozenset({"pages.choose_language"}))

    app.register_blueprint(auth.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(clubs.bp)
    app.register_blueprint(cards.bp)
    app.register_blueprint(pages.bp)
    _install_error_handlers(app)

    @app.after_request
    def secure(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return signing.sign_answer(response)

    return app


def answer_only_to(app: Flask, names: frozenset[str], refusal: str) -> None:
    """Refuse (400) every request whose Host header is none of ``names`` (see
    :mod:`.hosts`), saying ``refusal`` (a catalogue message with ``{host}``)."""

    @app.before_request
    def our_name() -> None:
        host = request.headers.get("Host", "")
        if not allowed(host, names, request.environ.get(LOCAL_ADDRESS)):
            abort(400, description=_(refusal).format(host=repr(host[:100])))


UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
FORM_TYPES = frozenset({"text/plain", "application/x-www-form-urlencoded", "multipart/form-data"})


def refuse_cross_site(app: Flask, forms: frozenset[str] = frozenset()) -> None:
    """Refuse every change a page of another site could send: one the browser says is
    cross-site (``Sec-Fetch-Site``) or from another origin (``Origin``) is a 403; a body
    a form could send without asking (text, form-encoded, multipart) is a 415 on every
    route but the ``forms`` named (endpoints), which the Origin check covers."""

    @app.before_request
    def same_site() -> None:
        if request.method not in UNSAFE:
            return
        # A page that sends no referrer posts its forms with ``Origin: null``: then the
        # browser's Sec-Fetch-Site alone says where the request comes from.
        origin = request.headers.get("Origin")
        fetched = request.headers.get("Sec-Fetch-Site", "same-origin")
        if fetched not in ("same-origin", "none") or (
            origin not in (None, "null") and origin.partition("://")[2] != request.host
        ):
            abort(403, description=_("a request from another site changes nothing here"))
        if request.mimetype in FORM_TYPES and request.endpoint not in forms:
            abort(415, description=_("send the body as JSON"))


def choose_language() -> str:
    """This phone's language: chosen on the page, else asked for, else the board's."""
    chosen = language_of(request.cookies.get(LANGUAGE_COOKIE))
    board = current_app.config["LANGUAGE"]
    return chosen or negotiate(request.headers.get("Accept-Language"), default=board)


def language() -> str:
    """The language of the request being answered ("de")."""
    return str(get_locale().language)


def error_json(message: str, status: int) -> tuple[Response, int]:
    return jsonify(error=message), status


def _status(error: PegboardError) -> int:
    """409: the rules (or a simultaneous entry) refuse it; 422: a request key came with
    another request; 503: the board's file or LEDs failed; 400: the request is wrong."""
    if isinstance(error, RuleError | ConflictError):
        return 409
    if isinstance(error, KeyReused):
        return 422
    return 503 if isinstance(error, StoreError | LinkError) else 400


def _install_error_handlers(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Response, int]:
        more = getattr(error, "fields", {})  # what a refusal says beside its error
        return jsonify(error=error.description or error.name, **more), error.code or 500

    @app.errorhandler(PegboardError)
    def refused(error: PegboardError) -> tuple[Response, int]:
        return error_json(phrase_of(error).say(language()), _status(error))

    @app.errorhandler(Exception)
    def crashed(error: Exception) -> tuple[Response, int]:
        # Logged here, never shown to a client.
        log.exception("panel request failed")
        return error_json(_("internal error: nothing was changed"), 500)
