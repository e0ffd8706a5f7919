"""The show: exact on every hand, itemised, with the traditional call."""

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.errors import CardError
from pegboard.rules.cards import DECK, Card, Suit, parse_cards
from pegboard.rules.scoring import (
    class_points,
    clear_caches,
    deal_classes,
    distribution,
    possible_totals,
    score_show,
    show_total,
)
from pegboard.rules.speech import show_call


def show(hand, starter, crib=False):
    return score_show(parse_cards(hand.split()), Card.parse(starter), crib=crib)


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "total", "parts"),
    [
        # (fifteens, pairs, runs, flush, nobs)
        ("5H 5C 5S JD", "5D", False, 29, (16, 12, 0, 0, 1)),  # the 29 hand
        ("5H 5C 5S JH", "5D", False, 28, (16, 12, 0, 0, 0)),  # jack of the wrong suit
        ("4H 5C 5S 6D", "2C", False, 12, (4, 2, 6, 0, 0)),  # double run of three
        ("5H 6C 6S 7D", "7H", False, 16, (0, 4, 12, 0, 0)),  # double double run
        ("3H 4S 5C 5D", "5S", False, 17, (2, 6, 9, 0, 0)),  # triple run
        ("2H 4H 6H 8H", "QC", False, 4, (0, 0, 0, 4, 0)),  # four-card hand flush
        ("2H 4H 6H 8H", "QC", True, 0, (0, 0, 0, 0, 0)),  # ... is no crib flush
        ("2H 4H 6H 8H", "QH", True, 5, (0, 0, 0, 5, 0)),  # five-card crib flush
        ("2H 4H 6H 8C", "QH", False, 0, (0, 0, 0, 0, 0)),  # 3 + starter: no flush
        ("QH KC AS 9D", "7C", False, 0, (0, 0, 0, 0, 0)),  # Q-K-A is no run: nineteen
        ("10H JC 2S 3D", "9C", False, 8, (4, 0, 3, 0, 1)),  # 10-J no pair; 9-10-J run
        ("JH 2C 3S 8D", "JD", False, 6, (4, 2, 0, 0, 0)),  # jack starter: no nobs
        ("JD 2C 4S 8H", "KD", False, 1, (0, 0, 0, 0, 1)),  # nobs alone
        ("AH 2H 3H 4H", "5H", False, 12, (2, 0, 5, 5, 0)),  # run of five, flush of five
    ],
)
def test_tricky_hands(hand, starter, crib, total, parts):
    result = show(hand, starter, crib)
    assert result.total == total
    assert (result.fifteens, result.pairs, result.runs, result.flush, result.nobs) == parts
    assert show_total(result.hand, result.starter, crib) == total


@pytest.mark.parametrize(
    ("hand", "starter", "call"),
    [
        ("2C 3D 10H 7S", "KH", "fifteen two, fifteen four"),
        ("4H 4C 7D 2S", "KD", "fifteen two, and a pair is four"),
        (
            "5H 5C 2D 8S",
            "KD",
            "fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten",
        ),
        ("JD 4C 6D 9H", "KD", "fifteen two, and one for his nobs is three"),
        ("4H 5C 5S 6D", "2C", "fifteen two, fifteen four, and a double run of three is twelve"),
        ("QH KC AS 9D", "7C", "nineteen: nothing to peg"),
        ("2H 4H 6H 8H", "QH", "a flush of five is five"),
    ],
)
def test_traditional_call(hand, starter, call):
    assert show_call(show(hand, starter)) == call


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_variant_hand_sizes(size):
    rng = random.Random(size)
    for _ in range(200):
        cards = rng.sample(DECK, size + 1)
        result = score_show(cards[:-1], cards[-1])
        assert result.total == show_total(cards[:-1], cards[-1])
        assert result.total in possible_totals(size)


def test_wrong_hand_size_and_duplicates_are_refused():
    with pytest.raises(CardError, match="not 2"):
        show("5H 5C", "5D")
    with pytest.raises(CardError, match="a crib has 4 cards"):
        show("5H 5C 6D", "5D", crib=True)
    with pytest.raises(CardError, match="given twice"):
        show("5H 5C 6D 7D", "5H")


