"""The panel's HTTP API: open to watch, PIN to change, safe with hostile input."""

from __future__ import annotations

import dataclasses
import gzip
import json
import posixpath
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import PANEL_PIN
from waiting import eventually

from pegboard.panel import create_app
from pegboard.panel.actions import ACTIONS, SEEN, table, takes
from pegboard.panel.api import Board

PIN = PANEL_PIN  # the app and client fixtures are conftest's


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


def lines(client):
    """The game's whole history, as the page reads it."""
    return client.get("/api/history").get_json()["entries"]


def test_watching_is_open(client):
    assert client.get("/healthz").get_json() == {"ok": True, "game": True}
    state = client.get("/api/state").get_json()
    assert state["game"] is None and state["sim"] is True
    page = client.get("/")
    assert page.status_code == 200 and b"Discard advice" in page.data
    assert client.get("/board.svg").mimetype == "image/svg+xml"


def test_every_asset_is_local_and_the_first_load_is_small(client, keeper):
    """What a phone fetches to show the page the first time, as it goes over the wire
    (gzipped, with its headers), each asset named with the files' version and kept."""
    keeper.new_game({"players": ["Ann", "Bob"], "muggins": True}, dealer=0)
    keeper.turn_starter("5D")
    keeper.lay("10H", 1)  # a page opened in the play: the board as it stands comes in it
    taking = {"Accept-Encoding": "gzip, deflate"}

    def fetched(path: str) -> tuple[bytes, int]:
        response = client.get(path, headers=taking)
        assert response.status_code == 200, path
        wire = response.get_data()
        head = sum(len(f"{k}: {v}\r\n") for k, v in response.headers.items())
        gzipped = response.headers.get("Content-Encoding") == "gzip"
        return (gzip.decompress(wire) if gzipped else wire), len(wire) + head

    body, total = fetched("/")
    page = body.decode()
    assets = re.findall(r'(?:href|src)="([^"]+)"', page)
    named = all(a.startswith("/static/v/") or a == "/manifest.webmanifest" for a in assets)
    assert assets and named
    loaded, pending = set(), list(assets)
    while pending:  # each asset, and each module a module imports, once
        asset = pending.pop()
        if asset in loaded:
            continue
        loaded.add(asset)
        body, size = fetched(asset)
        total += size
        outside = re.findall(rb"https?://[^\s\"')]+", body)
        assert all(url.startswith(b"http://www.w3.org/") for url in outside), outside
        if asset.endswith(".js"):
            folder = asset.rsplit("/", 1)[0]
            for module in re.findall(rb'^import[^"]*"(\.[^"]+)"', body, re.M):
                pending.append(posixpath.normpath(f"{folder}/{module.decode()}"))
    lit = [a for a in loaded if a.endswith("/vendor/lit-html.js")]
    assert lit and len(loaded) > 20  # the page's modules, at the same version
    assert "<svg" in page  # the board's drawing comes in the page
    assert total <= 150 * 1024, total
    kept = client.get(lit[0]).headers["Cache-Control"]
    assert "immutable" in kept and "max-age=31536000" in kept, kept


def test_a_file_of_another_version_is_served_but_not_kept_and_gzip_only_when_taken(client):
    page = client.get("/").get_data(as_text=True)
    found = re.search(r'src="(/static/v/[^"]+/main.js)"', page)
    assert found is not None, "the page loads its main.js"
    main = found.group(1)
    older = re.sub(r"/v/[^/]+/", "/v/0ld/", main)  # a page of before an update
    response = client.get(older)
    kept = response.headers.get("Cache-Control", "")
    assert response.status_code == 200 and "immutable" not in kept
    plain = client.get(main)  # no Accept-Encoding: as it is
    assert "Content-Encoding" not in plain.headers and b"import" in plain.get_data()
    assert "Accept-Encoding" in plain.headers["Vary"]
    assert client.get("/static/v/x/../../../pyproject.toml").status_code == 404


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


def test_changes_need_the_pin(client, keeper):
    token = csrf(client)
    response = act(client, token, "new_game", players=["Ann", "Bob"])
    assert response.status_code == 401
    assert keeper.state is None


def test_changes_need_the_csrf_token(client, signed_in, keeper):
    response = client.post("/api/act/new_game", json={"players": ["Ann", "Bob"]})
    assert response.status_code == 403
    response = act(client, "forged", "new_game", players=["Ann", "Bob"])
    assert response.status_code == 403
    assert keeper.state is None


