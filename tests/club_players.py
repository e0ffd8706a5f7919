"""Scripted club players for tests and the benchmark: each plays a game at a table
through the table's own panel API (a phone's requests: a one-time join link, its CSRF
token, an Idempotency-Key per entry, retried while the table is away), and the director's
calls to the club's API.

A game is pegged fast: the starter turned (no jack), the play ended at once, each count
claimed as the script deals it; now and then the dealer's hand is shown with its cards
and a starter that make it 29 (a special hand only the cards prove).
"""

from __future__ import annotations

import json
import random
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

TOTALS = (0, 2, 4, 6, 8, 10, 12, 14, 16, 20, 24)  # claims without cards
TWENTY_NINE = ("5H", "5C", "5S", "JD")  # with the starter 5D
BOARD_PIN = "1357"  # the --sim boards' PIN
AWAY = (urllib.error.URLError, ConnectionError, TimeoutError, OSError)


class Refused(Exception):
    """The table or the club said no: ``status`` and ``error`` say what."""

    def __init__(self, status: int, error: str) -> None:
        super().__init__(f"{status}: {error}")
        self.status, self.error = status, error


class Client:
    """A browser's view of one site: its cookies and CSRF token, JSON calls; calls are
    tried again while the site is away (``patience`` seconds)."""

    def __init__(self, base: str, patience: float = 60.0) -> None:
        self.base, self.patience, self.csrf = base.rstrip("/"), patience, ""
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def call(self, method: str, path: str, body: object = None, key: str | None = None) -> Any:
        deadline = time.monotonic() + self.patience
        while True:
            try:
                return self._once(method, path, body, key)
            except AWAY:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)  # the table or the club is restarting: knock again soon

    def _once(self, method: str, path: str, body: object, key: str | None) -> Any:
        headers = {"Content-Type": "application/json", "X-CSRF-Token": self.csrf}
        if key is not None:
            headers["Idempotency-Key"] = key
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with self.opener.open(request, timeout=10) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            if error.code >= 500:
                raise ConnectionError(error.code) from None
            said = json.loads(error.read() or b"{}")
            raise Refused(error.code, said.get("error", "")) from None


class Director(Client):
    """The director at the club's API, signed in with the night's PIN."""

    def __init__(self, base: str, pin: str, name: str = "Dana") -> None:
        super().__init__(base)
        self.csrf = self.call("GET", "/club/api/session")["csrf"]
        self.csrf = self.call("POST", "/club/api/login", {"pin": pin, "name": name})["csrf"]


class Player:
    """One player's phone: their code at the club, and the table they are sent to."""

    def __init__(self, club: str, code: str, rng: random.Random) -> None:
        self.club, self.code, self.rng = Client(club), code, rng
        self.table: Client | None = None
        self.table_at = ""

    def mine(self) -> dict[str, Any]:
        return self.club.call("GET", f"/club/api/me/{self.code}")

    def sit(self) -> Client:
        """Join the table this player is seated at (a one-time link from the club)."""
        link = self.club.call("POST", f"/club/api/me/{self.code}/join", {})["link"]
        base, token = link.split("/#join=")
        if self.table is None or self.table_at != base:
            self.table, self.table_at = Client(base), base
        self.table.csrf = self.table.call("GET", "/api/session")["csrf"]
        self.table.csrf = self.table.call("POST", "/api/join", {"token": token})["csrf"]
        return self.table

    def play(self, game: int, stop_after: int | None = None) -> dict[str, Any] | None:
        """Peg game ``game`` at this player's table to its end (or ``stop_after``
        entries): the state at the end (None when stopped)."""
        table = self.table or self.sit()
        made, refused = 0, 0
        while True:
            state = table.call("GET", "/api/state")
            view = state["game"]
            if state["game_id"] != game:
                raise AssertionError(f"the table plays game {state['game_id']}, not {game}")
            if view["winner"] is not None:
                return view
            if stop_after is not None and made >= stop_after:
                return None
            action, body = self.entry(view)
            try:
                table.call("POST", f"/api/act/{action}", body, key=secrets.token_hex(8))
            except Refused as refusal:
                if refusal.status == 401:  # the session ended (a restart): join again
                    table = self.sit()
                    continue
                if refusal.status != 409:  # 409: the game moved on meanwhile: look again
                    raise
                refused += 1  # or the rules refuse it: say so rather than knock forever
                assert refused < 50, f"{action} {body} refused: {refusal.error}"
            else:
                refused = 0
            made += 1

    def entry(self, view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return entry_for(view, self.rng)


def entry_for(view: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """The next entry of a scripted game, for the board's ``view`` (its panel's)."""
    due = view["due"]
    if due is None:
        return "advance", {}
    if due["kind"] == "starter":
        named = rng.random() < 0.3  # the dealer's 29 needs the starter named
        return "starter", {"card": "5D"} if named else {"heels": False}
    if due["kind"] == "play":
        return "advance", {}
    seat = due["seat"]
    if due["kind"] == "hand" and seat == view["dealer"] and view["starter"] is not None:
        return "claim", {"seat": seat, "points": 29, "cards": list(TWENTY_NINE)}
    return "claim", {"seat": seat, "points": rng.choice(TOTALS)}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Process:
    """A `pegboard` command running until :meth:`kill`; :meth:`start` again runs it as it was."""

    def __init__(self, args: list[str], said: str) -> None:
        self.args, self.said = args, said
        self.process: subprocess.Popen[str] | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pegboard.cli", *self.args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        while True:  # it says where it listens once it answers
            line = self.process.stdout.readline()
            assert line, self.process.stderr.read() if self.process.stderr else ""
            if self.said in line:
                break
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


def board(folder: Path) -> tuple[Process, str]:
    folder.mkdir()
    (folder / "config.toml").write_text(f'[board]\npin = "{BOARD_PIN}"\n')
    port = free_port()
    args = ["serve", "--sim", "--host", "127.0.0.1", "--port", str(port)]
    args += ["--data", str(folder / "data"), "--config", str(folder / "config.toml")]
    return Process(args, "panel at"), f"http://127.0.0.1:{port}"


def until(check: Any, what: str, seconds: float = 240.0) -> Any:
    """Wait until ``check()`` gives something (asking again as the club moves on)."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        threading.Event().wait(0.1)


def director_program(folder: Path, pin: str, tables: int = 0, *more: str) -> tuple[Process, str]:
    """`pegboard club` in ``folder`` with ``tables`` hosted tables (and ``more``
    options): it and its address."""
    port = free_port()
    args = ["club", "--data", str(folder), "--host", "127.0.0.1", "--port", str(port)]
    args += ["--pin", pin, "--tables", str(tables), "--poll", "0.3", *more]
    return Process(args, "club at"), f"http://127.0.0.1:{port}"
