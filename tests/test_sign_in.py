"""Sign-in nobody can block, for real on loopback: a guesser slows only its own address
(and a restart forgets none of its wrong PINs), a signed-in phone lets another in with a
one-time link (once, whatever the Idempotency-Key a replay carries), and a damaged PIN,
key, sessions, wrong-PIN, identity or pairings file stops the board in one line instead
of being written over."""

from __future__ import annotations

import http.client
import json
import threading
from pathlib import Path

import pytest
from test_startup import serve

from pegboard.panel import create_app
from pegboard.panel.server import Limits, PanelServer

PIN = "135790"


class Phone:
    """A browser on one address: its cookie, its CSRF token, its requests."""

    def __init__(self, port: int, address: str) -> None:
        self.connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=60, source_address=(address, 0)
        )
        self.cookie, self.csrf = "", ""
        self.csrf = self.call("GET", "/api/session")[1]["csrf"]

    def call(
        self, method: str, path: str, body: object = None, key: str | None = None
    ) -> tuple[int, dict, dict]:
        headers = {"Content-Type": "application/json", "X-CSRF-Token": self.csrf}
        if key is not None:
            headers["Idempotency-Key"] = key
        if self.cookie:
            headers["Cookie"] = self.cookie
        data = None if body is None else json.dumps(body)
        self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        answer = json.loads(response.read())
        if response.getheader("Set-Cookie"):
            self.cookie = response.getheader("Set-Cookie").split(";")[0]
        if isinstance(answer, dict) and "csrf" in answer:
            self.csrf = answer["csrf"]
        return response.status, answer, dict(response.getheaders())

    def sign_in(self, pin: str = PIN) -> tuple[int, dict, dict]:
        return self.call("POST", "/api/login", {"pin": pin})


class Running:
    """The panel on a real port over the board, its files in ``folder``."""

    def __init__(self, board, folder: Path) -> None:
        config = {
            "PIN": PIN,
            "SECRET_KEY": "k" * 64,
            "SESSIONS_FILE": str(folder / "sessions"),
            "TRIES_FILE": str(folder / "pin-tries"),
        }
        self.app = create_app(config, board.keeper)
        self.server = PanelServer(self.app, "127.0.0.1", 0, Limits(threads=4))
        self.thread = threading.Thread(target=self.server.run)
        self.thread.start()
        self.port = self.server.port

    def stop(self) -> None:
        self.server.stop()
        self.thread.join(timeout=60)
        assert not self.thread.is_alive()


@pytest.fixture
def panel(board, tmp_path):
    running = Running(board, tmp_path)
    yield running
    running.stop()


@pytest.mark.slow
def test_a_guesser_from_one_address_never_holds_a_player_up(panel):
    """An hour of guessing from one address, as fast as the board lets it (it waits
    each time exactly as long as it is told: the board's clock is simulated), and every
    five simulated minutes a player signs in from another address: on the first try."""
    now = [1_000_000.0]
    panel.app.extensions["pegboard.tries"].clock = lambda: now[0]
    guesser = Phone(panel.port, "127.0.8.1")
    checked = 0
    while now[0] < 1_000_000.0 + 3600:
        status, _, headers = guesser.sign_in("000000")
        if status == 429:
            now[0] += int(headers["Retry-After"])
        else:
            assert status == 401
            checked += 1
        if checked and checked % 3 == 0:
            status, answer, _ = Phone(panel.port, "127.0.8.2").sign_in()
            assert status == 200 and answer["signed_in"]
    assert 5 < checked < 40  # its own five, then slower and slower


