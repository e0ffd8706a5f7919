"""The game file: events in SQLite, one transaction per event, keyed by (game, version).

The file is checked before anything is written to it: a damaged or cut short file or WAL
(:mod:`.preflight`), a file that is not ours, or one written by a newer pegboard stops
with a StoreError that says what to do, and the files are left as they are.

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
import os
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from pegboard.errors import ConflictError, RuleError, StoreError
from pegboard.game import preflight
from pegboard.game.events import Event, GameStarted, from_dict, to_dict
from pegboard.game.settings import Settings
from pegboard.i18n import N_, Phrase

SCHEMA = 1
_TABLES = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE TABLE events (
    game INTEGER NOT NULL REFERENCES games(id),
    version INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (game, version)
) WITHOUT ROWID;
"""
_SCHEMA_VERSION = f"PRAGMA user_version = {SCHEMA}"
_PLAYING = "INSERT OR REPLACE INTO current VALUES (0, ?)"
WAL_PAGES = 200  # about a hundred entries between checkpoints
# The request each keyed entry answered (added to older files of schema 1 at their first
# write: a pegboard that does not know it ignores it).
_REQUESTS = """
CREATE TABLE IF NOT EXISTS requests (
    key TEXT PRIMARY KEY,
    request TEXT NOT NULL,
    game INTEGER NOT NULL,
    version INTEGER NOT NULL
) WITHOUT ROWID
"""
# The game the board plays now: the newest started, or an older one taken up again (also
# added at the first write).
_CURRENT = """
CREATE TABLE IF NOT EXISTS current (
    board INTEGER PRIMARY KEY CHECK (board = 0),
    game INTEGER NOT NULL
)
"""
KEPT_GAMES = 2  # the keys of the latest games are kept; older ones go when a game starts

Connection = sqlite3.Connection  # or anything with the same execute(), fetchone(), close()
Connect = Callable[[Path, bool], Connection]  # (path, readonly) -> an open connection


def _connect(path: Path, readonly: bool) -> Connection:
    """The stdlib's connection, in autocommit mode; read-only through a URI."""
    where = f"{path.absolute().as_uri()}?mode=ro" if readonly else path
    return sqlite3.connect(
        where, uri=readonly, isolation_level=None, timeout=10, check_same_thread=False
    )


def _sync(path: Path) -> None:
    """Flush a file or a folder to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


REFUSED = N_("the game file {path} cannot be used: {problem}. Nothing was changed: {remedy}.")
MOVE_ASIDE = N_(
    "put back a copy, or move {files} into another folder to start a new game file (keep the "
    "files you move)"
)
NOT_OURS_OR_DAMAGED = N_("it is damaged or not a game file ({error})")
DAMAGED = N_("it is damaged ({details})")
NOT_OURS = N_("it is not a pegboard game file")
NEWER = N_(
    "it was written by a newer pegboard (file format {version}; this one reads up to {schema})"
)
RUN_NEWER = N_("run the pegboard that wrote it, or a newer one")
UNREADABLE = N_("event {version} of game {game} cannot be read ({error})")


@dataclass(frozen=True, slots=True)
class Receipt:
    """What a keyed request made: the ``version`` of ``game``, asked for by ``request``
    (a digest of the request, so the same key sent with another request is told apart)."""

    key: str
    request: str
    game: int
    version: int


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A stored game as listed: its id, when it started, its settings, how many events."""

    id: int
    created: str
    settings: Settings
    versions: int


