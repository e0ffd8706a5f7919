"""The JSON API the page itself uses. Reading is open; every change needs the PIN.

Each change is one call through the front door, which validates before it writes: a
refused request leaves the game exactly as it was. A change sent with an
``Idempotency-Key`` header is made once: sent again with the same key (a retry, a
double tap) it is answered as the first time and changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request
from flask_babel import gettext as _

from pegboard.errors import ConflictError, RuleError
from pegboard.i18n import phrase_of
from pegboard.keeper import Change, Scorekeeper
from pegboard.panel import actions, language, live, signing
from pegboard.panel.auth import pin_required, signed_in
from pegboard.panel.bodies import idempotency_key, json_body
from pegboard.panel.parts import Extension
from pegboard.panel.view import counting, history, listed_game, secret, snapshot
from pegboard.rules.advice import advise
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.deals import PLAYERS
from pegboard.rules.scoring import score_show
from pegboard.rules.speech import show_call
from pegboard.statistics import tally

bp = Blueprint("api", __name__)

HUB = "pegboard.hub"  # in the WSGI environ: the evented server holds live streams itself
STREAM = "pegboard.stream"  # set by /api/events for it: the stream's live.Handover
PAGE = 500  # history lines in one page, at most


@dataclass(frozen=True)
class Board(Extension):
    """The board the app shows (kept by :func:`~pegboard.panel.create_app`): its front
    door and the broadcaster of its live streams."""

    keeper: Scorekeeper
    live: live.Live
    camera: Callable[[], bytes] | None = None  # the board's own camera's shot, if it has one


def the_board() -> Board:
    """The board the app shows, or 503 while it starts."""
    found = Board.find()
    if found is None:
        abort(503, description=_("the board is starting"))
    return found


def keeper() -> Scorekeeper:
    """The board's front door, or 503 while it starts."""
    return the_board().keeper


def simulated() -> bool:
    return bool(current_app.config.get("SIM"))


def has_camera() -> bool:
    """True when the board has a camera of its own (the pads show a Board camera button)."""
    found = Board.find()
    return found is not None and found.camera is not None


def board_view(door: Scorekeeper, lang: str, now: Change | None = None) -> dict[str, Any]:
    """The snapshot of the board this app shows (:func:`~pegboard.panel.view.snapshot`)."""
    return snapshot(door, lang, sim=simulated(), camera=has_camera(), now=now)


def the_live() -> live.Live:
    """The broadcaster of the board's live streams (made with the app)."""
    return the_board().live


