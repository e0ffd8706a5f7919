"""A log that shows any edit: every stored entry is chained to the one before it, so an
entry changed (even by one digit of the same length), dropped, moved or put into another
game is named at start and refused at every replay, naming the game and the entry (an old
game so edited is set aside, kept as it is, and the board plays on; an edit of the game
being played stops start-up); a file an
older pegboard wrote is chained once, in place, safely; a club checks a board's log, and
the board signs its head when the game ends: a log edited and chained again after the
end is not what the board signed."""

from __future__ import annotations

import json
import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from game_bot import Bot, game_dir
from powercut import PowerCutVFS
from test_startup import serve

from pegboard.errors import StoreError
from pegboard.game import Settings, Store, Table
from pegboard.game.chain import ChainError, GameLog, chained, ended, verify
from pegboard.game.schema import SCHEMA
from pegboard.identity import Identity
from pegboard.identity import verify as signed_by

OLD_FILE = Path(__file__).parent / "data" / "games-schema-1.sql"


def two_games(path: Path) -> None:
    """Two games: Ann and Bob's, pegged by hand, and a second one started after it."""
    with Table(path) as table:
        table.new_game(Settings(players=("Ann", "Bob")), dealer=0)
        table.turn_starter(None)
        for seat, points in ((1, 1), (0, 2), (1, 1), (0, 5)):
            table.claim(seat, points)
        table.new_game(Settings(players=("Cat", "Dan")), dealer=1)
        table.turn_starter("5D")


def execute(path: Path, *statements: tuple) -> None:
    with closing(sqlite3.connect(path)) as db, db:
        for statement in statements:
            db.execute(*statement)


def refused(path: Path) -> ChainError:
    with pytest.raises(ChainError) as refusal:
        Table(path)
    message = str(refusal.value)
    assert message.startswith(f"the game file {path} cannot be used: ") and "\n" not in message
    return refusal.value


def test_a_same_length_edit_of_an_old_game_sets_it_aside_and_the_board_plays_on(tmp_path):
    """The tester's edit: one stored claim of an old game from 1 point to 3, the same
    length, that the rules would take as legal. The board starts with the other games;
    the old game is set aside, kept byte for byte, and named in the log and on the
    phone's list of games; its log is refused."""
    data = tmp_path / "data"
    data.mkdir()
    two_games(data / "games.db")
    before = '{"seat": 1, "kind": "play", "points": 1, "cards": null}'
    after = before.replace('"points": 1', '"points": 3')
    execute(
        data / "games.db", ("UPDATE events SET data = ? WHERE game = 1 AND version = 3", (after,))
    )
    with closing(sqlite3.connect(data / "games.db")) as db:
        kept = db.execute("SELECT * FROM events WHERE game = 1 ORDER BY version").fetchall()
    with Table(data / "games.db") as table:
        assert table.state.players == ("Cat", "Dan")  # the game being played goes on
        table.claim(0, 2)
        said = str(table.set_aside[1])
        assert said.startswith("entry 3 of game 1 is not the one stored there")
        with pytest.raises(ChainError, match="entry 3 of game 1 is not the one stored"):
            table.log(1)
    with closing(sqlite3.connect(data / "games.db")) as db:
        assert db.execute("SELECT * FROM events WHERE game = 1 ORDER BY version").fetchall() == kept


@pytest.mark.subprocess
def test_a_same_length_edit_of_the_game_being_played_stops_the_board_naming_it(tmp_path):
    """The same edit in the game the board is playing: the board does not start; it
    names the game and entry."""
    data = tmp_path / "data"
    data.mkdir()
    two_games(data / "games.db")
    with Table(data / "games.db") as table:
        table.resume(1)  # Ann and Bob's game is the one being played
    before = '{"seat": 1, "kind": "play", "points": 1, "cards": null}'
    after = before.replace('"points": 1', '"points": 3')
    assert len(after) == len(before)
    execute(
        data / "games.db", ("UPDATE events SET data = ? WHERE game = 1 AND version = 3", (after,))
    )
    said = serve(tmp_path, "--data", str(data), "--port", "0")
    assert said.startswith(
        f"the game file {data / 'games.db'} cannot be used: entry 3 of game 1 is not the one "
        "stored there: it was changed, or one was dropped or moved. Nothing was changed: "
    )