def test_login_needs_the_csrf_token(client):
    response = client.post("/api/login", json={"pin": PIN})
    assert response.status_code == 403


def test_an_address_waits_once_its_five_free_wrong_pins_are_spent(client):
    token = csrf(client)
    for _ in range(6):  # five free; the sixth closes signing in for this address a while
        response = client.post("/api/login", json={"pin": "0000"}, headers={"X-CSRF-Token": token})
        assert response.status_code == 401
    response = client.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) > 0
    assert not client.get("/api/session").get_json()["signed_in"]


def test_a_signed_in_phone_plays_a_deal(client, signed_in, keeper):
    assert act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0).status_code == 200
    act(client, signed_in, "starter", card="5D")
    act(client, signed_in, "lay", seat=1, card="10H")
    response = act(client, signed_in, "lay", seat=0, card="5C")
    assert response.status_code == 200
    state = response.get_json()["state"]["game"]
    assert state["scores"] == [2, 0]  # fifteen two
    assert "5♦" in state["used"]
    assert lines(client)[-1]["points"] == 2


def test_with_muggins_a_claim_keeps_its_verdict_until_a_call_settles_it(client, signed_in, keeper):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0, muggins=True)
    act(client, signed_in, "starter", card="5D")
    act(client, signed_in, "advance")
    response = act(client, signed_in, "claim", seat=1, points=8, cards=["5H", "5C", "JS", "4D"])
    assert response.status_code == 200
    body = response.get_json()
    assert body["said"] == "Pegged 8."  # the claim, and nothing of what the cards hold
    game = body["state"]["game"]
    assert game["muggins_open"]["verdict"] == "kept" and game["muggins_open"]["missed"] is None
    claim = game["claims"][-1]
    assert (claim["verdict"], claim["actual"], claim["show"]) == ("kept", None, None)
    response = act(client, signed_in, "muggins", seat=0, points=9)  # Ann says 9 were missed
    assert response.status_code == 200
    game = response.get_json()["state"]["game"]
    assert game["scores"][0] == 6  # the lesser of the call and the 6 truly missed
    claim = game["claims"][-1]
    assert (claim["verdict"], claim["actual"], claim["muggins"]["points"]) == ("under", 14, 6)


def test_without_muggins_the_board_says_what_a_count_missed(client, signed_in):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    act(client, signed_in, "starter", card="5D")
    act(client, signed_in, "advance")
    response = act(client, signed_in, "claim", seat=1, points=8, cards=["5H", "5C", "JS", "4D"])
    assert response.get_json()["said"] == "8: under by 6."


def test_a_refused_entry_is_a_409_and_changes_nothing(client, signed_in, keeper):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    act(client, signed_in, "starter", card="5D")
    act(client, signed_in, "advance")
    before = client.get("/api/state").get_json()["game"]
    response = act(client, signed_in, "claim", seat=1, points=19)
    assert response.status_code == 409
    assert "19" in response.get_json()["error"]
    after = client.get("/api/state").get_json()["game"]
    assert after == before


@pytest.mark.slow
@pytest.mark.parametrize(
    ("action", "data", "status"),
    [
        ("explode", {}, 404),
        ("claim", "not json", 400),
        ("claim", ["a", "list"], 400),
        ("claim", {"seat": "zero", "points": 2}, 400),
        ("claim", {"seat": 0, "points": 2, "cards": "5H"}, 400),
        ("lay", {"seat": 0, "card": "<script>"}, 409),
        ("new_game", {"players": ["x" * 500, "Bob"]}, 409),
        ("new_game", {"players": ["Ann", "Bob"], "variant": "chess"}, 400),
    ],
)
def test_hostile_requests_get_4xx_json(client, signed_in, keeper, action, data, status):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    before = keeper.state
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
    assert keeper.state == before


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


def test_an_internal_error_never_shows_a_trace(keeper):
    broken = create_app({"PIN": PIN}, keeper)
    failing: Any = object()  # a front door that fails every call
    dataclasses.replace(Board.of(broken), keeper=failing).init_app(broken)
    response = broken.test_client().get("/api/state")
    assert response.status_code == 500
    assert response.get_json() == {"error": "internal error: nothing was changed"}


def test_logout(client, signed_in):
    response = client.post("/api/logout", json={}, headers={"X-CSRF-Token": signed_in})
    assert response.get_json()["signed_in"] is False
    assert act(client, response.get_json()["csrf"], "undo").status_code == 401


