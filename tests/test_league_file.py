"""The night file: `pegboard club export` writes the club's night signed by its director;
`pegboard club check FILE` recomputes the standings from the file alone and refuses a
file changed, cut short or signed again by another key, in one line, exit 2."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from pegboard.club.export import export
from pegboard.club.nightfile import canonical, digest, read, sign, signed_part
from pegboard.club.standings import standings
from pegboard.club.store import ClubStore
from pegboard.errors import PegboardError
from pegboard.identity import Identity
from pegboard.league.store import LeagueStore
from tests.club_players import BOARD_PIN
from tests.league_nights import club_folder, night_events, players
from tests.postgres import league_url_fixture, postgres_fixture  # noqa: F401
from tests.trust_boards import LedBoard, director_of, follow, play_out

pytestmark = pytest.mark.slow  # each test runs pegboard in subprocesses


def pegboard(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pegboard.cli", *args], capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """A club's folder with one whole night of 12 players in its file."""
    rng = random.Random(35)
    club_folder(tmp_path / "club", night_events(rng, players(rng, 12), corrections=2)).close()
    return tmp_path / "club"


def shown(folder: Path) -> list[dict[str, Any]]:
    """The standings the director's program shows for the night (from the club's file)."""
    store = ClubStore(folder / "club.db")
    try:
        night = store.night()
        from pegboard.club.night import fold

        return [s.as_dict() for s in standings(fold(e for e, _, _ in store.events(night)))]
    finally:
        store.close()


@pytest.mark.subprocess
def test_export_writes_the_night_signed_and_check_recomputes_the_directors_standings(
    club: Path,
) -> None:
    done = pegboard("club", "export", "--data", str(club), "--club", "Pegtown Crib Club")
    assert done.returncode == 0, done.stderr
    path = club / "nights" / "night-1.json"
    data = json.loads(path.read_bytes())
    assert data["schema"] == "pegboard-night" and data["version"] == 1
    assert data["club"] == {"name": "Pegtown Crib Club"}
    assert data["standings"] == shown(club)
    assert len(data["results"]) == 9 * 6 and len(data["corrections"]) == 2
    assert all(c["by"] == "Dana" for c in data["corrections"])
    kinds = {t["table"]: t["kind"] for t in data["tables"]}
    assert all(len(r["head"]) == 64 for r in data["results"])
    signed = {kinds[r["table"]]: r["board_signature"] for r in data["results"]}  # no board kept
    assert signed == {"hosted": None, "board": {"algorithm": "hmac-sha256", "signature": None}}
    assert [p["acc"] for p in data["players"]][:5] == ["1", "2", "3", "4", None]
    key = Identity.read(club / "director-key")
    assert key is not None and data["director"]["key"] == key.public.hex()
    assert data["director"]["key"] in done.stdout
    # written again: the same bytes (canonical, no time of writing), the club's name kept
    first = path.read_bytes()
    assert pegboard("club", "export", "--data", str(club)).returncode == 0
    assert path.read_bytes() == first
    checked = pegboard("club", "check", str(path), "--data", str(club))
    assert checked.returncode == 0, checked.stderr
    best = data["standings"][0]
    assert best["name"] in checked.stdout and best["card"] in checked.stdout


def refused(path: Path, *more: str) -> str:
    done = pegboard("club", "check", str(path), *more)
    assert done.returncode == 2, done.stdout
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
    return done.stderr.strip()


