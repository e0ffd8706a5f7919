"""What the phone at the table is told: the count due and what it can total, never its
true total before its claim with Muggins on, the play's chips, the win, the games kept
and taking one up again, what this board's tracks take, the app's manifest."""

from __future__ import annotations

import struct

import pytest
from test_panel import PIN, act, csrf

from pegboard.rules.cards import parse_cards
from pegboard.rules.scoring import score_show

HAND_GAPS = (19, 25, 26, 27)  # RULES.md: no hand of four scores them


@pytest.fixture
def signed_in(client) -> str:
    """The CSRF token of a phone signed in with the PIN."""
    token = csrf(client)
    response = client.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    return response.get_json()["csrf"]


def state(client) -> dict:
    return client.get("/api/state").get_json()


def to_the_show(client, token, **settings) -> None:
    """Ann deals, the starter 5♦; three cards each are laid, the play is ended by hand:
    three of Bob's four cards are known when his hand is counted."""
    act(client, token, "new_game", players=["Ann", "Bob"], dealer=0, **settings)
    act(client, token, "starter", card="5D")
    for bob, ann in (("AH", "AC"), ("2H", "3C"), ("KH", "QC")):
        assert act(client, token, "lay", seat=1, card=bob).status_code == 200
        assert act(client, token, "lay", seat=0, card=ann).status_code == 200
    act(client, token, "advance")


def laid_show(client, token, **settings) -> dict:
    """The show of a deal whose play showed all of Bob's hand: A♥ 2♥ K♥ and one more."""
    act(client, token, "new_game", players=["Ann", "Bob"], dealer=0, **settings)
    act(client, token, "starter", card="5D")
    for bob, ann in (("AH", "AC"), ("2H", "3C"), ("KH", "QC"), ("4H", "9C")):
        assert act(client, token, "lay", seat=1, card=bob).status_code == 200, bob
        response = act(client, token, "lay", seat=0, card=ann)
        if response.status_code != 200:  # Ann cannot lay: she says go
            assert act(client, token, "go", seat=0).status_code == 200
    game = state(client)["game"]
    while game["phase"] == "play":
        game = act(client, token, "advance").get_json()["state"]["game"]
    return game


def test_the_count_due_comes_from_the_game_with_what_it_can_total(client, signed_in):
    to_the_show(client, signed_in)
    count = state(client)["game"]["count"]
    assert (count["seat"], count["kind"], count["name"]) == (1, "hand", "Bob's hand")
    assert (count["number"], count["of"], count["size"]) == (1, 3, 4)
    assert count["laid"] == ["A♥", "2♥", "K♥"]
    assert count["totals"] == [n for n in range(30) if n not in HAND_GAPS]
    for seat, points in ((1, 4), (0, 4)):
        act(client, signed_in, "claim", seat=seat, points=points)
    crib = state(client)["game"]["count"]
    assert (crib["seat"], crib["kind"], crib["name"], crib["laid"]) == (0, "crib", "Ann's crib", [])
    assert crib["totals"] == count["totals"]  # a crib has the same gaps


def test_with_muggins_on_no_phone_is_told_a_count_before_its_claim(client, signed_in):
    game = laid_show(client, signed_in, muggins=True)
    assert game["count"]["laid"] == ["A♥", "2♥", "K♥", "4♥"]  # all of Bob's hand is known
    assert game["count"]["show"] is None
    assert game["claims"] == []
    # Nor will the board score it for anyone who asks while the show is on.
    response = client.get("/api/score?hand=AH,2H,KH,4H&starter=5D")
    assert response.status_code == 409
    assert "Muggins is on" in response.get_json()["error"]
    # Once claimed: the claim and the window for Muggins; the verdict waits for a call
    # or the next count, then the cards are told.
    game = act(client, signed_in, "claim", seat=1, points=4).get_json()["state"]["game"]
    claim = game["claims"][-1]
    assert (claim["verdict"], claim["actual"], claim["show"]) == ("kept", None, None)
    assert game["muggins_open"]["verdict"] == "kept" and game["lesson"] is None
    game = act(client, signed_in, "claim", seat=0, points=2).get_json()["state"]["game"]
    true = score_show(parse_cards(["AH", "2H", "KH", "4H"]), parse_cards(["5D"])[0]).total
    told = game["claims"][0]
    assert told["actual"] == true and told["show"]["total"] == true
    assert told["verdict"] == ("exact" if true == 4 else "under")
    assert (game["lesson"] or {}).get("missed") == (true - 4 or None)