# --- discard advice -------------------------------------------------------------------------


def test_advice_is_open_and_best_first(client):
    response = client.get("/api/advice?cards=5H,5C,JD,QS,2C,9H&role=dealer&players=2")
    assert response.status_code == 200
    advice = response.get_json()["advice"]
    assert len(advice) == 15  # every way to lay two of six away
    assert advice[0]["discard"] == ["2♣", "9♥"]
    assert advice[0]["net"] >= advice[-1]["net"]
    pone = client.get("/api/advice?cards=5H,5C,JD,QS,2C,9H&role=pone").get_json()["advice"]
    assert pone[0]["net"] < advice[0]["net"]  # the crib counts against the pone


def test_no_advice_during_a_count(client, signed_in):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    query = "/api/advice?cards=5H,5C,JD,QS,2C,9H&role=pone&players=2"
    assert client.get(query).status_code == 200  # while discarding
    act(client, signed_in, "starter", card="4D")
    act(client, signed_in, "advance")
    response = client.get(query)
    assert response.status_code == 409
    assert response.get_json() == {"error": "no advice during a count"}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("cards=5H,5C,JD,QS&role=dealer", "5 to 7 cards"),
        ("cards=5H,5C,JD,QS,2C,9H", "role=dealer or role=pone"),
        ("cards=5H,5C,JD,QS,2C,9H&role=crib", "role=dealer or role=pone"),
        ("cards=5H,5C,JD,QS,2C,9H&role=pone&players=5", "players=2, 3 or 4"),
        ("cards=5H,5C,JD,QS,2C,9H&role=pone&players=3", "with 3 players"),
        ("cards=5H,5H,JD,QS,2C,9H&role=pone", "given twice"),
        ("cards=5H,5C,JD,QS,2C,<b>&role=pone", "<b>"),
        ("cards=" + "x" * 5000 + "&role=pone", "5 to 7 cards"),
    ],
)
def test_bad_advice_requests_get_a_clear_400(client, query, says):
    response = client.get(f"/api/advice?{query}")
    assert response.status_code == 400
    assert says in response.get_json()["error"]


# --- settings, entries and what the page reads -----------------------------------------------


def test_a_new_game_takes_every_setting(client, signed_in):
    response = act(
        client,
        signed_in,
        "new_game",
        players=["Ann", "Bob", "Cat", "Dan"],
        colours=["#112233", "#AABBCC"],
        variant="lowball",
        target=91,
        muggins=True,
        lessons=False,
        first_go_ends=True,
        over_count="penalise",
        skunk="triple",
        match_games=3,
        match_scoring="acc",
        dealer=2,
    )
    assert response.status_code == 200
    game = response.get_json()["state"]["game"]
    assert game["settings"] == {
        "players": ["Ann", "Bob", "Cat", "Dan"],
        "variant": "lowball",
        "target": 91,
        "muggins": True,
        "lessons": False,
        "first_go_ends": True,
        "over_count": "penalise",
        "skunk": "triple",
        "match_games": 3,
        "match_scoring": "acc",
        "colours": ["#112233", "#AABBCC"],
        "edition": 2,  # of the board's rules (pegboard.game.settings.EDITIONS)
    }
    assert [side["name"] for side in game["sides"]] == ["Ann & Cat", "Bob & Dan"]
    assert [side["colour"] for side in game["sides"]] == ["#112233", "#AABBCC"]
    assert game["dealer"] == 2 and game["match"]["needed"] == 4


@pytest.mark.slow
@pytest.mark.parametrize(
    ("settings", "says"),
    [
        ({"colours": ["#112233"]}, "give 2 colours"),
        ({"colours": ["red", "blue"]}, "give 2 colours"),
        ({"match_games": 2}, "odd number"),
        ({"skunk": "quadruple"}, "skunk must be one of"),
        ({"over_count": "ignore"}, "over_count must be one of"),
        ({"target": 10**6}, "at most 999"),
        ({"players": ["Ann", "Ann"]}, "same name"),
        ({"players": ["Ann\x1b[2J", "Bob"]}, "holds U+001B, which is not printable text"),
        ({"players": ["\u202eAnn", "Bob"]}, "holds U+202E, which is not printable text"),
        ({"dealer": 7}, "no player 7"),
        ({"first_go_ends": "yes"}, "first_go_ends must be true or false"),
    ],
)
def test_bad_settings_are_refused_and_keep_the_game(client, signed_in, keeper, settings, says):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    before = keeper.state
    response = act(client, signed_in, "new_game", **{"players": ["Cat", "Dan"], **settings})
    assert response.status_code in (400, 409)
    assert says in response.get_json()["error"]
    assert keeper.state == before


