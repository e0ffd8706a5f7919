"""The club's own pages and API, on the club's port: the room's big screen (``/``), the
director's page (``/director``: everything the director sets and corrects, behind the
night's PIN), each player's phone view (``/me/CODE``: the code is the player's own) and
the JSON a script reads (``/club/api/…``), the night's results as CSV and a printable
sheet. Every change may carry an ``Idempotency-Key`` (as a board's actions do): sent
again with the same request, it is made once and answered as the first time; the same
key with another request is refused (422).

Watching is open (the standings, the tables, the rounds, the season); the director's
changes need the PIN (a session cookie and its CSRF token, as on a board's panel; wrong
PINs are counted and slowed down as a board counts them); a player's way to their
table comes with their code. Every refusal is one line in the reader's language, with
a 4xx status, and changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any, TypeVar, cast

from flask import Flask, Response, abort, current_app, jsonify, render_template, request, session
from flask_babel import Babel
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from pegboard.club import views
from pegboard.club.director import Director
from pegboard.club.store import ClubStore, Key
from pegboard.errors import PegboardError, StoreError
from pegboard.i18n import LANGUAGES, LOCALE_DIR, N_, NAMES, phrase_of
from pegboard.keeper import KeyReused
from pegboard.panel import (
    SECURITY_HEADERS,
    answer_only_to,
    choose_language,
    language,
    refuse_cross_site,
)
from pegboard.panel.api import digest
from pegboard.panel.bodies import MOST_BYTES, idempotency_key, json_body
from pegboard.panel.tries import Tries

DIRECTOR = "pegboard.director"  # in app.extensions
View = TypeVar("View", bound=Callable[..., Any])


def director() -> Director:
    return cast(Director, current_app.extensions[DIRECTOR])


def create_club_app(
    keeper: Director,
    store: ClubStore,
    pin: str,
    *,
    secret_key: str | None = None,
    hosts: tuple[str, ...] = ("localhost",),
    lang: str = "en",
    tries: Path | None = None,
) -> Flask:
    """The club's app over the night ``keeper`` keeps; ``pin`` is the director's."""
    folder = files("pegboard.club")
    app = Flask(
        __name__,
        static_folder=str(folder / "static"),
        static_url_path="/club/static",
        template_folder=str(folder / "templates"),
    )
    app.url_map.merge_slashes = False
    app.config.update(
        SECRET_KEY=secret_key or secrets.token_hex(32),
        MAX_CONTENT_LENGTH=MOST_BYTES,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_NAME="pegboard_club",
        LANGUAGE=lang,
        BABEL_DEFAULT_LOCALE=lang,
        BABEL_TRANSLATION_DIRECTORIES=str(LOCALE_DIR),
        JSON_SORT_KEYS=False,
    )
    Babel(app, locale_selector=choose_language)
    app.extensions[DIRECTOR] = keeper
    app.extensions["pegboard.club_store"] = store
    app.extensions["pegboard.tries"] = Tries(tries)
    epoch = hashlib.sha256(f"{app.config['SECRET_KEY']} {pin}".encode()).hexdigest()[:16]
    names = frozenset(name.lower() for name in hosts)

    def director_required(view: View) -> View:
        def checked(*args: Any, **kwargs: Any) -> Any:
            sent, known = request.headers.get("X-CSRF-Token", ""), session.get("csrf", "")
            if not known or not hmac.compare_digest(sent.encode(), known.encode()):
                abort(403, description=_("missing or wrong CSRF token: reload the page"))
            if session.get("epoch") != epoch or not session.get("director"):
                abort(401, description=_("enter the night's PIN first"))
            return view(*args, **kwargs)

        checked.__name__ = view.__name__
        return cast(View, checked)

    answer_only_to(app, names, N_("the club does not answer to the name {host}"))
    refuse_cross_site(app)

    @app.after_request
    def secure(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    @app.context_processor
    def common() -> dict[str, Any]:
        return {"csrf": csrf(), "lang": language(), "languages": [(c, NAMES[c]) for c in LANGUAGES]}

    # --- pages ----------------------------------------------------------------------------

    @app.get("/")
    def room() -> str:
        return render_template("room.html", **_parts())

    @app.get("/director")
    def director_page() -> str:
        signed = session.get("epoch") == epoch and bool(session.get("director"))
        night = director().night
        private = {
            "night_players": list(night.players.values()),
            "corrections": night.corrections,
            "found": views.found_view(director(), _found()),
        }
        return render_template(
            "director.html",
            signed=signed,
            by=session.get("director"),
            **(private if signed else {}),
            **_parts(secrets=signed),
        )

    @app.get("/me/<code>")
    def me(code: str) -> str:
        return render_template("me.html", me=_me(code), code=code, **_parts())

    @app.get("/club/part/<name>")
    def part(name: str) -> str:
        if name not in ("head", "standings", "round", "tables", "me", "season"):
            abort(404, description=_("no such part of the page"))
        signed = session.get("epoch") == epoch and bool(session.get("director"))
        code = request.args.get("code", "")
        extra = {"me": _me(code)} if name == "me" else {}
        if name == "season":
            extra = {"season": views.season_view(store, director())}
        return render_template(
            f"part_{name}.html", signed=signed, **extra, **_parts(secrets=signed)
        )

    @app.get("/club/sheet")
    def sheet() -> str:
        return render_template("sheet.html", **_parts())

    @app.get("/club/season")
    def season_page() -> str:
        season = views.season_view(store, director())
        return render_template("season.html", season=season, **_parts())

    @app.get("/club/results.csv")
    def results_csv() -> Response:
        name = f"night-{director().night_id}.csv"
        return Response(
            views.results_csv(director()),
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    # --- the API: reading -------------------------------------------------------------------

    @app.get("/club/api/night")
    def night() -> Response:
        return jsonify(views.night_view(director()))

    @app.get("/club/api/standings")
    def standings() -> Response:
        return jsonify(views.standings_view(director()))

    @app.get("/club/api/tables")
    def tables() -> Response:
        signed = session.get("epoch") == epoch and bool(session.get("director"))
        return jsonify(views.tables_view(director(), language(), secrets=signed))

    @app.get("/club/api/rounds")
    def rounds() -> Response:
        return jsonify(views.rounds_view(director()))

    @app.get("/club/api/season")
    def season() -> Response:
        return jsonify(views.season_view(store, director()))

    @app.get("/club/api/me/<code>")
    def me_json(code: str) -> Response:
        return jsonify(_me(code))

    @app.post("/club/api/me/<code>/join")
    def join(code: str) -> Response:
        player = director().player(code)
        if player is None:
            abort(404, description=_("no player has that code"))
        return jsonify(link=director().join(player))

    # --- the API: the director's ------------------------------------------------------------

    @app.get("/club/api/session")
    def who() -> Response:
        signed = session.get("epoch") == epoch and bool(session.get("director"))
        return jsonify(signed_in=signed, director=session.get("director"), csrf=csrf())

    @app.post("/club/api/login")
    def login() -> Response:
        data = json_body()
        pin_sent, name = data.get("pin"), data.get("name")
        if not isinstance(pin_sent, str) or not isinstance(name, str) or not name.strip():
            abort(400, description=_('send the PIN and your name: {"pin": "…", "name": "…"}'))
        client = request.remote_addr or "unknown"
        counted = cast(Tries, app.extensions["pegboard.tries"])
        if counted.wait(client):
            abort(429, description=_("too many wrong PINs: wait a minute and try again"))
        if not hmac.compare_digest(pin_sent.encode(), pin.encode()):
            counted.fail(client)
            abort(401, description=_("wrong PIN"))
        counted.forgive(client)
        session.clear()
        session.update(epoch=epoch, director=" ".join(name.split())[:40])
        return jsonify(signed_in=True, csrf=csrf())

    @app.post("/club/api/logout")
    def logout() -> Response:
        session.clear()
        return jsonify(signed_in=False, csrf=csrf())

    @app.post("/club/api/format")
    @director_required
    def set_format() -> Response:
        director().set_format(json_body(), _by(), _keyed("format"))
        return jsonify(views.night_view(director()))

    @app.post("/club/api/players")
    @director_required
    def add_player() -> Response:
        data = json_body()
        name, acc = data.get("name"), data.get("acc") or ""
        if not isinstance(name, str) or not isinstance(acc, str):
            abort(400, description=_('send the player as JSON: {"name": "Ann", "acc": ""}'))
        player = director().add_player(name, acc, _by(), _keyed("players"))
        return jsonify(player=player.number, name=player.name, code=player.code)

    @app.post("/club/api/tables")
    @director_required
    def add_table() -> Response:
        data = json_body()
        address, pin_sent = data.get("address"), data.get("pin")
        if address is None:
            return jsonify(table=director().add_hosted(_by(), _keyed("tables")))
        replaced = data.get("replaced", False)
        if not isinstance(address, str) or not isinstance(pin_sent, str | None):
            abort(400, description=_('send a board as JSON: {"address": "…", "pin": "…"}'))
        if not isinstance(replaced, bool):
            abort(400, description=_('send a board as JSON: {"address": "…", "pin": "…"}'))
        table = director().pair(
            address, pin_sent or None, _by(), _keyed("tables"), replaced=replaced
        )
        return jsonify(table=table)

    @app.post("/club/api/tables/<int:table>/pair")
    @director_required
    def pair_again(table: int) -> Response:
        """Pair a board's table again (its PIN changed, or the board was replaced)."""
        data = json_body()
        pin_sent, replaced = data.get("pin"), data.get("replaced", False)
        if not isinstance(pin_sent, str) or not pin_sent or not isinstance(replaced, bool):
            abort(400, description=_('send the board\'s PIN as JSON: {"pin": "1234"}'))
        director().pair_again(table, pin_sent, replaced=replaced)
        return jsonify(table=table)

    @app.get("/club/api/boards")
    @director_required
    def boards() -> Response:
        return jsonify(boards=views.found_view(director(), _found()))

    @app.post("/club/api/rounds")
    @director_required
    def draw() -> Response:
        drawn = director().draw(_by(), _keyed("rounds"))
        return jsonify(round=drawn.round, **views.rounds_view(director()))

    @app.post("/club/api/corrections")
    @director_required
    def correct() -> Response:
        data = json_body()
        numbers = [data.get(k) for k in ("round", "table", "winner", "margin")]
        numbers[2] = _winner(numbers[2])
        why = data.get("why")
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers) or not (
            isinstance(why, str)
        ):
            message = _(
                "send the round, the table, the winner (the player's number or name), the "
                'margin and why, as JSON: {"round": 1, "table": 2, "winner": 3, "margin": 12, '
                '"why": "…"}'
            )
            abort(400, description=message)
        round, table, winner, margin = cast(list[int], numbers)
        director().correct(round, table, winner, margin, why, _by(), _keyed("corrections"))
        return jsonify(views.rounds_view(director()))

    @app.post("/club/api/nights")
    @director_required
    def new_night() -> Response:
        director().new_night(_by(), _keyed("nights"))
        return jsonify(views.night_view(director()))

    _errors(app)
    return app


