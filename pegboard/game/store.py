"""The game file: events in SQLite, one transaction per event, keyed by (game, version).

The file is checked before anything is written to it: a damaged or cut short file or WAL
(:mod:`.preflight`), a file that is not ours, one written by a newer pegboard, or an entry
that is not the one stored (the chain of :mod:`.chain`: changed, dropped or moved) stops
with a StoreError that says what to do, and the files are left as they are. A file of an
older format is upgraded once, in one transaction (:mod:`.schema`).

An old game whose entries no longer chain (someone edited the file) is *set aside*: its
rows are left as they are, byte for byte, it is named in :attr:`Store.set_aside` (and
the log), its log is refused when asked for, and the board starts with the other games
(with none being played, if it was the last one, finished). Only a break in the game
being played, or damage to the file itself, stops start-up.

Beside its events each game keeps its summary (:mod:`.summary`), written with each entry,
so the games are listed without replaying any.

An entry may carry the key of the request that asked for it (a phone's
``Idempotency-Key``): the key is stored in the same transaction as the event, so a
retry after a crash finds it and is not entered twice (:meth:`Store.recall`).

>>> import tempfile, pathlib
>>> from pegboard.game.events import GameStarted, StarterTurned
>>> from pegboard.game.settings import Settings
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.db"
>>> with Store(path) as store:
...     game = store.start(GameStarted(Settings(), dealer=1))
...     store.append(game, 2, StarterTurned())
...     [type(e).__name__ for e in store.events(game)], store.version(game)
(['GameStarted', 'StarterTurned'], 2)
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any

from pegboard.errors import ConflictError, RuleError, StoreError
from pegboard.game import ends, preflight, refusals, schema
from pegboard.game.chain import MISSING, START, Chained, ChainError, GameLog, check, link
from pegboard.game.events import Event, GameStarted, from_dict, to_dict
from pegboard.game.schema import SCHEMA
from pegboard.game.summary import GameRecord, Summary
from pegboard.i18n import N_, Phrase

log = logging.getLogger(__name__)
SET_ASIDE = N_(
    "game {game} is set aside, its entries kept as they are: {why}; the board plays on with "
    "the other games"
)
_PLAYING = "INSERT OR REPLACE INTO current VALUES (0, ?)"
WAL_PAGES = 200  # about a hundred entries between checkpoints
CACHE_KB = 512  # SQLite's page cache (the OS caches the file too): flat as the file grows
KEPT_GAMES = 2  # the keys of the latest games are kept; older ones go when a game starts

Connection = sqlite3.Connection  # or anything with the same execute(), fetchone(), close()
Connect = Callable[[Path, bool], Connection]  # (path, readonly) -> an open connection


def _connect(path: Path, readonly: bool) -> Connection:
    """The stdlib's connection, in autocommit mode; read-only through a URI."""
    where = f"{path.absolute().as_uri()}?mode=ro" if readonly else path
    return sqlite3.connect(
        where, uri=readonly, isolation_level=None, timeout=10, check_same_thread=False
    )


@dataclass(frozen=True, slots=True)
class Receipt:
    """What a keyed request made: the ``version`` of ``game``, asked for by ``request``
    (a digest of the request, so the same key sent with another request is told apart)."""

    key: str
    request: str
    game: int
    version: int