def test_the_state_tells_whose_each_seen_card_is(client, signed_in):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    act(client, signed_in, "starter", card="5D")
    game = act(client, signed_in, "lay", seat=1, card="10H").get_json()["state"]["game"]
    assert game["known"] == {"10♥": {"seat": 1, "kind": "hand"}, "5♦": None}
    assert sorted(game["used"]) == ["10♥", "5♦"]


def test_an_over_count_is_taken_back_and_penalised_in_the_history(client, signed_in):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0, over_count="penalise")
    act(client, signed_in, "starter", card="5D")
    act(client, signed_in, "advance")
    response = act(client, signed_in, "claim", seat=1, points=12, cards=["10H", "5H", "JS", "4D"])
    body = response.get_json()
    assert body["said"] == "12: over by 2; pegged 10."
    game = body["state"]["game"]
    assert game["scores"] == [2, 10]  # Bob pegs the true 10, Ann the 2 he claimed too many
    bob, penalty = lines(client)[-2:]
    assert (bob["side"], bob["points"], bob["cards"]) == (1, 10, ["10♥", "5♥", "J♠", "4♦"])
    assert (penalty["side"], penalty["points"], penalty["kind"]) == (0, 2, "penalty")


def test_muggins_on_a_count_pegged_without_its_cards(client, signed_in):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0, muggins=True)
    act(client, signed_in, "starter", card="5D")
    act(client, signed_in, "advance")
    game = act(client, signed_in, "claim", seat=1, points=8).get_json()["state"]["game"]
    assert game["muggins_open"] == {
        "side": 1,
        "seat": 1,
        "kind": "hand",
        "name": "Bob's hand",
        "claimed": 8,
        "cards": None,
        "verdict": "unchecked",
        "missed": None,
        # a call without the cards may make the count any total a hand of four can score
        "missable": [total - 8 for total in range(9, 30) if total not in (19, 25, 26, 27)],
        "size": 4,
        "laid": [],
    }
    # Ann names the cards: the game checks them and pegs her what was really missed.
    response = act(client, signed_in, "muggins", seat=0, points=5, cards=["10H", "5H", "JS", "4D"])
    game = response.get_json()["state"]["game"]
    assert game["scores"] == [2, 8]  # true 10, claimed 8: two missed, not five
    assert lines(client)[-1]["why"] == "muggins on Bob's hand"
    assert lines(client)[-1]["cards"] == ["10♥", "5♥", "J♠", "4♦"]
    assert game["muggins_open"] is None


def test_a_muggins_call_disputed_with_a_starter_named_late(client, signed_in, keeper):
    """The starter turned with "not a jack", no card entered: Ann mugs Bob without the
    cards; Bob names the starter and shows his hand, and the cards settle the call."""
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0, muggins=True)
    act(client, signed_in, "starter", card=None)
    act(client, signed_in, "advance")
    act(client, signed_in, "claim", seat=1, points=10)
    game = act(client, signed_in, "muggins", seat=0, points=2).get_json()["state"]["game"]
    assert game["scores"] == [2, 10] and game["dispute"]["seat"] == 1
    hand = ["10H", "5H", "JS", "4D"]
    before = keeper.state
    response = act(client, signed_in, "dispute", seat=1, cards=hand)
    assert response.status_code == 409
    assert "name it" in response.get_json()["error"] and keeper.state == before
    response = act(client, signed_in, "name_starter", card="5D")
    assert response.status_code == 200 and response.get_json()["said"] == "The starter: 5♦."
    assert response.get_json()["state"]["game"]["starter"] == "5♦"
    response = act(client, signed_in, "name_starter", card="6D")  # named once
    assert response.status_code == 409 and "5♦" in response.get_json()["error"]
    game = act(client, signed_in, "dispute", seat=1, cards=hand).get_json()["state"]["game"]
    assert game["scores"] == [0, 12]  # 10 was right: the false call pegs Bob two
    assert lines(client)[-1]["why"] == "false muggins on Bob's hand"


