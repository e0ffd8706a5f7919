"""The director as each game's witness, and a board that keeps its table, against
`pegboard club` and `pegboard serve --sim` boards over loopback:

- a board's stored log edited while its game is played and chained again (the players'
  names swapped: the loser would win), which the board itself would sign, is refused by
  the director that followed the game, naming the table: its entries no longer chain to
  the heads the director saw (the director was shut while the file was edited: it keeps
  what it saw);
- a board started again over a file with one edited old game plays on: the old game is
  set aside, named on the phone's list of games; the board's next game is counted.
"""

from __future__ import annotations

import json
import random
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from rewritten import rechain

from tests import club_players
from tests.club_players import BOARD_PIN, Client, Director, Player, Process, board

PIN = "8642"
pytestmark = [pytest.mark.slow, pytest.mark.subprocess]


def tables(director: Director) -> dict[int, dict[str, Any]]:
    return {t["table"]: t for t in director.call("GET", "/club/api/tables")["tables"]}


def seats(director: Director, round: int) -> list[dict[str, Any]] | None:
    found = director.call("GET", "/club/api/rounds")["rounds"][round - 1]["seats"]
    return found if all(seat["game"] for seat in found) else None


def night(tmp_path: Path) -> tuple[list[Process], Director, str, Path, dict[str, Player]]:
    """A club following one --sim board (table 1), Ann and Bob registered, to 61."""
    sim, address = board(tmp_path / "board")
    club, url = club_players.director_program(tmp_path / "club", PIN)
    director = Director(url, PIN)
    director.call("POST", "/club/api/tables", {"address": address, "pin": BOARD_PIN})
    director.call("POST", "/club/api/format", {"target": 61})
    players = {}
    for number, name in enumerate(("Ann", "Bob")):
        code = director.call("POST", "/club/api/players", {"name": name})["code"]
        players[name] = Player(url, code, random.Random(number))
    return [sim, club], director, address, tmp_path / "board/data/games.db", players


def test_a_log_chained_again_after_the_director_saw_it_played_is_refused(
    tmp_path: Path,
) -> None:
    processes, director, _, games, players = night(tmp_path)
    try:
        director.call("POST", "/club/api/rounds", {})
        (seat,) = club_players.until(lambda: seats(director, 1), "the game to start")
        player = players[seat["players"][0]["name"]]
        player.play(seat["game"], stop_after=6)
        club_players.until(
            lambda: tables(director)[1]["witnessed"] >= 6, "the director to see it played"
        )
        club = processes[1]
        club.stop()  # the director's laptop is shut while the board's file is edited
        with closing(sqlite3.connect(games)) as db, db:  # the names swapped, chained again
            (data,) = db.execute(
                "SELECT data FROM events WHERE game = ? AND version = 1", (seat["game"],)
            ).fetchone()
            start = json.loads(data)
            start["settings"]["players"].reverse()
            db.execute(
                "UPDATE events SET data = ? WHERE game = ? AND version = 1",
                (json.dumps(start), seat["game"]),
            )
            rechain(db, seat["game"])
        club.start()  # what it saw before is what it holds the board's log to
        director = Director(director.base, PIN)
        player.play(seat["game"])
        table = club_players.until(
            lambda: tables(director)[1]["refused"] and tables(director)[1], "refusal"
        )
        assert table["refused"].startswith(
            f"table 1: the log of its game {seat['game']} is refused: entry "
        )
        assert "is not what the director saw as it was played" in table["refused"]
        assert director.call("GET", "/club/api/rounds")["rounds"][0]["seats"][0]["result"] is None
    finally:
        for process in processes:
            process.stop()


def test_a_board_started_over_an_edited_old_game_plays_on_and_is_counted(
    tmp_path: Path,
) -> None:
    processes, director, address, games, players = night(tmp_path)
    sim = processes[0]
    try:
        director.call("POST", "/club/api/rounds", {})
        (first,) = club_players.until(lambda: seats(director, 1), "round 1's game")
        players[first["players"][0]["name"]].play(first["game"])
        club_players.until(
            lambda: (seats(director, 1) or [{}])[0].get("result"), "round 1's result"
        )
        sim.stop()
        with closing(sqlite3.connect(games)) as db, db:  # one digit of the old game
            version, data = db.execute(
                "SELECT version, data FROM events WHERE game = ? AND type = 'Claimed' "
                "ORDER BY version LIMIT 1",
                (first["game"],),
            ).fetchone()
            claim = json.loads(data)
            claim["points"] += 1
            db.execute(
                "UPDATE events SET data = ? WHERE game = ? AND version = ?",
                (json.dumps(claim), first["game"], version),
            )
        sim.start()  # a power blip: the board starts again, with the rest of its games
        phone = Client(address)
        listed = {g["id"]: g for g in phone.call("GET", "/api/games")["games"]}
        assert listed[first["game"]]["set_aside"].startswith(
            f"entry {version} of game {first['game']} is not the one stored there"
        )
        director.call("POST", "/club/api/rounds", {})
        (second,) = club_players.until(lambda: seats(director, 2), "round 2's game")
        for player in players.values():
            player.table = None
        players[second["players"][0]["name"]].play(second["game"])
        club_players.until(
            lambda: (seats(director, 2) or [{}])[0].get("result"), "round 2's result"
        )
        assert tables(director)[1]["reachable"] and not tables(director)[1]["refused"]
        standings = director.call("GET", "/club/api/standings")["players"]
        assert sorted(s["played"] for s in standings) == [2, 2]
    finally:
        for process in processes:
            process.stop()
