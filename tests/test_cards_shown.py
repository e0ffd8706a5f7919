"""A photo posted for a count (``POST /api/cards?seat=&kind=``): the game checks what the
camera saw as that count's cards (a card another player laid refused by name; the whole
hand, when every card was read sure: the starter set aside) and changes nothing; nothing of
what the cards score is told unless the starter is asked for."""

from __future__ import annotations

import pytest
from conftest import PANEL_PIN
from reader_photos import need_decks, photo, render

need_decks()
pytestmark = pytest.mark.subprocess  # rsvg-convert draws the decks

STARTER = "5D"
BOB = ["5H", "5C", "5S", "JD"]  # Bob's hand (seat 1): with the starter, 29
ANN_LAID = "10H"  # Ann's first card in the play


@pytest.fixture(scope="module")
def decks(tmp_path_factory):
    return render(tmp_path_factory.mktemp("decks"), ("svg-standard",), [*BOB, STARTER, ANN_LAID])


@pytest.fixture
def token(client, keeper):
    token = client.get("/api/session").get_json()["csrf"]
    answer = client.post("/api/login", json={"pin": PANEL_PIN}, headers={"X-CSRF-Token": token})
    token = answer.get_json()["csrf"]
    for action, args in (
        ("new_game", {"players": ["Ann", "Bob"], "dealer": 0}),
        ("starter", {"card": STARTER}),
        ("lay", {"seat": 1, "card": "5H"}),
        ("lay", {"seat": 0, "card": ANN_LAID}),  # fifteen two for Ann
    ):
        answer = client.post(f"/api/act/{action}", json=args, headers={"X-CSRF-Token": token})
        assert answer.status_code == 200, answer.get_json()
    return token


@pytest.fixture
def post(client, token, decks):
    """Post a photo of ``cards`` for the count named by ``query``."""

    def posting(cards, query):
        body = photo(decks, "svg-standard", cards, fanned=False, seed=4)
        headers = {"X-CSRF-Token": token, "Content-Type": "image/jpeg"}
        return client.post(f"/api/cards{query}", data=body, headers=headers)

    return posting


def test_a_photo_of_a_hand_with_its_starter_gives_the_hands_cards_and_no_count(post):
    answer = post([*BOB, STARTER], "?seat=1&kind=hand")
    assert answer.status_code == 200, answer.get_json()
    got = answer.get_json()
    assert sorted(got["shown"]) == sorted(["5♥", "5♣", "5♠", "J♦"])  # the starter set aside
    assert "count" not in got  # what they score is not told: the claim is the player's


def test_a_card_another_player_laid_is_refused_by_name_and_changes_nothing(post, keeper):
    """Refused by name whether or not the rest of the photo was read sure."""
    before = keeper.now.versions
    answer = post(["5C", "5S", "JD", ANN_LAID], "?seat=1&kind=hand")
    assert answer.status_code == 409  # the rules refuse it, as any entry's refusal
    assert answer.get_json()["error"] == "10♥ is in Ann's hand"
    assert keeper.now.versions == before


@pytest.mark.parametrize(
    "query",
    [
        "?seat=1&kind=play",
        "?seat=one&kind=hand",
        "?kind=crib",
        "?seat=9&kind=hand",
        "?seat=1&kind=crib",
        "?seat=٤&kind=hand",
    ],
)
def test_a_count_named_wrongly_is_refused_with_one_line(post, query):
    answer = post(BOB, query)
    assert answer.status_code == 400
    assert (
        answer.get_json()["error"] == "name a count of this deal: seat=N and kind=hand or kind=crib"
    )
