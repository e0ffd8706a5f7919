"""Discard advice: the exact expected show of every way to lay cards away to the crib.

What is modelled.  The cards you were dealt are known; every other card is *unseen*.
The crib's other cards (the opponent's two discards in the two-player games; one
card from each other player, plus the dealt one with three players) are a uniformly
random set of the unseen cards, and the starter is uniform over the unseen cards
left.  The expected hand is averaged over every starter, the expected crib over every
such set and starter: exhaustive, as exact fractions, never sampled.

The crib's score splits into points that depend on ranks only (fifteens, pairs,
runs), a five-card flush and nobs; the flush and nobs are counted by suit.  The rank
points are summed over every draw at once: the fifteens from how many unseen card
sets make each count total, the pairs and runs in one scan from ace to king that
counts the draws by the cards taken of each rank, as polynomials packed in integers.
:func:`literal_advice` is the same advice scored crib by crib.

>>> advice = advise("5H 5C JD QS 2C 9H".split(), dealer=True)
>>> len(advice), [str(card) for card in advice[0].discard]
(15, ['2♣', '9♥'])
>>> advice[0].hand, advice[0].crib
(Fraction(292, 23), Fraction(4381, 1035))
>>> advice[0].as_dict()["net"]
16.93
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any

from pegboard.errors import CardError, RuleError
from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import DECK, JACK, Card, Suit, parse_cards
from pegboard.rules.deals import CRIB_SIZE, PLAYERS, deals, kept
from pegboard.rules.scoring import show_total


@dataclass(frozen=True, slots=True)
class Discard:
    """One way to lay away: the cards kept and discarded, and their expected shows."""

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    hand: Fraction  # expected points of the kept hand
    crib: Fraction  # expected points of the crib
    net: Fraction  # dealer: hand + crib; pone: hand - crib

    def as_dict(self) -> dict[str, Any]:
        """Cards as text, expected points rounded to two decimals."""
        return {
            "keep": [str(card) for card in self.keep],
            "discard": [str(card) for card in self.discard],
            **{name: round(float(getattr(self, name)), 2) for name in ("hand", "crib", "net")},
        }


def kept_size(dealt: int, players: int = 2) -> int:
    """How many of ``dealt`` cards a player keeps; the rest go to the crib.

    >>> kept_size(6), kept_size(5), kept_size(5, players=3)
    (4, 3, 4)
    """
    if players not in PLAYERS:
        raise RuleError(Phrase.of(N_("cribbage is for 2, 3 or 4 players, not {n}"), n=players))
    keep = kept(dealt, players)
    if keep is None:
        sizes = [str(n) for n in deals(players)]
        allowed = ", ".join(sizes[:-1]) + " or " * (len(sizes) > 1) + sizes[-1]
        message = N_("with {players} players a hand is dealt {allowed} cards, not {dealt}")
        raise CardError(Phrase.of(message, players=players, allowed=allowed, dealt=dealt))
    return keep


# --- Counting every draw at once, as packed polynomials ------------------------------------
#
# A polynomial in y (y^j: j cards drawn) or in z (z^t: a count total of t) is packed in one
# integer, _DIGIT bits a coefficient; multiplying two integers multiplies the polynomials, and
# a mask drops the terms of higher degree.  Every coefficient kept counts draws of at most four
# of 47 unseen cards, a few hundred times at most (below 2^30), and none is negative, so no
# coefficient ever carries into the next.

_DIGIT = 64
_ONE = (1 << _DIGIT) - 1
_TOTALS = (1 << 16 * _DIGIT) - 1  # the terms z^0..z^15: the totals that can still make 15


def _poly(coefficients: Iterable[int]) -> int:
    return sum(c << j * _DIGIT for j, c in enumerate(coefficients))


def _rank_polys(draw: int, unseen: int, held: int) -> tuple[int, int, int]:
    """For one rank, drawing j of its ``unseen`` cards (j <= ``draw``) beside ``held`` ones:
    the ways, the ways times the cards of the rank, the ways times its pair points."""
    ways = [comb(unseen, j) for j in range(min(draw, unseen) + 1)]
    return (
        _poly(ways),
        _poly((held + j) * w for j, w in enumerate(ways)),
        _poly((held + j) * (held + j - 1) * w for j, w in enumerate(ways)),
    )


# _RANK_POLYS[draw][unseen][held]: draws of up to 4 cards (a starter and three crib cards).
_RANK_POLYS = tuple(
    tuple(tuple(_rank_polys(draw, unseen, held) for held in range(5)) for unseen in range(5))
    for draw in range(CRIB_SIZE + 1)
)


def _value_subsets(cards: Iterable[Card]) -> list[int]:
    """[k]: how many k of ``cards`` make each count total t, as a polynomial in z (k <= 4)."""
    subsets = [1] + [0] * CRIB_SIZE
    for card in cards:
        for k in range(CRIB_SIZE, 0, -1):
            subsets[k] += subsets[k - 1] << card.value * _DIGIT & _TOTALS
    return subsets


_DECK_SUBSETS = tuple(_value_subsets(DECK))


class _Unseen:
    """The cards not in the player's hand, counted by rank, by suit and by count total."""

    def __init__(self, held: Sequence[Card]) -> None:
        self.held = frozenset(held)
        self.cards = tuple(card for card in DECK if card not in self.held)
        self.count = len(self.cards)
        self.ranks = [0] * 14
        self.suits = dict.fromkeys(Suit, 0)
        for card in self.cards:
            self.ranks[card.rank] += 1
            self.suits[card.suit] += 1
        self.subsets = list(_DECK_SUBSETS)
        for card in held:  # the subsets with the card are those without it, shifted by its value
            for k in range(1, CRIB_SIZE + 1):
                self.subsets[k] -= self.subsets[k - 1] << card.value * _DIGIT & _TOTALS
        self._draws: dict[int, tuple[int, list[tuple[tuple[int, int, int], ...]]]] = {}

    def draws(self, size: int) -> tuple[int, list[tuple[tuple[int, int, int], ...]]]:
        """For draws of ``size`` unseen cards: how many (draw, subset of it) pairs make each
        count total, as a polynomial in z; and each rank's :data:`_RANK_POLYS` row."""
        if size not in self._draws:
            totals = sum(self.subsets[k] * comb(self.count - k, size - k) for k in range(size + 1))
            self._draws[size] = totals, [_RANK_POLYS[size][n] for n in self.ranks]
        return self._draws[size]