@pytest.mark.subprocess
def test_check_refuses_a_changed_truncated_or_re_signed_file_naming_what_is_wrong(
    club: Path, tmp_path: Path
) -> None:
    path, data = export(club, club="Pegtown")
    raw = path.read_bytes()
    bad = tmp_path / "bad.json"
    # one result changed: the winner's margin
    changed = json.loads(raw)
    changed["results"][3]["margin"] += 10
    bad.write_bytes(canonical(changed))
    assert "bad.json was changed after its director signed it" in refused(bad)
    # cut short
    bad.write_bytes(raw[: len(raw) // 2])
    assert "bad.json is not a whole night file" in refused(bad)
    # changed and signed again by another key
    other = Identity.generate()
    bad.write_bytes(canonical(sign(changed, other)))
    said = refused(bad, "--data", str(club))
    assert f"signed by the key {other.fingerprint}, not by the club's director" in said
    # ... which with no key to compare says its standings are not what its results add up to
    said = refused(bad, "--data", str(tmp_path / "elsewhere"))
    assert "its standings are not what its results add up to" in said
    # a signature taken away
    unsigned = {k: v for k, v in data.items() if k != "signature"}
    bad.write_bytes(canonical(unsigned))
    assert "bad.json is not signed by a club's director" in refused(bad)
    # not a night file at all
    bad.write_text('{"hello": 1}')
    assert "bad.json is not a pegboard night file" in refused(bad)


def test_a_night_replays_through_the_clubs_own_rules(club: Path) -> None:
    """A file signed by a director's key but holding what the club never allows (a
    round drawn while the last one is being played) is refused, named."""
    _, data = export(club, club="Pegtown")
    key = Identity.generate()
    broken = json.loads(json.dumps(data))
    round_two = next(r for r in broken["rounds"] if r["round"] == 2)
    second = [r for r in broken["results"] if r["round"] == 1][1]
    round_two["seq"], second["seq"] = second["seq"], round_two["seq"]  # drawn a game early
    with pytest.raises(Exception, match="round 2: round 1 is still being played"):
        read(canonical(sign(broken, key)), "night.json")


def test_the_digest_is_of_what_is_signed(club: Path) -> None:
    _, data = export(club, club="Pegtown")
    assert digest(data) == digest({**data, "signature": "00"})
    assert data["signature"].encode() not in signed_part(data)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], list[bytes]]:
    """A night played on two LED boards and a hosted table (six players, two rounds to
    31), exported: the club's folder, the file's data and the boards' keys (tables 1, 2)."""
    folder = tmp_path_factory.mktemp("played")
    boards = [LedBoard(folder / f"board{n}") for n in (1, 2)]
    director = director_of(folder / "club")
    rng = random.Random(67)
    try:
        director.set_format({"games": 2, "target": 31}, "Dana")
        for name in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"):
            director.add_player(name, "", "Dana")
        doors = {director.pair(b.address, BOARD_PIN, "Dana"): b.keeper for b in boards}
        hosted = director.add_hosted("Dana")
        doors[hosted] = director.links[hosted].keeper
        for round in (1, 2):
            director.draw("Dana")
            seats = director.night.seats()
            follow(director, lambda r=round: len(director.night.started) == 3 * r, "the starts")
            for seat in seats:
                play_out(doors[seat.table], director.night.started[round, seat.table], rng)
            follow(director, lambda: not director.night.open_seats(), f"{director.refused}")
    finally:
        director.close()
        for board in boards:
            board.close()
    _, data = export(folder / "club", club="Pegtown")
    return folder / "club", data, [board.identity.public for board in boards]


def at(data: dict[str, Any], table: int, round: int = 1) -> dict[str, Any]:
    """The result at ``table`` in ``round`` of the night file ``data``."""
    return next(r for r in data["results"] if (r["table"], r["round"]) == (table, round))


def re_signed(folder: Path, data: dict[str, Any], path: Path) -> Path:
    """``data`` signed again by the club's own director (the club itself lying), at ``path``."""
    key = Identity.read(folder / "director-key")
    assert key is not None
    path.write_bytes(canonical(sign(data, key)))
    return path


