"""The game file: a real SQLite file that starts fresh, refuses what it cannot trust and
never overwrites it, keeps every game, and lets only one writer win at each version."""

import json
import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from game_bot import Bot, refuse, stored_rows
from rewritten import rewrite

from pegboard.errors import ConflictError, StoreError
from pegboard.game import Settings, Store, Table, commands, replay
from pegboard.game.acts import Act
from pegboard.game.events import EVENT_TYPES
from pegboard.game.store import SCHEMA


def played(path, steps=300, seed=1):
    """A file with a game played ``steps`` entries far; returns its bytes."""
    with Table(path) as table:
        bot = Bot(table, random.Random(seed))
        for _ in range(steps):
            bot.step()
    return path.read_bytes()


def refused_file(path, match):
    """Opening ``path`` stops with one line matching ``match`` that says what to do; the
    file and its WAL are untouched."""
    wal = path.with_name(path.name + "-wal")
    before = path.read_bytes(), wal.read_bytes() if wal.exists() else None
    with pytest.raises(StoreError, match=match) as refusal:
        Table(path)
    assert (path.read_bytes(), wal.read_bytes() if before[1] is not None else None) == before
    message = str(refusal.value)
    assert message.startswith(f"the game file {path} cannot be used: ") and "\n" not in message
    assert "Nothing was changed: " in message
    return message


def test_a_missing_file_starts_fresh_in_wal_mode(tmp_path):
    path = tmp_path / "games.db"
    with Table(path) as table:
        assert table.game_id is None and table.games() == []
        with pytest.raises(Exception, match="no game yet: start one"):
            table.state  # noqa: B018
        table.new_game(Settings(players=("Ann", "Bob")))
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert len(stored_rows(path)) == 1


