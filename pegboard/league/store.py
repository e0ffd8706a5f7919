"""The league's database (PostgreSQL, through psycopg): the clubs and their directors'
keys, every night file imported (each version kept), each night's standings by player,
the league's players (one per ACC number; a player without one is their club's by
name, until the admin merges them) and the league's points per place.

An import is one transaction, under one lock for all imports: the file is checked
first (:func:`pegboard.club.nightfile.read`: signed, whole, its standings what its
results add up to), its key must be a registered club's, and then either everything of
the night is stored or nothing is. The same night twice (its id and content digest) is
stored once; a corrected night (the same id, a later revision) becomes the night that
counts, and the earlier version is kept beside it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import dict_row

from pegboard.club.nightfile import Checked, replayed, signed
from pegboard.errors import PegboardError
from pegboard.i18n import N_, Phrase
from pegboard.identity import PUBLIC_BYTES, fingerprint
from pegboard.league.cluster import DatabaseError

LOCK = 35  # the advisory lock every import takes: one import at a time
SCHEMA = """
CREATE TABLE IF NOT EXISTS clubs (
    id serial PRIMARY KEY, name text NOT NULL UNIQUE, key bytea NOT NULL UNIQUE,
    added timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS players (
    id serial PRIMARY KEY, name text NOT NULL, acc text UNIQUE
);
CREATE TABLE IF NOT EXISTS player_keys (
    key text PRIMARY KEY, player integer NOT NULL REFERENCES players (id)
);
CREATE TABLE IF NOT EXISTS nights (
    id serial PRIMARY KEY, club integer NOT NULL REFERENCES clubs (id),
    night text NOT NULL, revision integer NOT NULL, digest text NOT NULL,
    date date NOT NULL, players integer NOT NULL, current boolean NOT NULL,
    imported timestamptz NOT NULL DEFAULT now(), file bytea NOT NULL,
    UNIQUE (club, night, revision)
);
CREATE UNIQUE INDEX IF NOT EXISTS nights_current ON nights (club, night) WHERE current;
CREATE TABLE IF NOT EXISTS night_players (
    night integer NOT NULL REFERENCES nights (id), number integer NOT NULL,
    player integer NOT NULL REFERENCES players (id), name text NOT NULL,
    place integer NOT NULL, points integer NOT NULL, wins integer NOT NULL,
    losses integer NOT NULL, spread integer NOT NULL, skunks integer NOT NULL,
    byes integer NOT NULL, grand_slam boolean NOT NULL, hands integer NOT NULL,
    PRIMARY KEY (night, number)
);
CREATE INDEX IF NOT EXISTS night_players_player ON night_players (player);
CREATE TABLE IF NOT EXISTS settings (name text PRIMARY KEY, value jsonb NOT NULL);
"""
UNKNOWN_KEY = N_("{file} is signed by the key {key}, which is no club's the league knows")
OTHERS = N_("{file} says it is {club}'s night, but {signer}'s director signed it")
CONFLICT = N_(
    "{file} is revision {revision} of a night the league holds another revision {revision} of: "
    "ask the club's director"
)
NO_PLAYER = N_("the league has no player {player}")
CLUB_TWICE = N_("the league knows a club by that name or key already")
BAD_KEY = N_("a director's key is the {field} of its night files: {digits} hexadecimal digits")
CANNOT = N_("the league's database cannot be used: {error}")


class LeagueError(PegboardError, ValueError):
    """A change the league refuses (nothing changed)."""


@dataclass(frozen=True, slots=True)
class Imported:
    """What an import did: ``stored`` (False: that very night was there already) and
    whether the night is now the one that counts (False: a later revision does)."""

    night: str
    club: str
    date: str
    revision: int
    stored: bool
    current: bool

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}


@dataclass(frozen=True, slots=True)
class Points:
    """The league's season points: ``places`` for 1st, 2nd, ... of a night, for a
    player with at least ``least`` game points that night."""

    places: tuple[int, ...] = ()
    least: int = 12

    def as_dict(self) -> dict[str, Any]:
        return {"places": list(self.places), "least": self.least}


class LeagueStore:
    """The league's database at ``url`` (its tables made if they are not there)."""

    def __init__(self, url: str) -> None:
        self.url, self._kept = url, threading.local()
        with self.connect() as db:
            made = db.execute("SELECT to_regclass('settings') AS made").fetchone()
            if made is None or made["made"] is None:  # the last table made: a new database
                db.execute(f"SELECT pg_advisory_xact_lock({LOCK})")  # two starts at once
                db.execute(SCHEMA)

    @contextmanager
    def connect(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        """This thread's connection, in one transaction: committed at the end, rolled
        back on error (a connection is kept for each thread: a new one costs a process
        on the server)."""
        db: psycopg.Connection[dict[str, Any]] | None = getattr(self._kept, "db", None)
        try:
            if db is None or db.closed or db.broken:
                db = self._kept.db = psycopg.connect(
                    self.url, row_factory=dict_row, autocommit=True
                )
            with db.transaction():
                yield db
        except psycopg.Error as error:
            if db is not None and db.broken:
                db.close()
            said = str(error).strip().splitlines()
            raise DatabaseError(Phrase.of(CANNOT, error=said[0] if said else "")) from None

    def close(self) -> None:
        """Close this thread's connection (the others close with their threads)."""
        db = getattr(self._kept, "db", None)
        if db is not None:
            db.close()

    # --- the clubs -------------------------------------------------------------------

    def add_club(self, name: str, key: str) -> int:
        """Register a club by its name and its director's public key (hex)."""
        name = " ".join(name.split())[:80]
        try:
            raw = bytes.fromhex(key.strip())
        except ValueError:
            raw = b""
        if len(raw) != PUBLIC_BYTES or not name:
            raise LeagueError(Phrase.of(BAD_KEY, field="director.key", digits=2 * PUBLIC_BYTES))
        with self.connect() as db:
            row = db.execute(
                "INSERT INTO clubs (name, key) VALUES (%s, %s) ON CONFLICT DO NOTHING RETURNING id",
                (name, raw),
            ).fetchone()
        if row is None:
            raise LeagueError(Phrase(CLUB_TWICE))
        return int(row["id"])

    def clubs(self) -> list[dict[str, Any]]:
        with self.connect() as db:
            rows = db.execute(
                "SELECT c.id, c.name, c.key, count(n.id) AS nights, max(n.date) AS last "
                "FROM clubs c LEFT JOIN nights n ON n.club = c.id AND n.current "
                "GROUP BY c.id ORDER BY c.name"
            ).fetchall()
        return [
            {
                "club": r["id"],
                "name": r["name"],
                "key": bytes(r["key"]).hex(),
                "fingerprint": fingerprint(bytes(r["key"])),
                "nights": r["nights"],
                "last": r["last"].isoformat() if r["last"] else None,
            }
            for r in rows
        ]

    # --- nights ----------------------------------------------------------------------

    def import_night(self, raw: bytes, name: str = "night.json") -> Imported:
        """Check and store the night file ``raw`` (see the module's words)."""
        found = signed(raw, name)
        with self.connect() as db:
            db.execute(f"SELECT pg_advisory_xact_lock({LOCK})")
            club = db.execute("SELECT id, name FROM clubs WHERE key = %s", (found.key,)).fetchone()
            if club is None:
                message = Phrase.of(UNKNOWN_KEY, file=name, key=fingerprint(found.key))
                raise LeagueError(message)
            if same(found.club) != same(club["name"]):
                signer = club["name"]
                raise LeagueError(Phrase.of(OTHERS, file=name, club=found.club, signer=signer))
            kept = db.execute(
                "SELECT revision, digest, current FROM nights WHERE club = %s AND night = %s",
                (club["id"], found.id),
            ).fetchall()
            for row in kept:  # the very same night: checked when it was stored
                if row["digest"] == found.digest:
                    said = (found.id, club["name"], found.date, found.revision)
                    return Imported(*said, stored=False, current=row["current"])
            return self._store(db, club, replayed(found), kept, raw)

    def _store(
        self, db: psycopg.Connection[dict[str, Any]], club: dict[str, Any], checked: Checked,
        kept: list[dict[str, Any]], raw: bytes,
    ) -> Imported:  # fmt: skip
        for row in kept:
            if row["revision"] == checked.revision:
                message = Phrase.of(CONFLICT, file=checked.name, revision=checked.revision)
                raise LeagueError(message)
        current = checked.revision > max((row["revision"] for row in kept), default=-1)
        if current:
            db.execute(
                "UPDATE nights SET current = false WHERE club = %s AND night = %s AND current",
                (club["id"], checked.id),
            )
        night = db.execute(
            "INSERT INTO nights (club, night, revision, digest, date, players, current, file) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
            (club["id"], checked.id, checked.revision, checked.digest, checked.date,
             len(checked.standings), current, raw),
        ).fetchone()  # fmt: skip
        assert night is not None
        players = self._players(db, club["id"], checked)
        with db.cursor().copy(
            "COPY night_players (night, number, player, name, place, points, wins, losses, "
            "spread, skunks, byes, grand_slam, hands) FROM STDIN"
        ) as copy:
            for s in checked.standings:
                copy.write_row(
                    (night["id"], s.player, players[s.player], s.name, s.place, s.points,
                     s.wins, s.losses, s.spread, s.skunks, s.byes, s.slam, len(s.hands))
                )  # fmt: skip
        said = (checked.id, club["name"], checked.date, checked.revision)
        return Imported(*said, stored=True, current=current)

    def _players(
        self, db: psycopg.Connection[dict[str, Any]], club: int, checked: Checked
    ) -> dict[int, int]:
        """The league's player for each of the night's (made if new)."""
        keys = {s.player: player_key(club, s.name, s.acc) for s in checked.standings}
        rows = db.execute(
            "SELECT key, player FROM player_keys WHERE key = ANY(%s)", (list(keys.values()),)
        ).fetchall()
        known = {row["key"]: row["player"] for row in rows}
        for s in checked.standings:
            key = keys[s.player]
            if key not in known:
                made = db.execute(
                    "INSERT INTO players (name, acc) VALUES (%s, %s) RETURNING id",
                    (s.name, s.acc or None),
                ).fetchone()
                assert made is not None
                known[key] = made["id"]
                db.execute("INSERT INTO player_keys VALUES (%s, %s)", (key, made["id"]))
        return {number: known[key] for number, key in keys.items()}

    def night_file(self, night: str, revision: int | None = None) -> bytes | None:
        """A night's file as imported (the version that counts, or ``revision``)."""
        with self.connect() as db:
            row = db.execute(
                "SELECT file FROM nights WHERE night = %s AND "
                + ("current" if revision is None else "revision = %s"),
                (night,) if revision is None else (night, revision),
            ).fetchone()
        return None if row is None else bytes(row["file"])

    def versions(self, night: str) -> list[dict[str, Any]]:
        with self.connect() as db:
            rows = db.execute(
                "SELECT revision, digest, current, imported FROM nights WHERE night = %s "
                "ORDER BY revision",
                (night,),
            ).fetchall()
        return [{**row, "imported": row["imported"].isoformat()} for row in rows]

    # --- the admin's changes -----------------------------------------------------------

    def merge(self, keep: int, other: int) -> None:
        """``other`` is ``keep`` from now on: their nights are one player's."""
        with self.connect() as db:
            db.execute(f"SELECT pg_advisory_xact_lock({LOCK})")
            found = db.execute(
                "SELECT id, acc FROM players WHERE id = ANY(%s)", ([keep, other],)
            ).fetchall()
            ids = {row["id"]: row["acc"] for row in found}
            for player in (keep, other):
                if player not in ids or keep == other:
                    raise LeagueError(Phrase.of(NO_PLAYER, player=player))
            for table in ("player_keys", "night_players"):
                db.execute(f"UPDATE {table} SET player = %s WHERE player = %s", (keep, other))
            db.execute("DELETE FROM players WHERE id = %s", (other,))
            if ids[keep] is None and ids[other] is not None:
                db.execute("UPDATE players SET acc = %s WHERE id = %s", (ids[other], keep))

    def points(self) -> Points:
        with self.connect() as db:
            row = db.execute("SELECT value FROM settings WHERE name = 'points'").fetchone()
        if row is None:
            return Points()
        return Points(tuple(row["value"]["places"]), int(row["value"]["least"]))

    def set_points(self, points: Points) -> None:
        with self.connect() as db:
            db.execute(
                "INSERT INTO settings VALUES ('points', %s) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                (json.dumps(points.as_dict()),),
            )

    def size(self) -> int:
        """The database's size on disk, in bytes."""
        with self.connect() as db:
            row = db.execute("SELECT pg_database_size(current_database()) AS size").fetchone()
        return int(row["size"]) if row else 0

    def query(self, sql: str, args: Sequence[Any] | Mapping[str, Any] = ()) -> list[dict[str, Any]]:
        with self.connect() as db:
            return db.execute(sql.encode(), args).fetchall()


def same(name: str) -> str:
    """A club's name as compared: case and spaces aside."""
    return " ".join(name.casefold().split())


def player_key(club: int, name: str, acc: str) -> str:
    """How the league knows a player: by ACC number, else by name within their club.

    >>> player_key(3, "Ann  Lee", ""), player_key(3, "Ann", "12345")
    ('club 3: ann  lee', 'acc 12345')
    """
    return f"acc {acc}" if acc else f"club {club}: {name.casefold()}"