def test_with_muggins_off_the_count_of_known_cards_is_shown(client, signed_in):
    game = laid_show(client, signed_in)
    show = game["count"]["show"]
    true = score_show(parse_cards(["AH", "2H", "KH", "4H"]), parse_cards(["5D"])[0])
    assert show["total"] == true.total and len(show["items"]) == len(true.items)
    assert show["call"]  # said in the phone's language
    assert client.get("/api/score?hand=AH,2H,KH,4H&starter=5D").status_code == 200


def test_the_play_offers_chips_up_to_the_most_one_card_scores_and_the_ranks_that_fit(
    client, signed_in
):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    act(client, signed_in, "starter", card="5D")
    play = state(client)["game"]["play"]
    # A-2, then four threes to 15 as the last cards: 12 for the double pair royal, 2 for
    # fifteen, 1 for the last card
    assert play["most"] == 15
    assert len(play["fits"]) == 13
    for seat, card in ((1, "KH"), (0, "QC")):
        act(client, signed_in, "lay", seat=seat, card=card)
    fits = state(client)["game"]["play"]["fits"]  # count 20: up to a ten
    assert fits == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    act(client, signed_in, "lay", seat=1, card="5H")  # count 25: six and below
    assert state(client)["game"]["play"]["fits"] == ["A", "2", "3", "4", "5", "6"]


def test_the_win_says_by_how_much_the_skunk_and_what_comes_next(client, signed_in):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0, match_games=3)
    act(client, signed_in, "starter", card=None)
    game = state(client)["game"]
    assert game["result"] is None
    for _ in range(9):  # Bob pegs 135 in the play; Ann has nothing
        game = act(client, signed_in, "claim", seat=1, points=15, kind="play").get_json()
        game = game["state"]["game"]
    result = game["result"]
    assert result["winner"] == 1 and result["name"] == "Bob"
    assert result["margin"] == game["scores"][1] - game["scores"][0]
    assert result["skunk"] == 2  # Ann under 61: a double skunk
    # at home a double skunk counts four games: the match of three is won at once
    assert (result["next"], result["cut"]) == ("rematch", False)
    assert game["lead"] == {"side": 1, "by": result["margin"]}


def test_the_games_kept_and_taking_one_up_again(client, signed_in, keeper):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    act(client, signed_in, "starter", card="JC")  # two for his heels
    first = state(client)["game_id"]
    act(client, signed_in, "new_game", players=["Cat", "Dan"], dealer=1)
    listed = client.get("/api/games").get_json()["games"]
    assert [(g["id"], g["current"], g["finished"]) for g in listed] == [
        (first + 1, True, False),
        (first, False, False),
    ]
    assert [side["score"] for side in listed[1]["sides"]] == [2, 0]
    response = act(client, signed_in, "resume", game=first)
    assert response.status_code == 200
    body = response.get_json()
    assert body["said"] == "Back to the game of Ann and Bob."
    assert body["state"]["game_id"] == first and body["state"]["game"]["scores"] == [2, 0]
    assert keeper.state.players == ("Ann", "Bob")
    # A game started and left at once is not listed: there is nothing to go back to.
    assert [g["id"] for g in client.get("/api/games").get_json()["games"]] == [first]


@pytest.mark.parametrize(
    ("game", "says"), [(99, "there is no game 99"), ("one", "game must be a whole number")]
)
def test_resuming_a_game_that_is_not_there_is_refused_and_changes_nothing(
    client, signed_in, keeper, game, says
):
    act(client, signed_in, "new_game", players=["Ann", "Bob"], dealer=0)
    before = keeper.state
    response = act(client, signed_in, "resume", game=game)
    assert response.status_code in (400, 409)
    assert says in response.get_json()["error"]
    assert keeper.state == before


def test_the_board_says_which_numbers_of_players_it_takes(client):
    snapshot = state(client)
    assert (snapshot["tracks"], snapshot["players_allowed"]) == (2, [2, 4])
    assert snapshot["capacity"] == 121


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_app_manifest_opens_straight_to_the_board(client):
    response = client.get("/manifest.webmanifest", headers={"Accept-Language": "de"})
    assert response.mimetype == "application/manifest+json"
    app = response.get_json()
    assert (app["start_url"], app["display"], app["scope"]) == ("/", "standalone", "/")
    assert app["theme_color"] and app["short_name"] == "pegboard" and app["lang"] == "de"
    sizes = {}
    for icon in app["icons"]:
        data = client.get(icon["src"]).get_data()
        assert data, icon
        if icon["type"] == "image/png":
            sizes[icon["purpose"], png_size(data)] = icon["sizes"]
    assert sizes == {
        ("any", (192, 192)): "192x192",
        ("any", (512, 512)): "512x512",
        ("maskable", (512, 512)): "512x512",
    }
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
