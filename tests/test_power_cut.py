"""Power cuts during scripted play: no acknowledged entry is ever lost, and every file a cut
leaves opens and replays, every event checked again.

A SIGKILL (tests/test_crash.py) leaves the OS's cache to write everything out; a power cut
does not. Here the game is played through the real Table and Store, whose SQLite
connections go through :class:`powercut.PowerCutVFS`: at a random write, sync or truncation
the power goes, and of what was written since the last sync each sector lands whole, is
lost, or is torn. The board then starts as it does after a power cut: the stdlib's sqlite3
on the files the cut left, with its index (-shm) kept or lost. WAL checkpoints come every
few pages in some runs, so cuts land in checkpoints and WAL restarts too.

The suite runs 40 cuts; the long run prints its figures (cuts, acknowledged entries, lost):

    PEGBOARD_POWER_CUTS=1000 .venv/bin/python -m pytest -s tests/test_power_cut.py
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from contextlib import suppress

import pytest
from crash_child import digest, fingerprints
from game_bot import Bot, game_dir
from powercut import PowerCutVFS

from pegboard.errors import StoreError
from pegboard.game import Store, Table

CUTS = int(os.environ.get("PEGBOARD_POWER_CUTS", "40"))
PER_FILE = 50  # cuts on one game file before the next file (keeps each file small)
OPS = 400  # the cut comes at one of the first OPS writes, syncs or truncations of a start


def play_until_the_cut(path, vfs, rng, checkpoint):
    """Play from the file at ``path`` through ``vfs`` until the power goes; return the
    acknowledged entries, (game, version) -> the digest of the state after it."""

    def connect(where, readonly):
        db = vfs.connect(where, readonly)
        if not readonly:
            db.execute(f"PRAGMA wal_autocheckpoint={checkpoint}")
        return db

    acknowledged = {}
    store = Store(path, connect=connect)
    try:
        table = Table(store)
        bot = Bot(table, random.Random(rng.getrandbits(32)))
        while True:
            state = bot.step()  # returned: committed and synced, so acknowledged
            acknowledged[table.game_id, state.version] = digest(state)
    except StoreError:
        assert vfs.dead, "only the cut may stop the play"
    finally:
        with suppress(Exception):  # the power is off: closing cannot write either
            store.close()
    return acknowledged


def start_after_the_cut(path, acknowledged):
    """Open the file as the board does (it must not be refused), replay every game played,
    and count what was acknowledged and what is there."""
    figures = Counter(acknowledged=len(acknowledged))
    with Table(path) as table:
        for game in sorted({game for game, _ in acknowledged}):
            versions = {v for g, v in acknowledged if g == game}
            found = fingerprints(table.events(game), versions)
            figures["lost"] += sum(found.get(v) != acknowledged[game, v] for v in versions)
            state = table.state_of(game)  # replayed, every event checked again
            assert state.version >= max(versions)
            figures["in flight, kept"] += state.version - max(versions)
            assert state.version - max(versions) <= 1, "only the entry being written is extra"
    return figures


@pytest.mark.slow
def test_power_cuts_lose_no_acknowledged_entry(capsys):
    rng = random.Random(2026)
    figures = Counter()
    started = time.monotonic()
    with game_dir() as folder:
        for cut in range(CUTS):
            path = folder / f"file-{cut // PER_FILE}" / "games.db"
            if cut % PER_FILE == 0:
                path.parent.mkdir()
                Table(path).close()  # a new game file, made as the board makes it
            vfs = PowerCutVFS(f"power-cut-{cut}", rng, at=rng.randint(1, OPS))
            try:
                checkpoint = rng.choice((2, 10, 50, 1000))
                acknowledged = play_until_the_cut(path, vfs, rng, checkpoint)
            finally:
                vfs.unregister()
            figures += vfs.figures
            index = path.with_name("games.db-shm")
            if index.exists() and rng.random() < 0.5:
                index.unlink()  # lost with the power (or written out before it went)
                figures["indexes lost"] += 1
            figures += start_after_the_cut(path, acknowledged)
    figures["seconds"] = round(time.monotonic() - started)
    shown = ("cuts", "seconds", "acknowledged", "lost", "in flight, kept", "writes", "syncs")
    shown += ("sectors written", "sectors lost", "sectors torn", "indexes lost")
    with capsys.disabled():
        print("\npower cuts: " + ", ".join(f"{name} {figures[name]}" for name in shown))
    assert figures["cuts"] == CUTS and figures["lost"] == 0
    assert figures["acknowledged"] > 10 * CUTS and figures["sectors torn"] > CUTS