def _rank_total(cards: Sequence[Card], size: int, unseen: _Unseen) -> int:
    """The fifteens, pairs and runs of ``cards`` with each set of ``size`` unseen cards, summed."""
    totals, rows = unseen.draws(size)
    subsets = 1  # the subsets of ``cards`` by count total, a polynomial in z
    ranks = [0] * 14  # how many of ``cards`` have each rank
    for card in cards:
        subsets = (subsets + (subsets << card.value * _DIGIT)) & _TOTALS
        ranks[card.rank] += 1
    fifteens = subsets * totals >> 15 * _DIGIT & _ONE
    mask = (1 << (size + 1) * _DIGIT) - 1
    return 2 * fifteens + (_pairs_and_runs(ranks, rows, mask) >> size * _DIGIT & _ONE)


def _pairs_and_runs(
    ranks: list[int], rows: list[tuple[tuple[int, int, int], ...]], mask: int
) -> int:
    """The pairs and runs of the cards ``ranks`` counts with every draw, summed: a scan A to K.

    Each name is a polynomial in y (y^j: the draws of j cards) over the ranks scanned so
    far: ``draws`` counts the draws and ``points`` sums their pairs and finished runs;
    ``gap`` counts the draws with no card of the last rank; ``one``, ``two`` and ``row``
    those whose cards end in a row of 1, 2, or 3 or more ranks, each counted once for
    every way to pick a card of each rank of the row; ``row_points`` is ``row`` with each
    count times the row's length: its run points, scored when the row ends.
    """
    draws, points, gap, one, two, row, row_points = 1, 0, 1, 0, 0, 0, 0
    for rank in range(1, 14):
        ways, cards, pairs = rows[rank][ranks[rank]]
        ended = 0 if ranks[rank] else row_points  # the draws with none of this rank end the row
        points = (points * ways + draws * pairs + ended) & mask
        row_points = (row_points + row + 3 * two) * cards & mask
        row = (row + two) * cards & mask
        two = one * cards & mask
        one = gap * cards & mask
        gap = 0 if ranks[rank] else draws
        draws = draws * ways & mask
    return points + row_points


