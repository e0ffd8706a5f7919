"""The club's file: every night's events in order, with who made each and when, the
hosted tables' PINs (and the port each was served on), and the keys of the boards paired
with the club (a board is paired once: its key is kept for the nights after).

SQLite (WAL, ``synchronous=FULL``), one transaction per event: a director's laptop that
restarts loses nothing it said was done. A game's result is stored with its night, its
table and the table's game number as a unique key (hosted tables number their games
from 1 each night), so a result counted twice (after a restart, a retry) is stored once.
No integrity error is swallowed: a result stored again is the same one (done), or a
refusal that names the table and the game (:data:`OTHER_RESULT`), as is any other.

A change the director asked for with an ``Idempotency-Key`` is stored with the key and
a digest of the request, in the same transaction as its event (as a board stores an
entry with its phone's key: :mod:`pegboard.game.store`), so the same request sent again,
even after a restart, finds the event it made (:meth:`ClubStore.recall`) and is not
made twice.

The heads of each game's chain the director witnessed as it was played are kept too
(:meth:`ClubStore.keep_heads`, a second's worth in one transaction), so a director
restarted mid-game still knows what it saw.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

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
CREATE TABLE IF NOT EXISTS witnessed (
    night INTEGER NOT NULL, tbl INTEGER NOT NULL, game INTEGER NOT NULL,
    versions INTEGER NOT NULL, head BLOB NOT NULL,
    PRIMARY KEY (night, tbl, game, versions)
);
CREATE TABLE IF NOT EXISTS requests (
    key TEXT PRIMARY KEY, request TEXT NOT NULL, night INTEGER NOT NULL, seq INTEGER NOT NULL
);
"""
Key = tuple[str, str]  # a request's Idempotency-Key and a digest of what it asked
CANNOT = N_("the club's file {path} cannot be used: {error}")
OTHER_RESULT = N_(
    "table {table}'s game {game} has another result in the club's file tonight: nothing was "
    "counted; correct the result if the table's is right"
)


@dataclass(frozen=True, slots=True)
class Logged:
    """One event of the night as stored: who made it and when."""

    event: Event
    by: str
    at: str


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

    def open_night(self, key: Key | None = None) -> int:
        """A new night: the one being played from now on (``key``: of the request that
        asked for it, kept with it)."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                cursor = self._db.execute("INSERT INTO nights (opened) VALUES (?)", (_now(),))
                night = int(cursor.lastrowid or 0)
                if key is not None:
                    self._db.execute("INSERT INTO requests VALUES (?, ?, ?, 0)", (*key, night))
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise self._refusal(error) from None
            return night

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

    def append(self, night: int, seq: int, event: Event, by: str, key: Key | None = None) -> bool:
        """Store ``event`` as ``night``'s event ``seq`` (with ``key``, the request that
        asked for it); False when it is a result stored already, the same (nothing is
        stored). A different result for that table's game, or any other conflict, raises
        StoreError: never swallowed."""
        data = to_dict(event)
        kind = data.pop("type")
        text = json.dumps(data)
        counted = counted_key(night, event)
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute(
                    "INSERT INTO events (night, seq, type, data, by, at, counted) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (night, seq, kind, text, by, _now(), counted),
                )
                if key is not None:
                    self._db.execute("INSERT INTO requests VALUES (?, ?, ?, ?)", (*key, night, seq))
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if not isinstance(error, sqlite3.IntegrityError):
                    raise self._refusal(error) from None
                conflict = error
            else:
                return True
        return self._stored_already(event, text, counted, conflict)

    def _stored_already(
        self, event: Event, text: str, counted: str | None, conflict: sqlite3.Error
    ) -> bool:
        """False for a result stored already, the same; else the refusal of ``conflict``
        (another result for that game names it)."""
        if isinstance(event, GameCounted):
            kept = self._run("SELECT data FROM events WHERE counted = ?", (counted,))
            if kept and kept[0][0] == text:
                return False  # the same result again: done already
            if kept:
                raise StoreError(Phrase.of(OTHER_RESULT, table=event.table, game=event.game))
        raise self._refusal(conflict)

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

    def recall(self, key: str) -> tuple[str, int, int] | None:
        """What the request with ``key`` made: (its digest, the night, the event's seq;
        0 for the night itself), or None."""
        rows = self._run("SELECT request, night, seq FROM requests WHERE key = ?", (key,))
        return (str(rows[0][0]), int(str(rows[0][1])), int(str(rows[0][2]))) if rows else None

    # --- what the director saw -----------------------------------------------------------

    def keep_heads(self, night: int, heads: list[tuple[int, int, int, bytes]]) -> None:
        """Keep ``heads`` (table, game, entries, head) as ``night``'s, in one transaction
        (the first head kept for an entry stays)."""
        if not heads:
            return
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany(
                    "INSERT OR IGNORE INTO witnessed VALUES (?, ?, ?, ?, ?)",
                    [(night, *head) for head in heads],
                )
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise self._refusal(error) from None

    def heads(self, night: int) -> dict[tuple[int, int], dict[int, bytes]]:
        """The heads kept for ``night``: (table, game) -> entries -> head."""
        kept: dict[tuple[int, int], dict[int, bytes]] = {}
        rows = self._run(
            "SELECT tbl, game, versions, head FROM witnessed WHERE night = ?", (night,)
        )
        for table, game, versions, head in rows:
            key = (int(str(table)), int(str(game)))
            kept.setdefault(key, {})[int(str(versions))] = bytes(cast(bytes, head))
        return kept

    # --- tables -----------------------------------------------------------------------

    def hosted(self, night: int) -> dict[int, tuple[int, str]]:
        """The hosted tables of ``night``: table -> (the port it was served on, its PIN)."""
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