class Store:
    """An open game file.  Safe to share between threads.

    A missing file is created whole (made aside, then linked into place); an existing one
    is checked as it lies (:mod:`.preflight`, then SQLite's own check) before anything is
    written to it, so a refused file, its WAL and its index stay as they were.
    ``connect(path, readonly)`` opens SQLite connections (the stdlib's by default; a test
    may pass another). ``signer`` (the board's identity's ``sign``) signs each game's
    end as it is stored (:mod:`.ends`)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        connect: Connect | None = None,
        signer: ends.Signer | None = None,
    ) -> None:
        self.path, self.signer = Path(path), signer
        self._connect = connect or _connect
        self._lock = threading.Lock()
        files = (self.path, *preflight.companions(self.path))
        self._found = [file for file in files if file.exists()] or [self.path]  # as we found them
        self.set_aside: dict[int, ChainError] = {}  # old games whose entries no longer chain
        problem = preflight.inspect(self.path)
        if problem is not None:
            raise self.refusal(problem.what, problem.remedy)
        if not self.path.exists():
            schema.make(self.path, self._connect)
        # With a WAL left beside it, read-only until the first write: a refused file's WAL
        # is never checkpointed away.  Without one, closing removes what opening made.
        self._writing = not preflight.companions(self.path)[0].exists()
        self._db = self._open(readonly=not self._writing)
        try:
            if self._check() < SCHEMA:
                self._upgrade()
            else:
                self._check_chains()
            if self._writing:
                self._tune()
        except BaseException:
            self._db.close()
            raise

    def _open(self, readonly: bool) -> Connection:
        try:
            return self._connect(self.path, readonly)
        except sqlite3.Error as error:
            raise self._failed(refusals.CANNOT_OPEN, error) from None

    def _check(self) -> int:
        """Read the file's format and check its pages; return the format."""
        try:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            tables = {
                row[0]
                for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            check = [row[0] for row in self._db.execute("PRAGMA quick_check").fetchall()]
        except sqlite3.DatabaseError as error:
            raise self.refusal(Phrase.of(refusals.NOT_OURS_OR_DAMAGED, error=str(error))) from None
        if check != ["ok"]:
            raise self.refusal(refusals.damage(check))
        if version > SCHEMA:
            raise self.refusal(
                Phrase.of(refusals.NEWER, version=version, schema=SCHEMA),
                Phrase(refusals.RUN_NEWER),
            )
        needed = schema.TABLES if version == SCHEMA else schema.OLD_TABLES
        if version < schema.UPGRADES_FROM or not needed <= tables:
            raise self.refusal(Phrase(refusals.NOT_OURS))
        return int(version)

    def _upgrade(self) -> None:
        """A file of an older format brought up to this one, in one transaction."""
        try:
            with self._transaction() as db:
                schema.upgrade(db)
        except schema.Gap as gap:
            game, version = gap.args
            raise self.refusal(Phrase.of(MISSING, version=version, game=game)) from None

    def _check_chains(self) -> None:
        """Every game's entries against their chain, length and head, read one at a time;
        a game that fails is set aside, unless it is the one being played (the current
        game, not over): that stops start-up."""
        try:
            self._chains()
        except sqlite3.Error as error:
            raise self._failed(refusals.CANNOT_READ, error) from None
        current = self.latest()
        record = self.game(current) if current in self.set_aside else None
        summary = record.summary if record is not None else None
        if current in self.set_aside and (summary is None or not summary.over):
            broken = self.set_aside[current]
            raise ChainError(self.refusal(broken.args[0]).args[0], current, broken.version)
        for game, aside in self.set_aside.items():
            log.warning("%s", Phrase.of(SET_ASIDE, game=game, why=aside.args[0]))

    def _chains(self) -> None:
        rows = self._db.execute(
            "SELECT g.id, g.versions, g.head, e.version, e.type, e.data, e.at, e.chain "
            "FROM games g LEFT JOIN events e ON e.game = g.id ORDER BY g.id, e.version"
        )
        for (game, versions, head), entries in groupby(rows, key=lambda row: row[:3]):
            try:
                check(game, (row[3:] for row in entries if row[3] is not None), versions, head)
            except ChainError as error:
                self.set_aside[game] = error
        stray = self._db.execute(
            "SELECT game FROM events WHERE game NOT IN (SELECT id FROM games)"
        ).fetchone()
        if stray is not None:  # entries of a game that was never started
            self._chain(stray[0], [(0, "", "", "", b"")], 0, START)

    def _chain(
        self, game: int, rows: Iterable[tuple[Any, ...]], versions: int, head: bytes
    ) -> bytes:
        """:func:`.chain.check`, refused as this game file."""
        try:
            return check(game, rows, versions, head)
        except ChainError as error:
            refused = self.refusal(error.args[0])
            raise ChainError(refused.args[0], error.game, error.version) from None

    def _tune(self) -> None:
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute(f"PRAGMA cache_size=-{CACHE_KB}")
        # A short WAL: copied into the game file every WAL_PAGES pages and cut back to
        # that size, so the byte checks at start read a few hundred KB, not megabytes.
        self._db.execute(f"PRAGMA wal_autocheckpoint={WAL_PAGES}")
        page = self._db.execute("PRAGMA page_size").fetchone()[0]
        self._db.execute(f"PRAGMA journal_size_limit={WAL_PAGES * (page + 24) + 32}")

    def refusal(self, problem: Phrase, remedy: Phrase | None = None) -> StoreError:
        """The error that refuses this game file for ``problem``, saying what to do."""
        found = ", ".join(map(str, self._found))
        remedy = remedy or Phrase.of(refusals.MOVE_ASIDE, files=found)
        return StoreError(
            Phrase.of(refusals.REFUSED, path=str(self.path), problem=problem, remedy=remedy)
        )

    def close(self) -> None:
        """Close the file; safe to call twice."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    # --- writing ------------------------------------------------------------------------

    def start(
        self,
        event: GameStarted,
        key: tuple[str, str] | None = None,
        summary: Summary | None = None,
    ) -> int:
        """Store a new game with its first event; return its id. ``key``: (key, request)
        of the request that asked for it, stored with it (the keys of older games go);
        ``summary``: the game's as it starts."""
        at = schema.now()
        try:
            with self._transaction() as db:
                game = db.execute(
                    "INSERT INTO games (created) VALUES (?) RETURNING id", (at,)
                ).fetchone()[0]
                chain = self._insert(db, game, 1, START, event, at, key, summary)
                self._ended(db, game, 1, chain, summary)
                db.execute("DELETE FROM requests WHERE game <= ?", (game - KEPT_GAMES,))
                db.execute(_PLAYING, (game,))
        except sqlite3.IntegrityError:
            meanwhile = N_("the request {key} was entered meanwhile")
            raise ConflictError(Phrase.of(meanwhile, key=repr(key[0] if key else ""))) from None
        return int(game)

    def append(
        self,
        game: int,
        version: int,
        event: Event,
        key: tuple[str, str] | None = None,
        summary: Summary | None = None,
    ) -> None:
        """Store ``event`` as ``version`` of ``game`` (the one after the last stored),
        chained to it, with the ``key`` of its request if given and the game's
        ``summary`` after it. Raises ConflictError when that version (or key) is taken:
        someone else wrote first."""
        at = schema.now()
        try:
            with self._transaction() as db:
                found = db.execute(
                    "SELECT versions, head FROM games WHERE id = ?", (game,)
                ).fetchone()
                if found is None:
                    raise StoreError(
                        Phrase.of(refusals.NO_SUCH_GAME, game=game, path=str(self.path))
                    )
                last, head = found
                if version != last + 1:
                    raise ConflictError(
                        f"the game moved on to version {last} meanwhile: look again and retry"
                    )
                chain = self._insert(db, game, version, bytes(head), event, at, key, summary)
                self._ended(db, game, version, chain, summary)
        except sqlite3.IntegrityError:
            raise ConflictError(
                f"version {version} of game {game} was written meanwhile: look again and retry"
            ) from None

    @staticmethod
    def _insert(
        db: Connection,
        game: int,
        version: int,
        before: bytes,
        event: Event,
        at: str,
        key: tuple[str, str] | None,
        summary: Summary | None,
    ) -> bytes:
        """One entry chained after ``before``, and the game's length, head and summary;
        the entry's chain value."""
        data = to_dict(event)
        kind = data.pop("type")
        text = json.dumps(data, ensure_ascii=False)
        chain = link(before, game, version, kind, text, at)
        db.execute(
            "INSERT INTO events (game, version, type, data, at, chain) VALUES (?, ?, ?, ?, ?, ?)",
            (game, version, kind, text, at, chain),
        )
        db.execute(
            "UPDATE games SET versions = ?, head = ?, updated = ?, summary = ? WHERE id = ?",
            (version, chain, at, None if summary is None else summary.as_json(), game),
        )
        if key is not None:
            db.execute("INSERT INTO requests VALUES (?, ?, ?, ?)", (*key, game, version))
        return chain

    def _ended(
        self, db: Connection, game: int, version: int, head: bytes, summary: Summary | None
    ) -> None:
        """The game's end signed with the entry that ends it (if this store signs)."""
        if self.signer is not None and summary is not None and summary.over:
            ends.sign(db, self.signer, game, version, head)

    def ask(self, game: int, asked: str) -> None:
        """Keep what a club asked at ``game``'s start (see :mod:`.ends`)."""
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone() is None:
                raise StoreError(Phrase.of(refusals.NO_SUCH_GAME, game=game, path=str(self.path)))
            ends.ask(db, game, asked)

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """One IMMEDIATE transaction under the lock: committed whole, or rolled back."""
        with self._lock:
            if not self._writing:  # the first write: a connection that may write
                writer = self._open(readonly=False)
                self._db.close()
                self._db, self._writing = writer, True
                self._tune()
            try:
                self._db.execute("BEGIN IMMEDIATE")
                ends.create(self._db)  # a file an older pegboard wrote gains them here
                yield self._db
                self._db.execute("COMMIT")
            except BaseException as error:
                if self._db.in_transaction:
                    with suppress(sqlite3.Error):  # a failing disk may refuse that too
                        self._db.execute("ROLLBACK")
                if isinstance(error, sqlite3.IntegrityError) or not isinstance(
                    error, sqlite3.Error
                ):
                    raise
                raise self._failed(refusals.CANNOT_WRITE, error) from None

    # --- reading ------------------------------------------------------------------------

    def log(self, game: int) -> GameLog:
        """``game``'s stored entries with their chain and its head, checked (ChainError
        names the first entry that is not the one stored)."""
        rows = self._read(
            "SELECT g.versions, g.head, e.version, e.type, e.data, e.at, e.chain FROM games g "
            "LEFT JOIN events e ON e.game = g.id WHERE g.id = ? ORDER BY e.version",
            (game,),
        )
        if not rows:
            raise StoreError(Phrase.of(refusals.NO_SUCH_GAME, game=game, path=str(self.path)))
        found = [row[2:] for row in rows if row[2] is not None]
        versions, head = rows[0][0], bytes(rows[0][1])
        self._chain(game, found, versions, head)
        asked, (end, ended) = self._ends(game)
        return GameLog(game, tuple(Chained(*row) for row in found), head, asked, end, ended)

    def _ends(self, game: int) -> tuple[str, tuple[bytes, int]]:
        """What a club asked at ``game``'s start, the signature of its end and the length
        it was signed at (see :mod:`.ends`): empty when there are none."""
        with self._lock:
            try:
                if not ends.present(self._db):
                    return "", (b"", 0)
                return ends.asked_of(self._db, game) or "", ends.signature_of(self._db, game)
            except sqlite3.Error as error:
                raise self._failed(refusals.CANNOT_READ, error) from None

    def events(self, game: int) -> list[Event]:
        """Every event of ``game`` in order, its chain checked."""
        events = []
        for entry in self.log(game).entries:
            try:
                events.append(from_dict({**json.loads(entry.data), "type": entry.type}))
            except (RuleError, ValueError, TypeError) as error:
                message = Phrase.of(
                    refusals.UNREADABLE, version=entry.version, game=game, error=str(error)
                )
                raise self.refusal(message) from None
        return events

    def version(self, game: int) -> int:
        """How many events ``game`` has (0 if there is no such game)."""
        return int(self._read("SELECT count(*) FROM events WHERE game = ?", (game,))[0][0])

    def games(self) -> list[GameRecord]:
        """Every stored game, oldest first, with its summary: one query."""
        rows = self._read(
            "SELECT id, created, versions, updated, summary, head FROM games ORDER BY id"
        )
        return [self._record(row) for row in rows]

    def game(self, game: int) -> GameRecord | None:
        """The stored game ``game``, if there is one."""
        rows = self._read(
            "SELECT id, created, versions, updated, summary, head FROM games WHERE id = ?", (game,)
        )
        return self._record(rows[0]) if rows else None

    def _record(self, row: tuple[Any, ...]) -> GameRecord:
        """A row of the games' list (id, created, versions, updated, summary, head) as a
        record."""
        game, created, versions, updated, kept, head = row
        return GameRecord(game, created, versions, updated, kept, self._start, bytes(head))

    def _start(self, game: int) -> str:
        """The data of ``game``'s first event (its settings), as stored."""
        rows = self._read("SELECT data FROM events WHERE game = ? AND version = 1", (game,))
        return rows[0][0] if rows else "{}"

    def summarise(self, game: int, versions: int, summary: Summary) -> None:
        """Keep ``summary`` as ``game``'s, if it is still at ``versions`` entries."""
        with self._transaction() as db:
            db.execute(
                "UPDATE games SET summary = ? WHERE id = ? AND versions = ?",
                (summary.as_json(), game, versions),
            )

    def recall(self, key: str) -> Receipt | None:
        """What the request with ``key`` made, if it made an entry."""
        rows = self._read("SELECT request, game, version FROM requests WHERE key = ?", (key,))
        return Receipt(key, *rows[0]) if rows else None

    def choose(self, game: int) -> None:
        """Make ``game`` the one the board plays (after a restart too)."""
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone() is None:
                raise StoreError(Phrase.of(refusals.NO_SUCH_GAME, game=game, path=str(self.path)))
            db.execute(_PLAYING, (game,))

    def latest(self) -> int | None:
        """The game the board played last: the one taken up again, else the newest."""
        chosen = self._read("SELECT game FROM current")
        if chosen:
            return int(chosen[0][0])
        newest = self._read("SELECT max(id) FROM games")[0][0]
        return None if newest is None else int(newest)

    def _failed(self, message: str, error: BaseException) -> StoreError:
        """The game file could not be used: ``message`` names it and what went wrong."""
        return StoreError(Phrase.of(message, path=str(self.path), error=str(error)))

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as error:
                raise self._failed(refusals.CANNOT_READ, error) from None
