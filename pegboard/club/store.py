"""The club's file: every night's events in order, with who made each and when, the
hosted tables' ports and PINs, and the keys of the boards paired with the club (a board
is paired once: its key is kept for the nights after).

SQLite (WAL, ``synchronous=FULL``), one transaction per event: a director's laptop that
restarts loses nothing it said was done. A game's result is stored with its night, its
table and the table's game number as a unique key (hosted tables number their games
from 1 each night), so a result counted twice (after a restart, a retry) is stored once.
No integrity error is swallowed: a result stored again is the same one (done), or a
refusal that names the table and the game (:data:`OTHER_RESULT`), as is any other.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
from datetime import UTC, datetime
from pathlib import Path

from pegboard.club.night import Event, GameCounted, from_dict, to_dict
from pegboard.errors import StoreError
from pegboard.i18n import N_, Phrase

SCHEMA = """
CREATE TABLE IF NOT EXISTS nights (
    id INTEGER PRIMARY KEY, opened TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    night INTEGER NOT NULL REFERENCES nights(id), seq INTEGER NOT NULL,
    type TEXT NOT NULL, data TEXT NOT NULL, by TEXT NOT NULL, at TEXT NOT NULL,
    counted TEXT UNIQUE,
    PRIMARY KEY (night, seq)
);
CREATE TABLE IF NOT EXISTS hosted (
    night INTEGER NOT NULL, tbl INTEGER NOT NULL, port INTEGER NOT NULL, pin TEXT NOT NULL,
    PRIMARY KEY (night, tbl)
);
CREATE TABLE IF NOT EXISTS boards (address TEXT PRIMARY KEY, key TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS nonces (
    night INTEGER NOT NULL, round INTEGER NOT NULL, tbl INTEGER NOT NULL, nonce TEXT NOT NULL,
    PRIMARY KEY (night, round, tbl)
);
CREATE TABLE IF NOT EXISTS paired (
    address TEXT PRIMARY KEY, pairing TEXT NOT NULL, key TEXT NOT NULL, public TEXT NOT NULL
);
"""
CANNOT = N_("the club's file {path} cannot be used: {error}")
OTHER_RESULT = N_(
    "table {table}'s game {game} has another result in the club's file tonight: nothing was "
    "counted; correct the result if the table's is right"
)


class ClubStore:
    """The club's file at ``path``; safe to use from several threads."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except (sqlite3.Error, OSError) as error:
            raise self._refusal(error) from None

    def close(self) -> None:
        self._db.close()

    def _refusal(self, error: Exception) -> StoreError:
        return StoreError(Phrase.of(CANNOT, path=str(self.path), error=str(error)))

    def _run(self, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as error:
                raise self._refusal(error) from None

    # --- nights -----------------------------------------------------------------------

    def night(self) -> int:
        """The night being played: the latest one (one is opened if there is none)."""
        rows = self._run("SELECT max(id) FROM nights")
        latest = rows[0][0]
        return int(str(latest)) if latest is not None else self.open_night()

    def open_night(self) -> int:
        """A new night: the one being played from now on."""
        with self._lock:
            cursor = self._db.execute("INSERT INTO nights (opened) VALUES (?)", (_now(),))
            return int(cursor.lastrowid or 0)

    def nights(self) -> list[tuple[int, str]]:
        """Every night (id, opened), oldest first."""
        return [(int(str(i)), str(at)) for i, at in self._run("SELECT id, opened FROM nights")]

    # --- events -----------------------------------------------------------------------

    def events(self, night: int) -> list[tuple[Event, str, str]]:
        """``night``'s events in order, each with who made it and when."""
        rows = self._run(
            "SELECT type, data, by, at FROM events WHERE night = ? ORDER BY seq", (night,)
        )
        return [
            (from_dict({**json.loads(str(data)), "type": kind}), str(by), str(at))
            for kind, data, by, at in rows
        ]

    def append(self, night: int, seq: int, event: Event, by: str) -> bool:
        """Store ``event`` as ``night``'s event ``seq``; False when it is a result stored
        already, the same (nothing is stored). A different result for that table's game,
        or any other conflict, raises StoreError: never swallowed."""
        data = to_dict(event)
        kind = data.pop("type")
        text = json.dumps(data)
        counted = counted_key(night, event)
        try:
            with self._lock:
                self._db.execute(
                    "INSERT INTO events (night, seq, type, data, by, at, counted) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (night, seq, kind, text, by, _now(), counted),
                )
        except sqlite3.IntegrityError as error:
            if isinstance(event, GameCounted):
                kept = self._run("SELECT data FROM events WHERE counted = ?", (counted,))
                if kept and kept[0][0] == text:
                    return False  # the same result again: done already
                if kept:
                    said = Phrase.of(OTHER_RESULT, table=event.table, game=event.game)
                    raise StoreError(said) from None
            raise self._refusal(error) from None
        except sqlite3.Error as error:
            raise self._refusal(error) from None
        return True

    def nonce(self, night: int, round: int, table: int) -> str:
        """The nonce the club sends with the start of ``table``'s game of ``round``
        tonight: made once, kept (a start sent again carries the same)."""
        self._run(
            "INSERT OR IGNORE INTO nonces (night, round, tbl, nonce) VALUES (?, ?, ?, ?)",
            (night, round, table, secrets.token_hex(16)),
        )
        rows = self._run(
            "SELECT nonce FROM nonces WHERE night = ? AND round = ? AND tbl = ?",
            (night, round, table),
        )
        return str(rows[0][0])

    # --- tables -----------------------------------------------------------------------

    def hosted(self, night: int) -> dict[int, tuple[int, str]]:
        """The hosted tables of ``night``: table -> (port, PIN)."""
        rows = self._run("SELECT tbl, port, pin FROM hosted WHERE night = ?", (night,))
        return {int(str(t)): (int(str(port)), str(pin)) for t, port, pin in rows}

    def keep_hosted(self, night: int, table: int, port: int, pin: str) -> None:
        self._run(
            "INSERT OR REPLACE INTO hosted (night, tbl, port, pin) VALUES (?, ?, ?, ?)",
            (night, table, port, pin),
        )

    def paired(self, address: str) -> tuple[str, str, str] | None:
        """The board paired at ``address``: (its pairing's id, the pairing key, its
        public key pinned at pairing), all hex; None: not paired (a key kept by an
        older club, handed over in clear, is not trusted: the board is paired again)."""
        rows = self._run("SELECT pairing, key, public FROM paired WHERE address = ?", (address,))
        return (str(rows[0][0]), str(rows[0][1]), str(rows[0][2])) if rows else None

    def keep_paired(self, address: str, pairing: str, key: str, public: str) -> None:
        self._run(
            "INSERT OR REPLACE INTO paired (address, pairing, key, public) VALUES (?, ?, ?, ?)",
            (address, pairing, key, public),
        )


def counted_key(night: int, event: Event) -> str | None:
    """The unique key of a result: its night, table and the table's game."""
    return f"{night}/{event.table}/{event.game}" if isinstance(event, GameCounted) else None


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
