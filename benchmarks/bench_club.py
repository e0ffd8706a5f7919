"""A club night at full size, and a national's hall, each against `pegboard club` in its
own process on loopback.

1. **A 40-table night**: 80 players at 40 real pegboard tables (36 hosted by the club,
   4 `pegboard serve --sim` boards paired by PIN), ``--rounds`` rounds (9 by default) of
   games to 121, each pegged to its end by a scripted player through the table's own
   panel API (tests/club_players.py), all tables at once. Measured: every result in (and
   stored once); from each game's last count to its result in the standings (a watcher
   asks ``/club/api/rounds`` every 0.1 s: that is its resolution), p50/p99, hosted and
   boards apart (boards are asked every 2 s, the default ``--poll``); what a standings
   request takes while the night is played; the director's CPU (it serves the 36 hosted
   tables too) and its peak memory.
2. **A 300-table hall** (an ACC national's size): 600 players, 300 boards by a load
   generator that speaks the board's side of the protocol (benchmarks/club_hall.py: the
   games' logs are those of part 1, renamed and chained again, so the club replays real
   games), each game over 20 to 60 s after it starts; ``--hall-rounds`` rounds (3).
   Measured as in 1, with the director's CPU, memory and requests a second, side by
   side: the director asking every board every 2 s (``--follow poll``, as clubs did
   before) and following each board's live stream (``--follow stream``, the default).

Run: ``python -m benchmarks club`` (``--rounds 2 --hall-rounds 1`` for a short look;
``--follow stream`` for the hall's second half only).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

if not __package__:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import club_hall
from benchmarks.timing import percentiles
from pegboard.game import Table
from tests.club_players import (
    BOARD_PIN,
    Client,
    Director,
    Player,
    Process,
    board,
    director_program,
    until,
)

PIN = "2468"
HOSTED, BOARDS = 36, 4
HALL = 300
LOOK = 0.1  # seconds between two looks of the watcher
TICK = os.sysconf("SC_CLK_TCK")


class Usage:
    """CPU seconds and memory of a process, from /proc."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.wall, self.cpu = time.monotonic(), self.seconds()

    def seconds(self) -> float:
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK

    def report(self) -> dict[str, float]:
        status = dict(
            line.split(":", 1) for line in Path(f"/proc/{self.pid}/status").read_text().splitlines()
        )
        return {
            "cpu": (self.seconds() - self.cpu) / (time.monotonic() - self.wall),
            "peak_mb": int(status["VmHWM"].split()[0]) / 1024,
            "threads": int(status["Threads"]),
        }


