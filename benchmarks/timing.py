"""Side-by-side timing: contenders run interleaved in one process, medians compared."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def race(contenders: dict[str, Callable[[], object]], rounds: int = 5) -> dict[str, float]:
    """Run each contender ``rounds`` times, interleaved; return the median seconds of each."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, run in contenders.items():
            start = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def percentiles(samples: list[float], *points: float) -> list[float]:
    """The given percentiles (0-100) of ``samples``, nearest rank."""
    ordered = sorted(samples)
    return [ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))] for p in points]
