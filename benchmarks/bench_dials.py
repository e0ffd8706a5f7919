"""Four seats at once on an SD card: from a dial's pin edge to the LED frame that shows it.

A simulated board (:class:`pegboard.service.Board` with ``--sim``: gpiozero's MockFactory
pins, the LEDs on the emulated Pico's link, a silent voice) plays a four-player deal: each
seat turns its dial a few clicks on and back, then presses, over and over, all four at
once, pegging a point in the play each time. The game file sits on a disk whose every
fsync takes 20 ms (an SD card): an apsw VFS that sleeps in ``xSync`` (tests/slowdisk.py).
Each turn and press is timed from the edge that completes it on the mock pin (a click's
fourth edge, a press's release; a press then counts after the pin map's ``bounce_time``)
to the frame that shows it handed to the LED driver. Every press must reach the game
file: none may be lost.

Run: ``python -m benchmarks dials`` (``--rounds N``, ``--before REV``: a commit to run
side by side with this checkout, one round of each in turn; ``--before ''``: this one only).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from bisect import bisect_left
from collections import deque
from itertools import accumulate
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
BEFORE = "49caed2"  # main before the dials stopped waiting on the disk (issue 25, point 2)
FSYNC = 0.020  # seconds each sync of the game file takes
ROUNDS = 40  # turns-and-a-press per seat and run
CLICK_GAP = (0.010, 0.030)  # seconds between clicks, at random
HOLD = (0.030, 0.060)  # a press: seconds the switch is down
PAUSE = (0.040, 0.120)  # seconds after a press before the next turn
GOAL_TURN_P99_MS = 30.0
PLAYERS = ["Ann", "Bob", "Cat", "Dan"]
CLICKS = (1, 1, 1, -1, -1)  # each press pegs 1 (or more if it counts late, after more turns)


# --- one run, in a process of its own (over the code in ``tree``) -----------------------


class Reading:
    """The door as the painter reads it, noting the door's version before each state it
    reads: a frame shows every change up to that version (changes are counted after they
    are made)."""

    def __init__(self, keeper) -> None:
        self._keeper, self.version = keeper, 0

    def __getattr__(self, name: str):
        return getattr(self._keeper, name)

    @property
    def state(self):
        self.version = self._keeper.versions()[0]
        return self._keeper.state


def measure(rounds: int, seed: int) -> dict:
    """One run: every turn's and press's milliseconds to the LEDs, and what was lost."""
    from slowdisk import SlowDisk

    from pegboard.config import load_config
    from pegboard.game import store
    from pegboard.service import Board

    store._connect = SlowDisk(FSYNC).connect  # the board opens its game file on the SD card
    turned: list[deque[float]] = [deque() for _ in PLAYERS]  # edge times, per seat
    pressed: list[deque[float]] = [deque() for _ in PLAYERS]
    changes: list[tuple[str, int, float]] = []  # (turn | press, version, its edge's time)
    frames: list[tuple[float, int]] = []  # (when handed to the LEDs, version it shows)

    def heard(change) -> None:
        if not change.dial or change.seat is None:
            return
        if change.what == "dial":
            changes.append(("turn", change.version, turned[change.seat].popleft()))
        elif change.what in ("game", "refused"):
            changes.append(("press", change.version, pressed[change.seat].popleft()))

    with tempfile.TemporaryDirectory() as root:
        config = load_config(text='[voice]\nout = "silent"\n')  # four dials, as shipped
        with Board(config, Path(root), sim=True) as board:
            keeper, controls = board.keeper, board.controls
            keeper.new_game({"players": PLAYERS}, dealer=0)
            keeper.turn_starter(None)  # the play: each press pegs a point
            reading = Reading(keeper)
            board.painter.keeper = reading

            def shown(frame) -> None:
                frames.append((time.perf_counter(), reading.version))

            board.painter.on_frame = shown
            keeper.subscribe(heard)
            start = threading.Barrier(len(PLAYERS))
            seats = [
                threading.Thread(
                    target=play, args=(controls, seat, rounds, seed, start, turned, pressed)
                )
                for seat in range(len(PLAYERS))
            ]
            for seat in seats:
                seat.start()
            for seat in seats:
                seat.join()
            deadline = time.monotonic() + 30
            while len(changes) < len(PLAYERS) * rounds * (len(CLICKS) + 1):
                if time.monotonic() > deadline:
                    break
                time.sleep(0.05)  # the last presses reach the file
            time.sleep(0.2)  # and the LEDs
            state = keeper.state
            stored = sum(1 for line in state.history if line.kind == "play")
    return {
        "turns": latencies(changes, frames, "turn"),
        "presses": latencies(changes, frames, "press"),
        "made": {"turn": len(PLAYERS) * rounds * len(CLICKS), "press": len(PLAYERS) * rounds},
        "seen": {k: sum(1 for c in changes if c[0] == k) for k in ("turn", "press")},
        "stored": stored,
    }


def play(controls, seat, rounds, seed, start, turned, pressed) -> None:
    """One player: turns three clicks on and two back (a count of 1), then presses."""
    rng = random.Random(seed * 10 + seat)
    dial, switch = controls.seats[seat].dial, controls.seats[seat].peg_switch.button
    start.wait()
    for _ in range(rounds):
        for step in CLICKS:
            time.sleep(rng.uniform(*CLICK_GAP))
            lead, follow = (dial.a.pin, dial.b.pin) if step > 0 else (dial.b.pin, dial.a.pin)
            lead.drive_low()
            follow.drive_low()
            lead.drive_high()
            turned[seat].append(time.perf_counter())  # the click's last edge, next
            follow.drive_high()
        switch.pin.drive_low()
        time.sleep(rng.uniform(*HOLD))
        pressed[seat].append(time.perf_counter())  # the release, next
        switch.pin.drive_high()
        time.sleep(rng.uniform(*PAUSE))


def latencies(changes, frames, kind: str) -> list[float]:
    """Milliseconds from each change's edge to the first frame that shows it."""
    times = [t for t, _ in frames]
    shows = list(accumulate((v for _, v in frames), max))
    out = []
    for what, version, edge in changes:
        if what != kind:
            continue
        i = bisect_left(shows, version)
        while i < len(times) and times[i] < edge:
            i += 1
        out.append((times[i] - edge) * 1000 if i < len(times) else float("inf"))
    return out


