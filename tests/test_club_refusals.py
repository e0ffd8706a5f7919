"""What the club refuses, each time with one clear line and nothing changed: a player
registered twice, a board paired twice (or with a wrong PIN), a round drawn before the
last one ended, a result for a table not in the night, a wrong director's PIN (and a
change sent without signing in); and a board's log whose stored events were edited,
refused with the table named and nothing counted from it, until the director corrects
the result (an event that shows who made it)."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.club_players import (
    BOARD_PIN,
    Client,
    Director,
    Player,
    Process,
    Refused,
    board,
    director_program,
    until,
)

NIGHT_PIN = "8642"
pytestmark = [pytest.mark.slow, pytest.mark.subprocess]


@pytest.fixture
def night(tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    """A club with two hosted tables and a --sim board (not yet paired): the club's
    address, the board's, and the board's game file."""
    processes: list[Process] = []
    try:
        sim, address = board(tmp_path / "board")
        processes.append(sim)
        club, url = director_program(tmp_path / "club", NIGHT_PIN, tables=2)
        processes.append(club)
        yield url, address, tmp_path / "board/data/games.db"
    finally:
        for process in processes:
            process.stop()


def everything(url: str) -> dict[str, Any]:
    """All a watcher can read of the night (its version counts the events stored)."""
    watcher = Client(url)
    return {
        path: watcher.call("GET", f"/club/api/{path}")
        for path in ("night", "standings", "tables", "rounds")
    }


def refused(call: Any, status: int, said: str) -> None:
    with pytest.raises(Refused) as caught:
        call()
    assert (caught.value.status, caught.value.error) == (status, said)


def test_bad_input_is_refused_clearly_and_changes_nothing(night: tuple[str, str, Path]) -> None:
    url, address, _ = night
    director = Director(url, NIGHT_PIN)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        director.call("POST", "/club/api/players", {"name": name})
    port = address.rsplit(":", 1)[1]
    refused(
        lambda: director.call("POST", "/club/api/tables", {"address": address, "pin": "0000"}),
        409,
        f"the board at {address} answered: wrong PIN",  # no table 3 yet: it is not paired
    )
    director.call("POST", "/club/api/tables", {"address": address, "pin": BOARD_PIN})
    director.call("POST", "/club/api/rounds", {})
    until(lambda: all(s["game"] for s in seats(director)), "round 1's games to start")
    before = everything(url)
    post = director.call
    refusals = [
        (lambda: post("POST", "/club/api/players", {"name": " ann "}), 409,
         "Ann is registered already"),
        (lambda: post("POST", "/club/api/tables", {"address": f"127.0.0.1:{port}/",
                                                   "pin": BOARD_PIN}), 409,
         f"the board at {address} is table 3 already"),
        (lambda: post("POST", "/club/api/rounds", {}), 409,
         "round 1 is still being played: 2 games left"),
        (lambda: post("POST", "/club/api/corrections", {"round": 1, "table": 9, "winner": 1,
                                                        "margin": 5, "why": "said so"}), 409,
         "tonight has no table 9"),
        (lambda: post("POST", "/club/api/format", {"games": 7}), 409,
         "the format is set before the first round is drawn"),
        (lambda: Director(url, "1111"), 401, "wrong PIN"),
        (lambda: anonymous(url).call("POST", "/club/api/players", {"name": "Eve"}), 401,
         "enter the night's PIN first"),
        (lambda: anonymous(url, csrf=False).call("POST", "/club/api/rounds", {}), 403,
         "missing or wrong CSRF token: reload the page"),
    ]  # fmt: skip
    for call, status, said in refusals:
        refused(call, status, said)
        assert everything(url) == before, said
    assert before["night"]["version"] == director.call("GET", "/club/api/night")["version"]


def anonymous(url: str, csrf: bool = True) -> Client:
    """A browser at the club that has not signed in (with its CSRF token, or without)."""
    client = Client(url)
    if csrf:
        client.csrf = client.call("GET", "/club/api/session")["csrf"]
    return client


def seats(club: Client, round: int = 1) -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = club.call("GET", "/club/api/rounds")["rounds"]
    return list(rounds[round - 1]["seats"])


def test_a_tampered_log_is_refused_and_named(night: tuple[str, str, Path]) -> None:
    url, address, games = night
    director = Director(url, NIGHT_PIN, name="Dana")
    director.call("POST", "/club/api/format", {"target": 61})
    players = {}
    for number, name in enumerate(("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")):
        code = director.call("POST", "/club/api/players", {"name": name})["code"]
        players[name] = Player(url, code, random.Random(number))
    director.call("POST", "/club/api/tables", {"address": address, "pin": BOARD_PIN})
    director.call("POST", "/club/api/rounds", {})  # tables 1 and 2 hosted, 3 the board
    until(lambda: all(s["game"] for s in seats(director)), "round 1's games to start")
    at = {s["table"]: (players[s["players"][0]["name"]], s["game"]) for s in seats(director)}
    player, game = at[3]
    player.play(game, stop_after=8)
    with sqlite3.connect(games) as db:  # a claim made 2 points more, in the board's own file
        version, data = db.execute(
            "SELECT version, data FROM events WHERE game = ? AND type = 'Claimed' "
            "ORDER BY version LIMIT 1",
            (game,),
        ).fetchone()
        claim = json.loads(data)
        claim["points"] += 2
        db.execute(
            "UPDATE events SET data = ? WHERE game = ? AND version = ?",
            (json.dumps(claim), game, version),
        )
    for someone, number in at.values():
        someone.play(number)
    table = until(lambda: refusal(director), "the board's log", 20)
    assert table["error"] is None  # it answers; it is its log that is not counted
    assert table["refused"].startswith(f"table 3: the log of its game {game} is refused: ")
    said = f"its entries no longer chain from entry {version} on: the log was changed on the board"
    assert said in table["refused"]
    assert "games.db" not in table["refused"]  # the director's own words, not the board's
    until(lambda: all(s["result"] for s in seats(director) if s["table"] != 3), "tables 1, 2")
    board_seat = next(s for s in seats(director) if s["table"] == 3)
    assert board_seat["result"] is None
    names = {p["name"] for p in board_seat["players"]}
    standings = director.call("GET", "/club/api/standings")["players"]
    assert {s["name"]: s["played"] for s in standings if s["name"] in names} == dict.fromkeys(
        names, 0
    )
    refused(
        lambda: director.call("POST", "/club/api/rounds", {}),
        409,
        "round 1 is still being played: 1 game left",
    )
    winner = board_seat["players"][1]
    director.call(
        "POST",
        "/club/api/corrections",
        {"round": 1, "table": 3, "winner": winner["player"], "margin": 12,
         "why": "the scorecards say so"},
    )  # fmt: skip
    result = seats(director)[2]["result"]
    assert (result["winner"], result["margin"]) == (winner, 12)
    assert (result["corrected_by"], result["why"]) == ("Dana", "the scorecards say so")
    standings = director.call("GET", "/club/api/standings")["players"]
    assert next(s for s in standings if s["name"] == winner["name"])["card"] == "2/1"
    director.call("POST", "/club/api/rounds", {})  # the night goes on


def refusal(director: Director) -> dict[str, Any] | None:
    tables = director.call("GET", "/club/api/tables")["tables"]
    return next((t for t in tables if t["table"] == 3 and t["refused"]), None)
