"""The play: what the card just laid scores within one count."""

import pytest

from pegboard.errors import PlayError
from pegboard.rules.cards import parse_cards
from pegboard.rules.play import can_lay, go_points, max_play_points, score_play
from pegboard.rules.speech import play_call


def peg_all(tokens):
    cards = parse_cards(tokens.split())
    return [score_play(cards[:i], card) for i, card in enumerate(cards)]


def points(tokens):
    return [peg.points for peg in peg_all(tokens)]


@pytest.mark.parametrize(
    ("laid", "expected"),
    [
        ("4H 2C 3D", [0, 0, 3]),  # run in any order
        ("4H 2C 3D 5S", [0, 0, 3, 4]),  # longest run
        ("2H 3C 3D 4S", [0, 0, 2, 0]),  # a repeated rank breaks the run
        ("7H 8C", [0, 2]),  # fifteen
        ("5H 5C 5S", [0, 2, 8]),  # pair royal making fifteen
        ("3H 3C 3S 3D", [0, 2, 6, 12]),  # double pair royal
        ("KH QC JD AS", [0, 0, 3, 2]),  # run of three, then 31
        ("10H JC QD", [0, 0, 3]),  # 10-J-Q run
        ("QH KC AS", [0, 0, 0]),  # Q-K-A is not a run
        ("10H JC", [0, 0]),  # 10 and J are not a pair
        ("2H 2C 3D 4S", [0, 2, 0, 3]),  # a run right after a pair
        ("9H 9C 6D 7S", [0, 2, 0, 2]),  # thirty-one
        ("5H 4C 6D 10S 6C", [0, 0, 5, 0, 2]),  # fifteen with a run; thirty-one
        ("AH 2C 3D 4S 5C 6H 7D", [0, 0, 3, 4, 7, 6, 7]),  # runs grow; 15 at the fifth card
    ],
)
def test_play_scores(laid, expected):
    assert points(laid) == expected


def test_thirty_one_with_a_run_scores_both():
    pegs = peg_all("KH 6S 4C 5D 6C")
    assert [peg.points for peg in pegs] == [0, 0, 0, 3, 5]
    assert pegs[-1].count == 31
    assert sorted(item.kind for item in pegs[-1].items) == ["run", "thirty-one"]


def test_refuses_a_card_past_thirty_one():
    cards = parse_cards("KH QC JD".split())
    with pytest.raises(PlayError, match="may not pass 31"):
        score_play(cards, parse_cards(["2S"])[0])
    assert not can_lay(cards, parse_cards(["2S"])[0])
    assert can_lay(cards, parse_cards(["AS"])[0])


def test_go_and_last_card():
    assert go_points(30) == 1
    assert go_points(15) == 1
    assert go_points(31) == 0


def test_calls():
    pegs = peg_all("5H 5C 5S")
    assert [play_call(peg) for peg in pegs] == ["five", "ten for two", "fifteen for eight"]


def test_the_largest_play_score_is_bounded():
    # four of a kind reaching fifteen and taking the last card: 12 + 2 + 1
    pegs = peg_all("AH 2C 3D 3S 3C 3H")
    assert pegs[-1].count == 15 and pegs[-1].points + go_points(15) == 15
    assert max_play_points() == 15