# --- side by side -----------------------------------------------------------------------


def export(rev: str, into: Path) -> Path:
    """The checkout's files at ``rev``, unpacked into ``into``."""
    tar = subprocess.run(
        ["git", "-C", str(HERE), "archive", "--format=tar", rev],
        check=True,
        capture_output=True,
    ).stdout
    into.mkdir(parents=True)
    with tempfile.TemporaryFile() as file:
        file.write(tar)
        file.seek(0)
        with tarfile.open(fileobj=file) as archive:
            archive.extractall(into, filter="data")
    return into


def run(tree: Path, rounds: int, seed: int) -> dict:
    """One run over the code in ``tree``, in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    args = [sys.executable, __file__, "--measure", str(tree), "--rounds", str(rounds)]
    done = subprocess.run(
        [*args, "--seed", str(seed)], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        sys.exit(f"the run over {tree} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    from benchmarks.timing import percentiles

    parser = argparse.ArgumentParser(prog="python -m benchmarks dials")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each code, in turn")
    parser.add_argument("--presses", type=int, default=ROUNDS, help="presses per seat and run")
    parser.add_argument("--before", default=BEFORE, help="a commit to compare ('': none)")
    args = parser.parse_args(sys.argv[1:])
    with tempfile.TemporaryDirectory() as root:
        trees = {"after": HERE}
        if args.before:
            trees = {f"before ({args.before})": export(args.before, Path(root) / "before"), **trees}
        results: dict[str, list[dict]] = {name: [] for name in trees}
        for number in range(args.rounds):
            for name, tree in trees.items():
                results[name].append(run(tree, args.presses, seed=number))
    print(
        f"4 seats at once, {args.presses} presses each, {len(CLICKS)} clicks before each, "
        f"{args.rounds} runs of each code in turn; every fsync {FSYNC * 1000:g} ms"
    )
    print(
        f"{'':22} {'turn p50':>9} {'p99':>8} {'max':>8} {'press p50':>10} {'p99':>8} "
        f"{'max':>8}  not stored"
    )
    p99s = {}
    for name, runs in results.items():
        turns = [ms for one in runs for ms in one["turns"]]
        presses = [ms for one in runs for ms in one["presses"]]
        t50, t99, top = percentiles(turns, 50, 99, 100)
        q50, q99, most = percentiles(presses, 50, 99, 100)
        made = sum(one["made"]["press"] for one in runs)
        lost = made - sum(one["stored"] for one in runs)
        unseen = sum(one["made"][k] - one["seen"][k] for one in runs for k in ("turn", "press"))
        p99s[name] = t99
        print(
            f"{name:22} {t50:7.2f}ms {t99:6.2f}ms {top:6.1f}ms {q50:8.2f}ms {q99:6.2f}ms "
            f"{most:6.1f}ms  {lost} of {made} presses ({unseen} turns or presses never shown)"
        )
    after = p99s["after"]
    verdict = "met" if after <= GOAL_TURN_P99_MS else "MISSED"
    print(f"turn p99 / goal ({GOAL_TURN_P99_MS:g} ms): {after / GOAL_TURN_P99_MS:.3f}  ({verdict})")
    for name, p99 in p99s.items():
        if name != "after":
            print(f"turn p99, {name} / after: {p99 / after:.1f}x")


if __name__ == "__main__":
    if "--measure" in sys.argv:
        parser = argparse.ArgumentParser()
        parser.add_argument("--measure", type=Path)
        parser.add_argument("--rounds", type=int)
        parser.add_argument("--seed", type=int)
        given = parser.parse_args()
        sys.path[:0] = [str(given.measure), str(HERE / "tests")]  # the SD card: tests/slowdisk.py
        print(json.dumps(measure(given.rounds, given.seed)))
    else:
        sys.path.insert(0, str(HERE))
        main()
