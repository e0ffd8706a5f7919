"""The league on a real PostgreSQL (started by the tests): a club's exported night is
imported with the standings its director showed; the same file twice is one night; a
corrected night counts in the place of the first, both kept; a file changed, signed by
a key the league does not know or by another club's director is refused in one line
and stores nothing; a league killed in the middle of an import has stored nothing of
it; the season adds each player's nights up across the clubs."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pegboard.club.export import export
from pegboard.club.nightfile import canonical, sign
from pegboard.club.standings import standings
from pegboard.errors import PegboardError
from pegboard.identity import Identity
from pegboard.league import season
from pegboard.league.store import LeagueStore, Points
from tests.club_players import until
from tests.league_nights import club_folder, night_events, night_file, players
from tests.postgres import league_url_fixture, postgres_fixture  # noqa: F401

pytestmark = pytest.mark.slow  # subprocesses of pegboard, and a PostgreSQL


def pegboard(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pegboard.cli", *args], capture_output=True, text=True, timeout=180
    )


def counted(store: LeagueStore) -> tuple[int, int, int]:
    """Nights, the nights' player rows, and players the league holds."""
    rows = store.query(
        "SELECT (SELECT count(*) FROM nights) AS n, (SELECT count(*) FROM night_players) AS r,"
        " (SELECT count(*) FROM players) AS p"
    )
    return rows[0]["n"], rows[0]["r"], rows[0]["p"]


@pytest.fixture
def club(tmp_path: Path) -> Path:
    rng = random.Random(8)
    logged = night_events(rng, players(rng, 10, club=1), rounds=5, corrections=1)
    club_folder(tmp_path / "club", logged).close()
    return tmp_path / "club"


def director_showed(folder: Path) -> list[tuple[Any, ...]]:
    from pegboard.club.night import fold
    from pegboard.club.store import ClubStore

    kept = ClubStore(folder / "club.db")
    night = fold(event for event, _, _ in kept.events(kept.night()))
    kept.close()
    return [(s.name, s.place, s.points, s.wins, s.losses, s.spread) for s in standings(night)]


@pytest.mark.subprocess
def test_export_then_import_gives_the_standings_the_director_showed(
    club: Path, league_url: str
) -> None:
    done = pegboard("club", "export", "--data", str(club), "--club", "Pegtown")
    assert done.returncode == 0, done.stderr
    path = club / "nights" / "night-1.json"
    key = json.loads(path.read_bytes())["director"]["key"]
    assert pegboard("league", "--db", league_url, "club", "Pegtown", key).returncode == 0
    done = pegboard("league", "--db", league_url, "import", str(path))
    assert done.returncode == 0, done.stderr
    assert "night-1.json: Pegtown's night of" in done.stdout
    store = LeagueStore(league_url)
    rows = store.query(
        "SELECT name, place, points, wins, losses, spread FROM night_players ORDER BY place, name"
    )
    assert [tuple(r.values()) for r in rows] == sorted(
        director_showed(club), key=lambda r: (r[1], r[0])
    )
    done = pegboard("league", "--db", league_url, "standings", "--csv")
    assert done.returncode == 0 and done.stdout.count("\n") == 1 + 10


def test_the_same_file_twice_is_one_night_and_a_corrected_night_counts_both_kept(
    club: Path, league_url: str
) -> None:
    path, data = export(club, club="Pegtown")
    store = LeagueStore(league_url)
    store.add_club("Pegtown", data["director"]["key"])
    first = store.import_night(path.read_bytes(), path.name)
    assert first.stored and first.current
    before = counted(store)
    again = store.import_night(path.read_bytes(), path.name)
    assert not again.stored and again.current
    assert counted(store) == before == (1, 10, 10)
    # the director corrects a result after the night was sent: a later revision
    from pegboard.club.night import Corrected
    from pegboard.club.store import ClubStore

    kept = ClubStore(club / "club.db")
    seat = data["rounds"][0]["seats"][0]
    loser = seat["players"][1]
    fixed = Corrected(1, seat["table"], loser, 40, True, "scorecard", "Dana")
    kept.append(kept.night(), data["revision"] + 1, fixed, "Dana")
    kept.close()
    path, corrected = export(club)
    assert corrected["night"] == data["night"] and corrected["revision"] == data["revision"] + 1
    done = store.import_night(path.read_bytes(), path.name)
    assert done.stored and done.current
    assert counted(store) == (2, 20, 10)
    versions = store.versions(data["night"])
    assert [(v["revision"], v["current"]) for v in versions] == [
        (data["revision"], False), (data["revision"] + 1, True)
    ]  # fmt: skip
    season_rows = {r["name"]: r for r in season.standings(store)}
    loser_name = next(p["name"] for p in corrected["players"] if p["player"] == loser)
    assert season_rows[loser_name]["points"] == next(
        s["points"] for s in corrected["standings"] if s["name"] == loser_name
    )
    # the first version sent again (a retry that came late) changes nothing
    assert not store.import_night(canonical(data), "late.json").stored
    assert store.night_file(data["night"]) == path.read_bytes()