def csrf() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(32)
    return str(session["csrf"])


def _found() -> list[Any]:
    """The boards announced on the network (none when the club does not look)."""
    boards = current_app.extensions.get("pegboard.boards")
    return boards.found() if boards is not None else []


def _keyed(action: str) -> Key | None:
    """The request's Idempotency-Key with a digest of what it asks (None: no key)."""
    key = idempotency_key()
    sent = request.get_data(cache=True).decode("utf-8", "replace")
    return None if key is None else (key, digest(action, {"body": sent}))


def _winner(given: object) -> object:
    """A correction's winner: a player's number, or a name (a name no player has, or
    any other value, is left for the check that refuses it)."""
    if isinstance(given, str):
        wanted = " ".join(given.split()).casefold()
        found = [n for n, p in director().night.players.items() if p.name.casefold() == wanted]
        return found[0] if found else int(given) if given.isdigit() else given
    return given


def _by() -> str:
    return str(session.get("director"))


def _me(code: str) -> dict[str, Any]:
    player = director().player(code)
    if player is None:
        abort(404, description=_("no player has that code"))
    return views.me_view(director(), player)


def _parts(secrets: bool = False) -> dict[str, Any]:
    keeper, lang = director(), language()
    return {
        "night": views.night_view(keeper),
        "standings": views.standings_view(keeper)["players"],
        "tables": views.tables_view(keeper, lang, secrets)["tables"],
        "rounds": views.rounds_view(keeper)["rounds"],
        "history": keeper.history,
    }


def _errors(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[Response, int]:
        return jsonify(error=error.description or error.name), error.code or 500

    @app.errorhandler(PegboardError)
    def refused(error: PegboardError) -> tuple[Response, int]:
        status = 503 if isinstance(error, StoreError) else 409
        status = 422 if isinstance(error, KeyReused) else status
        return jsonify(error=phrase_of(error).say(language())), status
