"""What a page of another site, a clumsy script or a wrong PIN gets from the board and the
club: a cross-site post (an Origin not theirs, or a body any form could send) refused
on every form and JSON route, `pegboard club --pin 1` refused in one line as the board
refuses it, and 10,000 fuzzed requests to the club's API without one 5xx."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from pegboard import pairing
from pegboard.club.director import Director
from pegboard.club.store import ClubStore
from pegboard.club.web import create_club_app
from pegboard.identity import Identity
from pegboard.panel import create_app

PIN = "4826"
EVIL = {"Origin": "http://evil.example"}


@pytest.fixture
def club(tmp_path: Path) -> Any:
    store = ClubStore(tmp_path / "club.db")
    director = Director(store, tmp_path, poll=0.1)
    app = create_club_app(director, store, PIN, hosts=("localhost",))
    yield app
    director.close()
    store.close()


def posts(app: Flask, path: str, body: bytes, content_type: str, **headers: str) -> int:
    client = app.test_client()
    csrf = client.get("/club/api/session" if path.startswith("/club") else "/api/session")
    token = (csrf.get_json() or {}).get("csrf", "")
    sent = {"Content-Type": content_type, "X-CSRF-Token": token, **headers}
    return client.post(path, data=body, headers=sent).status_code


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded"])
def test_a_post_any_form_could_send_is_refused_by_the_board_and_the_club(
    club: Flask, content_type: str
) -> None:
    board = create_app({"PIN": PIN, "SECRET_KEY": "k" * 64})
    body = b'{"pin": "4826", "name": "Dana", "spake": "00"}'
    for app, path in ((board, "/api/pair"), (board, "/api/login"), (club, "/club/api/login")):
        assert posts(app, path, body, content_type) == 415, path
        assert posts(app, path, body, "application/json", **EVIL) == 403, path
        cross = {"Sec-Fetch-Site": "cross-site"}
        assert posts(app, path, body, "application/json", **cross) == 403, path
    assert posts(club, "/club/api/login", body, "application/json") == 200  # its own page's
    same = {"Origin": "http://localhost"}
    assert posts(board, "/language", b"lang=de", "application/x-www-form-urlencoded", **same) < 400
    form = b"lang=de"
    assert posts(board, "/language", form, "application/x-www-form-urlencoded", **EVIL) == 403


def test_a_form_posted_by_a_page_that_sends_no_referrer_is_judged_by_where_it_came_from() -> None:
    """The page sends no referrer, so the browser posts its language form with
    ``Origin: null``: the board's own page is let through, another site's is not."""
    board = create_app({"PIN": PIN, "SECRET_KEY": "k" * 64})
    form, kind = b"lang=de", "application/x-www-form-urlencoded"
    own = {"Origin": "null", "Sec-Fetch-Site": "same-origin"}
    assert posts(board, "/language", form, kind, **own) < 400
    other = {"Origin": "null", "Sec-Fetch-Site": "cross-site"}
    assert posts(board, "/language", form, kind, **other) == 403


@pytest.mark.subprocess
def test_the_directors_pin_follows_the_boards_rules(tmp_path: Path) -> None:
    for pin in ("1", "12345678901", "12a4", "٤٥٦٧"):
        done = subprocess.run(
            [sys.executable, "-m", "pegboard.cli", "club", "--pin", pin, "--data", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 2 and not done.stdout
        assert done.stderr.splitlines() == [
            "pegboard: pegboard club: --pin must be 4 to 8 digits 0-9 (or empty for a random "
            "PIN printed at start)"
        ]
    assert not any(tmp_path.iterdir())  # nothing was made


ADDRESSES = [
    "http://[::1]:99999",
    "http://[::1]:0",
    "127.0.0.1:1",
    "http://127.0.0.1:-5",
    "http://[zz]/",
    "ftp://x",
    "http://",
    "",
    "x" * 300,
    "http://127.0.0.1:1/a?b#c",
    "\x00",
]
PATHS = [
    "/club/api/login",
    "/club/api/logout",
    "/club/api/format",
    "/club/api/players",
    "/club/api/tables",
    "/club/api/tables/1/pair",
    "/club/api/tables/99999999999999999999/pair",
    "/club/api/rounds",
    "/club/api/corrections",
    "/club/api/me/x/join",
    "/club/api/night",
    "/club/api/standings",
    "/club/api/tables",
    "/club/api/rounds",
    "/club/api/session",
    "/club/api/boards",
    "/club/api/season",
    "/club/results.csv",
    "/club/sheet",
    "/director",
    "/me/x",
    "/",
]
NAMES = ["pin", "name", "address", "acc", "games", "target", "round", "table", "winner"]
NAMES += ["margin", "why", "replaced", "muggins", "special_hands", "format"]


def value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 2 else 6)
    if kind == 0:
        return rng.choice(ADDRESSES)
    if kind == 1:
        return rng.choice([0, 1, -1, 2, 121, 10**12, 2**63, 3.5, float("1e308")])
    if kind == 2:
        return rng.choice([None, True, False, PIN, "1357", "Ann", " ", "\u202e", "<b>"])
    if kind == 3:
        return "".join(chr(rng.randrange(32, 0x3000)) for _ in range(rng.randrange(12)))
    if kind in (4, 5):
        return rng.randrange(-3, 12)
    if kind in (6, 7):
        return {rng.choice(NAMES): value(rng, depth + 1) for _ in range(rng.randrange(4))}
    return [value(rng, depth + 1) for _ in range(rng.randrange(3))]


@pytest.mark.slow
def test_ten_thousand_fuzzed_requests_to_the_club_get_no_5xx(club: Flask) -> None:
    rng = random.Random(31)
    director = club.test_client()
    csrf = director.get("/club/api/session").get_json()["csrf"]
    signed = {"pin": PIN, "name": "Dana"}
    csrf = director.post("/club/api/login", json=signed, headers={"X-CSRF-Token": csrf})
    headers = {"X-CSRF-Token": csrf.get_json()["csrf"]}
    bad = {"address": "http://[::1]:99999", "pin": "1357"}  # answered 500 before
    answer = director.post("/club/api/tables", json=bad, headers=headers)
    assert answer.status_code == 409
    assert answer.get_json()["error"].startswith("'http://[::1]:99999' is no board's address")
    statuses: Counter[int] = Counter()
    for _ in range(10_000):
        path = rng.choice(PATHS)
        method = rng.choice(["POST", "POST", "POST", "GET", "PUT", "DELETE"])
        if rng.random() < 0.9:
            answer = director.open(path, method=method, json=value(rng), headers=headers)
        else:  # not JSON at all
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
            answer = director.open(path, method=method, data=data, headers=headers)
        statuses[answer.status_code] += 1
        assert answer.status_code < 500, (method, path, answer.get_data()[:300])
    assert sum(statuses.values()) == 10_000 and statuses[200] > 100


def test_the_game_tab_shows_the_boards_identity(board, tmp_path: Path) -> None:
    """The fingerprint a phone reads on the Game tab is the one the doctor prints and a
    club's director pins: the board's identity kept in its data folder."""
    me = Identity.made(tmp_path / "identity")
    config = {"PIN": PIN, "SECRET_KEY": "k" * 64, "IDENTITY_FILE": str(tmp_path / "identity")}
    page = create_app(config, board.keeper).test_client().get("/").get_data(as_text=True)
    assert f'<p class="hint">Board identity: <code>{me.fingerprint}</code></p>' in page


def test_wrong_pairings_are_slowed_as_wrong_pins_are(tmp_path: Path) -> None:
    """A guesser pairing with wrong PINs from one address waits as a wrong sign-in does
    (and its count is kept); the right PIN from another address pairs at once."""
    board = create_app({"PIN": PIN, "SECRET_KEY": "k" * 64, "TRIES_FILE": str(tmp_path / "t")})
    client = board.test_client()

    def pairs(pin: str, address: str) -> int:
        club, said = pairing.club_start(pin)
        where = {"REMOTE_ADDR": address}
        begun = client.post("/api/pair", json={"spake": said.hex()}, environ_base=where)
        if begun.status_code != 200:
            return begun.status_code
        answer = begun.get_json()
        agreed = pairing.club_finish(club, said, bytes.fromhex(answer["spake"]))
        proof = {"pairing": answer["pairing"], "proof": agreed.club_proof().hex()}
        confirmed = client.post("/api/pair/confirm", json=proof, environ_base=where)
        if confirmed.status_code == 200:
            public = bytes.fromhex(confirmed.get_json()["public"])
            assert agreed.check_board(public, bytes.fromhex(confirmed.get_json()["proof"]))
        return confirmed.status_code

    assert [pairs("0000", "10.0.0.9") for _ in range(7)] == [401] * 6 + [429]
    assert pairs(PIN, "10.0.0.8") == 200
    assert "10.0.0.9" in (tmp_path / "t").read_text()  # kept across a restart
