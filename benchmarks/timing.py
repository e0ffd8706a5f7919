"""Side-by-side timing: contenders run interleaved in one process, medians compared."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
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


def option(prog: str, name: str, env: str, default: float, argv: list[str] | None = None) -> float:
    """A benchmark's one number option (``--name N``), by default ``env``'s or
    ``default``; and the machine's load said first (the figures move with it)."""
    parser = argparse.ArgumentParser(prog=f"python -m benchmarks.{prog}")
    chosen = float(os.environ.get(env, default))
    parser.add_argument(f"--{name}", type=float, default=chosen, help=f"how long ({default:g})")
    value = getattr(parser.parse_known_args(sys.argv[1:] if argv is None else argv)[0], name)
    print(f"machine load (1 min) at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    return value
