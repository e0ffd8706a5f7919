"""The JSON API the page itself uses. Reading is open; every change needs the PIN.

Each change is one call on the table, which validates before it writes: a refused
request leaves the game exactly as it was.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, stream_with_context

from pegboard.cards import Card, parse_cards
from pegboard.panel.auth import pin_required
from pegboard.scoring import score_show

bp = Blueprint("api", __name__)

LIVE_HEARTBEAT = 15.0  # seconds between keep-alive comments on the live stream


def table():
    found = current_app.config.get("TABLE")
    if found is None:
        abort(503, description="the board is starting")
    return found


def body() -> dict[str, Any]:
    """The request's JSON object, or 400."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, description="send a JSON object")
    return data


def field(data: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ...):
    """One field of a JSON body, of the right type, or 400 naming it."""
    if name not in data:
        if default is ...:
            abort(400, description=f"missing field {name!r}")
        return default
    value = data[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and bool not in _tuple(kind)):
        abort(400, description=f"field {name!r} has the wrong type")
    return value


def _tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def cards_field(data: dict[str, Any], name: str) -> list[Card]:
    tokens = field(data, name, list)
    if len(tokens) > 7 or not all(isinstance(t, str) and len(t) <= 8 for t in tokens):
        abort(400, description=f"field {name!r} must be a short list of cards")
    return parse_cards(tokens)


@bp.get("/healthz")
def healthz():
    found = current_app.config.get("TABLE")
    return jsonify(ok=True, game=found is not None)


@bp.get("/api/score")
def score():
    """Score a hand with its starter: ``?hand=5H,5C,5S,JD&starter=5D&crib=1``. Changes nothing."""
    hand = [t for t in request.args.get("hand", "").split(",") if t]
    starter = request.args.get("starter", "")
    if not hand or not starter or len(hand) > 6:
        abort(400, description="give hand=CARD,CARD,... (3 to 6 cards) and starter=CARD")
    crib = request.args.get("crib", "0") in ("1", "true", "yes")
    return jsonify(score_show(parse_cards(hand), Card.parse(starter), crib=crib).as_dict())


@bp.get("/api/state")
def state():
    return jsonify(table().snapshot())


@bp.get("/api/events")
def events():
    """Server-sent events: the whole state when it changes, the lit holes when the LEDs do."""
    board = table()

    def stream():
        seen = (-1, -1)
        while not board.closing:
            now = board.wait(seen, timeout=LIVE_HEARTBEAT)
            if board.closing:
                return
            if now == seen:
                yield ": still here\n\n"
                continue
            if now[0] != seen[0]:
                yield _event("state", board.snapshot())
            if now[1] != seen[1]:
                yield _event("frame", {"holes": board.frame_holes()})
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
    board = table()
    if action not in board.actions:
        abort(404, description=f"no action called {action!r}")
    return jsonify(board.act(action, body()))
