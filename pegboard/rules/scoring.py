"""The show: score a hand or crib with its starter, itemised.

Works for any hand size the variants use: 3 (five-card game), 4 (standard),
5 (seven-card game) and 6 (shotgun).

>>> show = score_show(parse_cards("5H 5C 5S JD".split()), Card.parse("5D"))
>>> show.total, show.fifteens, show.pairs, show.nobs
(29, 16, 12, 1)
>>> double_run = score_show(parse_cards("4H 5C 6D".split()), Card.parse("5S"))
>>> [(item.kind, item.points) for item in double_run.items]
[('fifteen', 2), ('fifteen', 2), ('pair', 2), ('run', 3), ('run', 3)]
>>> sorted(set(range(30)) - possible_totals(4))
[19, 25, 26, 27]
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from math import comb, prod
from typing import Any

from pegboard.errors import CardError
from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import JACK, Card, check_distinct, parse_cards  # noqa: F401 (doctest)

HAND_SIZES = (3, 4, 5, 6)
HEELS_POINTS = 2  # the dealer pegs them when the starter turned is a jack
KINDS = ("fifteen", "pair", "run", "flush", "nobs")


@dataclass(frozen=True, slots=True)
class Item:
    """One scoring combination: its kind, the cards that make it, its points."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points}


@dataclass(frozen=True, slots=True)
class Show:
    """The itemised score of one hand or crib with its starter."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    items: tuple[Item, ...]

    def points(self, kind: str) -> int:
        return sum(item.points for item in self.items if item.kind == kind)

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    @property
    def fifteens(self) -> int:
        return self.points("fifteen")

    @property
    def pairs(self) -> int:
        return self.points("pair")

    @property
    def runs(self) -> int:
        return self.points("run")

    @property
    def flush(self) -> int:
        return self.points("flush")

    @property
    def nobs(self) -> int:
        return self.points("nobs")

    def as_dict(self) -> dict[str, Any]:
        return {
            "hand": [str(c) for c in self.hand],
            "starter": str(self.starter),
            "crib": self.crib,
            "total": self.total,
            **{
                kind + ("s" if kind in ("fifteen", "pair", "run") else ""): self.points(kind)
                for kind in KINDS
            },
            "items": [item.as_dict() for item in self.items],
        }


def _check_hand(hand: Sequence[Card], starter: Card, crib: bool) -> None:
    if len(set(hand)) != len(hand) or starter in hand:
        check_distinct([*hand, starter])  # names the card given twice
    sizes = (4,) if crib else HAND_SIZES
    if len(hand) not in sizes:
        message = (
            N_("a crib has {allowed} cards, not {n}")
            if crib
            else N_("a hand has {allowed} cards, not {n}")
        )
        allowed = ", ".join(str(n) for n in sizes)
        raise CardError(Phrase.of(message, allowed=allowed, n=len(hand)))


def _flush_points(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    suits = {card.suit for card in hand}
    if len(suits) != 1:
        return 0
    if starter.suit in suits:
        return len(hand) + 1
    return 0 if crib else len(hand)


def _nobs(hand: Sequence[Card], starter: Card) -> Card | None:
    """The jack of the starter's suit, if the hand holds it."""
    return next((c for c in hand if c.rank == JACK and c.suit == starter.suit), None)


def score_show(hand: Sequence[Card], starter: Card, crib: bool = False) -> Show:
    """Itemise a hand (3-6 cards) or a crib (4 cards) with its starter."""
    hand = tuple(hand)
    _check_hand(hand, starter, crib)
    cards = sorted((*hand, starter), key=_rank_suit)
    items = [
        Item(kind, tuple(cards[i] for i in where), points)
        for kind, where, points in _rank_items(tuple(card.rank for card in cards))
    ]
    flush = _flush_points(hand, starter, crib)
    if flush:
        flushed = hand if flush == len(hand) else (*hand, starter)
        items.append(Item("flush", tuple(flushed), flush))
    jack = _nobs(hand, starter)
    if jack is not None:
        items.append(Item("nobs", (jack,), 1))
    return Show(hand, starter, crib, tuple(items))


def _rank_suit(card: Card) -> int:
    return card.rank * 4 + card.suit