@pytest.mark.parametrize(
    ("edit", "game", "version"),  # game 2 is the one being played; game 1 an old one
    [
        # dropped from the middle
        ([("DELETE FROM events WHERE game = 1 AND version = 4",)], 1, 4),
        # dropped from the end: the game still knows its length
        ([("DELETE FROM events WHERE game = 1 AND version = 6",)], 1, 6),
        # two entries swapped
        (
            [
                ("UPDATE events SET version = -1 WHERE game = 1 AND version = 3",),
                ("UPDATE events SET version = 3 WHERE game = 1 AND version = 5",),
                ("UPDATE events SET version = 5 WHERE game = 1 AND version = -1",),
            ],
            1,
            3,
        ),
        # an entry moved into the game being played, where it would fit next
        ([("UPDATE events SET game = 2, version = 3 WHERE game = 1 AND version = 6",)], 2, 3),
        # its time changed
        ([("UPDATE events SET at = '2020-01-01 00:00:00' WHERE game = 2 AND version = 2",)], 2, 2),
        # a whole game's rows removed, its start left
        ([("DELETE FROM events WHERE game = 2 AND version > 1",)], 2, 2),
        # the head written over
        ([("UPDATE games SET head = zeroblob(32) WHERE id = 2",)], 2, 2),
    ],
    ids=["dropped", "last-dropped", "swapped", "moved", "retimed", "emptied", "head"],
)
def test_a_dropped_moved_or_reordered_entry_is_refused_and_named(tmp_path, edit, game, version):
    path = tmp_path / "games.db"
    two_games(path)
    execute(path, *edit)
    if game == 1:  # an old game: set aside, named; the board starts
        with Table(path) as table:
            error = table._store.set_aside[1]
            assert table.state.players == ("Cat", "Dan")
    else:
        error = refused(path)
    assert (error.game, error.version) == (game, version)
    assert f"of game {game}" in str(error) and f" {version}" in str(error)


def test_an_edit_made_while_the_board_runs_is_refused_when_the_game_is_replayed(tmp_path):
    path = tmp_path / "games.db"
    two_games(path)
    with Table(path) as table:
        assert table.state_of(1).scores == (7, 2)
        execute(path, ("UPDATE events SET data = replace(data, '5', '4') WHERE game = 1",))
        with pytest.raises(ChainError, match="entry 6 of game 1 is not the one stored"):
            table.state_of(1)
        with pytest.raises(ChainError):
            table.load(1)
        assert table.state.players == ("Cat", "Dan")  # the board plays on with what it had


def test_an_older_file_is_chained_once_in_place(tmp_path):
    path = tmp_path / "games.db"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(OLD_FILE.read_text())
    with closing(sqlite3.connect(path)) as db:
        old = db.execute(
            "SELECT game, version, type, data, at FROM events ORDER BY 1, 2"
        ).fetchall()
    inode = path.stat().st_ino
    with Table(path) as table:
        log = table.log(1)
        assert [(1, e.version, e.type, e.data, e.at) for e in log.entries] == old
        assert verify(log) == log.head and table.state.match.winner == 1
    assert path.stat().st_ino == inode  # upgraded in place, not replaced
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA
        assert db.execute("SELECT versions FROM games").fetchall() == [(len(old),)]
    with Table(path) as table:  # and once: opened again, it is checked, not chained again
        assert table.log(1) == log


def test_an_older_file_with_an_entry_missing_is_refused_unchanged(tmp_path):
    path = tmp_path / "games.db"
    with closing(sqlite3.connect(path)) as db:
        db.executescript(OLD_FILE.read_text())
        db.execute("DELETE FROM events WHERE version = 7")
        db.commit()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="entry 7 of game 1 is missing"):
        Table(path)
    assert path.read_bytes() == before
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1


@pytest.mark.slow
def test_a_power_cut_during_the_upgrade_loses_nothing():
    """At every write, sync and truncation of the upgrade in turn the power goes: the file
    opens afterwards, old or upgraded, never between, with every entry as it was."""
    rng = random.Random(2026)
    with game_dir() as folder:
        reference = folder / "reference.db"
        with closing(sqlite3.connect(reference)) as db:
            db.executescript(OLD_FILE.read_text())
            db.execute("PRAGMA journal_mode=WAL")
        with closing(sqlite3.connect(reference)) as db:
            old = db.execute(
                "SELECT game, version, type, data, at FROM events ORDER BY 1, 2"
            ).fetchall()
        cuts = 0
        for at in range(1, 1000):
            path = folder / f"cut-{at}" / "games.db"
            path.parent.mkdir()
            path.write_bytes(reference.read_bytes())
            vfs = PowerCutVFS(f"upgrade-{at}", rng, at=at)
            try:
                Store(path, connect=vfs.connect).close()
                done = True
            except StoreError:
                assert vfs.dead, "only the cut may stop the upgrade"
                done, cuts = False, cuts + 1
            finally:
                vfs.unregister()
            with Table(path) as table:  # the board starts on what the cut left
                log = table.log(1)
                assert [(1, e.version, e.type, e.data, e.at) for e in log.entries] == old
            if done:
                break
        assert cuts > 10 and done


