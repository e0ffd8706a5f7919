"""`pegboard serve --sim`: the real panel server, live updates to many phones, clean stop."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import urllib.request
from http.cookiejar import CookieJar

import pytest

PHONES = 8


@pytest.fixture
def server(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[board]\npin = "1357"\n[pins.settings]\nbounce_time = 0.002\n')
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pegboard.cli",
            "serve",
            "--sim",
            "--port",
            "0",
            "--data",
            str(tmp_path / "data"),
            "--config",
            str(config),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    match = re.search(r"panel at http://[^/]+:(\d+)/", line)
    assert match, line + process.stderr.read()
    yield process, int(match.group(1)), tmp_path
    if process.poll() is None:
        process.kill()
        process.wait()


class Phone:
    """A browser's view: cookies, the CSRF token, JSON calls."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.csrf = self.call("GET", "/api/session")["csrf"]

    def call(self, method: str, path: str, body: object = None) -> dict:
        request = urllib.request.Request(
            self.base + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "X-CSRF-Token": getattr(self, "csrf", "")},
        )
        with self.opener.open(request, timeout=10) as response:
            return json.load(response)


def follow(port: int, seen: list, ready: threading.Event, wanted: int) -> None:
    """Read the live stream until a state of version >= ``wanted`` arrives."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/api/events")
    response = connection.getresponse()
    event = None
    while True:
        line = response.fp.readline().decode()
        if line.startswith("event: "):
            event = line[7:].strip()
        elif line.startswith("data: ") and event == "state":
            version = json.loads(line[6:])["version"]
            ready.set()
            if version >= wanted:
                seen.append(version)
                connection.close()
                return


@pytest.mark.slow
@pytest.mark.subprocess
def test_phones_follow_live_and_sigterm_stops_cleanly(server):
    process, port, tmp_path = server
    phone = Phone(port)
    assert phone.call("GET", "/healthz")["ok"]
    phone.call("POST", "/api/login", {"pin": "1357"})
    phone.csrf = phone.call("GET", "/api/session")["csrf"]
    version = phone.call("GET", "/api/state")["version"]

    seen: list[int] = []
    readers = []
    for _ in range(PHONES):
        ready = threading.Event()
        reader = threading.Thread(target=follow, args=(port, seen, ready, version + 1))
        reader.start()
        assert ready.wait(10), "a phone got no first state"
        readers.append(reader)
    phone.call("POST", "/api/act/new_game", {"players": ["Ann", "Bob"], "dealer": 0})
    for reader in readers:
        reader.join(timeout=10)
    assert len(seen) == PHONES, "every phone sees the new game"

    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=15) == 0
    assert os.path.getsize(tmp_path / "data" / "games.db") > 0
    # The game survives the restart.
    from pegboard.game import Table

    with Table(tmp_path / "data" / "games.db") as table:
        assert table.state.players == ("Ann", "Bob")
