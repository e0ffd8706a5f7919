"""Discard advice: exact against a literal enumeration, and what a player sees."""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.cli import main
from pegboard.errors import CardError, RuleError
from pegboard.rules.advice import advise, literal_advice
from pegboard.rules.cards import DECK, parse_cards
from pegboard.rules.deals import DEALS
from pegboard.rules.scoring import score_show

EXAMPLE = "5H 5C JD QS 2C 9H".split()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("cards", "players", "dealer"),
    [
        (EXAMPLE, 2, True),  # a pair and a jack
        (EXAMPLE, 2, False),
        ("JH 4H 7H 9H KH 3H".split(), 2, True),  # one suit: hand and crib flushes, nobs either side
        ("JC JS 5D 5H 10C QC".split(), 2, True),  # two jacks, two pairs, a club flush in the crib
        ("JD 5D 6D 7S 8C".split(), 2, True),  # five-card game: three-card hands
        ("2H 3H 4H 5H JH 6S 7S".split(), 2, True),  # seven-card game: five-card hands
        ("JS 5S 5C 4S 6S".split(), 3, True),  # three players: three crib cards unseen
        ("9D 9C 9H 9S 10D".split(), 4, False),  # four players: four of a kind, all to keep
    ],
)
def test_advice_equals_the_literal_enumeration(cards, players, dealer):
    assert advise(cards, dealer, players) == literal_advice(cards, dealer, players)


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(
    st.sampled_from((5, 6, 7)).flatmap(
        lambda dealt: st.lists(st.sampled_from(DECK), min_size=dealt, max_size=dealt, unique=True)
    ),
    st.booleans(),
)
def test_advice_equals_the_literal_enumeration_on_any_two_player_deal(cards, dealer):
    assert advise(cards, dealer) == literal_advice(cards, dealer)


@pytest.mark.slow
@pytest.mark.parametrize(("players", "dealt"), DEALS)
def test_advice_equals_the_literal_enumeration_on_a_seeded_sweep(players, dealt):
    """Random deals of every kind that has a crib, as dealer and as pone in turn."""
    rng = random.Random(f"advice {players} {dealt}")
    for i in range(8 if players == 2 else 2):  # a three- or four-player deal takes seconds
        cards, dealer = rng.sample(DECK, dealt), i % 2 == 0
        assert advise(cards, dealer, players) == literal_advice(cards, dealer, players), cards


def test_one_discard_scored_show_by_show():
    held = parse_cards("JH 4H 7H 9H KH 3H".split())
    keep, discard = held[1:4] + held[5:], (held[0], held[4])
    unseen = [card for card in DECK if card not in held]
    hands = [score_show(keep, starter).total for starter in unseen]
    cribs = [
        score_show([*discard, *pair], starter, crib=True).total
        for pair in itertools.combinations(unseen, 2)
        for starter in unseen
        if starter not in pair
    ]
    (advice,) = [d for d in advise(held, True) if d.discard == discard]
    assert (len(hands), len(cribs)) == (46, 46 * 45 * 44 // 2)
    assert advice.hand == Fraction(sum(hands), len(hands))
    assert advice.crib == Fraction(sum(cribs), len(cribs)) == Fraction(67553, 15180)


@pytest.mark.parametrize(
    ("cards", "players", "ways", "kept"),
    [
        (EXAMPLE, 2, 15, 4),
        (EXAMPLE[:5], 2, 10, 3),
        ([*EXAMPLE, "10D"], 2, 21, 5),
        (EXAMPLE[:5], 3, 5, 4),
        (EXAMPLE[:5], 4, 5, 4),
    ],
)
def test_every_way_to_discard_once(cards, players, ways, kept):
    advice = advise(cards, False, players)
    splits = {(frozenset(d.keep), frozenset(d.discard)) for d in advice}
    assert len(advice) == len(splits) == ways
    assert all(
        len(keep) == kept and keep | away == set(parse_cards(cards)) for keep, away in splits
    )


def test_dealer_adds_the_crib_and_pone_subtracts_it():
    dealer, pone = advise(EXAMPLE, True), advise(EXAMPLE, False)
    assert all(d.net == d.hand + d.crib for d in dealer)
    assert all(d.net == d.hand - d.crib for d in pone)
    assert {(d.keep, d.hand, d.crib) for d in dealer} == {(d.keep, d.hand, d.crib) for d in pone}
    for advice in dealer, pone:
        assert [d.net for d in advice] == sorted((d.net for d in advice), reverse=True)
    # A pair of fives makes the richest crib: the pone's worst discard.
    richest = max(pone, key=lambda d: d.crib)
    assert [str(c) for c in richest.discard] == ["5♥", "5♣"] == [str(c) for c in pone[-1].discard]


def test_three_fives_stay_and_the_jack_goes_where_it_earns_most():
    cards = "5H 5C 5S JD KC QH".split()
    dealer, pone = advise(cards, True)[0], advise(cards, False)[0]
    # The pone keeps the jack for nobs; the dealer's own crib pays more for J-Q than for K-Q.
    assert [str(c) for c in pone.keep] == ["5♥", "5♣", "5♠", "J♦"]
    assert [str(c) for c in dealer.keep] == ["5♥", "5♣", "5♠", "K♣"]
    assert pone.hand - dealer.hand == Fraction(12, 46)  # nobs: a diamond starter, 12 of 46


@pytest.mark.parametrize(
    ("cards", "players", "error", "message"),
    [
        (EXAMPLE[:4], 2, CardError, "dealt 5, 6 or 7 cards, not 4"),
        (EXAMPLE, 3, CardError, "with 3 players a hand is dealt 5 cards, not 6"),
        (EXAMPLE, 5, RuleError, "2, 3 or 4 players, not 5"),
        ([*EXAMPLE[:5], "5h"], 2, CardError, "5♥ is given twice"),
        ([*EXAMPLE[:5], "5X"], 2, CardError, "'X' is not a suit"),
    ],
)
def test_bad_deals_are_refused(cards, players, error, message):
    with pytest.raises(error, match=message):
        advise(cards, True, players)


def test_cli_prints_a_table_best_first(capsys):
    assert main(["advise", *EXAMPLE, "--dealer"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "net = hand + crib" in lines[0]
    assert lines[1].split() == ["keep", "discard", "hand", "crib", "net"]
    assert lines[2].split() == ["5♥", "5♣", "J♦", "Q♠", "2♣", "9♥", "12.70", "4.23", "16.93"]
    assert len(lines) == 2 + 15


def test_cli_json_for_three_players(capsys):
    assert main(["advise", *EXAMPLE[:5], "--pone", "--players", "3", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [len(row["discard"]) for row in rows] == [1] * 5
    assert set(rows[0]) == {"keep", "discard", "hand", "crib", "net"}
    assert all(row["net"] == pytest.approx(row["hand"] - row["crib"], abs=0.011) for row in rows)
    assert rows[0]["discard"] == ["2♣"] and rows[0]["net"] == 8.05


def test_cli_refuses_a_bad_hand_without_a_traceback(capsys):
    assert main(["advise", "5H", "5C", "JD", "QS", "--pone"]) == 2
    assert capsys.readouterr().err == (
        "pegboard: with 2 players a hand is dealt 5, 6 or 7 cards, not 4\n"
    )
