"""The game file's tables, and the upgrade of a file an older pegboard wrote.

Format 2 (this one): every entry carries its chain value (:mod:`.chain`), and each game
its length, its head and its summary (:mod:`.summary`). Format 1 had neither: such a
file is upgraded once, when it is opened, in one transaction (its entries chained as they
stand, its tables brought up to date, its format number raised), so a power cut during the
upgrade leaves the file as it was or upgraded whole, never between.

>>> import sqlite3
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> create(db)
>>> db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA
True
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from pegboard.errors import StoreError
from pegboard.game.chain import START, link
from pegboard.i18n import N_, Phrase

SCHEMA = 2
UPGRADES_FROM = 1  # the oldest format that is upgraded
GAMES = f"""
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
    versions INTEGER NOT NULL DEFAULT 0,
    head BLOB NOT NULL DEFAULT x'{START.hex()}',
    updated TEXT,
    summary TEXT
)
"""
EVENTS = """
CREATE TABLE events (
    game INTEGER NOT NULL REFERENCES games(id),
    version INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    at TEXT NOT NULL,
    chain BLOB NOT NULL,
    PRIMARY KEY (game, version)
) WITHOUT ROWID
"""
# The request each keyed entry answered: a retry finds it (see Store.recall).
REQUESTS = """
CREATE TABLE IF NOT EXISTS requests (
    key TEXT PRIMARY KEY,
    request TEXT NOT NULL,
    game INTEGER NOT NULL,
    version INTEGER NOT NULL
) WITHOUT ROWID
"""
# The game the board plays now: the newest started, or an older one taken up again.
CURRENT = """
CREATE TABLE IF NOT EXISTS current (
    board INTEGER PRIMARY KEY CHECK (board = 0),
    game INTEGER NOT NULL
)
"""
TABLES = frozenset({"games", "events", "requests", "current"})
OLD_TABLES = frozenset({"games", "events"})  # what a file of format 1 has at least

CANNOT_CREATE = N_("cannot create the game file {path}: {error}")


def now() -> str:
    """The time an entry is stored (UTC, as SQLite's CURRENT_TIMESTAMP writes it)."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())


def create(db: Any) -> None:
    """The tables of a new game file, in a connection that has nothing yet."""
    for statement in (GAMES, EVENTS, REQUESTS, CURRENT, f"PRAGMA user_version = {SCHEMA}"):
        db.execute(statement)


def make(path: Path, connect: Callable[[Path, bool], Any]) -> None:
    """A new game file at ``path``, made whole beside its place and linked in: a crash
    leaves either no game file or a whole one, never an empty one."""
    try:
        fd, name = tempfile.mkstemp(prefix=path.name + ".", dir=path.parent)
    except OSError as error:
        raise StoreError(Phrase.of(CANNOT_CREATE, path=str(path), error=str(error))) from None
    made = Path(name)
    try:
        os.close(fd)
        db = connect(made, False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            create(db)
        finally:
            db.close()  # the WAL is checkpointed into the file and deleted
        _sync(made)
        with suppress(FileExistsError):  # another program made it meanwhile: checked next
            os.link(made, path)
        _sync(path.parent)
    except (OSError, sqlite3.Error) as error:
        raise StoreError(Phrase.of(CANNOT_CREATE, path=str(path), error=str(error))) from None
    finally:
        made.unlink(missing_ok=True)


def _sync(path: Path) -> None:
    """Flush a file or a folder to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Gap(Exception):
    """A file of format 1 with an entry missing: (game, the version missing)."""


def upgrade(db: Any) -> None:
    """Bring a file of format 1 to this format, inside the caller's transaction: its
    entries chained as they are stored, each game's length and head. Raises Gap (nothing
    is written then: the caller rolls back) when a game's versions skip one."""
    db.execute("ALTER TABLE events RENAME TO events_unchained")
    db.execute(EVENTS)
    for column in (
        "versions INTEGER NOT NULL DEFAULT 0",
        f"head BLOB NOT NULL DEFAULT x'{START.hex()}'",
        "updated TEXT",
        "summary TEXT",
    ):
        db.execute(f"ALTER TABLE games ADD COLUMN {column}")
    db.execute(REQUESTS)
    db.execute(CURRENT)
    rows = db.execute(
        "SELECT game, version, type, data, at FROM events_unchained ORDER BY game, version"
    )
    game, count, head, at = None, 0, START, None
    for row_game, version, kind, data, stored_at in rows:
        if row_game != game:
            _ended(db, game, count, head, at)
            game, count, head = row_game, 0, START
        count += 1
        if version != count:
            raise Gap(game, count)
        assert game is not None
        head, at = link(head, game, version, kind, data, stored_at), stored_at
        db.execute(
            "INSERT INTO events (game, version, type, data, at, chain) VALUES (?, ?, ?, ?, ?, ?)",
            (game, version, kind, data, stored_at, head),
        )
    _ended(db, game, count, head, at)
    db.execute("DROP TABLE events_unchained")
    db.execute(f"PRAGMA user_version = {SCHEMA}")


def _ended(db: Any, game: int | None, versions: int, head: bytes, at: str | None) -> None:
    if game is not None:
        db.execute(
            "UPDATE games SET versions = ?, head = ?, updated = ? WHERE id = ?",
            (versions, head, at, game),
        )
