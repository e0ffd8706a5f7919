"""A whole club night: 8 players, 4 tables (two hosted by `pegboard club`, two
`pegboard serve --sim` boards over loopback, paired by their PIN), 9 rounds pegged by
scripted players through each table's own panel API. A board is killed mid-game and
started again, and so is the director: every game is counted once, and the standings
are those of a tally made here, independently, from the games' events in the tables'
own files."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.club_players import BOARD_PIN, Director, Player, Process, board, director_program, until

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
NIGHT_PIN = "2468"
TARGET = 61
pytestmark = [pytest.mark.slow, pytest.mark.subprocess]


def test_a_club_night_is_counted_from_the_tables_logs(tmp_path: Path) -> None:
    processes: list[Process] = []
    try:
        boards = [board(tmp_path / f"board{n}") for n in (1, 2)]
        processes += [process for process, _ in boards]
        club, url = director_program(tmp_path / "club", NIGHT_PIN, tables=2)
        processes.append(club)
        director = Director(url, NIGHT_PIN)
        for _, address in boards:
            director.call("POST", "/club/api/tables", {"address": address, "pin": BOARD_PIN})
        director.call("POST", "/club/api/format", {"games": 9, "target": TARGET})
        players = {}
        for number, name in enumerate(NAMES):
            code = director.call("POST", "/club/api/players", {"name": name})["code"]
            players[name] = Player(url, code, random.Random(number))
        for round in range(1, 10):
            director.call("POST", "/club/api/rounds", {})
            seats = until(lambda d=director, r=round: started(d, r), f"round {round}'s games")
            if round == 3:  # a board dies mid-game and comes back
                seat = next(s for s in seats if s["table"] == 3)
                players[seat["players"][0]["name"]].play(seat["game"], stop_after=4)
                boards[0][0].kill()
                away = until(lambda d=director: down(d, 3), "table 3 shown unreachable")
                assert away["error"].startswith("table 3 cannot be reached: ")
                assert not away["done"] and away["players"] == [p["name"] for p in seat["players"]]
                boards[0][0].start()
            if round == 5:  # the director's laptop dies mid-round and comes back
                for seat in seats:
                    players[seat["players"][0]["name"]].play(seat["game"], stop_after=3)
                club.kill()
                club.start()
                director = Director(url, NIGHT_PIN)
            play_round(players, seats)
            tables = director.call("GET", "/club/api/tables")
            until(lambda d=director, r=round: counted(d, r), f"round {round}'s results ({tables})")
        standings = director.call("GET", "/club/api/standings")["players"]
        rounds = director.call("GET", "/club/api/rounds")["rounds"]
        files = {1: tmp_path / "club/night-1/table-1/games.db"}
        files[2] = tmp_path / "club/night-1/table-2/games.db"
        files[3], files[4] = (tmp_path / f"board{n}/data/games.db" for n in (1, 2))
        expected = tally(files, rounds)
        assert sum(len(r["seats"]) for r in rounds) == 36
        with sqlite3.connect(tmp_path / "club/club.db") as db:  # each game stored once
            kept = db.execute("SELECT data FROM events WHERE type = 'GameCounted'").fetchall()
        games = [(json.loads(d)["table"], json.loads(d)["game"]) for (d,) in kept]
        assert len(games) == len(set(games)) == 36
        assert {s["name"]: mine(s) for s in standings} == expected
        places = [s["place"] for s in standings]
        assert places == sorted(places) and places[0] == 1
        assert any(s["hands"] for s in standings)  # the 29s the cards showed
        opponents = {(a, b) for r in rounds[:7] for s in r["seats"] for a, b in [pair(s)]}
        assert len(opponents) == 28  # 7 rounds: everyone met everyone else, once
    finally:
        for process in processes:
            process.stop()


def started(director: Director, round: int) -> list[dict[str, Any]] | None:
    rounds = director.call("GET", "/club/api/rounds")["rounds"]
    seats = rounds[round - 1]["seats"]
    return seats if all(seat["game"] is not None for seat in seats) else None


def down(director: Director, table: int) -> dict[str, Any] | None:
    """``table`` as the club shows it, once it shows it cannot be reached."""
    tables = director.call("GET", "/club/api/tables")["tables"]
    return next((t for t in tables if t["table"] == table and not t["reachable"]), None)


def counted(director: Director, round: int) -> bool:
    seats = director.call("GET", "/club/api/rounds")["rounds"][round - 1]["seats"]
    return all(seat["result"] is not None for seat in seats)


def play_round(players: dict[str, Player], seats: list[dict[str, Any]]) -> None:
    """Each seat's first player pegs the game to its end, all tables at once."""
    errors: list[BaseException] = []

    def play(seat: dict[str, Any]) -> None:
        try:
            player = players[seat["players"][0]["name"]]
            player.table = None  # a new round: a new table
            player.play(seat["game"])
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=play, args=(seat,)) for seat in seats]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)  # a busy machine plays slowly: wait, then say who hangs
    assert not errors, errors
    assert not any(thread.is_alive() for thread in threads), "a table's game never ended"


def pair(seat: dict[str, Any]) -> tuple[str, str]:
    a, b = sorted(player["name"] for player in seat["players"])
    return a, b


def mine(standing: dict[str, Any]) -> dict[str, Any]:
    names = ("points", "wins", "losses", "spread", "skunks")
    return {
        **{k: standing[k] for k in names},
        "hands": sorted(h["total"] for h in standing["hands"]),
    }


def tally(files: dict[int, Path], rounds: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The night added up here from each game's stored events: each claim pegs its
    points until a side reaches the target (these scripted games peg nothing else)."""
    players: dict[str, dict[str, Any]] = {}
    for number in rounds:
        for seat in number["seats"]:
            for player in seat["players"]:
                players.setdefault(player["name"], dict.fromkeys(("points", "wins", "losses",
                                   "spread", "skunks"), 0) | {"hands": []})  # fmt: skip
            with sqlite3.connect(files[seat["table"]]) as db:
                rows = db.execute(
                    "SELECT type, data FROM events WHERE game = ? ORDER BY version", (seat["game"],)
                ).fetchall()
            names = json.loads(rows[0][1])["settings"]["players"]
            scores, winner = [0, 0], None
            for kind, data in rows:
                event = json.loads(data)
                if kind != "Claimed" or winner is not None:
                    continue
                scores[event["seat"]] += event["points"]
                if event.get("cards"):
                    players[names[event["seat"]]]["hands"].append(event["points"])
                if scores[event["seat"]] >= TARGET:
                    winner = event["seat"]
            assert winner is not None, seat
            margin = TARGET - scores[1 - winner]
            won, lost = players[names[winner]], players[names[1 - winner]]
            skunk = scores[1 - winner] < TARGET - 30
            won["points"] += 3 if skunk else 2
            won["wins"] += 1
            lost["losses"] += 1
            won["spread"] += margin
            lost["spread"] -= margin
            won["skunks"] += skunk
    for player in players.values():
        player["hands"].sort()
    return players
