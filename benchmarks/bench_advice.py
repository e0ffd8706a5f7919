"""Discard advice speed: the exact advice against the literal enumeration it must equal.

Run: ``python -m benchmarks advice``.  Goals: cold advice at least 60 times faster than the
literal enumeration (median), and near 100 ms on a Raspberry Pi 4 (about 4 times slower than
a laptop core), so a few tens of milliseconds here at most.  "Cold" clears the scoring
caches before every call; "warm" does not; a fresh process pays for the import too.
Every deal timed against the literal enumeration is checked equal to it first.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time

from benchmarks.timing import percentiles, race
from pegboard.rules.advice import advise, literal_advice
from pegboard.rules.cards import DECK
from pegboard.rules.deals import DEALS
from pegboard.rules.scoring import clear_caches

EXAMPLE = "5H 5C JD QS 2C 9H".split()
HANDS = 100
AGAINST_LITERAL = 3  # random hands of each deal timed against the literal enumeration
FRESH = 5  # fresh processes
SEED = 2026

FIRST_CALL = f"""
import time
start = time.perf_counter()
from pegboard.rules.advice import advise
imported = time.perf_counter()
advise({EXAMPLE!r}, True)
print((imported - start) * 1000, (time.perf_counter() - imported) * 1000)
"""


def cold(cards: list, dealer: bool = True, players: int = 2) -> list:
    clear_caches()
    return advise(cards, dealer, players)


def timed(run, *args) -> tuple[float, object]:
    start = time.perf_counter()
    result = run(*args)
    return time.perf_counter() - start, result


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

    firsts = [
        [float(ms) for ms in subprocess.check_output([sys.executable, "-c", FIRST_CALL]).split()]
        for _ in range(FRESH)
    ]
    imports, calls = (statistics.median(column) for column in zip(*firsts, strict=True))
    print(
        f"a fresh process, median of {FRESH}: import {imports:.1f} ms, "
        f"first call {calls:.1f} ms (the example)"
    )

    rng = random.Random(SEED)
    print(f"{AGAINST_LITERAL} random hands per deal (seed {SEED}), dealer and pone in turn,")
    print("  cold advice against the literal enumeration: ms, ms, median ratio (worst)")
    for players, dealt in DEALS:
        fast, slow = [], []
        for i in range(AGAINST_LITERAL):
            cards, dealer = rng.sample(DECK, dealt), i % 2 == 0
            seconds, reference = timed(literal_advice, cards, dealer, players)
            slow.append(seconds)
            fast.append(statistics.median(timed(cold, cards, dealer, players)[0] for _ in range(5)))
            assert cold(cards, dealer, players) == reference, f"advice is not exact: {cards}"
        ratios = [s / f for s, f in zip(slow, fast, strict=True)]
        print(
            f"  {players} players, {dealt} cards: {statistics.median(fast) * 1000:6.2f} "
            f"{statistics.median(slow) * 1000:8.0f} {statistics.median(ratios):7.0f}x "
            f"({min(ratios):.0f}x)"
        )

    print(f"{HANDS} random hands per deal (seed {SEED}), ms per call: median p99 max (goal <= 100)")
    for players, dealt in DEALS:
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
                f"{median:6.2f} {p99:6.2f} {max(times):6.2f}"
            )
