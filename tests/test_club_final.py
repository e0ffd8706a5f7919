"""A night of three players as the ACC counts it, through the club's own API (the real
app over the real club file, in this process): the bye is no game played and never a
Grand Slam, its points shown apart; a correction sent twice (with its Idempotency-Key,
or the same one again without) is one; and when the last round is in, every phone says
the night is over with its player's final place, points and spread, and the room's
screen says the standings are final."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from pegboard.club.director import Director
from pegboard.club.store import ClubStore
from pegboard.club.web import create_club_app

PIN = "2468"


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[FlaskClient, Director]]:
    store = ClubStore(tmp_path / "club.db")
    director = Director(store, tmp_path, "127.0.0.1")
    app = create_club_app(director, store, PIN, tries=tmp_path / "tries")
    try:
        client = app.test_client()
        login = client.post("/club/api/login", json={"pin": PIN, "name": "Dana"})
        client.environ_base["HTTP_X_CSRF_TOKEN"] = login.get_json()["csrf"]
        yield client, director
    finally:
        director.close()
        store.close()


def post(client: FlaskClient, path: str, body: dict[str, Any], key: str | None = None) -> Any:
    headers = {} if key is None else {"Idempotency-Key": key}
    answer = client.post(path, json=body, headers=headers)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def standing(client: FlaskClient, name: str) -> dict[str, Any]:
    players = client.get("/club/api/standings").get_json()["players"]
    return next(s for s in players if s["name"] == name)


def test_a_three_player_night_counts_the_bye_as_no_game(
    club: tuple[FlaskClient, Director],
) -> None:
    client, director = club
    post(client, "/club/api/tables", {})
    post(client, "/club/api/format", {"games": 3})
    codes = {
        n: post(client, "/club/api/players", {"name": n})["code"] for n in ("Ann", "Bob", "Cat")
    }
    won_by = {}
    for round in (1, 2, 3):
        drawn = post(client, "/club/api/rounds", {}, key=f"draw-{round}")
        assert post(client, "/club/api/rounds", {}, key=f"draw-{round}")["round"] == round
        this = drawn["rounds"][round - 1]
        (bye,) = this["byes"]
        if round == 1:  # before a card is laid: the bye is no game played
            had = standing(client, bye["name"])
            assert (had["played"], had["grand_slam"], had["byes"]) == (0, False, 1)
            assert (had["bye_points"], had["points"], had["bye_spread"]) == (2, 2, 0)
            assert not standing(client, this["seats"][0]["players"][0]["name"])["grand_slam"]
        seat = this["seats"][0]
        names = [p["name"] for p in seat["players"]]
        winner = "Ann" if "Ann" in names else names[0]  # Ann wins every game she plays
        won_by[round] = winner
        correction = {"round": round, "table": 1, "winner": winner, "margin": 12, "why": "cards"}
        for _ in range(2):  # sent twice with its key, then once more without one
            post(client, "/club/api/corrections", correction, key=f"fix-{round}")
        post(client, "/club/api/corrections", correction)
    assert len(director.night.corrections) == 3  # one a round
    refused = client.post(
        "/club/api/corrections",
        json={**correction, "margin": 13},
        headers={"Idempotency-Key": "fix-3"},
    )
    assert refused.status_code == 422
    assert (
        refused.get_json()["error"]
        == "this request key was used for another request: send a new one"
    )
    ann = standing(client, "Ann")
    assert (ann["played"], ann["losses"], ann["byes"]) == (2, 0, 1)  # won both her games
    assert ann["grand_slam"] is False  # a bye: not all the night's games played
    assert ann["points"] == 2 * 2 + 2 and ann["bye_points"] == 2
    for name, code in codes.items():
        mine = client.get(f"/club/api/me/{code}").get_json()
        assert mine["final"] is True
        page = client.get(f"/me/{code}").get_data(as_text=True)
        place = mine["standing"]["place"]
        assert f"The night is over: you finished {place} of 3." in page, name
        assert "wait for the next round" not in page
        assert f"{mine['standing']['spread']:+d}" in page
    room = client.get("/").get_data(as_text=True)
    assert "Final standings after 3 rounds" in room
    sheet = client.get("/club/sheet").get_data(as_text=True)
    assert "ACC number" in sheet
    rows = client.get("/club/results.csv").get_data(as_text=True).splitlines()
    head, ann_row = rows[0].split(","), next(r for r in rows if ",Ann," in r).split(",")
    assert dict(zip(head, ann_row, strict=True))["bye_points"] == "2"
    assert dict(zip(head, ann_row, strict=True))["played"] == "2"
