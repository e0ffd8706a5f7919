"""Discard advice speed: the exact advice against the literal enumeration it must equal.

Run: ``python -m benchmarks advice``.  Goal: all 15 discards of a six-card hand <= 100 ms.
"Cold" clears the rank-score caches before every call (a fresh process); "warm" does not.
"""

from __future__ import annotations

import random
import time

from benchmarks.timing import percentiles, race
from pegboard.rules.advice import KEPT, advise, literal_advice
from pegboard.rules.cards import DECK
from pegboard.rules.scoring import clear_caches

EXAMPLE = "5H 5C JD QS 2C 9H".split()
HANDS = 100
SEED = 2026


def cold(cards: list, dealer: bool = True, players: int = 2) -> list:
    clear_caches()
    return advise(cards, dealer, players)


def main() -> None:
    assert advise(EXAMPLE, True) == literal_advice(EXAMPLE, True), "advice is not exact"
    medians = race(
        {
            "advise, warm": lambda: advise(EXAMPLE, True),
            "advise, cold": lambda: cold(EXAMPLE),
            "literal enumeration": lambda: literal_advice(EXAMPLE, True),
        },
        rounds=5,
    )
    literal = medians["literal enumeration"]
    print(f"{' '.join(EXAMPLE)} as dealer, 15 discards, median of 5 interleaved rounds")
    for name, seconds in medians.items():
        print(f"  {name:<22} {seconds * 1000:>9.1f} ms  {literal / seconds:>7.1f}x literal")

    rng = random.Random(SEED)
    print(f"{HANDS} random hands per deal (seed {SEED}), ms per call: median p99 max (goal <= 100)")
    for players, dealt in KEPT:
        hands = [rng.sample(DECK, dealt) for _ in range(HANDS)]
        for name, run in (("cold", cold), ("warm", advise)):
            times = []
            for cards in hands:
                start = time.perf_counter()
                run(cards, True, players)
                times.append((time.perf_counter() - start) * 1000)
            median, p99 = percentiles(times, 50, 99)
            print(
                f"  {players} players, {dealt} cards, {name}: "
                f"{median:6.1f} {p99:6.1f} {max(times):6.1f}"
            )
