"""A long evening at the board: ``pegboard serve --sim`` in its own process for
``--minutes`` (60 by default) while a signed-in phone pegs ENTRIES_PER_SECOND entries a
second, game after game (by points: the starter, the play's scores, the counts, now and
then an undo), PHONES phones follow the live stream (each taking it up again, without a
gap, when the board ends it), and the page's reads come in (the board each second, the
list of games and a page of history every few seconds).

Each minute: the service's resident memory (VmRSS), its threads and open files, the game
file's size and the entries made. Goal: the resident memory at the end within 5 MB of
the memory at minute 5 (what the board holds does not grow with the entries).

Run: ``python -m benchmarks soak`` (or ``--minutes 10``; PEGBOARD_SOAK_MINUTES=10).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import re
import selectors
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

if not __package__:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_panel import Phone, start_board
from benchmarks.timing import option

ENTRIES_PER_SECOND = 5
PHONES = 8
BASELINE_MINUTE = 5
GOAL_MB = 5.0


def main(argv: list[str] | None = None) -> None:
    minutes = option("bench_soak", "minutes", "PEGBOARD_SOAK_MINUTES", 60, argv)
    with tempfile.TemporaryDirectory() as folder:
        soak(Path(folder), minutes)


def soak(folder: Path, minutes: float) -> None:
    process, port = start_board(folder)
    stop = threading.Event()
    context = multiprocessing.get_context("fork")
    follow_stop, resumed = context.Event(), context.Value("i", 0)
    followers = context.Process(target=_follow, args=(port, PHONES, follow_stop, resumed))
    try:
        followers.start()
        made = [0]
        refused = [0]
        threads = [
            threading.Thread(target=_peg, args=(port, stop, made, refused), daemon=True),
            threading.Thread(target=_read, args=(port, stop), daemon=True),
        ]
        for thread in threads:
            thread.start()
        print(f"== {minutes:g} minutes at {ENTRIES_PER_SECOND} entries/s, {PHONES} phones live ==")
        print("minute  RSS MB  threads  files  game file KB  entries  streams taken up again")
        rows = []
        started = time.monotonic()
        for minute in range(1, int(minutes) + 1):
            time.sleep(max(0.0, started + minute * 60 - time.monotonic()))
            row = (
                minute,
                _status(process.pid, "VmRSS") / 1024,
                _status(process.pid, "Threads"),
                len(os.listdir(f"/proc/{process.pid}/fd")),
                (folder / "data" / "games.db").stat().st_size // 1024,
                made[0],
                resumed.value,
            )
            rows.append(row)
            print("{:6d}  {:6.1f}  {:7d}  {:5d}  {:12d}  {:7d}  {:6d}".format(*row), flush=True)
        stop.set()
        follow_stop.set()
        followers.join(timeout=60)
        report(rows, refused[0])
    finally:
        stop.set()
        follow_stop.set()
        process.terminate()
        process.wait(timeout=30)


def report(rows: list[tuple], refused: int) -> None:
    if len(rows) <= BASELINE_MINUTE:
        print("too short for the goal (it compares the end with minute 5)")
        return
    base, end = rows[BASELINE_MINUTE - 1], rows[-1]
    grown = end[1] - base[1]
    per_entry = grown * 1024 * 1024 / max(1, end[5] - base[5])
    verdict = "met" if abs(grown) <= GOAL_MB else "MISSED"
    print(
        f"RSS minute {BASELINE_MINUTE} {base[1]:.1f} MB, minute {end[0]} {end[1]:.1f} MB: "
        f"{grown:+.1f} MB over {end[5] - base[5]} entries ({per_entry:+.0f} bytes an entry); "
        f"goal within {GOAL_MB:g} MB ({verdict}); threads {base[2]} -> {end[2]}, "
        f"files {base[3]} -> {end[3]}; refused entries {refused}"
    )


def _status(pid: int, field: str) -> int:
    text = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(rf"^{field}:\s+(\d+)", text, re.MULTILINE).group(1))


def _peg(port: int, stop: threading.Event, made: list[int], refused: list[int]) -> None:
    """The signed-in phone: ENTRIES_PER_SECOND entries a second, on a fixed schedule."""
    rng = random.Random(2026)
    phone = Phone(port)
    phone.sign_in()
    game = None
    start = time.monotonic()
    while not stop.wait(max(0.0, start + made[0] / ENTRIES_PER_SECOND - time.monotonic())):
        action, args = _next_entry(game, rng)
        key = f"soak-{made[0]}-{rng.getrandbits(32)}"
        status, body = phone.call("POST", f"/api/act/{action}", args, key=key)
        if status in (200, 409) and body.get("state"):
            game = body["state"]["game"]
        if status == 200:
            made[0] += 1
        else:
            refused[0] += 1
            made[0] += 1  # keep the schedule


def _next_entry(game: dict | None, rng: random.Random) -> tuple[str, dict]:
    """An entry that fits the game as the phone last saw it (by points)."""
    if game is None or (game["winner"] is not None and game["match"]["winner"] is not None):
        return "new_game", {"players": ["Ann", "Bob"], "match_games": 1, "dealer": 0}
    seen = {"version": game["version"]}
    if game["winner"] is not None:
        return "next_game", seen
    if game["can_undo"] and rng.random() < 0.03:
        return "undo", seen
    due = game["due"]
    if game["phase"] == "discard":
        return "starter", {"heels": False, **seen}
    if game["phase"] == "play":
        if rng.random() < 0.3:
            return "advance", seen
        return "claim", {"seat": rng.randrange(2), "points": rng.randint(1, 4), **seen}
    if due is None:
        return "advance", seen
    points = rng.choice((0, 2, 4, 6, 8, 12))
    return "claim", {"seat": due["seat"], "points": points, **seen}


def _read(port: int, stop: threading.Event) -> None:
    """The pages' reads: the board each second, the games and history every 10 s."""
    phone = Phone(port)
    tick = 0
    while not stop.wait(1.0):
        phone.call("GET", "/api/state")
        tick += 1
        if tick % 10 == 0:
            phone.call("GET", "/api/games")
            phone.call("GET", "/api/history?start=0")


def _follow(port: int, count: int, stop, resumed) -> None:
    """The phones on the live stream: each takes it up again when the board ends it,
    saying the last message it had (``Last-Event-ID``), as a browser does."""
    selector = selectors.DefaultSelector()
    last: dict[int, str] = {}

    def connect(n: int) -> None:
        sock = socket.create_connection(("127.0.0.1", port), 10, (f"127.0.0.{10 + n}", 0))
        since = f"Last-Event-ID: {last[n]}\r\n" if n in last else ""
        sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: localhost\r\n{since}\r\n".encode())
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, [n, b""])

    for n in range(count):
        connect(n)
    while not stop.is_set():
        for key, _ in selector.select(0.5):
            n, seen = key.data
            try:
                chunk = key.fileobj.recv(1 << 16)
            except OSError:
                chunk = b""
            if not chunk:  # the board ended the stream: take it up again
                selector.unregister(key.fileobj)
                key.fileobj.close()
                time.sleep(0.5)
                connect(n)
                with resumed.get_lock():
                    resumed.value += 1
                continue
            seen += chunk
            for tag in re.findall(rb"id: ([^\r\n]+)\n", seen):
                last[n] = tag.decode()
            key.data[1] = seen[-4096:]


if __name__ == "__main__":
    main()
