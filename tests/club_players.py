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
import time
import urllib.error
import urllib.request
from http.cookiejar import CookieJar
from typing import Any

TOTALS = (0, 2, 4, 6, 8, 10, 12, 14, 16, 20, 24)  # claims without cards
TWENTY_NINE = ("5H", "5C", "5S", "JD")  # with the starter 5D
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
        made = 0
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
            except Refused as refused:
                if refused.status == 401:  # the session ended (a restart): join again
                    table = self.sit()
                    continue
                if refused.status != 409:  # 409: the game moved on meanwhile: look again
                    raise
            made += 1

    def entry(self, view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        due, rng = view["due"], self.rng
        if due is None:
            return "advance", {}
        if due["kind"] == "starter":
            self.carded = rng.random() < 0.3
            return "starter", {"card": "5D"} if self.carded else {"heels": False}
        if due["kind"] == "play":
            return "advance", {}
        seat = due["seat"]
        if due["kind"] == "hand" and seat == view["dealer"] and getattr(self, "carded", False):
            return "claim", {"seat": seat, "points": 29, "cards": list(TWENTY_NINE)}
        return "claim", {"seat": seat, "points": rng.choice(TOTALS)}
