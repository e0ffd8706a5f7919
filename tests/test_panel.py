"""The panel's HTTP API: open to watch, PIN to change, safe with hostile input."""

from __future__ import annotations

import re

import pytest

from pegboard.panel import create_app

PIN = "2468"


@pytest.fixture
def app(board):
    return create_app({"PIN": PIN, "TABLE": board, "SECRET_KEY": "x" * 64})


@pytest.fixture
def client(app):
    return app.test_client()


def csrf(client):
    return client.get("/api/session").get_json()["csrf"]


@pytest.fixture
def signed_in(client):
    token = csrf(client)
    response = client.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert response.status_code == 200
    return response.get_json()["csrf"]


def act(client, token, action, **args):
    return client.post(f"/api/act/{action}", json=args, headers={"X-CSRF-Token": token})


def test_watching_is_open(client):
    assert client.get("/healthz").get_json() == {"ok": True, "game": True}
    state = client.get("/api/state").get_json()
    assert state["game"] is None and state["sim"] is True
    page = client.get("/")
    assert page.status_code == 200 and b"Verify a count" in page.data
    assert client.get("/board.svg").mimetype == "image/svg+xml"


def test_every_asset_is_local_and_the_first_load_is_small(client):
    page = client.get("/").get_data(as_text=True)
    assets = re.findall(r'(?:href|src)="([^"]+)"', page)
    assert assets and all(a.startswith("/static/") for a in assets)
    total = len(page.encode())
    for asset in assets:
        body = client.get(asset).get_data()
        total += len(body)
        outside = re.findall(rb"https?://[^\s\"')]+", body)
        assert all(url.startswith(b"http://www.w3.org/") for url in outside), outside
    total += len(client.get("/board.svg").get_data())
    assert total <= 150 * 1024


def test_security_headers(client):
    headers = client.get("/").headers
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_score_a_hand_without_signing_in(client):
    result = client.get("/api/score?hand=5H,5C,5S,JD&starter=5D").get_json()
    assert result["total"] == 29 and "nobs" in result["call"]
    crib = client.get("/api/score?hand=2H,4H,6H,8H&starter=QC&crib=1").get_json()
    assert crib["flush"] == 0


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("hand=5H,5X,5S,JD&starter=5D", "'X' is not a suit"),
        ("hand=5H,5H,5S,JD&starter=5D", "given twice"),
        ("hand=5H&starter=5D", "not 1"),
        ("starter=5D", "give hand="),
        ("hand=" + ",".join(["5H"] * 50) + "&starter=5D", "give hand="),
    ],
)
def test_bad_cards_get_a_clear_400(client, query, says):
    response = client.get(f"/api/score?{query}")
    assert response.status_code == 400
    assert says in response.get_json()["error"]


def test_changes_need_the_pin(client, board):
    token = csrf(client)
    response = act(client, token, "new_game", players=["Ann", "Bob"])
    assert response.status_code == 401
    assert board.snapshot()["game"] is None


def test_changes_need_the_csrf_token(client, signed_in, board):
    response = client.post("/api/act/new_game", json={"players": ["Ann", "Bob"]})
    assert response.status_code == 403
    response = act(client, "forged", "new_game", players=["Ann", "Bob"])
    assert response.status_code == 403
    assert board.snapshot()["game"] is None


def test_login_needs_the_csrf_token(client):
    response = client.post("/api/login", json={"pin": PIN})
    assert response.status_code == 403


def test_at_most_five_wrong_pins_a_minute(client):
    token = csrf(client)
    for _ in range(5):
        response = client.post("/api/login", json={"pin": "0000"}, headers={"X-CSRF-Token": token})
        assert response.status_code == 401
    response = client.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) > 0
    assert not client.get("/api/session").get_json()["signed_in"]


def test_a_signed_in_phone_plays_a_deal(client, signed_in, board):
    assert act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0).status_code == 200
    act(client, signed_in, "starter", card="5D")
    act(client, signed_in, "lay", seat=1, card="10H")
    response = act(client, signed_in, "lay", seat=0, card="5C")
    assert response.status_code == 200
    state = response.get_json()["state"]["game"]
    assert state["scores"] == [2, 0]  # fifteen two
    assert "5♦" in state["used"]
    history = client.get("/api/state").get_json()["game"]["history"]
    assert history[-1]["points"] == 2


def test_a_verified_claim_reports_under_and_muggins_pegs_it(client, signed_in, board):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0, muggins=True)
    act(client, signed_in, "starter", card="5D")
    act(client, signed_in, "advance")
    response = act(client, signed_in, "claim", seat=1, points=8, cards=["5H", "5C", "JS", "4D"])
    assert response.status_code == 200
    body = response.get_json()
    assert "under by" in body["said"]
    game = body["state"]["game"]
    missed = game["muggins_open"]["missed"]
    assert missed == game["claims"][-1]["actual"] - 8 > 0
    response = act(client, signed_in, "muggins", seat=0, points=missed)
    assert response.status_code == 200
    assert response.get_json()["state"]["game"]["scores"][0] == missed


def test_a_refused_entry_is_a_409_and_changes_nothing(client, signed_in, board):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    act(client, signed_in, "starter", card="5D")
    act(client, signed_in, "advance")
    before = client.get("/api/state").get_json()["game"]
    response = act(client, signed_in, "claim", seat=1, points=19)
    assert response.status_code == 409
    assert "19" in response.get_json()["error"]
    after = client.get("/api/state").get_json()["game"]
    assert after["scores"] == before["scores"] and after["history"] == before["history"]


@pytest.mark.parametrize(
    ("action", "data", "status"),
    [
        ("explode", {}, 404),
        ("claim", "not json", 400),
        ("claim", ["a", "list"], 400),
        ("claim", {"seat": "zero", "points": 2}, 409),
        ("claim", {"seat": 0, "points": 2, "cards": "5H"}, 409),
        ("lay", {"seat": 0, "card": "<script>"}, 409),
        ("new_game", {"players": ["x" * 500, "Bob"]}, 409),
        ("new_game", {"players": ["Ann", "Bob"], "variant": "chess"}, 400),
    ],
)
def test_hostile_requests_get_4xx_json(client, signed_in, board, action, data, status):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    before = board.table.state
    if isinstance(data, str):
        response = client.post(
            f"/api/act/{action}",
            data=data,
            content_type="application/json",
            headers={"X-CSRF-Token": signed_in},
        )
    else:
        response = act_raw(client, signed_in, action, data)
    assert response.status_code == status
    assert "error" in response.get_json()
    assert "Traceback" not in response.get_data(as_text=True)
    assert board.table.state == before


def act_raw(client, token, action, data):
    return client.post(f"/api/act/{action}", json=data, headers={"X-CSRF-Token": token})


def test_an_oversized_body_is_refused(client, signed_in):
    response = client.post(
        "/api/act/claim",
        data="{" + " " * 200_000 + "}",
        content_type="application/json",
        headers={"X-CSRF-Token": signed_in},
    )
    assert response.status_code == 413
    assert "error" in response.get_json()


def test_an_internal_error_never_shows_a_trace(board):
    broken = create_app({"PIN": PIN, "TABLE": object()})
    response = broken.test_client().get("/api/state")
    assert response.status_code == 500
    assert response.get_json() == {"error": "internal error: nothing was changed"}


def test_logout(client, signed_in):
    response = client.post("/api/logout", json={}, headers={"X-CSRF-Token": signed_in})
    assert response.get_json()["signed_in"] is False
    assert act(client, response.get_json()["csrf"], "undo").status_code == 401
