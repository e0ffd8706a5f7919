"""The season across nights: the director closes a night and opens the next; the
season's standings add up each player's nights (the same player by ACC number, else by
name) and rank the club's champion race by the season points each night's place earned
(the club's table of Grass Roots points, a setting), then by the night's tie-breaks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.club_players import Director, Process, director_program, until

PIN = "9753"
pytestmark = [pytest.mark.slow, pytest.mark.subprocess]


def play_night(director: Director, players: list[tuple[str, str]], won: dict[str, int]) -> None:
    """A night of one round at two hosted tables, its results given by the director:
    ``won`` says who won and by how much."""
    for _ in range(2):
        director.call("POST", "/club/api/tables", {})
    director.call(
        "POST", "/club/api/format", {"games": 1, "grass_roots": [5, 3], "grass_roots_least": 0}
    )
    numbers = {}
    for name, acc in players:
        numbers[name] = director.call("POST", "/club/api/players", {"name": name, "acc": acc})
    director.call("POST", "/club/api/rounds", {})
    seats = until(
        lambda: all(s["game"] for s in seats_of(director)) and seats_of(director), "games"
    )
    for seat in seats:
        winner = next(p for p in seat["players"] if p["name"] in won)
        director.call(
            "POST",
            "/club/api/corrections",
            {"round": 1, "table": seat["table"], "winner": winner["player"],
             "margin": won[winner["name"]], "why": "scorecards"},
        )  # fmt: skip


def seats_of(director: Director) -> list[dict[str, Any]]:
    return list(director.call("GET", "/club/api/rounds")["rounds"][0]["seats"])


def test_the_season_adds_up_each_players_nights(tmp_path: Path) -> None:
    club: Process | None = None
    try:
        club, url = director_program(tmp_path / "club", PIN)
        director = Director(url, PIN)
        first = [("Ann", "A1"), ("Bob", ""), ("Cat", ""), ("Dan", "")]
        # who meets whom is drawn: give every player a margin, the winner's counts
        play_night(director, first, {"Ann": 40, "Bob": 10, "Cat": 20, "Dan": 5})
        director.call("POST", "/club/api/nights", {})
        night = director.call("GET", "/club/api/night")
        assert (night["night"], night["round"], night["players"], night["tables"]) == (2, 0, 0, 0)
        # Ann comes back under another spelling of her name, known by her ACC number
        second = [("Ann Lee", "A1"), ("bob", ""), ("Cat", ""), ("Eve", "")]
        play_night(director, second, {"Ann Lee": 35, "bob": 15, "Cat": 25, "Eve": 1})
        season = director.call("GET", "/club/api/season")
        assert season["nights"] == 2
        rows = {s["name"]: s for s in season["players"]}
        assert set(rows) == {"Ann", "Bob", "Cat", "Dan", "Eve"}
        assert rows["Ann"]["nights"] == rows["Bob"]["nights"] == 2 == rows["Cat"]["nights"]
        assert rows["Eve"]["nights"] == rows["Dan"]["nights"] == 1
        nights = [first, second]
        for name in rows:
            played = sum(any(n.casefold() == name.casefold() or (name == "Ann" and a == "A1")
                             for n, a in night) for night in nights)  # fmt: skip
            assert rows[name]["wins"] + rows[name]["losses"] == played
        total = sum(s["points"] for s in season["players"])
        skunks = sum(s["skunks"] for s in season["players"])
        assert total == 4 * 2 + skunks  # 2 games a night, 2 game points a win, 3 a skunk
        assert sum(s["spread"] for s in season["players"]) == 0
        places = [s["grass_roots"] for s in season["players"]]
        assert places == sorted(places, reverse=True) and sum(places) == 2 * (5 + 3)
    finally:
        if club is not None:
            club.stop()