def test_muggins_by_a_partner_or_when_off_is_refused(client, signed_in, keeper):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    act(client, signed_in, "starter", card="5D")
    act(client, signed_in, "advance")
    game = act(client, signed_in, "claim", seat=1, points=8).get_json()["state"]["game"]
    assert game["muggins_open"] is None  # Muggins is off in this game
    before = keeper.state
    response = act(client, signed_in, "muggins", seat=0, points=2)
    assert response.status_code == 409 and "off" in response.get_json()["error"]
    assert keeper.state == before


def test_heels_undo_redo_and_the_next_deal(client, signed_in):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0, target=31)
    game = act(client, signed_in, "starter", card="JC").get_json()["state"]["game"]
    assert game["scores"] == [2, 0] and lines(client)[-1]["cards"] == ["J♣"]
    game = act(client, signed_in, "undo").get_json()["state"]["game"]
    assert game["scores"] == [0, 0] and game["can_redo"]
    game = act(client, signed_in, "redo").get_json()["state"]["game"]
    assert game["scores"] == [2, 0] and not game["can_redo"]
    act(client, signed_in, "advance")
    for seat, points in ((1, 4), (0, 6), (0, 2)):
        act(client, signed_in, "claim", seat=seat, points=points)
    game = act(client, signed_in, "advance").get_json()["state"]["game"]
    assert (game["deal"], game["dealer"], game["phase"]) == (2, 1, "discard")
    assert act(client, signed_in, "advance").status_code == 409  # the starter comes first


def test_a_match_goes_on_to_its_next_game(client, signed_in):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0, target=5, match_games=3)
    act(client, signed_in, "starter", card=None)
    game = act(client, signed_in, "claim", seat=1, points=6, kind="play").get_json()["state"]
    game = game["game"]
    assert game["phase"] == "over" and game["match"]["points"] == [0, 1]
    assert "won" in game["summary"]
    game = act(client, signed_in, "next_game").get_json()["state"]["game"]
    assert game["game"] == 2 and game["scores"] == [0, 0] and game["dealer"] == 1
    assert game["match"]["games"][0]["winner"] == 1


def test_the_third_game_of_three_is_cut_for_from_the_panel(client, signed_in):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0, target=5, match_games=3)
    for winner in (1, 0):  # one game each: the third decides
        act(client, signed_in, "starter", card=None)
        game = act(client, signed_in, "claim", seat=winner, points=6, kind="play").get_json()
        game = game["state"]["game"]
        assert game["cut_customary"] is (winner == 0)
        if winner:
            act(client, signed_in, "next_game")
    game = act(client, signed_in, "next_game", cuts=["9H", "4C"]).get_json()["state"]["game"]
    assert game["game"] == 3 and game["dealer"] == 1  # Bob cut the lower card
    assert act(client, signed_in, "next_game", cuts=["9H"]).status_code in (400, 409)


def test_a_muggins_call_without_the_cards_is_settled_by_showing_them(client, signed_in):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0, muggins=True)
    act(client, signed_in, "starter", card="5D")
    act(client, signed_in, "advance")
    act(client, signed_in, "claim", seat=1, points=8)
    game = act(client, signed_in, "muggins", seat=0, points=4).get_json()["state"]["game"]
    assert game["scores"] == [4, 8] and game["muggins_disputable"] == 0
    # Bob shows his hand: it scores 9, so one point was missed, not four.
    response = act(client, signed_in, "dispute", seat=1, cards=["10H", "JS", "QC", "3D"])
    answer = response.get_json()
    assert answer["said"] == "Muggins settled by the cards."
    assert answer["state"]["game"]["scores"] == [1, 8]


def test_brightness_from_the_panel(client, signed_in, board):
    response = act(client, signed_in, "brightness", level=0.5)
    assert response.get_json()["state"]["brightness"] == 0.5
    assert act(client, signed_in, "brightness", level=2).status_code == 409
    assert act(client, signed_in, "brightness", level="max").status_code == 400
    eventually(lambda: board.leds.brightness == 0.5, board=board.keeper)


def test_the_on_screen_dials_peg(client, signed_in, keeper):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    act(client, signed_in, "sim_press", seat=0)  # the starter, no heels
    state = act(client, signed_in, "sim_turn", seat=1, steps=3).get_json()["state"]
    assert state["pending"][1] == 3
    state = act(client, signed_in, "sim_press", seat=1).get_json()["state"]
    assert state["game"]["scores"] == [0, 3] and state["pending"][1] is None
    assert act(client, signed_in, "sim_hold", seat=1).get_json()["state"]["game"]["scores"] == [
        0,
        0,
    ]
    response = act(client, signed_in, "sim_turn", seat=1, steps=10**9)
    assert response.status_code == 409 and "steps" in response.get_json()["error"]
    assert act(client, signed_in, "sim_press", seat=9).status_code == 409


