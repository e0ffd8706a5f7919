"""Scripted play to be killed: ``python tests/crash_child.py GAMES.db``.

It loads the game code once, says ``ready``, then for each ``play SEED`` line on stdin
forks a player that says ``start PID``, opens the file and plays random entries for
ever, writing ``GAME VERSION DIGEST`` for each entry *after* it is committed.  When the
player dies (the test kills it with SIGKILL) this process says ``dead PID``.  Forking
from a warm process keeps hundreds of kills fast; each player is a process of its own
with its own SQLite connection.
"""

from __future__ import annotations

import hashlib
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from game_bot import Bot

from pegboard.game import State, Table
from pegboard.game.fold import apply
from pegboard.rules.scoring import possible_totals


def digest(state: State) -> str:
    """A short fingerprint of everything the state holds."""
    text = f"{state.version} {len(state.redo)} {state!r}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def fingerprints(events, versions):
    """The digest of the state at each of ``versions``, replaying ``events`` once."""
    found, state = {}, None
    for event in events:
        state = apply(state, event)
        if state.version in versions:
            found[state.version] = digest(state)
    return found


def player(path: str, seed: int) -> None:
    say(f"start {os.getpid()}")  # before opening: a kill may land while the game loads
    with Table(path) as table:
        bot = Bot(table, random.Random(seed))
        while True:
            state = bot.step()
            say(f"{table.game_id} {state.version} {digest(state)}")


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()  # one write per line: a kill loses whole lines, never half


def main(path: str) -> None:
    for size, crib in ((3, False), (4, False), (4, True), (5, False), (6, False)):
        possible_totals(size, crib)  # worked out once, before forking
    say("ready")
    for line in sys.stdin:
        command, *args = line.split()
        if command != "play":
            break
        pid = os.fork()
        if pid == 0:
            try:
                player(path, int(args[0]))
            finally:
                os._exit(1)
        _, status = os.waitpid(pid, 0)
        say(f"dead {pid} {os.waitstatus_to_exitcode(status)}")


if __name__ == "__main__":
    main(sys.argv[1])
