"""The league's page and API: the season's standings across the clubs, each club's own
ranking, a player's nights one by one (``/``, one page rendered here, in the reader's
language), the same as JSON (``/league/api/…``) and as CSV for the association's
spreadsheet (``/league/standings.csv``).

A club sends its night file to ``POST /league/api/nights``: the director's signature is
what lets it in (a key the league's admin registered), so it needs no sign-in. The
admin's changes (registering a club's key, merging two players, the points per place,
uploading a night on the page) need the admin's sign-in: the board's own sign-in (its
PIN, sessions kept on the server, CSRF token, wrong PINs counted and slowed down:
:mod:`pegboard.panel.auth`), at ``/api/session``, ``/api/login`` and ``/api/logout``.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from importlib.resources import files
from pathlib import Path
from typing import Any, cast

from flask import Flask, Response, abort, current_app, jsonify, render_template, request
from flask_babel import Babel
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from pegboard.club.nightfile import MOST_BYTES
from pegboard.errors import PegboardError, StoreError
from pegboard.i18n import LANGUAGES, LOCALE_DIR, N_, NAMES, phrase_of
from pegboard.league import season
from pegboard.league.store import Imported, LeagueStore, Points
from pegboard.panel import (
    SECURITY_HEADERS,
    answer_only_to,
    auth,
    choose_language,
    language,
    signing,
)
from pegboard.panel.bodies import json_body
from pegboard.panel.tries import Tries

STORE = "pegboard.league"  # in app.extensions
SHOWN = 200  # players on the page at most (the JSON and the CSV have them all)


def store() -> LeagueStore:
    return cast(LeagueStore, current_app.extensions[STORE])


def create_league_app(
    league: LeagueStore,
    pin: str,
    *,
    secret_key: str | None = None,
    hosts: tuple[str, ...] = ("localhost",),
    lang: str = "en",
    folder: Path | None = None,
) -> Flask:
    """The league's app over ``league``; ``pin`` is the admin's; ``folder`` keeps the
    sessions and wrong PINs across restarts."""
    here = files("pegboard.league")
    app = Flask(
        __name__,
        static_folder=str(here / "static"),
        static_url_path="/league/static",
        template_folder=str(here / "templates"),
    )
    app.url_map.merge_slashes = False
    app.config.update(
        SECRET_KEY=secret_key or secrets.token_hex(32),
        PIN=pin,
        MAX_CONTENT_LENGTH=MOST_BYTES,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_NAME="pegboard_league",
        LANGUAGE=lang,
        BABEL_DEFAULT_LOCALE=lang,
        BABEL_TRANSLATION_DIRECTORIES=str(LOCALE_DIR),
        JSON_SORT_KEYS=False,
    )
    Babel(app, locale_selector=choose_language)
    epoch = secrets.token_hex(8) if folder is None else _epoch(app.config["SECRET_KEY"], pin)
    kept = (lambda name: None) if folder is None else (lambda name: folder / name)
    app.extensions[STORE] = league
    app.extensions["pegboard.tries"] = Tries(kept("pin-tries"))
    app.extensions["pegboard.invites"] = auth.Invites()
    app.extensions["pegboard.sign_ins"] = OrderedDict()
    app.extensions["pegboard.sessions"] = auth.Sessions(epoch, kept("sessions"))
    app.extensions[signing.PAIRINGS] = signing.Pairings(epoch, None)  # no club pairs with it
    answer_only_to(
        app,
        frozenset(h.lower() for h in hosts),
        N_("the league does not answer to the name {host}"),
    )
    app.register_blueprint(auth.bp)

    @app.after_request
    def secure(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    @app.context_processor
    def common() -> dict[str, Any]:
        return {
            "csrf": auth.csrf_token(),
            "lang": language(),
            "languages": [(c, NAMES[c]) for c in LANGUAGES],
            "signed": auth.signed_in(),
        }

    @app.get("/")
    def page() -> str:
        club, player = _number("club"), _number("player")
        clubs = store().clubs()
        shown: dict[str, Any] = {"clubs": clubs, "points": store().points()}
        if player is not None:
            shown["player"] = season.player(store(), player) or abort(404, _("no such player"))
            shown["history"] = season.history(store(), player)
        else:
            rows = season.standings(store(), club)
            shown["club"] = next((c for c in clubs if c["club"] == club), None)
            shown["rows"], shown["more"] = rows[:SHOWN], max(0, len(rows) - SHOWN)
        return render_template("league.html", **shown)

    @app.get("/league/api/standings")
    def standings() -> Response:
        club = _number("club")
        rows = season.standings(store(), club)
        return jsonify(club=club, points=store().points().as_dict(), players=rows)

    @app.get("/league/standings.csv")
    def standings_csv() -> Response:
        club = _number("club")
        name = "league.csv" if club is None else f"club-{club}.csv"
        return Response(
            season.as_csv(season.standings(store(), club)),
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    @app.get("/league/api/clubs")
    def clubs() -> Response:
        return jsonify(clubs=store().clubs())

    @app.get("/league/api/players/<int:number>")
    def player(number: int) -> Response:
        found = season.player(store(), number)
        if found is None:
            abort(404, description=_("no such player"))
        return jsonify(player=found, nights=season.history(store(), number))

    @app.get("/league/api/nights/<night>")
    def versions(night: str) -> Response:
        found = store().versions(night)
        if not found:
            abort(404, description=_("no such night"))
        return jsonify(night=night, versions=found)

    @app.post("/league/api/nights")
    def send() -> Response:
        """A club's night file, as `pegboard club send` sends it."""
        return _imported(store().import_night(request.get_data(), _("the night file")))

    @app.post("/league/api/upload")
    @auth.pin_required
    def upload() -> Response:
        sent = request.files.get("file") if request.mimetype == "multipart/form-data" else None
        raw = sent.read() if sent is not None else request.get_data()
        name = (sent.filename if sent is not None else None) or _("the night file")
        return _imported(store().import_night(raw, name))

    @app.post("/league/api/clubs")
    @auth.pin_required
    def add_club() -> Response:
        data = json_body()
        name, key = data.get("name"), data.get("key")
        if not isinstance(name, str) or not isinstance(key, str):
            abort(400, description=_('send the club as JSON: {"name": "…", "key": "…"}'))
        return jsonify(club=store().add_club(name, key), clubs=store().clubs())

    @app.post("/league/api/merge")
    @auth.pin_required
    def merge() -> Response:
        data = json_body()
        keep, other = data.get("keep"), data.get("other")
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in (keep, other)):
            abort(400, description=_('send the two players as JSON: {"keep": 1, "other": 2}'))
        store().merge(cast(int, keep), cast(int, other))
        return jsonify(player=season.player(store(), cast(int, keep)))

    @app.post("/league/api/points")
    @auth.pin_required
    def points() -> Response:
        data = json_body()
        places, least = data.get("places"), data.get("least", 12)
        numbers = [*places, least] if isinstance(places, list) else [None]
        if not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 10_000
                   for n in numbers) or len(numbers) > 201:  # fmt: skip
            message = _('send the points per place as JSON: {"places": [10, 8, 6], "least": 12}')
            abort(400, description=message)
        store().set_points(Points(tuple(cast(list[int], places)), cast(int, least)))
        return jsonify(points=store().points().as_dict())

    _errors(app)
    return app


def _epoch(secret: str, pin: str) -> str:
    import hashlib

    return hashlib.sha256(f"{secret} {pin}".encode()).hexdigest()[:16]


def _number(name: str) -> int | None:
    text = request.args.get(name)
    if text is None:
        return None
    if not text.isdigit() or len(text) > 9:
        abort(400, description=_("{name} is a number").format(name=name))
    return int(text)


def _imported(done: Imported) -> Response:
    if not done.stored:
        said = _("the league had this night already: nothing changed")
    elif done.current:
        said = _("stored: the night counts from now on")
    else:
        said = _("stored and kept beside a later revision, which still counts")
    return jsonify(**done.as_dict(), said=said)


def _errors(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Response, int]:
        return jsonify(error=error.description or error.name), error.code or 500

    @app.errorhandler(PegboardError)
    def refused(error: PegboardError) -> tuple[Response, int]:
        status = 503 if isinstance(error, StoreError | OSError) else 400
        return jsonify(error=" ".join(phrase_of(error).say(language()).split())), status