def test_the_page_has_every_message_its_script_shows(client):
    """A key missing from the page's messages would show a player the key itself."""
    page = client.get("/").get_data(as_text=True)
    block = re.search(r'<script type="application/json" id="messages">(.*?)</script>', page, re.S)
    assert block is not None, "the page carries its messages"
    messages = json.loads(block.group(1))
    static = Path(__file__).resolve().parents[1] / "web" / "static"
    modules = [p.relative_to(static) for p in static.rglob("*.js") if "vendor" not in p.parts]
    script = "".join(client.get(f"/static/{name}").get_data(as_text=True) for name in modules)
    # the keys in the first argument of every t(...), and the one key built at run time
    firsts = re.findall(r"\bt\(([^,)]*)", script)
    # (a string compared with === in a condition is no key)
    firsts = [re.sub(r'[!=]==\s*"\w*"', "", first) for first in firsts]
    used = {key for first in firsts for key in re.findall(r'"(\w+)"', first)}
    used |= {f"kind_{kind}" for kind in ("fifteen", "pair", "pair_3", "pair_4", "run", "flush")}
    used |= {"kind_nobs", "connecting"}
    used |= {f"skunk_{level}" for level in (1, 2, 3)}
    assert len(used) > 40 and used <= set(messages), used - set(messages)
    assert all(isinstance(text, str) and text for text in messages.values())


# --- hostile bodies: a clear 400, nothing changed ---------------------------------------------


@pytest.mark.parametrize("action", ["undo", "redo", "go", "lay", "next_game", "advance"])
def test_an_argument_an_action_does_not_take_is_a_400_that_names_it(
    client, signed_in, keeper, action
):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    before = keeper.state
    response = act(client, signed_in, action, cards=["5H"], seat=0, card="5H", colour="red")
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert "cards" in error and "colour" in error
    assert keeper.state == before


def post_raw(client, token, path, data: bytes):
    return client.post(
        path, data=data, content_type="application/json", headers={"X-CSRF-Token": token}
    )


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"[" * 5000 + b"]" * 5000, "nested too deep"),
        (b'{"pin": ' + b"[" * 5000 + b"]" * 5000 + b"}", "nested too deep"),
        (b'{"pin": "\\ud800"}', "not valid Unicode"),
        (b'{"pin": "12\xff34"}', "not valid JSON"),
        (b'{"pin": "1", "pin": "2"}', "twice"),
        (b'{"pin": NaN}', "NaN"),
    ],
)
def test_hostile_json_reaches_no_parser_and_no_pin_check(client, data, says):
    """Before the PIN: the body is refused, and no wrong PIN is counted."""
    token = csrf(client)
    for _ in range(6):
        response = post_raw(client, token, "/api/login", data)
        assert response.status_code == 400
        assert says in response.get_json()["error"]
    assert post_raw(client, token, "/api/login", b'{"pin": "%s"}' % PIN.encode()).status_code == 200


@pytest.mark.slow
@pytest.mark.parametrize(
    ("action", "args"),
    [
        ("new_game", {"players": ["Ann\ud800", "Bob"]}),
        ("new_game", {"players": ["Ann", "Bob"], "dealer": 10**40}),
        ("claim", {"seat": 0, "points": 2, "cards": ["5\udc00"]}),
    ],
)
def test_text_that_is_not_unicode_is_never_stored(client, signed_in, keeper, action, args):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    before, games = keeper.state, len(keeper._table.games())
    data = json.dumps(args).encode()  # ensure_ascii: lone surrogates as \\u escapes
    response = post_raw(client, signed_in, f"/api/act/{action}", data)
    assert response.status_code == 400
    assert keeper.state == before and len(keeper._table.games()) == games


def test_the_readme_lists_every_action_with_its_arguments():
    """Scripts learn the API from the README: its table of actions is the one the
    declarations make, each action with every argument it takes (but the version every
    entry may carry) and what it does."""
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    assert table() in readme, "README.md: paste in pegboard.panel.actions.table()"
    lines = readme.splitlines()
    for action, declared in ACTIONS.items():
        row = next((line for line in lines if line.startswith(f"| `{action}` |")), "")
        assert declared.sim or all(f"`{name}`" in row for name in takes(declared) if name != SEEN)
