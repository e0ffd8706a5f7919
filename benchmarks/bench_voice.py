"""The voice: how soon it speaks, and that it never slows the LEDs.

1. From an entry committed (the front door announcing it) to the first audio sample of
   its sentence handed to the output, on the simulated board (the voice lets its LEDs
   show the entry first): real espeak-ng, counts pegged and taken back in the show, each
   said alone (an entry at a table comes seconds after the last). Goal: p99 <= 300 ms.
2. Press to LED on the simulated board (the dial's switch on mock GPIO, the real
   firmware on an emulated Pico): a press pegs a count, from the press to the LEDs
   showing the pegs moved, with the voice off and on (saying that very count, and the
   undo after it, into WAV files), the two boards interleaved round by round.
   Goal: the same within noise (ratio of p50s and of p99s near 1).

Run: ``python -m benchmarks voice`` (``--entries N --presses N`` to shorten).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

if not __package__:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.timing import percentiles
from pegboard.config import load_config
from pegboard.service import Board
from pegboard.voice import Espeak, Output, Voice

GOAL_FIRST_SAMPLE_MS = 300.0
WAIT = 30.0
PINS = "[pins.settings]\nbounce_time = 0.002\nhold_time = 5.0\n"


class FirstSample(Output):
    """An output that notes when each sentence's first samples reach it, and drops them."""

    def __init__(self) -> None:
        self.first: list[float] = []
        self._fresh = False

    def _begin(self, speech, label):
        self._fresh = True

    def _write(self, samples):
        if self._fresh:
            self.first.append(time.perf_counter())
            self._fresh = False


def first_sample(entries: int) -> list[float]:
    """Milliseconds from each entry's announcement to its sentence's first sample, on the
    simulated board (its LEDs show each entry first)."""
    with tempfile.TemporaryDirectory() as root:
        running = board(Path(root) / "board", voice=False)
        keeper = running.keeper
        committed: list[float] = []

        def heard(change) -> None:
            if change.what == "game":
                committed.append(time.perf_counter())

        keeper.subscribe(heard)
        out = FirstSample()
        voice = Voice(keeper, Espeak(), out, shown=running.painter.wait_shown)
        try:
            for i in range(entries):
                if i % 2:
                    keeper.undo()  # "Undone."
                else:
                    keeper.claim("Bob", 5)  # "Bob's hand: five."
                if not voice.wait_quiet(WAIT):
                    sys.exit("the voice fell silent")
        finally:
            voice.close()
            running.close()
    return [(said - at) * 1000 for at, said in zip(committed, out.first, strict=True)]


def board(folder: Path, voice: bool) -> Board:
    """A simulated board at the show of deal 2: Bob's hand is due, his pegs at 10 and 6."""
    spoken = f'[voice]\nout = "files"\nfolder = "{folder / "voice"}"\n'
    text = PINS + (spoken if voice else "[voice]\nenabled = false\n")
    folder.mkdir(parents=True)
    running = Board(load_config(text=text), folder, sim=True)
    keeper = running.keeper
    keeper.new_game({"players": ["Ann", "Bob"]}, dealer=1)
    for deal in ((8, 6, 4), (0,)):  # Ann 8; Bob 6 and his crib 4; then Ann deals
        keeper.turn_starter(None)
        keeper.advance()
        for points in deal:
            keeper.claim(keeper.state.due.seat, points)
        if len(deal) > 1:
            keeper.advance()
    keeper.undo()  # Bob's hand is due again
    state = keeper.state
    assert (state.scores[1], state.backs[1], state.due.seat) == (10, 6, 1), state
    return running


def press_to_led(running: Board) -> float:
    """Bob dials 5 and presses: milliseconds from the press to the LEDs showing his back
    peg gone from hole 6 (the pegs moved); then the entry is taken back."""
    keeper, controls = running.keeper, running.controls
    controls.sim_turn(1, 5)
    start = time.perf_counter()
    controls.sim_press(1)
    deadline = start + WAIT
    seen = keeper.versions()
    while keeper.lit().get("t1h6") is not None:
        if time.perf_counter() > deadline:
            sys.exit("the LEDs never showed the press")
        seen = keeper.wait(seen, timeout=0.5)
    took = (time.perf_counter() - start) * 1000
    keeper.undo()
    seen = keeper.versions()
    while keeper.lit().get("t1h6") is None:  # back where it was before the next round
        seen = keeper.wait(seen, timeout=0.5)
    if running.voice is not None and not running.voice.wait_quiet(WAIT):
        sys.exit("the voice fell silent")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks voice")
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--presses", type=int, default=100)
    args = parser.parse_args(sys.argv[1:])

    latencies = first_sample(args.entries)
    p50, p99, top = percentiles(latencies, 50, 99, 100)
    print(f"{args.entries} entries, each said alone (espeak-ng {Espeak().rate} words/min)")
    print(f"entry -> first sample   p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  max {top:6.1f} ms")
    goal = GOAL_FIRST_SAMPLE_MS
    print(f"p99 / goal ({goal:g} ms): {p99 / goal:.3f}  ({'met' if p99 <= goal else 'MISSED'})")

    times: dict[str, list[float]] = {"voice off": [], "voice on": []}
    with tempfile.TemporaryDirectory() as root:
        boards = {
            name: board(Path(root) / name.replace(" ", "-"), voice=name == "voice on")
            for name in times
        }
        try:
            for running in boards.values():  # warm up
                press_to_led(running)
            for _ in range(args.presses):
                for name, running in boards.items():
                    times[name].append(press_to_led(running))
            said = boards["voice on"].voice.sentences
        finally:
            for running in boards.values():
                running.close()
    print(f"{args.presses} presses on each board, interleaved; the voice said {said} sentences")
    stats = {name: percentiles(samples, 50, 99) for name, samples in times.items()}
    for name, (q50, q99) in stats.items():
        print(f"press -> LEDs, {name:9}  p50 {q50:6.2f} ms  p99 {q99:6.2f} ms")
    (off50, off99), (on50, on99) = stats["voice off"], stats["voice on"]
    print(f"voice on / off: p50 {on50 / off50:.2f}x  p99 {on99 / off99:.2f}x")
    print(f"threads alive now: {threading.active_count()}")


if __name__ == "__main__":
    main()