@pytest.mark.subprocess
def test_a_changed_unknown_or_other_clubs_file_is_refused_and_stores_nothing(
    club: Path, league_url: str, tmp_path: Path
) -> None:
    path, data = export(club, club="Pegtown")
    store = LeagueStore(league_url)
    rival = Identity.generate()
    store.add_club("Pegtown", data["director"]["key"])
    store.add_club("Rivertown", rival.public.hex())
    changed = json.loads(path.read_bytes())
    changed["results"][0]["margin"] += 5
    cases = {
        "changed.json was changed after its director signed it": canonical(changed),
        "unknown.json is signed by the key": canonical(sign(data, Identity.generate())),
        "other.json says it is Pegtown's night, but Rivertown's director signed it": canonical(
            sign(data, rival)
        ),
        "cut.json is not a whole night file": path.read_bytes()[:-200],
    }
    for said, raw in cases.items():
        name = said.split(" ")[0]
        with pytest.raises(PegboardError, match=said):
            store.import_night(raw, name)
        bad = tmp_path / name
        bad.write_bytes(raw)
        done = pegboard("league", "--db", league_url, "import", str(bad))
        assert done.returncode == 2 and said in done.stdout
        assert len(done.stdout.strip().splitlines()) == 1
    assert counted(store) == (0, 0, 0)


def waiting_on_a_lock(url: str) -> bool:
    with psycopg.connect(url) as db:
        row = db.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query LIKE 'COPY night_players%%'"
        ).fetchone()
    return bool(row and row[0])


@pytest.mark.subprocess
def test_a_league_killed_in_the_middle_of_an_import_has_stored_nothing_of_it(
    club: Path, league_url: str
) -> None:
    """The import is held where it has stored the night and is storing its players
    (their table locked by the test), killed there, and found to have left nothing."""
    path, data = export(club, club="Pegtown")
    store = LeagueStore(league_url)
    store.add_club("Pegtown", data["director"]["key"])
    holder = psycopg.connect(league_url)
    holder.execute("LOCK TABLE night_players IN EXCLUSIVE MODE")
    child = subprocess.Popen(
        [sys.executable, "-m", "pegboard.cli", "league", "--db", league_url, "import", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        until(lambda: waiting_on_a_lock(league_url), "the import to reach its players")
        child.kill()
        child.wait(timeout=60)
    finally:
        holder.rollback()
        holder.close()
    until(lambda: not waiting_on_a_lock(league_url), "the killed import to be rolled back")
    assert counted(store) == (0, 0, 0)
    done = store.import_night(path.read_bytes(), path.name)  # sent again: stored whole
    assert done.stored and counted(store) == (1, 10, 10)


def test_the_season_adds_up_across_clubs_by_acc_number_and_by_the_admins_merge(
    league_url: str,
) -> None:
    store = LeagueStore(league_url)
    rng = random.Random(3)
    keys = [Identity.generate(), Identity.generate()]
    names = [players(rng, 8, club=1), players(rng, 8, club=2)]
    names[1][0] = names[0][1]  # a player of the first club plays at the second too (ACC 1002)
    names[1][4] = ("Player 1-5", "")  # and one without an ACC number, by name
    for number, key in enumerate(keys, start=1):
        store.add_club(f"Club {number}", key.public.hex())
    store.set_points(Points((10, 7, 5), least=6))
    files = []
    for night in range(2):
        for number, key in enumerate(keys, start=1):
            logged = night_events(rng, names[number - 1], rounds=4, corrections=0)
            files.append(night_file(key, logged, f"Club {number}", f"{number}-{night}",
                                    f"2026-10-0{night + 1}"))  # fmt: skip
            assert store.import_night(canonical(files[-1])).stored
    rows = {r["name"]: r for r in season.standings(store)}
    both = rows[names[0][1][0]]
    assert both["nights"] == 4 and both["acc"] == names[0][1][1]
    history = season.history(store, both["player"])
    assert [h["club_name"] for h in history] == ["Club 1", "Club 2", "Club 1", "Club 2"]
    # the season points: the league's for each place, when the night had 6 game points
    for h in history:
        night = next(f for f in files if f["night"] == h["night"])
        mine = next(s for s in night["standings"] if s["name"] == both["name"])
        earned = (10, 7, 5)[mine["place"] - 1] if mine["place"] <= 3 else 0
        assert h["season_points"] == (earned if mine["points"] >= 6 else 0)
    assert both["season_points"] == sum(h["season_points"] for h in history)
    # without an ACC number, the same name at two clubs is two players until merged
    twins = [r for r in season.standings(store) if r["name"] == "Player 1-5"]
    assert len(twins) == 2
    store.merge(twins[0]["player"], twins[1]["player"])
    merged = [r for r in season.standings(store) if r["name"] == "Player 1-5"]
    assert len(merged) == 1 and merged[0]["nights"] == 4
    # each club's own ranking holds its own nights only
    club_one = season.standings(store, 1)
    assert all(r["nights"] <= 2 for r in club_one)
    assert {r["name"] for r in club_one} >= {n for n, _ in names[0]}
    # a later night of a merged player lands on the merged one
    logged = night_events(rng, names[1], rounds=4, corrections=0)
    store.import_night(canonical(night_file(keys[1], logged, "Club 2", "2-9", "2026-11-01")))
    again = [r for r in season.standings(store) if r["name"] == "Player 1-5"]
    assert len(again) == 1 and again[0]["nights"] == 5