@pytest.mark.subprocess
def test_a_boards_result_carries_its_boards_signature_and_check_holds_it_to_it(
    played: tuple[Path, dict[str, Any], list[bytes]], tmp_path: Path
) -> None:
    folder, data, keys = played
    for table, key in enumerate(keys, start=1):
        signed = at(data, table)["board_signature"]
        assert signed["algorithm"] == "ed25519" and signed["key"] == key.hex()
        assert len(signed["signature"]) == 128 and signed["versions"] > 0
        assert json.loads(signed["asked"])["table"] == table
    assert at(data, 3)["board_signature"] is None  # the hosted table's: no board signs it
    genuine = folder / "nights" / "night-1.json"
    assert pegboard("club", "check", str(genuine), "--data", str(folder)).returncode == 0
    # the club signs a lie of its own: a hex digit of the board's signature, the head,
    # another board's signature, a game of round 1 given as round 2's
    lies: dict[str, Any] = {}
    lies["digit"] = json.loads(json.dumps(data))
    signed = at(lies["digit"], 1)["board_signature"]
    signed["signature"] = f"{int(signed['signature'][0], 16) ^ 1:x}" + signed["signature"][1:]
    lies["head"] = json.loads(json.dumps(data))
    at(lies["head"], 2)["head"] = hashlib.sha256(b"another log").hexdigest()
    lies["other"] = json.loads(json.dumps(data))
    theirs = dict(at(data, 2)["board_signature"])
    at(lies["other"], 1)["board_signature"].update(key=theirs["key"], signature=theirs["signature"])
    lies["elsewhere"] = json.loads(json.dumps(data))
    first = at(data, 1)
    at(lies["elsewhere"], 1, round=2).update(
        {k: first[k] for k in ("game", "head", "board_signature")}
    )
    said = {
        name: refused(re_signed(folder, lie, tmp_path / f"{name}.json"), "--data", str(folder))
        for name, lie in lies.items()
    }
    game = {t: at(data, t)["game"] for t in (1, 2)}
    unsigned = "table {}'s game {} is not the one its board signed"
    assert said == {
        "digit": "pegboard: digit.json: " + unsigned.format(1, game[1]),
        "head": "pegboard: head.json: " + unsigned.format(2, game[2]),
        "other": "pegboard: other.json: " + unsigned.format(1, game[1]),
        "elsewhere": f"pegboard: elsewhere.json: table 1's game {game[1]} was signed by its "
        "board for another night, table or round",
    }


@pytest.mark.subprocess  # a PostgreSQL of its own
def test_a_league_refuses_a_night_whose_boards_signature_does_not_hold(
    played: tuple[Path, dict[str, Any], list[bytes]], league_url: str, tmp_path: Path
) -> None:
    folder, data, _ = played
    store = LeagueStore(league_url)
    store.add_club("Pegtown", data["director"]["key"])
    lie = json.loads(json.dumps(data))
    at(lie, 2, round=2)["head"] = "0" * 64
    with pytest.raises(PegboardError, match=r"table 2's game \d+ is not the one its board signed"):
        store.import_night(re_signed(folder, lie, tmp_path / "lie.json").read_bytes(), "lie.json")
    assert store.query("SELECT count(*) AS n FROM nights") == [{"n": 0}]
    assert store.import_night(canonical(data), "night-1.json").stored


@pytest.mark.subprocess
def test_a_night_counted_before_the_club_kept_boards_signatures_still_reads(
    played: tuple[Path, dict[str, Any], list[bytes]], tmp_path: Path
) -> None:
    """Results stored by an older club (no board's signature kept) fold and export in the
    old form, which a reader takes; so does an older file written in that form."""
    folder, data, _ = played
    older = tmp_path / "club"
    shutil.copytree(folder, older)
    with closing(sqlite3.connect(older / "club.db")) as db, db:
        db.execute(
            "UPDATE events SET data = json_remove(data, '$.key', '$.signature', '$.versions',"
            " '$.asked') WHERE type = 'GameCounted'"
        )
    path, exported = export(older, out=tmp_path / "older.json")
    old = {"algorithm": "hmac-sha256", "signature": None}
    assert [r["board_signature"] for r in exported["results"]] == [
        old if r["table"] < 3 else None for r in data["results"]
    ]
    assert exported["standings"] == data["standings"]
    assert pegboard("club", "check", str(path), "--data", str(older)).returncode == 0
    assert read(path.read_bytes(), path.name).standings == read(canonical(data), "new").standings