@pytest.mark.slow
def test_wrong_pins_are_kept_across_a_restart(board, tmp_path):
    """The board's clock stands still (simulated) across the restart: what it counted
    before, it counts after."""
    now = 1_000_000.0
    first = Running(board, tmp_path)
    try:
        first.app.extensions["pegboard.tries"].clock = lambda: now
        guesser = Phone(first.port, "127.0.8.3")
        for _ in range(6):  # five free, and the sixth closes it for this address
            assert guesser.sign_in("000000")[0] == 401
        assert guesser.sign_in("000000")[0] == 429
    finally:
        first.stop()
    again = Running(board, tmp_path)  # the board restarted
    try:
        again.app.extensions["pegboard.tries"].clock = lambda: now
        status, _, headers = Phone(again.port, "127.0.8.3").sign_in("111111")
        assert status == 429 and int(headers["Retry-After"]) >= 1
        assert Phone(again.port, "127.0.8.4").sign_in()[0] == 200
    finally:
        again.stop()


def test_a_signed_in_phone_lets_another_in_with_a_one_time_link(panel):
    host = Phone(panel.port, "127.0.8.5")
    assert host.call("POST", "/api/invite", {})[0] == 401  # only a signed-in phone can
    host.sign_in()
    status, invite, _ = host.call("POST", "/api/invite", {})
    assert status == 200 and invite["seconds"] == 60
    assert invite["qr"].startswith("data:image/svg+xml")
    link, token = invite["link"].split("#join=")
    assert link == f"http://127.0.0.1:{panel.port}/"
    guest = Phone(panel.port, "127.0.8.6")
    status, answer, _ = guest.call("POST", "/api/join", {"token": token})
    assert status == 200 and answer["signed_in"]
    status, _, _ = guest.call("POST", "/api/act/new_game", {"players": ["Ann", "Bob"]})
    assert status == 200
    late = Phone(panel.port, "127.0.8.7")  # the same link again: it was good once
    status, answer, _ = late.call("POST", "/api/join", {"token": token})
    assert status == 401 and "used already or is out of date" in answer["error"]
    # The guest's request replayed by another phone, its Idempotency-Key and all.
    token = host.call("POST", "/api/invite", {})[1]["link"].split("#join=")[1]
    first = Phone(panel.port, "127.0.8.8")
    assert first.call("POST", "/api/join", {"token": token}, key="join-1")[0] == 200
    assert first.call("POST", "/api/join", {"token": token}, key="join-1")[0] == 200  # its retry
    replayed = Phone(panel.port, "127.0.8.9")
    status, answer, _ = replayed.call("POST", "/api/join", {"token": token}, key="join-1")
    assert status == 401 and "used already" in answer["error"]
    assert replayed.call("GET", "/api/session")[1]["signed_in"] is False
    # A link not used within its minute lets no one in.
    now = [0.0]
    panel.app.extensions["pegboard.invites"].clock = lambda: now[0]
    token = host.call("POST", "/api/invite", {})[1]["link"].split("#join=")[1]
    now[0] += 61
    assert late.call("POST", "/api/join", {"token": token})[0] == 401


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "damage", "said"),
    [
        ("pin", b"12ab\n", "the PIN file {path} is damaged: it holds no PIN of 4 to 8 digits."),
        ("secret", b"short\n", "the key file {path} is damaged: it holds no key of 32"),
        ("sessions", b'{"epoch": "x", "sess', "the sessions file {path} is damaged ("),
        ("pin-tries", b"\xff\xfe", "the wrong-PIN file {path} is damaged ("),
        ("identity", b"abcd\n", "the board's identity file {path} is damaged ("),
        ("pairings", b'{"epoch": "x", "keys": {"a": "00"}}', "the board's key file {path} is"),
    ],
)
def test_a_damaged_file_of_the_board_stops_it_in_one_line_and_is_kept(tmp_path, name, damage, said):
    """The tester's ``printf 12ab > DATA/pin``, and the like for the other files: the
    board does not start, says which file and what to do, and writes nothing."""
    data = tmp_path / "data"
    data.mkdir()
    (data / name).write_bytes(damage)
    line = serve(tmp_path, "--data", str(data), "--port", "0")
    assert line.startswith(said.format(path=data / name)) and "Nothing was changed: " in line
    assert [p.name for p in data.iterdir()] == [name]  # no PIN, key or game file made
    assert (data / name).read_bytes() == damage
