"""The phone panel under load, against ``pegboard serve --sim`` in its own process.

Two goals, each measured on loopback for ``--seconds`` (60 by default):

1. **Many phones**: 200 phones follow the live stream (/api/events, from 10 loopback
   addresses, as phones on a LAN) while 50 requests a second (/api/state, /healthz,
   /api/score) arrive on a fixed schedule and a signed-in phone turns a dial twice a
   second. Goal: request p99 < 100 ms, no errors; every phone hears every change.
2. **A long game**: a 2,000-entry game (written to the game file before the board
   starts) at 15 writes a second (undo and redo in turn: each moves the history's end),
   8 phones following, plus the 50 requests a second. Goal: write p99 < 100 ms.

3. **Many games**: a board that keeps GAMES finished games (each a whole game of about
   a hundred entries, written before the board starts): ``/api/games`` asked LIST_CALLS
   times by one phone, then by 8 phones at once (the Game tab opened together), the board
   unchanged; then with an entry made before each list (it is made anew every time), and
   by 8 phones at once while entries come 5 a second. Goal: p99 < 50 ms. Side by side
   in one run: the list as the board makes it (the summaries the file keeps, one query)
   and as it was made past 256 games (every game replayed); and what opening the file
   costs (every game's chain checked).

Before/after, side by side in one run: what one change of the long game costs to send,
as the whole snapshot with its history (as every change was sent before) and as the
board with what the history gained (as now). Also: the bytes of a first load of the
page (goal <= 150 KB).

Run: ``python -m benchmarks panel`` or ``python -m benchmarks panel --seconds 10``
(or PEGBOARD_BENCH_SECONDS=10).
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import posixpath
import queue
import re
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

if not __package__:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.timing import option, percentiles, race

STREAMS = 200
ADDRESSES = 10  # loopback source addresses the streams come from (127.0.0.10 ...)
LONG_GAME = 2000  # history lines
LONG_PHONES = 8
WRITES = 15  # a second, in the long game
RATE = 50  # requests a second
CHANGES_PER_SECOND = 2
WORKERS = 16  # connections the requests are spread over (phones keep theirs alive)
MIX = ("/api/state", "/healthz", "/api/score?hand=5H,5C,5S,JD&starter=5D")
GOAL_P99_MS = 100.0
GOAL_FIRST_LOAD = 150 * 1024
GAMES = 1000
LIST_CALLS = 200
LIST_PHONES = 8
GOAL_LIST_P99_MS = 50.0
PIN = "246813"


def start_board(folder: Path, layout: str | None = None) -> tuple[subprocess.Popen, int]:
    """``pegboard serve --sim --port 0`` in a child process (on the default board, or
    ``layout``); its port once it answers."""
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "config.toml"
    board = f'[board]\npin = "{PIN}"\n' + (f'layout = "{layout}"\n' if layout else "")
    config.write_text(board + "[pins.settings]\nbounce_time = 0.002\n")
    command = [sys.executable, "-m", "pegboard.cli", "serve", "--sim", "--port", "0"]
    command += ["--data", str(folder / "data"), "--config", str(config)]
    with open(folder / "stderr.log", "wb") as errors:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True)
    found = re.search(r"panel at http://[^:]+:(\d+)/", process.stdout.readline())
    if found is None:
        process.kill()
        sys.exit("the board did not start: " + (folder / "stderr.log").read_text())
    return process, int(found.group(1))


class Phone:
    """One keep-alive connection with the session cookie and CSRF token of a browser."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.cookie = ""
        self.csrf = self.call("GET", "/api/session")[1]["csrf"]

    def call(
        self, method: str, path: str, body: object = None, key: str | None = None
    ) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json", "X-CSRF-Token": getattr(self, "csrf", "")}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if key is not None:
            headers["Idempotency-Key"] = key
        data = None if body is None else json.dumps(body)
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        payload = response.read()
        cookie = response.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        return response.status, json.loads(payload)

    def sign_in(self) -> None:
        self.call("POST", "/api/login", {"pin": PIN})
        self.csrf = self.call("GET", "/api/session")[1]["csrf"]