def test_an_empty_file_is_refused_not_started_over(tmp_path):
    """pegboard creates its file whole, so an empty one was cut short: its games are lost
    (a copy may be put back) and nothing is started over it."""
    path = tmp_path / "games.db"
    path.touch()
    message = refused_file(path, "it is empty")
    assert message.endswith(
        f"move {path} into another folder to start a new game file (keep the files you move)."
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.db"]


def test_a_folder_that_does_not_exist(tmp_path):
    with pytest.raises(StoreError, match="cannot create the game file"):
        Store(tmp_path / "no" / "games.db")
    assert not (tmp_path / "no").exists()


def test_a_file_that_is_not_a_database_is_left_alone(tmp_path):
    path = tmp_path / "games.db"
    path.write_text("shopping list: eggs, milk\n" * 200)
    message = refused_file(path, "damaged or not a game file")
    assert "file is not a database" in message


def test_a_damaged_file_is_left_alone(tmp_path):
    path = tmp_path / "games.db"
    data = bytearray(played(path))
    assert len(data) > 4 * 4096
    data[2 * 4096 : 2 * 4096 + 64] = b"\xa5" * 64  # a page header of the events table
    path.write_bytes(data)
    refused_file(path, "damaged")


@pytest.mark.slow
def test_damage_sqlite_reports_in_many_lines_is_said_in_one(tmp_path):
    """SQLite's check lists every broken cell on a line of its own: the refusal says the
    first and how many more, on one line."""
    path = tmp_path / "games.db"
    data = played(path, steps=600)
    for page in range(3, len(data) // 4096):
        damaged = bytearray(data)
        damaged[(page - 1) * 4096 + 2000 : (page - 1) * 4096 + 2400] = b"\xa5" * 400
        path.write_bytes(damaged)
        with closing(sqlite3.connect(path)) as db:
            try:
                check = [row[0] for row in db.execute("PRAGMA quick_check").fetchall()]
            except sqlite3.DatabaseError:  # too broken to be checked at all
                continue
        if sum(row.count("\n") + 1 for row in check) > 3:
            break
    else:
        pytest.fail("no damage that SQLite reports in many lines")
    message = refused_file(path, "it is damaged")
    assert f"(On tree page {page} cell " in message and " problems in all)" in message


def test_a_damaged_event_stops_loading_with_its_number(tmp_path):
    path = tmp_path / "games.db"
    played(path, steps=20)
    rewrite(path, 5, data='{"seat": ')
    message = refused_file(path, "event 5 of game 1")
    assert "cannot be read" in message
    rewrite(path, 5, "Teleported", "{}")
    assert "'Teleported' is not an event type" in refused_file(path, "event 5 of game 1")


def a_short_game(path):
    """1 GameStarted, 2 StarterTurned 5D, 3 Bob pegs 2 in the play, 4 Ann pegs 3."""
    with Table(path) as table:
        table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
        table.turn_starter("5D")
        table.claim("Bob", 2)
        table.claim("Ann", 3)


@pytest.mark.parametrize(
    ("version", "kind", "data", "reason"),
    [
        (3, "Claimed", {"seat": 7, "kind": "play", "points": 2}, "no player 7 at this table"),
        (4, "Claimed", {"seat": 0, "kind": "play", "points": 16}, "one card scores 1 to 15"),
        (2, "StarterTurned", {"card": "J♥", "heels": True}, "give the card or heels, not both"),
        (3, "GameStarted", {"settings": {}, "dealer": 0}, "a new game is not an entry of this one"),
        (1, "PlayEnded", {}, "a game starts with GameStarted, not PlayEnded"),
        (1, "GameStarted", {"settings": {}, "dealer": 5}, "no player 5 at this table"),
        (
            1,
            "GameStarted",
            {"settings": {"players": ["Ann", "Bob"]}, "dealer": 0, "cuts": ["9♥", "4♣"]},
            "the rules give it dealer 1, not 0",
        ),
    ],
)
def test_an_event_the_rules_refuse_stops_loading_with_its_number(
    tmp_path, version, kind, data, reason
):
    path = tmp_path / "games.db"
    a_short_game(path)
    rewrite(path, version, kind, json.dumps(data))
    message = refused_file(path, f"event {version} of game 1 breaks the rules: ")
    assert reason in message
    assert message.endswith(
        f"move {path} into another folder to start a new game file (keep the files you move)."
    )


def test_a_file_written_before_events_were_checked_on_load_still_loads(tmp_path):
    """A match as pegboard stored it before the replay checked every event (and before
    the game's end, the cut for the third game and disputes changed, and before a starter
    could be named late): every kind of event it wrote passes the checks, and the checked
    load agrees with the plain fold."""
    path = tmp_path / "games.db"
    with closing(sqlite3.connect(path)) as db:
        db.executescript((Path(__file__).parent / "data" / "games-schema-1.sql").read_text())
    with Table(path) as table:
        events = table.events()
        kinds = {type(event).__name__ for event in events}
        assert kinds == set(EVENT_TYPES) - {"MugginsDisputed", "StarterNamed", "Challenged"}
        assert table.version == len(events) and table.state == replay(events)
        assert table.state.match.winner == 1


def test_a_file_with_every_kind_of_event_this_pegboard_writes_loads_as_it_was_played(tmp_path):
    """Games with Muggins, as bots play them (every kind of event, a challenge and a claim
    of game held for its window among them), stored and opened again: each replays, its
    events checked, to the state it was played to."""
    path = tmp_path / "games.db"
    kinds, played = set(), {}
    with Table(path) as table:
        bot = Bot(table, random.Random(7), settings=Settings(muggins=True, match_games=3))
        while kinds != set(EVENT_TYPES) - {"StarterNamed"}:  # the bot names no starter
            state = bot.play_game()
            played[table.game_id] = state
            kinds |= {type(event).__name__ for event in table.events()}
            assert len(played) < 40, f"no {set(EVENT_TYPES) - kinds} yet"
    with Table(path) as table:
        for game, state in played.items():
            assert table.state_of(game) == state and table.state_of(game).settings.edition == 2


def test_a_newer_schema_is_left_alone(tmp_path):
    path = tmp_path / "games.db"
    played(path, steps=10)
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA + 1}")
    message = refused_file(path, "written by a newer pegboard")
    assert f"file format {SCHEMA + 1}; this one reads up to {SCHEMA}" in message


def test_another_programs_database_is_left_alone(tmp_path):
    path = tmp_path / "games.db"
    with closing(sqlite3.connect(path)) as db, db:
        db.execute("CREATE TABLE recipes (name TEXT)")
        db.execute("INSERT INTO recipes VALUES ('scones')")
    refused_file(path, "not a pegboard game file")


def test_finished_games_stay_and_any_game_can_be_loaded(tmp_path):
    path = tmp_path / "games.db"
    with Table(path) as table:
        first = Bot(table, random.Random(3), settings=Settings(variant="five-card")).play_game()
        first_id = table.game_id
        table.new_game(Settings(players=("Ann", "Bob", "Cat")))
        records = table.games()
        assert [(r.id, r.settings.variant, len(r.settings.players)) for r in records] == [
            (first_id, "five-card", 2),
            (first_id + 1, "standard", 3),
        ]
        assert records[0].versions == first.version and records[1].versions == 1
        assert records[0].created  # a timestamp from SQLite
    with Table(path) as table:
        assert table.game_id == first_id + 1  # the latest game is picked up again
        assert table.load(first_id) == first and table.state.over
        assert table.state_of(first_id + 1).players == ("Ann", "Bob", "Cat")
        with pytest.raises(StoreError, match="there is no game 99"):
            table.load(99)


def test_two_writers_at_one_version_one_wins_cleanly(tmp_path):
    path = tmp_path / "games.db"
    with Table(path) as button, Table(path) as phone:
        button.new_game(Settings(players=("Ann", "Bob")), dealer=0)
        phone.reload()
        button.turn_starter("5D")
        rows = stored_rows(path)
        with pytest.raises(ConflictError, match="moved on to version 2"):
            phone.turn_starter("6D")  # the phone had not seen the starter yet
        assert stored_rows(path) == rows
        assert phone.state == button.state  # it caught up
        phone.claim("Bob", 2)
        button.reload()
        assert button.state.scores == (0, 2)


def test_an_entry_made_against_an_old_version_is_refused(tmp_path):
    with Table(tmp_path / "games.db") as table:
        seen = table.new_game(Settings(players=("Ann", "Bob"))).version
        table.take(Act.of(commands.turn_starter, "5D"), version=seen)
        refuse(table, "claim", "Bob", 2, version=seen, match="moved on to version 2")
        assert table.take(Act.of(commands.claim, "Bob", 2), version=seen + 1).scores == (0, 2)


def test_the_store_writes_events_as_json_with_their_type(tmp_path):
    path = tmp_path / "games.db"
    with Table(path) as table:
        table.new_game(Settings(players=("Ann", "Bob")), dealer=1)
        table.turn_starter("JH")
    (_, _, kind, data), (_, version, kind2, data2) = stored_rows(path)
    assert kind == "GameStarted" and json.loads(data)["settings"]["players"] == ["Ann", "Bob"]
    assert (version, kind2, json.loads(data2)) == (
        2,
        "StarterTurned",
        {"card": "J♥", "heels": False},
    )
