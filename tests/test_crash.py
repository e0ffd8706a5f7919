"""Kill scripted play with SIGKILL at random moments: nothing committed is ever lost.

A child process (tests/crash_child.py) plays random entries on one game file and reports
each committed version with a digest of its state; the test kills the player at a random
moment, reopens the file and replays it.  Every reported version must be there with the
same state; at most one more (committed, killed before it was reported) may follow.
"""

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from crash_child import fingerprints
from game_bot import game_dir

from pegboard.game import Store

KILLS = 220
CHILD = Path(__file__).with_name("crash_child.py")

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the child forks players")


def check_file(store, reported):
    """Every reported (game, version) is stored with the reported digest."""
    for game in {game for game, _ in reported}:
        versions = {v for g, v in reported if g == game}
        found = fingerprints(store.events(game), versions)
        assert found == {v: reported[game, v] for v in versions}, f"game {game} differs"


def check_after_kill(path, lines, reported):
    """Check what one player reported before its kill; return counts for the figures."""
    new = {(int(g), int(v)): d for g, v, d in (line.split() for line in lines)}
    with Store(path) as store:  # opens: the file is whole
        check_file(store, new)
        reported.update(new)
        if not new:
            return Counter(kills=1, silent=1)
        game, version = list(new)[-1]
        stored = store.version(game)
        later = [g for g in store.games() if g.id > game]
    assert stored in (version, version + 1), "only the entry in flight may be unreported"
    assert all(g.versions == 1 for g in later) and len(later) + stored - version <= 1
    return Counter(kills=1, entries=len(new), unreported=len(later) + stored - version)


@pytest.mark.slow
@pytest.mark.subprocess
def test_sigkill_at_random_moments_loses_nothing(tmp_path, capsys):
    rng = random.Random(2026)
    reported, figures = {}, Counter()
    started = time.monotonic()
    with game_dir() as folder, open(tmp_path / "child.err", "w+") as errors:
        path = folder / "games.db"
        with subprocess.Popen(
            [sys.executable, str(CHILD), str(path)],
            text=True,
            bufsize=1,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,
        ) as child:

            def read():
                line = child.stdout.readline()
                assert line and not line.startswith("dead"), (line, errors.seek(0), errors.read())
                return line

            assert read() == "ready\n"
            for kill in range(KILLS):
                child.stdin.write(f"play {kill}\n")
                child.stdin.flush()
                pid = int(read().split()[1])
                lines = [read() for _ in range(0 if rng.random() < 0.2 else rng.randint(1, 60))]
                os.kill(pid, signal.SIGKILL)
                while not (line := child.stdout.readline()).startswith("dead"):
                    lines.append(line)
                assert line.split() == ["dead", str(pid), str(-signal.SIGKILL)], line
                figures += check_after_kill(path, lines, reported)
            child.stdin.write("quit\n")
        with Store(path) as store:  # and at the end, everything reported in every round
            check_file(store, reported)
            games, events = len(store.games()), sum(g.versions for g in store.games())
    seconds = time.monotonic() - started
    with capsys.disabled():
        print(
            f"\ncrash test: {figures['kills']} kills in {seconds:.1f} s; "
            f"{figures['entries']} entries reported and found; {figures['unreported']} "
            f"committed between commit and report; {figures['silent']} kills before any "
            f"report; {games} games, {events} events in the file"
        )
    assert figures["kills"] == KILLS >= 200
