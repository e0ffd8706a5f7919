"""Show scoring speed: pegboard against cribbage-scorer on the same 100,000 random hands.

Run: ``python -m benchmarks scoring``.  Also times ``pegboard stats`` (goal <= 2 s), and
the possible totals of each hand size (what a claim is checked against) worked out cold,
from merged rank states, side by side with the exhaustive count of every deal.
"""

from __future__ import annotations

import random
import time

from benchmarks.timing import race
from pegboard.rules.cards import DECK
from pegboard.rules.scoring import (
    clear_caches,
    distribution,
    possible_totals,
    score_show,
    show_total,
)

HANDS = 100_000
SEED = 2026


def deals(n: int = HANDS, seed: int = SEED) -> list[tuple[list, object]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        five = rng.sample(DECK, 5)
        out.append((five[:4], five[4]))
    return out


def main() -> None:
    from cribbage_scorer import cribbage_scorer as peer

    hands = deals()
    suit = "CDHS"
    peer_hands = [
        ([(c.rank, suit[c.suit]) for c in hand], (s.rank, suit[s.suit])) for hand, s in hands
    ]

    def pegboard_total() -> list[int]:
        clear_caches()  # every round starts cold
        return [show_total(hand, starter) for hand, starter in hands]

    def pegboard_itemised() -> list[int]:
        clear_caches()  # every round starts cold
        return [score_show(hand, starter).total for hand, starter in hands]

    def cribbage_scorer() -> list[int]:
        return [peer.show_calc_score(starter, hand)[0] for hand, starter in peer_hands]

    assert pegboard_total() == pegboard_itemised() == cribbage_scorer(), "scorers disagree"
    medians = race(
        {
            "pegboard show_total": pegboard_total,
            "pegboard score_show (itemised)": pegboard_itemised,
            "cribbage-scorer show_calc_score": cribbage_scorer,
        },
        rounds=3,
    )
    peer_time = medians["cribbage-scorer show_calc_score"]
    print(f"{HANDS:,} random hands (seed {SEED}), median of 3 interleaved rounds")
    for name, seconds in medians.items():
        print(
            f"  {name:<34} {HANDS / seconds:>12,.0f} hands/s  "
            f"{peer_time / seconds:>6.1f}x cribbage-scorer"
        )
    start = time.perf_counter()
    distribution()
    distribution(crib=True)
    print(
        f"  exhaustive stats (hand and crib, 12,994,800 deals each): "
        f"{time.perf_counter() - start:.2f} s (goal <= 2 s)"
    )
    possible_totals_cold()


def possible_totals_cold() -> None:
    """Each hand size's possible totals from nothing (every cache cleared), two ways."""
    print("possible totals, cold (caches cleared), median of 3 interleaved rounds:")
    for size, crib in ((3, False), (4, False), (4, True), (5, False), (6, False)):

        def merged(size: int = size, crib: bool = crib) -> frozenset[int]:
            clear_caches()
            return possible_totals(size, crib)

        def exhaustive(size: int = size, crib: bool = crib) -> frozenset[int]:
            clear_caches()
            return frozenset(distribution(size, crib))

        assert merged() == exhaustive(), (size, crib)
        medians = race({"merged": merged, "exhaustive": exhaustive}, rounds=3)
        fast, slow = medians["merged"], medians["exhaustive"]
        what = "crib" if crib else f"{size}-card hand"
        print(
            f"  {what:<12} merged rank states {fast * 1e3:7.1f} ms   "
            f"exhaustive {slow * 1e3:7.0f} ms   {slow / fast:5.0f}x"
        )