class Watcher(threading.Thread):
    """Asks the club for its rounds every LOOK seconds: when each result was first seen,
    and how long each standings request took."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.client, self.seen = Client(url), {}
        self.asked: list[float] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(LOOK):
            rounds = self.client.call("GET", "/club/api/rounds")["rounds"]
            now = time.time()
            for number in rounds:
                for seat in number["seats"]:
                    if seat["result"] is not None:
                        self.seen.setdefault((number["round"], seat["table"]), now)
            start = time.perf_counter()
            self.client.call("GET", "/club/api/standings")
            self.asked.append(time.perf_counter() - start)


def night(folder: Path, rounds: int) -> list[Path]:
    """Part 1; the hosted tables' game files."""
    processes: list[Process] = []
    try:
        boards = [board(folder / f"board{n}") for n in range(BOARDS)]
        processes += [process for process, _ in boards]
        club, url = director_program(folder / "club", PIN, HOSTED, "--poll", "2")  # streams
        processes.append(club)
        director = Director(url, PIN)
        for _, address in boards:
            director.call("POST", "/club/api/tables", {"address": address, "pin": BOARD_PIN})
        director.call("POST", "/club/api/format", {"games": rounds})
        players = {}
        for number in range(2 * (HOSTED + BOARDS)):
            code = director.call("POST", "/club/api/players", {"name": f"P{number}"})["code"]
            players[f"P{number}"] = Player(url, code, random.Random(number))
        kinds = {t["table"]: t["kind"] for t in director.call("GET", "/club/api/tables")["tables"]}
        usage, watcher, ended = Usage(club.process.pid), Watcher(url), {}
        watcher.start()
        for number in range(1, rounds + 1):
            director.call("POST", "/club/api/rounds", {})
            seats = until(lambda n=number: started(director, n), "the games", 120)
            threads = [
                threading.Thread(target=peg, args=(players, seat, number, ended)) for seat in seats
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            until(lambda n=number: finished(director, n), "results", 120)
        time.sleep(2 * LOOK)
        watcher.stop.set()
        used = usage.report()
        stored = counted(folder / "club/club.db")
        report(
            f"{HOSTED + BOARDS}-table night, {rounds} rounds", ended, watcher, used, kinds, stored
        )
    finally:
        for process in processes:
            process.stop()
    return sorted((folder / "club").glob("night-*/table-*/games.db"))


def started(director: Director, round: int) -> list[dict[str, Any]] | None:
    seats = director.call("GET", "/club/api/rounds")["rounds"][round - 1]["seats"]
    return seats if all(seat["game"] is not None for seat in seats) else None


def finished(director: Director, round: int) -> bool:
    seats = director.call("GET", "/club/api/rounds")["rounds"][round - 1]["seats"]
    return all(seat["result"] is not None for seat in seats)


def peg(players: dict[str, Player], seat: dict[str, Any], round: int, ended: dict) -> None:
    player = players[seat["players"][0]["name"]]
    player.table = None
    player.play(seat["game"])
    ended[round, seat["table"]] = time.time()


def counted(path: Path) -> tuple[int, int]:
    """Results stored in the club's file, and how many distinct (table, game) they are."""
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT data FROM events WHERE type = 'GameCounted'").fetchall()
    keys = {tuple(json.loads(d)[k] for k in ("table", "game")) for (d,) in rows}
    return len(rows), len(keys)


def hall(folder: Path, rounds: int, files: list[Path], played: int, follow: str) -> None:
    """Part 2, its games those ``played`` at each table of ``files``; the boards
    followed as ``follow`` says."""
    logs = []
    for path in files:
        table = Table(path)
        logs += [table.log(game).as_dict() for game in range(1, played + 1)]
        table.close()
    ours, theirs = multiprocessing.Pipe()
    generator = multiprocessing.Process(
        target=club_hall.run, args=(theirs, HALL, logs, (20.0, 60.0)), daemon=True
    )
    generator.start()
    ports = ours.recv()
    club = None
    try:
        more = ("--poll", "2", "--follow", follow)
        club, url = director_program(folder / f"hall-{follow}", PIN, 0, *more)
        director = Director(url, PIN)
        start = time.perf_counter()
        for port in ports:
            address = f"http://127.0.0.1:{port}"
            director.call("POST", "/club/api/tables", {"address": address, "pin": club_hall.PIN})
        paired = time.perf_counter() - start
        director.call("POST", "/club/api/format", {"games": rounds})
        start = time.perf_counter()
        for number in range(2 * HALL):
            director.call("POST", "/club/api/players", {"name": f"P{number}"})
        registered = time.perf_counter() - start
        said = f"{HALL} boards paired in {paired:.1f} s, {2 * HALL} players in {registered:.1f} s"
        print(f"hall: {said}")
        tables = director.call("GET", "/club/api/tables")["tables"]
        port_of = {t["table"]: int(t["address"].rsplit(":", 1)[1]) for t in tables}
        usage, watcher = Usage(club.process.pid), Watcher(url)
        watcher.start()
        for number in range(1, rounds + 1):
            director.call("POST", "/club/api/rounds", {})
            until(lambda n=number: finished(director, n), "results", 300)
        time.sleep(2 * LOOK)
        watcher.stop.set()
        used = usage.report()
        ours.send("done")
        over, requests = ours.recv()
        games = {}
        for r in director.call("GET", "/club/api/rounds")["rounds"]:
            for seat in r["seats"]:
                games[r["round"], seat["table"]] = over[port_of[seat["table"]], seat["game"]]
        used["requests_per_s"] = requests / (time.monotonic() - usage.wall)
        stored = counted(folder / f"hall-{follow}/club.db")
        title = f"{HALL}-table hall, {rounds} rounds, boards followed by --follow {follow}"
        report(title, games, watcher, used, {}, stored)
    finally:
        if club is not None:
            club.stop()
        generator.join(timeout=30)


def report(
    title: str,
    ended: dict[tuple[int, int], float],
    watcher: Watcher,
    used: dict[str, float],
    kinds: dict[int, str],
    stored: tuple[int, int],
) -> None:
    seen, seats = len(watcher.seen), len(ended)
    print(f"{title}: {seen} of {seats} results in; stored {stored[0]} ({stored[1]} distinct)")
    groups: dict[str, list[float]] = {}
    for key, end in ended.items():
        kind = kinds.get(key[1], "board")
        groups.setdefault(kind, []).append(watcher.seen[key] - end)
    for kind, waits in sorted(groups.items()):
        p50, p99, most = percentiles(waits, 50, 99, 100)
        said = f"p50 {p50:.2f} s  p99 {p99:.2f} s  max {most:.2f} s"
        print(f"  game over -> in the standings, {kind} ({len(waits)}): {said}")
    p50, p99 = percentiles(watcher.asked, 50, 99)
    asked = len(watcher.asked)
    print(f"  GET /club/api/standings ({asked}): p50 {p50 * 1e3:.1f} ms  p99 {p99 * 1e3:.1f} ms")
    extra = f", {used['requests_per_s']:.0f} board requests/s" if "requests_per_s" in used else ""
    print(
        f"  director: CPU {used['cpu'] * 100:.0f}% of a core, peak memory "
        f"{used['peak_mb']:.0f} MB, {used['threads']:.0f} threads{extra}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks club")
    parser.add_argument("--rounds", type=int, default=9, help="rounds of the 40-table night")
    parser.add_argument("--hall-rounds", type=int, default=3, help="rounds of the 300-table hall")
    parser.add_argument("--follow", choices=("both", "poll", "stream"), default="both")
    args = parser.parse_known_args()[0]
    print(f"machine load (1 min) at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as folder:
        files = night(Path(folder), args.rounds)
        for follow in ("poll", "stream") if args.follow == "both" else (args.follow,):
            hall(Path(folder), args.hall_rounds, files, args.rounds, follow)


if __name__ == "__main__":
    main()