def digest(action: str, data: dict[str, Any]) -> str:
    """What a request asked for, as a short digest (the same request, the same digest)."""
    text = json.dumps([action, data], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def cards_arg(name: str, least: int, most: int, usage: str) -> list[Card]:
    """Cards given in the query string as ``name=5H,JD,...``: ``least`` to ``most`` of them,
    or 400 with ``usage``."""
    tokens = [t for t in request.args.get(name, "").split(",") if t]
    if not least <= len(tokens) <= most or any(len(t) > 8 for t in tokens):
        abort(400, description=usage)
    return parse_cards(tokens)


@bp.get("/healthz")
def healthz() -> Response:
    return jsonify(ok=True, game=Board.find() is not None)


@bp.get("/api/score")
def score() -> Response:
    """Score a hand with its starter: ``?hand=5H,5C,5S,JD&starter=5D&crib=1``. Changes
    nothing. The call is said in the phone's language."""
    usage = _("give hand=CARD,CARD,... (3 to 6 cards) and starter=CARD")
    hand = cards_arg("hand", 1, 6, usage)
    (starter,) = cards_arg("starter", 1, 1, usage)
    crib = request.args.get("crib", "0") in ("1", "true", "yes")
    if secret(keeper().state):
        message = _("Muggins is on: count your own hands; the board checks them once claimed")
        abort(409, description=message)
    show = score_show(hand, starter, crib=crib)
    return jsonify({**show.as_dict(), "call": show_call(show, language())})


@bp.get("/api/advice")
def advice() -> Response:
    """Which cards to lay away: ``?cards=5H,5C,JD,QS,2C,9H&role=dealer&players=2``.
    Open to all, but never while a hand or crib is being counted."""
    cards = cards_arg("cards", 5, 7, _("give cards=CARD,CARD,... (the 5 to 7 cards dealt)"))
    role = request.args.get("role", "")
    if role not in ("dealer", "pone"):
        abort(400, description=_("give role=dealer or role=pone"))
    players = request.args.get("players", "2")
    if players not in [str(n) for n in PLAYERS]:
        abort(400, description=_("give players=2, 3 or 4"))
    state = keeper().state
    if secret(state):
        abort(409, description=_("Muggins is on: no advice from the starter until the show ends"))
    if counting(state):
        abort(409, description=_("no advice during a count"))
    options = advise(cards, dealer=role == "dealer", players=int(players))
    return jsonify(advice=[option.as_dict() for option in options])


@bp.get("/api/state")
def state() -> Response:
    return jsonify(board_view(keeper(), language()))


@bp.get("/api/games")
def game_list() -> Response:
    """The board's stored games, newest first: each open or finished, and which is
    being played (a game left unfinished is taken up again with the ``resume`` action)."""
    door, lang = keeper(), language()
    return Response(GameList.of().text(door, lang), mimetype="application/json")


class GameList(Extension):
    """The list of games as JSON, made once for each language and each change of the
    board (phones opening their Game tab together wait for one list, not each for its
    own), each game's part kept until that game changes. An entry changes the current
    game only: its part alone is made again, whatever the number of games; a new game
    or one taken up again makes the list again, each game's part kept as it was."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made: dict[str, _Made] = {}

    def text(self, door: Scorekeeper, lang: str) -> str:
        with self._lock:
            now = door.now  # read before the list
            version, current = now.version, now.game_id
            made = self._made.get(lang)
            if made is not None and made.version == version:
                return made.text
            if made is not None and made.current == current and current in made.order:
                (listed,) = door.games(only=current) or (None,)
                if listed is not None:  # an entry of the current game: its part alone
                    made.parts[current] = _json(listed_game(listed, lang))
                    made.version, made.text = version, made.joined()
                    return made.text
            kept = {} if made is None else made.kept
            parts: dict[int, str] = {}
            keys: dict[int, _MadeAt] = {}
            for listed in door.games():
                key = (listed.id, listed.versions, listed.current)
                parts[listed.id] = kept.get(key) or _json(listed_game(listed, lang))
                keys[listed.id] = key
            made = self._made[lang] = _Made(version, current, list(parts), parts, keys)
            return made.text


_MadeAt = tuple[int, int, bool]  # a game's part made at: its id, its versions, current or not


class _Made:
    """The list as last made in one language: the board's version and current game it
    was made at, the games in order, each game's part and what that part was made at."""

    def __init__(
        self,
        version: int,
        current: int | None,
        order: list[int],
        parts: dict[int, str],
        keys: dict[int, _MadeAt],
    ) -> None:
        self.version, self.current, self.order = version, current, order
        self.parts, self._keys = parts, keys
        self.text = self.joined()

    @property
    def kept(self) -> dict[_MadeAt, str]:
        """Each part by what it was made at (the current game's may be newer: dropped)."""
        return {key: self.parts[game] for game, key in self._keys.items() if game != self.current}

    def joined(self) -> str:
        return f'{{"games":[{",".join(self.parts[game] for game in self.order)}]}}'


def _json(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@bp.get("/api/statistics")
def statistics() -> Response:
    """What each player did in the game being played: counts and their averages, points
    missed, Muggins (see :mod:`pegboard.statistics`)."""
    state = keeper().state
    players = {} if state is None else tally(state)
    return jsonify(players=[{"name": name, **t.as_dict()} for name, t in players.items()])


@bp.get("/api/history")
def history_page() -> Response:
    """The game's history, a page at a time: ``?at=TAG&start=N`` reads the board a live
    message was tagged with (so the pages agree while the game goes on); without ``at``,
    the game now. 410 when that board is no longer kept: read the latest again."""
    at = request.args.get("at")
    if at is None:
        state = keeper().state
    else:
        board = the_live().board_at(at)
        if board is None:
            abort(410, description=_("the history moved on: read it again"))
        state = board.state
    start = request.args.get("start", "0")
    if not start.isascii() or not start.isdigit() or len(start) > 6:
        abort(400, description=_("give start=N, a line of the history (0 is the first)"))
    lines = () if state is None else state.history
    first = min(int(start), len(lines))
    return jsonify(
        at=at,
        count=len(lines),
        start=first,
        entries=history(state, language(), first, first + PAGE),
    )


@bp.get("/api/events")
def events() -> Response:
    """Server-sent events: the board when it changes, what its history gained, the dials,
    the lit holes (see :mod:`pegboard.panel.live`); its words in the language of the
    phone that opened the stream."""
    broadcaster, lang, door = the_live(), language(), keeper()
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    if request.environ.get(HUB):  # the server writes the stream: no thread waits on it
        release = broadcaster.follow(lang)
        seen, first = broadcaster.hello(lang, request.headers.get("Last-Event-ID"))
        kept = signed_in() or signing.signed()  # a phone's, or a paired club's: never ended
        handover = live.Handover(lang, seen, first, release, kept, source=broadcaster)
        request.environ[STREAM] = handover
        return Response(b"", mimetype="text/event-stream", headers=headers)
    feed = live.Feed(broadcaster, lang, lambda: door.closing)
    return Response(feed, mimetype="text/event-stream", headers=headers)


@bp.post("/api/act/<action>")
@pin_required
def act(action: str) -> Response | tuple[Response, int]:
    """Every change of the game: ``action`` with its JSON arguments. With an
    ``Idempotency-Key``, made at most once; 422 when the key came with another request."""
    door, lang, sim = keeper(), language(), simulated()
    key = idempotency_key()
    if action not in actions.ACTIONS:
        abort(404, description=_("no action called {action}").format(action=repr(action)))
    data = json_body()
    try:
        asked = actions.asked(door, action, data, sim=sim)  # read and checked here
        change = asked() if key is None else door.once(key, digest(action, data), asked)
    except (RuleError, ConflictError) as error:  # refused: here is the board as it is now
        refusal = {"error": phrase_of(error).say(lang), "state": board_view(door, lang)}
        return jsonify(refusal), 409
    board = board_view(door, lang, now=change)  # the board this change left
    answer: dict[str, Any] = {"said": change.said.say(lang), "state": board}
    if change.what == "replayed":
        answer["replayed"] = True
    return jsonify(answer)