def _one_suit(cards: Sequence[Card]) -> Suit | None:
    suits = {card.suit for card in cards}
    return suits.pop() if len(suits) == 1 else None


def _expected_hand(keep: Sequence[Card], unseen: _Unseen) -> Fraction:
    """The kept hand's mean show over every unseen starter."""
    total = _rank_total(keep, 1, unseen)
    suit = _one_suit(keep)
    if suit is not None:  # a hand flush, one more with a starter of its suit
        total += len(keep) * unseen.count + unseen.suits[suit]
    total += sum(unseen.suits[card.suit] for card in keep if card.rank == JACK)  # nobs
    return Fraction(total, unseen.count)


def _expected_crib(discard: Sequence[Card], unseen: _Unseen) -> Fraction:
    """The crib's mean show over every set of other crib cards and every starter."""
    drawn = CRIB_SIZE - len(discard) + 1  # the other crib cards and the starter
    total = _rank_total(discard, drawn, unseen)
    suit = _one_suit(discard)
    if suit is not None:  # a crib flush needs all five cards of one suit
        total += 5 * comb(unseen.suits[suit], drawn)
    return Fraction(total, comb(unseen.count, drawn)) + Fraction(
        _nobs_deals(discard, unseen, drawn - 1), unseen.count * comb(unseen.count - 1, drawn - 1)
    )


_JACKS = tuple(Card(JACK, suit) for suit in Suit)


def _nobs_deals(discard: Sequence[Card], unseen: _Unseen, others: int) -> int:
    """How many (other crib cards, starter) deals put the starter suit's jack in the crib."""
    deals = 0
    for jack in _JACKS:
        left = unseen.suits[jack.suit]
        if jack in discard:  # any starter of its suit
            deals += left * comb(unseen.count - 1, others)
        elif jack not in unseen.held:  # another starter of its suit, and the jack drawn to the crib
            deals += (left - 1) * comb(unseen.count - 2, others - 1)
    return deals


def advise(cards: Iterable[str | Card], dealer: bool, players: int = 2) -> list[Discard]:
    """Every way to discard from the dealt ``cards``, best net first.

    ``dealer``: the crib is yours (with four players: your partnership's), so the net
    is hand + crib; otherwise hand - crib.  Equal nets: the bigger hand first, then
    the order of the dealt cards.

    >>> [str(d.discard[0]) for d in advise("5H 5C 5S JH 2D".split(), False, players=3)][:2]
    ['2♦', 'J♥']
    """
    return _advise(cards, dealer, players, _expected_hand, _expected_crib)


def literal_advice(cards: Iterable[str | Card], dealer: bool, players: int = 2) -> list[Discard]:
    """The same as :func:`advise`, scoring every crib and starter one by one (seconds)."""
    return _advise(cards, dealer, players, _literal_hand, _literal_crib)


def _literal_hand(keep: Sequence[Card], unseen: _Unseen) -> Fraction:
    return Fraction(sum(show_total(keep, starter) for starter in unseen.cards), unseen.count)


def _literal_crib(discard: Sequence[Card], unseen: _Unseen) -> Fraction:
    total = deals = 0
    for others in combinations(unseen.cards, CRIB_SIZE - len(discard)):
        crib = (*discard, *others)
        for starter in unseen.cards:
            if starter not in others:
                total += show_total(crib, starter, crib=True)
                deals += 1
    return Fraction(total, deals)


Expectation = Callable[[Sequence[Card], _Unseen], Fraction]


def _advise(
    cards: Iterable[str | Card],
    dealer: bool,
    players: int,
    hand_mean: Expectation,
    crib_mean: Expectation,
) -> list[Discard]:
    held = parse_cards(cards)
    away = len(held) - kept_size(len(held), players)
    unseen = _Unseen(held)
    sign = 1 if dealer else -1
    advice = []
    for discard in combinations(held, away):
        keep = tuple(card for card in held if card not in discard)
        hand, crib = hand_mean(keep, unseen), crib_mean(discard, unseen)
        advice.append(Discard(keep, discard, hand, crib, hand + sign * crib))
    return sorted(advice, key=lambda d: (-d.net, -d.hand))