hands = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)
suit_maps = st.permutations(list(Suit))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(hands, suit_maps)
def test_rank_parts_ignore_suits(cards, perm):
    before = score_show(cards[:4], cards[4])
    moved = [Card(c.rank, perm[c.suit]) for c in cards]
    after = score_show(moved[:4], moved[4])
    assert (before.fifteens, before.pairs, before.runs) == (after.fifteens, after.pairs, after.runs)
    assert (before.flush, before.nobs) == (after.flush, after.nobs)  # renaming suits keeps both


@settings(max_examples=300, deadline=None)
@given(hands)
def test_total_is_the_sum_of_the_items_and_crib_never_beats_hand(cards):
    hand = score_show(cards[:4], cards[4])
    crib = score_show(cards[:4], cards[4], crib=True)
    assert hand.total == sum(item.points for item in hand.items)
    assert hand.total == hand.fifteens + hand.pairs + hand.runs + hand.flush + hand.nobs
    assert crib.total <= hand.total
    assert all(len(item.cards) >= 2 for item in hand.items if item.kind in ("fifteen", "pair"))
    assert all(
        sum(c.value for c in item.cards) == 15 for item in hand.items if item.kind == "fifteen"
    )


def test_exhaustive_table_matches_published_facts():
    table = distribution(4)
    assert sum(table.values()) == 12_994_800
    assert table[29] == 4
    assert all(table[t] == 0 for t in (19, 25, 26, 27))
    assert table[0] == 1_009_008
    mean = sum(t * n for t, n in table.items()) / 12_994_800
    assert round(mean, 4) == 4.7692
    assert possible_totals(4) == frozenset(range(30)) - {19, 25, 26, 27}
    crib = distribution(4, crib=True)
    assert sum(crib.values()) == 12_994_800
    assert sum(t * n for t, n in crib.items()) < sum(t * n for t, n in table.items())


@pytest.mark.slow
def test_three_card_table_equals_brute_force():
    # every 3-card hand with every starter, scored one by one
    brute = Counter()
    for hand in itertools.combinations(DECK, 3):
        for starter in DECK:
            if starter not in hand:
                brute[show_total(hand, starter)] += 1
    assert brute == distribution(3)


@pytest.mark.slow
def test_suit_pattern_counts_equal_enumeration():
    """Each (rank multiset, starter rank) class counts its suit assignments exactly."""
    rng = random.Random(7)
    for hand_size, samples in ((4, 120), (5, 25)):
        classes = list(deal_classes(hand_size))
        for hand_counts, starter_rank, base, by_class in rng.sample(classes, samples):
            expected = Counter()
            for (flush, nobs), n in by_class.items():
                for crib in (False, True) if hand_size == 4 else (False,):
                    expected[crib, base + class_points(hand_size, flush, nobs, crib)] += n
            suits_per_rank = [itertools.combinations(Suit, c) for c in hand_counts]
            seen = Counter()
            for choice in itertools.product(*suits_per_rank):
                hand = [Card(r + 1, s) for r, suits in enumerate(choice) for s in suits]
                for suit in Suit:
                    starter = Card(starter_rank, suit)
                    if starter in hand:
                        continue
                    for crib in (False, True) if hand_size == 4 else (False,):
                        seen[crib, score_show(hand, starter, crib).total] += 1
            assert seen == expected, (hand_counts, starter_rank)


@pytest.mark.parametrize(
    ("hand_size", "crib"),
    [
        (3, False),
        (4, False),
        (4, True),
        pytest.param(5, False, marks=pytest.mark.slow),
        pytest.param(6, False, marks=pytest.mark.slow),
    ],
)
def test_possible_totals_are_exactly_the_totals_some_deal_scores(hand_size, crib):
    """The merged rank states against the exhaustive count of every deal (the oracle)."""
    clear_caches()
    assert possible_totals(hand_size, crib) == frozenset(distribution(hand_size, crib))


def test_variant_totals_are_computed():
    assert max(possible_totals(3)) == 20  # 5-5-5 with a 5 starter
    assert 29 not in possible_totals(3)
    assert possible_totals(4, crib=True) == possible_totals(4)
    assert max(possible_totals(5)) > 29
    with pytest.raises(CardError):
        possible_totals(7)
