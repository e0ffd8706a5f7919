"""The lit board's latency: from a state change to the frame in the firmware's LED buffer.

Each of 1,000 changes moves a peg on the three-track board; the host renders the
view, the PicoDriver encodes and writes it to a real pty, the firmware logic on
the other end (CPython, fake chip) decodes it and fills its LED buffer. Goal:
p99 <= 15 ms on this machine.

Run: ``python benchmarks/bench_link.py`` or ``python -m benchmarks link``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

if not __package__:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pegboard._firmware import pegproto

from benchmarks.timing import percentiles
from pegboard.board.layout import load_layout
from pegboard.board.render import BoardView, Renderer, TrackView
from pegboard.leds.emulator import EmulatedPico
from pegboard.leds.pico import PicoDriver

CHANGES = 1000
WARM_UP = 50
GOAL_P99_MS = 15.0


def views(count: int) -> list[BoardView]:
    """A game's worth of peg moves, each different from the one before."""
    fronts, backs, out = [0, 0, 0], [0, 0, 0], []
    for i in range(count):
        t = i % 3
        backs[t], fronts[t] = fronts[t], fronts[t] + 1 + i % 6
        if fronts[t] > 121:
            fronts[t] = backs[t] = 0
        pending = 3 if i % 5 == 0 else None
        tracks = tuple(TrackView(fronts[k], backs[k], pending=pending) for k in range(3))
        out.append(BoardView(tracks, t=i * 0.05))
    return out


def main() -> None:
    layout = load_layout("three-track-121")
    renderer = Renderer(layout)
    changes = views(WARM_UP + CHANGES)
    render_ms, total_ms = [], []
    with EmulatedPico() as pico, PicoDriver(layout.strips, pico.path) as leds:
        if not leds.wait_stats(lambda s: s.connected, 5):
            sys.exit("the emulated Pico did not come up")
        for i, view in enumerate(changes):
            start = time.perf_counter()
            frame = renderer.render(view)
            rendered = time.perf_counter()
            leds.show(frame)
            if not pico.wait_for(frame.strips, 2.0):
                sys.exit(f"change {i} never reached the LEDs")
            done = time.perf_counter()
            if i >= WARM_UP:
                render_ms.append((rendered - start) * 1000)
                total_ms.append((done - start) * 1000)
        stats = leds.stats
    wire = len(pegproto.pack(pegproto.STATE, 0, pegproto.pack_state(frame.strips)))
    r50, r99 = percentiles(render_ms, 50, 99)
    p50, p99, top = percentiles(total_ms, 50, 99, 100)
    print(f"{CHANGES} changes, {sum(layout.strip_lengths)} LEDs on {len(layout.strips)} strips")
    print(f"render only      p50 {r50:6.3f} ms  p99 {r99:6.3f} ms")
    print(f"change -> LEDs   p50 {p50:6.3f} ms  p99 {p99:6.3f} ms  max {top:6.3f} ms")
    verdict = "met" if p99 <= GOAL_P99_MS else "MISSED"
    print(f"p99 / goal ({GOAL_P99_MS:g} ms): {p99 / GOAL_P99_MS:.3f}  ({verdict})")
    print(f"render share of p50: {r50 / p50:.1%}; STATE frame on the wire: {wire} bytes")
    print(f"link: {stats.summary()}")


if __name__ == "__main__":
    main()