class Followers:
    """Phones on the live stream, read in a process of their own (so reading 200 streams
    does not slow the timed requests of this one): when each version reached each."""

    def __init__(self, port: int, count: int) -> None:
        context = multiprocessing.get_context("fork")
        self._stop, self._ready, self._results = context.Event(), context.Event(), context.Queue()
        self._process = context.Process(
            target=_follow, args=(port, count, self._stop, self._ready, self._results)
        )
        self._process.start()
        self.arrived: list[dict[int, float]] = []
        self.errors: list[str] = []

    def wait_ready(self) -> None:
        if not self._ready.wait(60):
            sys.exit("the phones got no first state")

    def finish(self) -> None:
        """A change still on its way gets two seconds to arrive; then they hang up."""
        time.sleep(2)
        self._stop.set()
        self.arrived, self.errors = self._results.get(timeout=60)
        self._process.join(timeout=30)

    def delays(self, changes: list[tuple[int, float]]) -> tuple[list[float], int]:
        """How long each change took to reach each phone (ms), and how many never did."""
        delays, missed = [], 0
        for arrived in self.arrived:
            for version, asked in changes:
                times = [at for v, at in arrived.items() if v >= version]
                if times:
                    delays.append((min(times) - asked) * 1000)
                else:
                    missed += 1
        return delays, missed


def _follow(port: int, count: int, stop, ready, results) -> None:
    """The phones' process: one selector over every stream."""
    selector = selectors.DefaultSelector()
    arrived: list[dict[int, float]] = [{} for _ in range(count)]
    errors: list[str] = []
    for n in range(count):
        source = f"127.0.0.{10 + n % ADDRESSES}"
        sock = socket.create_connection(("127.0.0.1", port), 10, (source, 0))
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ, [n, b""])
    while not stop.is_set():
        for key, _ in selector.select(0.2):
            n, seen = key.data
            chunk = key.fileobj.recv(1 << 16)
            if not chunk:
                errors.append(f"stream {n} ended")
                selector.unregister(key.fileobj)
                continue
            seen += chunk
            now = time.monotonic()
            for version in re.findall(rb'data: \{"version":(\d+)', seen):
                arrived[n].setdefault(int(version), now)
            key.data[1] = seen[seen.rfind(b"\n\n") + 2 :]
        if all(arrived):
            ready.set()
    results.put((arrived, errors))


def load(port: int, seconds: float) -> tuple[list[float], list[str]]:
    """RATE requests a second for ``seconds``, each timed from when it was due."""
    due: queue.Queue[tuple[float, str] | None] = queue.Queue()
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def worker() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while (job := due.get()) is not None:
            when, path = job
            time.sleep(max(0.0, when - time.monotonic()))
            try:
                connection.request("GET", path)
                response = connection.getresponse()
                response.read()
                ok = response.status == 200
            except OSError as error:
                ok, response = False, error
                connection.close()  # the next request reconnects
            took = (time.monotonic() - when) * 1000
            with lock:
                latencies.append(took)
                if not ok:
                    errors.append(f"{path}: {getattr(response, 'status', response)}")

    workers = [threading.Thread(target=worker, daemon=True) for _ in range(WORKERS)]
    for thread in workers:
        thread.start()
    start = time.monotonic() + 0.1
    for i in range(int(seconds * RATE)):
        due.put((start + i / RATE, MIX[i % len(MIX)]))
    for _ in workers:
        due.put(None)
    for thread in workers:
        thread.join()
    return latencies, errors


def change(phone: Phone, seconds: float, rate: float, actions, stop: threading.Event):
    """``rate`` changes a second, each the next of ``actions`` (action, args): (state
    version, when it was asked for, how long its answer took in ms)."""
    changes = []
    start = time.monotonic()
    for i in range(int(seconds * rate)):
        if stop.wait(max(0.0, start + i / rate - time.monotonic())):
            break
        action, args = actions[i % len(actions)]
        asked = time.monotonic()
        status, body = phone.call("POST", f"/api/act/{action}", args)
        took = (time.monotonic() - asked) * 1000
        if status == 200:
            changes.append((body["state"]["version"], asked, took))
    return changes