class Store:
    """An open game file.  Safe to share between threads.

    A missing file is created whole (made aside, then linked into place); an existing one
    is checked as it lies (:mod:`.preflight`, then SQLite's own check) before anything is
    written to it, so a refused file, its WAL and its index stay as they were.
    ``connect(path, readonly)`` opens SQLite connections (the stdlib's by default; a test
    may pass another)."""

    def __init__(self, path: str | os.PathLike, *, connect: Connect | None = None) -> None:
        self.path = Path(path)
        self._connect = connect or _connect
        self._lock = threading.Lock()
        files = (self.path, *preflight.companions(self.path))
        self._found = [file for file in files if file.exists()] or [self.path]  # as we found them
        problem = preflight.inspect(self.path)
        if problem is not None:
            raise self.refusal(problem.what, problem.remedy)
        if not self.path.exists():
            self._create()
        # With a WAL left beside it, read-only until the first write: a refused file's WAL
        # is never checkpointed away.  Without one, closing removes what opening made.
        self._writing = not preflight.companions(self.path)[0].exists()
        self._db = self._open(readonly=not self._writing)
        try:
            self._check()
            if self._writing:
                self._tune()
        except BaseException:
            self._db.close()
            raise

    def _open(self, readonly: bool) -> Connection:
        try:
            return self._connect(self.path, readonly)
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the game file {self.path}: {error}") from None

    def _create(self) -> None:
        """A new game file, made whole beside its place and linked in: a crash leaves
        either no game file or a whole one, never an empty one."""
        try:
            fd, name = tempfile.mkstemp(prefix=self.path.name + ".", dir=self.path.parent)
        except OSError as error:
            raise StoreError(f"cannot create the game file {self.path}: {error}") from None
        made = Path(name)
        try:
            os.close(fd)
            db = self._connect(made, False)
            try:
                tables = _TABLES.strip().rstrip(";").split(";")
                for statement in (
                    "PRAGMA journal_mode=WAL",
                    *tables,
                    _REQUESTS,
                    _CURRENT,
                    _SCHEMA_VERSION,
                ):
                    db.execute(statement)
            finally:
                db.close()  # the WAL is checkpointed into the file and deleted
            _sync(made)
            with suppress(FileExistsError):  # another program made it meanwhile: checked next
                os.link(made, self.path)
            _sync(self.path.parent)
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot create the game file {self.path}: {error}") from None
        finally:
            made.unlink(missing_ok=True)

    def _check(self) -> None:
        """Read the file's schema version and check its pages."""
        try:
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            tables = {
                row[0]
                for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            check = [row[0] for row in self._db.execute("PRAGMA quick_check").fetchall()]
        except sqlite3.DatabaseError as error:
            raise self.refusal(Phrase.of(NOT_OURS_OR_DAMAGED, error=str(error))) from None
        if check != ["ok"]:
            raise self.refusal(Phrase.of(DAMAGED, details="; ".join(check[:3])))
        if version > SCHEMA:
            raise self.refusal(Phrase.of(NEWER, version=version, schema=SCHEMA), Phrase(RUN_NEWER))
        if version != SCHEMA or not {"games", "events"} <= tables:
            raise self.refusal(Phrase(NOT_OURS))
        self._keyed = {"requests", "current"} <= tables

    def _tune(self) -> None:
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        # A short WAL: copied into the game file every WAL_PAGES pages and cut back to
        # that size, so the byte checks at start read a few hundred KB, not megabytes.
        self._db.execute(f"PRAGMA wal_autocheckpoint={WAL_PAGES}")
        page = self._db.execute("PRAGMA page_size").fetchone()[0]
        self._db.execute(f"PRAGMA journal_size_limit={WAL_PAGES * (page + 24) + 32}")

    def refusal(self, problem: Phrase, remedy: Phrase | None = None) -> StoreError:
        """The error that refuses this game file for ``problem``, saying what to do."""
        found = ", ".join(map(str, self._found))
        remedy = remedy or Phrase.of(MOVE_ASIDE, files=found)
        return StoreError(Phrase.of(REFUSED, path=str(self.path), problem=problem, remedy=remedy))

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

    def start(self, event: GameStarted, key: tuple[str, str] | None = None) -> int:
        """Store a new game with its first event; return its id. ``key``: (key, request)
        of the request that asked for it, stored with it (the keys of older games go)."""
        try:
            with self._transaction() as db:
                game = db.execute("INSERT INTO games DEFAULT VALUES RETURNING id").fetchone()[0]
                self._insert(db, game, 1, event, key)
                db.execute("DELETE FROM requests WHERE game <= ?", (game - KEPT_GAMES,))
                db.execute(_PLAYING, (game,))
        except sqlite3.IntegrityError:
            raise ConflictError(f"the request {key[0]!r} was entered meanwhile") from None
        return game

    def append(
        self, game: int, version: int, event: Event, key: tuple[str, str] | None = None
    ) -> None:
        """Store ``event`` as ``version`` of ``game`` (the one after the last stored),
        with the ``key`` of its request if given. Raises ConflictError when that version
        (or key) is taken: someone else wrote first."""
        try:
            with self._transaction() as db:
                last = db.execute(
                    "SELECT max(version) FROM events WHERE game = ?", (game,)
                ).fetchone()[0]
                if last is None:
                    raise StoreError(f"there is no game {game} in {self.path}")
                if version != last + 1:
                    raise ConflictError(
                        f"the game moved on to version {last} meanwhile: look again and retry"
                    )
                self._insert(db, game, version, event, key)
        except sqlite3.IntegrityError:
            raise ConflictError(
                f"version {version} of game {game} was written meanwhile: look again and retry"
            ) from None

    @staticmethod
    def _insert(
        db: Connection,
        game: int,
        version: int,
        event: Event,
        key: tuple[str, str] | None = None,
    ) -> None:
        data = to_dict(event)
        kind = data.pop("type")
        db.execute(
            "INSERT INTO events (game, version, type, data) VALUES (?, ?, ?, ?)",
            (game, version, kind, json.dumps(data, ensure_ascii=False)),
        )
        if key is not None:
            db.execute("INSERT INTO requests VALUES (?, ?, ?, ?)", (*key, game, version))

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
                if not self._keyed:  # an older file: its first write adds the newer tables
                    self._db.execute(_REQUESTS)
                    self._db.execute(_CURRENT)
                    self._keyed = True
                self._db.execute("BEGIN IMMEDIATE")
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
                raise StoreError(f"cannot write the game file {self.path}: {error}") from None

    # --- reading ------------------------------------------------------------------------

    def events(self, game: int) -> list[Event]:
        """Every event of ``game`` in order."""
        rows = self._read(
            "SELECT version, type, data FROM events WHERE game = ? ORDER BY version", (game,)
        )
        if not rows:
            raise StoreError(f"there is no game {game} in {self.path}")
        events = []
        for expected, (version, kind, data) in enumerate(rows, start=1):
            try:
                if version != expected:
                    raise RuleError(f"version {expected} is missing")
                events.append(from_dict({**json.loads(data), "type": kind}))
            except (RuleError, ValueError, TypeError) as error:
                raise self.refusal(
                    Phrase.of(UNREADABLE, version=version, game=game, error=str(error))
                ) from None
        return events

    def version(self, game: int) -> int:
        """How many events ``game`` has (0 if there is no such game)."""
        return self._read("SELECT count(*) FROM events WHERE game = ?", (game,))[0][0]

    def games(self) -> list[GameRecord]:
        """Every stored game, oldest first."""
        rows = self._read(
            "SELECT g.id, g.created, e.data, (SELECT count(*) FROM events "
            "WHERE game = g.id) FROM games g JOIN events e "
            "ON e.game = g.id AND e.version = 1 ORDER BY g.id"
        )
        try:
            return [
                GameRecord(
                    game, created, Settings.from_dict(json.loads(data)["settings"]), versions
                )
                for game, created, data, versions in rows
            ]
        except (ValueError, KeyError, TypeError) as error:
            raise StoreError(f"the list of games in {self.path} cannot be read: {error}") from None

    def recall(self, key: str) -> Receipt | None:
        """What the request with ``key`` made, if it made an entry."""
        if not self._keyed:  # an older file, not written to since: no keys yet
            return None
        rows = self._read("SELECT request, game, version FROM requests WHERE key = ?", (key,))
        return Receipt(key, *rows[0]) if rows else None

    def choose(self, game: int) -> None:
        """Make ``game`` the one the board plays (after a restart too)."""
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone() is None:
                raise StoreError(f"there is no game {game} in {self.path}")
            db.execute(_PLAYING, (game,))

    def latest(self) -> int | None:
        """The game the board played last: the one taken up again, else the newest."""
        if self._keyed:
            chosen = self._read("SELECT game FROM current")
            if chosen:
                return chosen[0][0]
        return self._read("SELECT max(id) FROM games")[0][0]

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as error:
                raise StoreError(f"cannot read the game file {self.path}: {error}") from None