@cache
def _rank_items(ranks: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...], int], ...]:
    """The fifteens, pairs and runs of sorted ``ranks``, as positions in ``ranks``.

    They depend on the ranks alone, so each rank multiset is itemised once.
    """
    sums = [0]  # sums[mask]: the count value of the cards whose bits are set in mask
    for rank in ranks:
        sums += [total + min(rank, 10) for total in sums]
    items = [("fifteen", where, 2) for mask, where in _subsets(len(ranks)) if sums[mask] == 15]
    by_rank: dict[int, list[int]] = {}
    for i, rank in enumerate(ranks):
        by_rank.setdefault(rank, []).append(i)
    items += [
        ("pair", pair, 2)
        for same in by_rank.values()
        if len(same) > 1
        for pair in itertools.combinations(same, 2)
    ]
    for low, length in runs_of(by_rank):
        groups = [by_rank[rank] for rank in range(low, low + length)]
        items += [("run", run, length) for run in itertools.product(*groups)]
    return tuple(items)


@cache
def _subsets(n: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(bit mask, indices) of every subset of 2+ of n cards, smallest first."""
    return tuple(
        (sum(1 << i for i in combo), combo)
        for size in range(2, n + 1)
        for combo in itertools.combinations(range(n), size)
    )


def runs_of(ranks: Collection[int]) -> Iterator[tuple[int, int]]:
    """Yield (lowest rank, length) of each maximal run of 3+ consecutive ``ranks``."""
    length = 0
    for rank in range(1, 15):
        if rank in ranks:
            length += 1
        else:
            if length >= 3:
                yield rank - length, length
            length = 0


@cache
def rank_points(ranks: tuple[int, ...]) -> int:
    """Points that depend on ranks only (fifteens, pairs, runs), for sorted ``ranks``."""
    counts = [0] * 14
    ways = [1] + [0] * 15  # ways[s]: combinations of the cards so far that total s
    for rank in ranks:
        counts[rank] += 1
        value = min(rank, 10)
        for total in range(15, value - 1, -1):
            ways[total] += ways[total - value]
    points = 2 * ways[15] + sum(c * (c - 1) for c in counts)
    for low, length in runs_of({r for r in range(1, 14) if counts[r]}):
        points += length * prod(counts[low : low + length])
    return points


_WEIGHT = tuple(8**rank for rank in range(14))  # a rank multiset's key: sum of its weights
_POINTS_BY_KEY: dict[int, int] = {}


def show_total(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """The total of :func:`score_show`, fast; trusts its input (distinct cards, right size)."""
    key = _WEIGHT[starter.rank]
    suit, one_suit, nobs = hand[0].suit, True, 0
    for card in hand:
        key += _WEIGHT[card.rank]
        one_suit = one_suit and card.suit == suit
        if card.rank == JACK and card.suit == starter.suit:
            nobs = 1
    points = _POINTS_BY_KEY.get(key)
    if points is None:
        ranks = tuple(sorted([starter.rank, *(card.rank for card in hand)]))
        points = _POINTS_BY_KEY[key] = rank_points(ranks)
    if one_suit:
        points += len(hand) + 1 if starter.suit == suit else (0 if crib else len(hand))
    return points + nobs


# --- Exhaustive counting by rank multisets and suit patterns -----------------------------


def _rank_multisets(size: int, low: int = 1) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` ranks (each at most 4 times), as counts for ranks low..13."""
    if low == 13:
        if size <= 4:
            yield (size,)
        return
    for here in range(min(size, 4), -1, -1):
        for rest in _rank_multisets(size - here, low + 1):
            yield (here, *rest)


DealClasses = tuple[tuple[int, ...], int, int, dict[tuple[int, bool], int]]


def deal_classes(hand_size: int) -> Iterator[DealClasses]:
    """Group every (hand, starter) deal by what it scores.

    Yields ``(hand_counts, starter_rank, rank_points, classes)`` for each hand rank
    multiset (``hand_counts[r - 1]`` cards of rank r) and starter rank,
    where ``classes`` maps (flush cards, nobs) to the number of suit assignments with
    that flush and nobs.  "Flush cards" is ``hand_size + 1`` when the starter matches
    a one-suit hand, ``hand_size`` when it does not, and 0 for no one-suit hand.
    The counts over all classes sum to C(52, hand_size) * (52 - hand_size).
    """
    jack = JACK - 1
    for hand_counts in _rank_multisets(hand_size):
        hands = prod(comb(4, c) for c in hand_counts)
        one_suit = max(hand_counts) <= 1
        for starter in range(13):
            in_hand = hand_counts[starter]
            if in_hand == 4:
                continue
            ranks = [r + 1 for r, c in enumerate(hand_counts) for _ in range(c)]
            base = rank_points(tuple(sorted([*ranks, starter + 1])))
            full_flush = 4 if one_suit and not in_hand else 0
            hand_flush = 12 if one_suit else 0
            nobs = 0
            if starter != jack and hand_counts[jack]:
                others = prod(
                    comb(4, c) for r, c in enumerate(hand_counts) if r not in (jack, starter)
                )
                nobs = 4 * comb(3, hand_counts[jack] - 1) * comb(3, in_hand) * others
            flush_nobs = full_flush if hand_counts[jack] else 0
            classes = {
                (hand_size + 1, True): flush_nobs,
                (hand_size + 1, False): full_flush - flush_nobs,
                (hand_size, False): hand_flush,
                (0, True): nobs - flush_nobs,
            }
            classes[(0, False)] = hands * (4 - in_hand) - sum(classes.values())
            yield hand_counts, starter + 1, base, {key: n for key, n in classes.items() if n}


def class_points(hand_size: int, flush_cards: int, nobs: bool, crib: bool) -> int:
    """Flush and nobs points of a deal class from :func:`deal_classes`."""
    flush = flush_cards if flush_cards > hand_size or not crib else 0
    return flush + nobs


def distribution(hand_size: int = 4, crib: bool = False) -> Counter[int]:
    """How many (hand, starter) deals score each total, exhaustively.

    >>> d = distribution()
    >>> d[29], d[19], d[0], sum(d.values())
    (4, 0, 1009008, 12994800)
    """
    totals: Counter[int] = Counter()
    for _, _, base, classes in deal_classes(hand_size):
        for (flush, nobs), n in classes.items():
            totals[base + class_points(hand_size, flush, nobs, crib)] += n
    return totals


@cache
def possible_totals(hand_size: int = 4, crib: bool = False) -> frozenset[int]:
    """Every total a hand (or crib) of ``hand_size`` cards plus starter can score.

    The split of :func:`deal_classes` (what the ranks score, plus the flush and nobs of a
    suit class), asking only *which* totals occur, not how often.  The rank multisets are
    built rank by rank, ace to king, and two partial multisets are merged as soon as no
    later rank can tell them apart: the same number of cards, the same sums below 15 that
    later cards can still make into a fifteen, the same run still open, the same shape
    for a flush and the same jacks.  Their points so far are kept as one set (a bit set),
    so a few thousand states stand for the 49,205 rank multisets of a six-card hand and
    its starter: milliseconds instead of seconds (``python -m benchmarks scoring``).

    >>> sorted(possible_totals(3))[-3:], sorted(set(range(30)) - possible_totals(4))
    ([14, 15, 20], [19, 25, 26, 27])
    """
    if hand_size not in HAND_SIZES:
        message = N_("a hand has {allowed} cards, not {n}")
        raise CardError(Phrase.of(message, allowed=", ".join(map(str, HAND_SIZES)), n=hand_size))
    found = 0  # bit t set: some deal scores t
    for (cards, _, run, product, shape, jacks), points in _rank_states(hand_size + 1).items():
        if cards != hand_size + 1:
            continue
        if run >= 3:
            points <<= run * product
        for extra in _suit_extras(hand_size, crib, jacks, shape):
            found |= points << extra
    return frozenset(t for t in range(found.bit_length()) if found >> t & 1)


# The shape of a rank multiset, for a flush: all ranks different, one pair (of jacks, or of
# another rank) and the rest different, or anything else (no hand of it is one suit).
DISTINCT, PAIR_OF_JACKS, OTHER_PAIR, NO_FLUSH = range(4)
_Key = tuple[int, tuple[int, ...], int, int, int, int]


def _rank_states(size: int) -> dict[_Key, int]:
    """Every rank multiset of ``size`` cards, merged where the rest cannot tell them apart.

    A key is (cards, ways, run, product, shape, jacks): ``ways[t]`` the subsets of the
    cards so far totalling t (0..14) that later ranks can still make into a fifteen (0
    where they cannot); the run still open at the last rank (length and product of its
    counts); the shape; the number of jacks.  The value is the set of points scored so far
    (fifteens, pairs, closed runs) as a bit set.
    """
    states: dict[_Key, int] = {(0, (1,) + (0,) * 14, 0, 1, DISTINCT, 0): 1}
    for rank in range(1, 14):
        value = min(rank, 10)
        # adding c cards of this rank: (subsets of them, their total) for 1..c of them
        terms = [
            [(comb(c, i), i * value) for i in range(1, c + 1) if i * value <= 15] for c in range(5)
        ]
        after: dict[_Key, int] = {}
        for (cards, ways, run, product, shape, jacks), points in states.items():
            for c in range(min(4, size - cards) + 1):
                term = terms[c]
                made = c * (c - 1)  # the pairs
                for n, total in term:  # the fifteens
                    made += 2 * n * ways[15 - total]
                if c:
                    run_after, product_after = run + 1, product * c
                else:
                    made += run * product if run >= 3 else 0
                    run_after, product_after = 0, 1
                new_ways = [0] * 15
                for t in _fifteen_gaps(rank, size - cards - c):
                    subsets = ways[t]
                    for n, total in term:
                        if total <= t:
                            subsets += n * ways[t - total]
                    new_ways[t] = subsets
                key = (
                    cards + c,
                    tuple(new_ways),
                    run_after,
                    product_after,
                    _shape(shape, rank, c),
                    c if rank == JACK else jacks,
                )
                after[key] = after.get(key, 0) | points << made
        states = after
    return states


def _shape(shape: int, rank: int, count: int) -> int:
    if count < 2:
        return shape
    if count == 2 and shape == DISTINCT:
        return PAIR_OF_JACKS if rank == JACK else OTHER_PAIR
    return NO_FLUSH


@cache
def _fifteen_gaps(rank: int, cards: int) -> tuple[int, ...]:
    """The totals t < 15 that up to ``cards`` cards of ranks above ``rank`` can bring to 15."""
    sums = {(0, 0)}  # (total, cards used)
    for higher in range(rank + 1, 14):
        value = min(higher, 10)
        sums = {
            (total + c * value, used + c)
            for total, used in sums
            for c in range(5)
            if total + c * value <= 15 and used + c <= cards
        }
    reachable = {total for total, _ in sums}
    return tuple(t for t in range(15) if 15 - t in reachable)


def _suit_extras(hand_size: int, crib: bool, jacks: int, shape: int) -> set[int]:
    """The flush and nobs points some suit class gives a rank multiset of the hand and
    its starter, over every choice of the starter's rank (the classes of
    :func:`deal_classes` that hold at least one deal)."""
    classes = set()  # (flush cards, nobs)
    if jacks:  # the starter is a jack: no nobs
        classes.add((0, False))
        if shape in (DISTINCT, PAIR_OF_JACKS):  # the other cards can be one suit
            classes.add((hand_size, False))
        if shape == DISTINCT:
            classes.add((hand_size + 1, False))
    if hand_size + 1 > jacks:  # the starter is not a jack
        if jacks < 4:  # with four jacks in the hand the starter's suit always has one
            classes.add((0, False))
        if jacks:
            classes.add((0, True))
        if shape in (DISTINCT, OTHER_PAIR):  # the starter is one of the pair
            classes.add((hand_size, False))
        if shape == DISTINCT:
            classes.add((hand_size + 1, jacks > 0))
    return {class_points(hand_size, flush, nobs, crib) for flush, nobs in classes}


def clear_caches() -> None:
    """Forget every cached rank score (for benchmarks that must start cold)."""
    rank_points.cache_clear()
    _rank_items.cache_clear()
    possible_totals.cache_clear()
    _fifteen_gaps.cache_clear()
    _POINTS_BY_KEY.clear()
