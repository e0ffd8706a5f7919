"""Hostile and clumsy requests, generated: every endpoint, any method, any body, any
header. Never a 5xx, never a traceback, and a refused request changes nothing."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_panel import PIN, csrf

from pegboard.panel.actions import ACTIONS

PATHS = [
    "/",
    "/healthz",
    "/api/state",
    "/api/history",
    "/api/session",
    "/api/login",
    "/api/logout",
    "/api/score",
    "/api/advice",
    "/language",
    "/board.svg",
    "/static/main.js",
    "//x",
    "/api/act/",
    *(f"/api/act/{name}" for name in [*ACTIONS, "explode", "__init__"]),
]
NAMES = [
    "seat",
    "points",
    "card",
    "cards",
    "kind",
    "players",
    "dealer",
    "version",
    "level",
    "steps",
    "heels",
    "target",
    "variant",
    "colours",
    "pin",
    "lang",
    "muggins",
]
TEXT = st.text(
    st.characters(codec="utf-8") | st.sampled_from("\ud800\udfff\x00\u202e"), max_size=12
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**15), 10**15)
    | st.floats(allow_nan=True, allow_infinity=True)
    | TEXT
    | st.sampled_from(["5H", "JD", "10♠", "hand", "crib", "play", PIN, "<script>"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(NAMES) | TEXT, inner, max_size=4)
    ),
    max_leaves=12,
)
BODIES = (
    st.dictionaries(st.sampled_from(NAMES), VALUES, max_size=5).map(
        lambda data: json.dumps(data).encode()
    )
    | VALUES.map(lambda data: json.dumps(data).encode())
    | st.binary(max_size=64)
    | st.integers(1, 3000).map(lambda depth: b"[" * depth + b"]" * depth)
)
QUERIES = st.dictionaries(
    st.sampled_from(["hand", "starter", "crib", "cards", "role", "players", "at", "start"]),
    st.sampled_from(["5H,5C,5S,JD", "5D", "1", "dealer", "x" * 300, "-1", "\u00e9", "99999999"])
    | TEXT,
    max_size=4,
)
REQUESTS = st.fixed_dictionaries(
    {
        "method": st.sampled_from(["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS"]),
        "path": st.sampled_from(PATHS),
        "query": QUERIES,
        "body": BODIES,
        "key": st.none() | st.sampled_from(["k1", "k2", '"k1"']) | TEXT,
        "csrf": st.booleans(),
        "host": st.sampled_from(["localhost", "localhost:8080", "127.0.0.1", "evil.example", ""]),
    }
)


def seen(keeper) -> tuple:
    """Everything a request could change."""
    return keeper.state, keeper.game_id, keeper.dials, keeper.brightness


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(requests=st.lists(REQUESTS, min_size=1, max_size=4))
def test_no_request_gets_a_5xx_and_a_refusal_changes_nothing(app, door, requests):
    client = app.test_client()
    token = csrf(client)
    signed = client.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    token = signed.get_json()["csrf"]
    client.post(
        "/api/act/new_game",
        json={"players": ["Ann", "Bob"], "dealer": 0},
        headers={"X-CSRF-Token": token},
    )
    for request in requests:
        headers = {"Host": request["host"], "Content-Type": "application/json"}
        if request["csrf"]:
            headers["X-CSRF-Token"] = token
        if request["key"] is not None:
            key = request["key"].encode("utf-8", "replace").decode("latin-1")
            headers["Idempotency-Key"] = key.replace("\r", "").replace("\n", "")  # no framing
        before = seen(door)
        response = client.open(
            request["path"],
            method=request["method"],
            query_string=request["query"],
            data=request["body"],
            headers=headers,
        )
        body = response.get_data()
        assert response.status_code < 500, (request, body[:300])
        assert b"Traceback" not in body
        if response.status_code >= 400:
            assert seen(door) == before, request
            if request["method"] != "HEAD" and request["path"] != "/static/main.js":
                assert "error" in json.loads(body), body[:200]
