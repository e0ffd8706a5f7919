"""The JSON API the page itself uses. Reading is open; every change needs the PIN.

Each change is one call on the table, which validates before it writes: a refused
request leaves the game exactly as it was.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, stream_with_context
from flask_babel import gettext as _

from pegboard.keeper import Scorekeeper
from pegboard.panel import actions, language
from pegboard.panel.auth import pin_required
from pegboard.panel.view import counting, snapshot
from pegboard.rules.advice import advise
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.scoring import score_show
from pegboard.rules.speech import show_call

bp = Blueprint("api", __name__)

LIVE_HEARTBEAT = 15.0  # seconds between keep-alive comments on the live stream


def keeper() -> Scorekeeper:
    """The board's front door, or 503 while it starts."""
    found = current_app.config.get("KEEPER")
    if found is None:
        abort(503, description=_("the board is starting"))
    return found


def simulated() -> bool:
    return bool(current_app.config.get("SIM"))


def body() -> dict[str, Any]:
    """The request's JSON object, or 400."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, description=_("send a JSON object"))
    return data


def cards_arg(name: str, least: int, most: int, usage: str) -> list[Card]:
    """Cards given in the query string as ``name=5H,JD,...``: ``least`` to ``most`` of them,
    or 400 with ``usage``."""
    tokens = [t for t in request.args.get(name, "").split(",") if t]
    if not least <= len(tokens) <= most or any(len(t) > 8 for t in tokens):
        abort(400, description=usage)
    return parse_cards(tokens)


@bp.get("/healthz")
def healthz():
    found = current_app.config.get("KEEPER")
    return jsonify(ok=True, game=found is not None)


@bp.get("/api/score")
def score():
    """Score a hand with its starter: ``?hand=5H,5C,5S,JD&starter=5D&crib=1``. Changes
    nothing. The call is said in the phone's language."""
    usage = _("give hand=CARD,CARD,... (3 to 6 cards) and starter=CARD")
    hand = cards_arg("hand", 1, 6, usage)
    (starter,) = cards_arg("starter", 1, 1, usage)
    crib = request.args.get("crib", "0") in ("1", "true", "yes")
    show = score_show(hand, starter, crib=crib)
    return jsonify({**show.as_dict(), "call": show_call(show, language())})


@bp.get("/api/advice")
def advice():
    """Which cards to lay away: ``?cards=5H,5C,JD,QS,2C,9H&role=dealer&players=2``.
    Open to all, but never while a hand or crib is being counted."""
    cards = cards_arg("cards", 5, 7, _("give cards=CARD,CARD,... (the 5 to 7 cards dealt)"))
    role = request.args.get("role", "")
    if role not in ("dealer", "pone"):
        abort(400, description=_("give role=dealer or role=pone"))
    players = request.args.get("players", "2")
    if players not in ("2", "3", "4"):
        abort(400, description=_("give players=2, 3 or 4"))
    if counting(keeper().state):
        abort(409, description=_("no advice during a count"))
    options = advise(cards, dealer=role == "dealer", players=int(players))
    return jsonify(advice=[option.as_dict() for option in options])


@bp.get("/api/state")
def state():
    return jsonify(snapshot(keeper(), language(), sim=simulated()))


@bp.get("/api/events")
def events():
    """Server-sent events: the whole state when it changes, the lit holes when the LEDs do;
    its words in the language of the phone that opened the stream."""
    door, lang, sim = keeper(), language(), simulated()

    def stream():
        seen = (-1, -1)
        while not door.closing:
            now = door.wait(seen, timeout=LIVE_HEARTBEAT)
            if door.closing:
                return
            if now == seen:
                yield ": still here\n\n"
                continue
            if now[0] != seen[0]:
                yield _event("state", snapshot(door, lang, sim=sim))
            if now[1] != seen[1]:
                yield _event("frame", {"holes": door.lit()})
            seen = now

    return Response(
        stream_with_context(stream()),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _event(name: str, data: object) -> str:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n"


@bp.post("/api/act/<action>")
@pin_required
def act(action: str):
    """Every change of the game: ``action`` with its JSON arguments."""
    door, lang = keeper(), language()
    try:
        change = actions.act(door, action, body(), sim=simulated())
    except LookupError:
        abort(404, description=_("no action called {action}").format(action=repr(action)))
    return jsonify(said=change.said.say(lang), state=snapshot(door, lang, sim=simulated()))
