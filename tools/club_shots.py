"""Write the club night's screenshots into docs/club/ (shown in the README): the
director's page and the room's big screen at 1920×1080 during round 4 of a 5-round night of
9 players at 4 tables (three hosted, one `pegboard serve --sim` board; one player a round
has the bye), its games pegged by the scripted players of the tests through the tables' own
APIs, and the room's screen again at the end of the same night, its standings final.

    python -m tools.club_shots

Drives Debian's chromium with Playwright (the test extra).
"""

from __future__ import annotations

import random
import tempfile
import threading
from pathlib import Path

from tests.club_players import BOARD_PIN, Director, Player, board, director_program, until
from tools.phone import ARGS, CHROMIUM, REPO

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida")
ROUNDS = 5
SCREEN = {"width": 1920, "height": 1080}
PIN = "2468"
OUT = REPO / "docs" / "club"


def night(folder: Path) -> tuple[list, str, Director, dict[str, Player]]:
    """The club and its board, 3 rounds played and the 4th half: (processes, url, the
    director, the players)."""
    sim, address = board(folder / "board")
    club, url = director_program(folder / "club", PIN, 3)
    director = Director(url, PIN, name="Dana")
    director.call("POST", "/club/api/tables", {"address": address, "pin": BOARD_PIN})
    director.call("POST", "/club/api/format", {"games": ROUNDS, "target": 121})
    players = {}
    for number, name in enumerate(NAMES):
        acc = f"{40117 + 37 * number}" if number % 3 else ""
        code = director.call("POST", "/club/api/players", {"name": name, "acc": acc})["code"]
        players[name] = Player(url, code, random.Random(number))
    for round in range(1, 5):
        director.call("POST", "/club/api/rounds", {})
        seats = until(lambda r=round: seated(director, r), "the games")
        play(players, seats[:2] if round == 4 else seats)  # round 4: two tables still playing
        if round < 4:
            until(lambda r=round: all(s["result"] for s in seated(director, r) or []), "results")
    until(lambda: sum(bool(s["result"]) for s in seated(director, 4) or []) == 2, "results")
    return [sim, club], url, director, players


def finish(director: Director, players: dict[str, Player]) -> None:
    """The rest of round 4, then the last round: the night over."""
    play(players, [s for s in seated(director, 4) or [] if not s["result"]])
    until(lambda: all(s["result"] for s in seated(director, 4) or []), "round 4's results")
    director.call("POST", "/club/api/rounds", {})
    play(players, until(lambda: seated(director, ROUNDS), "the last games"))
    until(lambda: director.call("GET", "/club/api/night")["final"], "the night's end")


def play(players: dict[str, Player], seats: list) -> None:
    """Each seat's game pegged to its end by its first player, all at once."""
    for player in players.values():
        player.table = None
    threads = [
        threading.Thread(target=players[s["players"][0]["name"]].play, args=(s["game"],))
        for s in seats
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def seated(director: Director, round: int) -> list | None:
    seats = director.call("GET", "/club/api/rounds")["rounds"][round - 1]["seats"]
    return seats if all(seat["game"] for seat in seats) else None


def main() -> None:
    from playwright.sync_api import sync_playwright

    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        processes, url, director, players = night(Path(folder))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                room = browser.new_page(viewport=SCREEN)
                room.goto(url + "/")
                room.screenshot(path=str(OUT / "room.png"))
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(url + "/director")
                page.fill("input[name=name]", "Dana")
                page.fill("input[name=pin]", PIN)
                page.click("form[data-api='/club/api/login'] button")
                page.wait_for_selector("text=Register a player")
                page.screenshot(path=str(OUT / "director.png"), full_page=True)
                finish(director, players)
                room.goto(url + "/")
                room.wait_for_selector("header .final")
                room.screenshot(path=str(OUT / "room-final.png"))
                browser.close()
        finally:
            for process in processes:
                process.stop()
    print(f"wrote room.png, room-final.png and director.png in {OUT}")


if __name__ == "__main__":
    main()