def test_a_club_checks_a_boards_log_sent_as_json_and_its_end_signed(tmp_path):
    path, me = tmp_path / "games.db", Identity.generate()
    with Table(Store(path, signer=me.sign)) as table:
        Bot(table, random.Random(5)).play_game()
        log = table.log()
    received = json.loads(json.dumps({"log": log.as_dict()}))
    got = GameLog.from_dict(received["log"])
    assert verify(got) == got.head and signed_by(me.public, got.end, ended(got))
    assert not signed_by(Identity.generate().public, got.end, ended(got))  # another board's
    # One claim changed on the way, the chain worked out again over it: the head no longer
    # matches what the board signed at the end.
    forged = received["log"]
    number = next(i for i, e in enumerate(forged["entries"]) if e[1] == "Claimed")
    forged["entries"][number][2] = forged["entries"][number][2].replace('"points": ', '"points": 1')
    with pytest.raises(ChainError) as refusal:
        verify(GameLog.from_dict(forged))
    assert refusal.value.version == number + 1 and refusal.value.game == log.game
    cut = GameLog(log.game, log.entries[:-1], log.entries[-2].chain, log.asked, log.end)
    assert not signed_by(me.public, cut.end, ended(cut))


def rechain(path: Path, game: int, change) -> None:
    """What someone holding the board's files can do: change the stored entries of
    ``game`` (``change(rows)`` gives the rows to keep) and work the chain out again."""
    with closing(sqlite3.connect(path)) as db, db:
        rows = db.execute(
            "SELECT version, type, data, at FROM events WHERE game = ? ORDER BY version", (game,)
        ).fetchall()
        db.execute("DELETE FROM events WHERE game = ?", (game,))
        entries = chained(game, [(t, d, a) for _, t, d, a in change(rows)])
        for entry in entries:
            db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                (game, entry.version, entry.type, entry.data, entry.at, entry.chain),
            )
        db.execute(
            "UPDATE games SET versions = ?, head = ?, summary = NULL WHERE id = ?",
            (len(entries), entries[-1].chain, game),
        )


def swap_players(rows):
    kind, data = rows[0][1], json.loads(rows[0][2])
    assert kind == "GameStarted"
    data["settings"]["players"] = data["settings"]["players"][::-1]
    return [(rows[0][0], kind, json.dumps(data), rows[0][3]), *rows[1:]]


@pytest.mark.parametrize("change", [swap_players, lambda rows: rows[:-1]], ids=["swap", "cut"])
def test_a_log_rechained_after_the_game_ended_is_not_what_the_board_signed(tmp_path, change):
    """The board's files edited after the end and chained again: the file loads (the
    chain is whole), but its head is not the one the board signed when the game ended."""
    path, me = tmp_path / "games.db", Identity.generate()
    with Table(Store(path, signer=me.sign)) as table:
        Bot(table, random.Random(8)).play_game()
        game = table.game_id
        assert signed_by(me.public, table.log().end, ended(table.log()))
    rechain(path, game, change)
    with Table(Store(path, signer=me.sign)) as table:
        log = table.log(game)
        assert verify(log) == log.head  # whole as a chain
        assert log.end and not signed_by(me.public, log.end, ended(log))


def test_a_game_not_over_has_no_end_signed_and_an_old_file_loads_as_before(tmp_path):
    path, me = tmp_path / "games.db", Identity.generate()
    two_games(path)  # written by a pegboard that signs nothing
    with Table(Store(path, signer=me.sign)) as table:
        assert [table.log(game).end for game in (1, 2)] == [b"", b""]


def test_a_new_file_is_written_chained(tmp_path):
    path = tmp_path / "games.db"
    two_games(path)
    with closing(sqlite3.connect(path)) as db:
        versions = db.execute("SELECT id, versions FROM games ORDER BY id").fetchall()
        counts = db.execute("SELECT game, count(*) FROM events GROUP BY game").fetchall()
        chains = db.execute("SELECT count(DISTINCT chain), count(*) FROM events").fetchone()
    assert versions == counts == [(1, 6), (2, 2)]
    assert chains[0] == chains[1]  # every entry its own value