def first_load(port: int) -> dict[str, int]:
    """Bytes of everything a phone fetches to show the page the first time."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)

    def size(path: str) -> tuple[int, str]:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            sys.exit(f"{path} answered {response.status}")
        return len(body), body.decode("utf-8", "replace")

    sizes = {}
    sizes["/"], page = size("/")  # the board's drawing is in it
    pending = re.findall(r'(?:href|src)="(/[^"]+)"', page)
    while pending:  # each asset, and each module a module imports (not those a tab away)
        asset = pending.pop(0)
        if asset in sizes:
            continue
        sizes[asset], body = size(asset)
        if asset.endswith(".js"):
            folder = asset.rsplit("/", 1)[0]
            for module in re.findall(r'^import[^"]*"(\.[^"]+)"', body, re.M):
                pending.append(posixpath.normpath(f"{folder}/{module}"))
    return sizes


def main(argv: list[str] | None = None) -> None:
    seconds = option("bench_panel", "seconds", "PEGBOARD_BENCH_SECONDS", 60, argv)
    with tempfile.TemporaryDirectory() as folder:
        many_phones(Path(folder) / "many", seconds)
        long_game(Path(folder) / "long", seconds)
    shm = Path("/dev/shm")  # a thousand games are written faster where fsync is cheap
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as folder:
        many_games(Path(folder) / "games")


def run_board(folder: Path, scenario) -> None:
    process, port = start_board(folder)
    try:
        scenario(port)
    finally:
        process.terminate()
        process.wait(timeout=30)


def many_phones(folder: Path, seconds: float) -> None:
    def scenario(port: int) -> None:
        phone = Phone(port)
        phone.sign_in()
        phone.call("POST", "/api/act/new_game", {"players": ["Ann", "Bob"], "dealer": 0})
        stop = threading.Event()
        followers = Followers(port, STREAMS)
        followers.wait_ready()
        turns = [("sim_turn", {"seat": 0, "steps": 1}), ("sim_turn", {"seat": 0, "steps": -1})]
        changes = background(lambda: change(phone, seconds, CHANGES_PER_SECOND, turns, stop))
        latencies, errors = load(port, seconds)
        changes = changes()
        followers.finish()
        print(f"== {STREAMS} phones live + {RATE} requests/s, {seconds:g} s ==")
        report_requests("requests", latencies, errors + followers.errors)
        report_live(followers, changes, STREAMS)
        report_first_load(port)

    run_board(folder, scenario)


def long_game(folder: Path, seconds: float) -> None:
    started = time.monotonic()
    seed_long_game(folder / "data" / "games.db")
    print(f"== a {LONG_GAME}-entry game at {WRITES} writes/s + {RATE} requests/s, {seconds:g} s ==")
    print(f"(the game written in {time.monotonic() - started:.1f} s before the board starts)")
    compare_payloads(folder / "data" / "games.db")

    def scenario(port: int) -> None:
        phone = Phone(port)
        phone.sign_in()
        stop = threading.Event()
        followers = Followers(port, LONG_PHONES)
        followers.wait_ready()
        turns = [("undo", {}), ("redo", {})]
        changes = background(lambda: change(phone, seconds, WRITES, turns, stop))
        latencies, errors = load(port, seconds)
        changes = changes()
        followers.finish()
        report_requests("writes", [took for _, _, took in changes], [])
        report_requests("requests", latencies, errors + followers.errors)
        report_live(followers, changes, LONG_PHONES)

    run_board(folder, scenario)


def seed_long_game(path: Path) -> None:
    """A two-player game of LONG_GAME history lines: deals whose counts are all 0."""
    from pegboard.game import Settings, Table

    path.parent.mkdir(parents=True, exist_ok=True)
    with Table(path) as table:
        table.new_game(Settings(players=("Ann", "Bob")), dealer=0)
        while len(table.state.history) < LONG_GAME:
            table.turn_starter(None)
            table.advance()
            for _ in range(3):
                table.claim(table.state.due.seat, 0)
            table.advance()


def compare_payloads(path: Path) -> None:
    """One change of the long game as sent before (the whole snapshot, history and every
    count included) and now (the board and what the history gained), side by side."""
    from pegboard.board.layout import load_layout
    from pegboard.game import Table
    from pegboard.keeper import Change, Scorekeeper
    from pegboard.panel.live import Snapshot, _gained, event
    from pegboard.panel.view import history, snapshot

    with Table(path) as table:
        keeper = Scorekeeper(table, load_layout("two-track-121"))
        state, before = table.state, table.state_of(table.game_id, table.state.version - 1)

        def whole() -> bytes:
            view = snapshot(keeper, "en")
            view["game"]["history"] = history(state, "en")
            view["game"]["claims"] = [claim.as_dict() for claim in state.claims]
            return event("state", view)

        def gained() -> bytes:
            view = snapshot(keeper, "en")
            kept = Snapshot("a", Change("game", 1, before, ()))
            view["game"]["history"] = _gained("b", state, kept, "en")
            return event("state", view)

        times = race({"before: the whole snapshot": whole, "now: what changed": gained}, 9)
        sizes = {"before: the whole snapshot": len(whole()), "now: what changed": len(gained())}
    for name, took in times.items():
        print(f"  one change, {name:28s} {sizes[name] / 1024:8.1f} KB  {took * 1000:7.2f} ms")
    now, then = "now: what changed", "before: the whole snapshot"
    bytes_ratio, time_ratio = sizes[then] / sizes[now], times[then] / times[now]
    print(f"  ratio: {bytes_ratio:.0f}x fewer bytes, {time_ratio:.0f}x faster")


def many_games(folder: Path) -> None:
    path = folder / "data" / "games.db"
    started = time.monotonic()
    entries = seed_games(path, GAMES)
    print(
        f"== {GAMES} stored games ({entries} entries, written in "
        f"{time.monotonic() - started:.0f} s), /api/games =="
    )
    compare_listing(path)

    def scenario(port: int) -> None:
        player = Phone(port)
        player.sign_in()
        player.call("POST", "/api/act/new_game", {"players": ["Ann", "Bob"], "dealer": 0})
        player.call("POST", "/api/act/starter", {"card": "JC"})  # his heels: an entry
        entries = [("undo", {}), ("redo", {})]
        lists = {
            "unchanged, one phone": lists_of(port, 1),
            f"unchanged, {LIST_PHONES} at once": lists_of(port, LIST_PHONES),
            "an entry before each": lists_of(port, 1, player, entries, 0),
            f"{LIST_PHONES} at once, 5 entries/s": lists_of(
                port, LIST_PHONES, player, entries, 0.2
            ),
        }
        for name, latencies in lists.items():
            p50, p99, top = percentiles(latencies, 50, 99, 100)
            verdict = "met" if p99 < GOAL_LIST_P99_MS else "MISSED"
            print(
                f"/api/games, {name:24s} {len(latencies):4d}  p50 {p50:6.1f} ms"
                f"  p99 {p99:6.1f} ms  max {top:6.1f} ms  p99/goal {p99 / GOAL_LIST_P99_MS:.3f}"
                f" ({verdict})"
            )

    run_board(folder, scenario)


def lists_of(port, phones, player=None, entries=(), every=None) -> list[float]:
    """``/api/games`` asked LIST_CALLS times by ``phones`` phones at once (ms each),
    while ``player`` makes the ``entries`` in turn: before each list (``every`` 0), or
    every ``every`` seconds (None: none)."""
    latencies: list[float] = []
    lock, stop = threading.Lock(), threading.Event()

    def enter(n: int) -> None:
        action, args = entries[n % len(entries)]
        player.call("POST", f"/api/act/{action}", args)

    def open_game_tab() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for n in range(LIST_CALLS // phones):
            if every == 0:
                enter(n)
            asked = time.monotonic()
            connection.request("GET", "/api/games")
            response = connection.getresponse()
            body = response.read()  # timed to its last byte; read afterwards
            took = (time.monotonic() - asked) * 1000
            if response.status != 200 or (n == 0 and len(json.loads(body)["games"]) < GAMES):
                sys.exit(f"/api/games answered {response.status}")
            with lock:
                latencies.append(took)

    def keep_entering() -> None:
        n = 0
        while not stop.wait(every):
            enter(n)
            n += 1

    entering = threading.Thread(target=keep_entering) if every else None
    if entering:
        entering.start()
    threads = [threading.Thread(target=open_game_tab) for _ in range(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    if entering:
        entering.join()
    return latencies


def seed_games(path: Path, count: int) -> int:
    """``count`` finished two-player games, pegged by points deal after deal (the counts
    and scores of the play drawn at random, seed 2026); returns the entries written."""
    import random

    from pegboard.game import Settings, Table

    rng = random.Random(2026)
    path.parent.mkdir(parents=True, exist_ok=True)
    entries = 0
    with Table(path) as table:
        for _ in range(count):
            table.new_game(Settings(players=("Ann", "Bob"), match_games=1), dealer=0)
            while not table.state.over:
                table.turn_starter(None)
                for _ in range(rng.randint(2, 5)):
                    if not table.state.over:
                        table.claim(rng.randrange(2), rng.randint(1, 4))
                if not table.state.over:
                    table.advance()
                while not table.state.over and table.state.due is not None:
                    table.claim(table.state.due.seat, rng.choice((0, 2, 4, 6, 8, 12)))
                if not table.state.over:
                    table.advance()
            entries += table.state.version
    return entries


def compare_listing(path: Path) -> None:
    """The list of games as the board makes it (one query of the summaries) and by
    replaying every game (as past 256 games before), side by side; and the file opened."""
    from pegboard.board.layout import load_layout
    from pegboard.game import Table
    from pegboard.keeper import Scorekeeper

    with Table(path) as table:
        keeper = Scorekeeper(table, load_layout("two-track-121"))
        times = race(
            {
                "now: the summaries kept": keeper.games,
                "before: every game replayed": lambda: [
                    table.state_of(record.id) for record in table.games()
                ],
            },
            rounds=1,
        )
    opened = race({"open": lambda: Table(path).close()}, rounds=3)["open"]
    for name, took in times.items():
        print(f"  the list of {GAMES} games, {name:28s} {took * 1000:9.1f} ms")
    now, then = times["now: the summaries kept"], times["before: every game replayed"]
    print(
        f"  ratio: {then / now:.0f}x faster; opening the file (every chain checked) "
        f"{opened * 1000:.0f} ms"
    )


def background(work):
    """Run ``work`` on a thread; the returned call waits for its result."""
    result: list = []
    thread = threading.Thread(target=lambda: result.append(work()), daemon=True)
    thread.start()
    return lambda: (thread.join(), result[0])[1]


def report_requests(name: str, latencies: list[float], errors: list[str]) -> None:
    if not latencies:
        print(f"{name}: none answered; errors {errors[:3]}")
        return
    p50, p99, top = percentiles(latencies, 50, 99, 100)
    verdict = "met" if p99 < GOAL_P99_MS and not errors else "MISSED"
    print(
        f"{name:9s} {len(latencies):6d}  p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  max {top:7.1f} ms"
        f"  errors {len(errors)} {errors[:2]}  p99/goal {p99 / GOAL_P99_MS:.3f} ({verdict})"
    )


def report_live(followers: Followers, changes: list, phones: int) -> None:
    delays, missed = followers.delays([(version, asked) for version, asked, _ in changes])
    if delays:
        l50, l99, top = percentiles(delays, 50, 99, 100)
        print(
            f"live      {len(changes)} changes x {phones} phones: p50 {l50:6.1f} ms"
            f"  p99 {l99:6.1f} ms  max {top:7.1f} ms  missed {missed}"
        )


def report_first_load(port: int) -> None:
    sizes = first_load(port)
    total = sum(sizes.values())
    parts = ", ".join(f"{path} {size / 1024:.1f}" for path, size in sizes.items())
    verdict = "met" if total <= GOAL_FIRST_LOAD else "MISSED"
    print(f"first load {total / 1024:.1f} KB ({parts})")
    print(f"first load / goal (150 KB): {total / GOAL_FIRST_LOAD:.3f}  ({verdict})")


if __name__ == "__main__":
    main()
