"""The phone panel under load: a table full of phones against the waitress-served board.

``pegboard serve --sim`` runs in its own process on loopback. Eight phones follow the
live stream (/api/events) while 50 requests a second (a mix of /api/state, /healthz
and /api/score) arrive on a fixed schedule, and a signed-in phone turns a dial twice
a second so that every follower has updates to receive. Printed: request latency
p50/p99 and errors (goal: p99 < 100 ms, no errors), how long each change took to reach
every follower (goal: under 1 s), and the bytes of a first load of the page (index,
CSS, script, icon and board drawing; goal <= 150 KB).

Run: ``python -m benchmarks panel`` (60 s), or shorter:
``python -m benchmarks.bench_panel --seconds 10`` (or PEGBOARD_BENCH_SECONDS=10).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

if not __package__:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.timing import percentiles

PHONES = 8
RATE = 50  # requests a second
CHANGES_PER_SECOND = 2
WORKERS = 16  # connections the requests are spread over (phones keep theirs alive)
MIX = ("/api/state", "/healthz", "/api/score?hand=5H,5C,5S,JD&starter=5D")
GOAL_P99_MS = 100.0
GOAL_LIVE_MS = 1000.0
GOAL_FIRST_LOAD = 150 * 1024
PIN = "2468"


def start_board(folder: Path) -> tuple[subprocess.Popen, int]:
    """``pegboard serve --sim --port 0`` in a child process; its port once it answers."""
    config = folder / "config.toml"
    config.write_text(f'[board]\npin = "{PIN}"\n[pins.settings]\nbounce_time = 0.002\n')
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

    def call(self, method: str, path: str, body: object = None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json", "X-CSRF-Token": getattr(self, "csrf", "")}
        if self.cookie:
            headers["Cookie"] = self.cookie
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


class Follower(threading.Thread):
    """A phone on the live stream: when each state version arrived."""

    def __init__(self, port: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.stop = port, stop
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()
        self.error: str | None = None

    def run(self) -> None:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            connection.request("GET", "/api/events")
            response = connection.getresponse()
            event = None
            while not self.stop.is_set():
                line = response.fp.readline().decode()
                if not line:
                    raise ConnectionError("the live stream ended")
                if line.startswith("event: "):
                    event = line[7:].strip()
                elif line.startswith("data: ") and event == "state":
                    self.arrived.setdefault(json.loads(line[6:])["version"], time.monotonic())
                    self.ready.set()
            connection.close()
        except (OSError, ValueError) as error:
            if not self.stop.is_set():
                self.error = f"{type(error).__name__}: {error}"


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


def change_dials(phone: Phone, seconds: float, stop: threading.Event) -> list[tuple[int, float]]:
    """Turn seat 1's dial back and forth: (state version, when it was asked for)."""
    changes = []
    start = time.monotonic()
    for i in range(int(seconds * CHANGES_PER_SECOND)):
        if stop.wait(max(0.0, start + i / CHANGES_PER_SECOND - time.monotonic())):
            break
        asked = time.monotonic()
        status, body = phone.call(
            "POST", "/api/act/sim_turn", {"seat": 0, "steps": 1 - 2 * (i % 2)}
        )
        if status == 200:
            changes.append((body["state"]["version"], asked))
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
    sizes["/"], page = size("/")
    for asset in re.findall(r'(?:href|src)="(/[^"]+)"', page):
        sizes[asset] = size(asset)[0]
    sizes["/board.svg"] = size("/board.svg")[0]
    return sizes


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_panel")
    default = float(os.environ.get("PEGBOARD_BENCH_SECONDS", 60))
    parser.add_argument("--seconds", type=float, default=default, help="how long (60)")
    seconds = parser.parse_known_args(sys.argv[1:] if argv is None else argv)[0].seconds
    with tempfile.TemporaryDirectory() as folder:
        process, port = start_board(Path(folder))
        try:
            report(port, seconds)
        finally:
            process.terminate()
            process.wait(timeout=15)
        warnings = (Path(folder) / "stderr.log").read_text().count("Task queue depth")
    print(f"waitress queue warnings: {warnings}")


def report(port: int, seconds: float) -> None:
    print(f"machine load (1 min) at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    phone = Phone(port)
    phone.sign_in()
    status, _ = phone.call("POST", "/api/act/new_game", {"players": ["Ann", "Bob"], "dealer": 0})
    if status != 200:
        sys.exit(f"no game: {status}")
    stop = threading.Event()
    followers = [Follower(port, stop) for _ in range(PHONES)]
    for follower in followers:
        follower.start()
        if not follower.ready.wait(10):
            sys.exit("a phone got no first state")
    changes: list[tuple[int, float]] = []
    changer = threading.Thread(
        target=lambda: changes.extend(change_dials(phone, seconds, stop)), daemon=True
    )
    changer.start()
    latencies, errors = load(port, seconds)
    changer.join()
    # A change still on its way gets a second to arrive before the phones hang up.
    deadline = time.monotonic() + 1
    last = max((version for version, _ in changes), default=0)
    while time.monotonic() < deadline and not all(last in f.arrived for f in followers):
        stop.wait(0.01)
    stop.set()
    delays, missed = [], 0
    for follower in followers:
        for version, asked in changes:
            arrived = [at for v, at in follower.arrived.items() if v >= version]
            if arrived:
                delays.append((min(arrived) - asked) * 1000)
            else:
                missed += 1
    broken = [f.error for f in followers if f.error]

    p50, p99, top = percentiles(latencies, 50, 99, 100)
    print(f"{seconds:g} s on loopback: {PHONES} phones live, {RATE} requests/s ({', '.join(MIX)})")
    print(f"requests  {len(latencies):6d}  p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  max {top:6.1f} ms")
    print(f"errors    {len(errors) + len(broken):6d}  {(errors + broken)[:3]}")
    verdict = "met" if p99 < GOAL_P99_MS and not errors and not broken else "MISSED"
    print(f"p99 / goal ({GOAL_P99_MS:g} ms): {p99 / GOAL_P99_MS:.3f}  ({verdict})")
    if delays:
        l50, l99, ltop = percentiles(delays, 50, 99, 100)
        print(
            f"live      {len(changes)} changes x {PHONES} phones: p50 {l50:6.1f} ms  "
            f"p99 {l99:6.1f} ms  max {ltop:6.1f} ms  missed {missed}"
        )
        verdict = "met" if ltop < GOAL_LIVE_MS and not missed else "MISSED"
        print(
            f"slowest update / goal ({GOAL_LIVE_MS:g} ms): {ltop / GOAL_LIVE_MS:.3f}  ({verdict})"
        )
    sizes = first_load(port)
    total = sum(sizes.values())
    parts = ", ".join(f"{path} {size / 1024:.1f}" for path, size in sizes.items())
    verdict = "met" if total <= GOAL_FIRST_LOAD else "MISSED"
    print(f"first load {total / 1024:.1f} KB ({parts})")
    print(f"first load / goal (150 KB): {total / GOAL_FIRST_LOAD:.3f}  ({verdict})")


if __name__ == "__main__":
    main()
