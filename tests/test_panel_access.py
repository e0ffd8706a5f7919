"""Who may change the game: sessions kept on the board, wrong PINs counted for each
address and for the whole board, and only the board's own names in the Host header."""

from __future__ import annotations

from itertools import pairwise

import pytest
from test_panel import PIN, act, csrf

from pegboard.panel import create_app
from pegboard.panel.tries import Bucket, Tries


def make_app(door, tmp_path, pin=PIN):
    config = {
        "PIN": pin,
        "SECRET_KEY": "x" * 64,
        "SESSIONS_FILE": str(tmp_path / "sessions"),
        "HOSTS": ("pegboard", "pegboard.local", "localhost"),
    }
    return create_app(config, door)


def sign_in(client, address="10.0.0.1", pin=PIN):
    token = csrf(client)
    answer = client.post(
        "/api/login",
        json={"pin": pin},
        headers={"X-CSRF-Token": token},
        environ_base={"REMOTE_ADDR": address},
    )
    return answer


def cookie_of(client):
    return client.get_cookie("session").value


# --- sessions ---------------------------------------------------------------------------------


def test_a_cookie_kept_from_before_logout_no_longer_changes_the_game(keeper, tmp_path):
    client = make_app(keeper, tmp_path).test_client()
    token = sign_in(client).get_json()["csrf"]
    kept = cookie_of(client)
    assert act(client, token, "new_game", players=["Ann", "Bob"]).status_code == 200
    client.post("/api/logout", json={}, headers={"X-CSRF-Token": token})
    client.set_cookie("session", kept)  # the cookie as it was while signed in
    response = act(client, token, "undo")
    assert response.status_code == 401
    assert client.get("/api/session").get_json()["signed_in"] is False


def test_sessions_outlive_a_restart_but_not_a_new_pin(keeper, tmp_path):
    client = make_app(keeper, tmp_path).test_client()
    token = sign_in(client).get_json()["csrf"]
    kept = cookie_of(client)
    again = make_app(keeper, tmp_path).test_client()  # the board restarted
    again.set_cookie("session", kept)
    assert act(again, token, "new_game", players=["Ann", "Bob"]).status_code == 200
    changed = make_app(keeper, tmp_path, pin="975310").test_client()  # a new PIN in the config
    changed.set_cookie("session", kept)
    assert act(changed, token, "undo").status_code == 401


def test_a_session_ends_after_its_days(keeper, tmp_path):
    app = make_app(keeper, tmp_path)
    sessions = app.extensions["pegboard.sessions"]
    now = [1_000_000.0]
    sessions.clock = lambda: now[0]
    client = app.test_client()
    token = sign_in(client).get_json()["csrf"]
    assert act(client, token, "new_game", players=["Ann", "Bob"]).status_code == 200
    now[0] += 31 * 86_400
    assert act(client, token, "undo").status_code == 401


def test_a_sign_in_sent_again_with_its_key_counts_once(keeper, tmp_path):
    client = make_app(keeper, tmp_path).test_client()
    token = csrf(client)
    headers = {"X-CSRF-Token": token, "Idempotency-Key": "pin-1"}
    for _ in range(8):  # more than the 5 an address may get wrong before it waits
        answer = client.post("/api/login", json={"pin": "000000"}, headers=headers)
        assert answer.status_code == 401
    other = client.post("/api/login", json={"pin": PIN}, headers=headers)
    assert other.status_code == 422
    assert sign_in(client, address="127.0.0.1").status_code == 200


# --- the wrong-PIN budgets -----------------------------------------------------------------------


def test_a_bucket_grows_its_delay_and_drains():
    bucket = Bucket(free=10, drain=60, base=1, longest=3600)
    now = 0.0
    for _ in range(10):
        bucket.fail(now)
    assert bucket.wait(now) == 0  # ten free
    delays = []
    for _ in range(6):
        bucket.fail(now)
        delays.append(bucket.wait(now))
        now += bucket.wait(now)  # the guesser waits exactly as long as it must
    assert delays[0] == 1  # then about twice as long each time (less what drained)
    assert all(1.5 * shorter < longer <= 2 * shorter for shorter, longer in pairwise(delays))
    now += 3600
    bucket.fail(now)
    assert bucket.wait(now) < 1  # an hour drained 60 failures: open again soon


def guesses_in_a_week(addresses: int) -> float:
    """A guesser that tries whenever signing in is open, from ``addresses`` addresses in
    turn, for a simulated week: its wrong PINs an hour."""
    now = [0.0]
    tries = Tries(clock=lambda: now[0])
    guesses, week = 0, 7 * 86_400
    while now[0] < week:
        address = f"10.2.{guesses % addresses // 250}.{guesses % addresses % 250}"
        wait = tries.wait(address)
        if wait:
            now[0] += wait  # it waits exactly as long as it must
            continue
        tries.fail(address)
        guesses += 1
    return guesses / (week / 3600)


@pytest.mark.parametrize(("addresses", "per_hour", "days"), [(1, 12, 1700), (1000, 180, 110)])
def test_the_figures_of_the_docs_hold(addresses, per_hour, days):
    """The arithmetic of pegboard.panel.tries, by simulation: one address guesses 12
    times an hour at best (a 6-digit PIN in years), any number of them together 180 (in
    months)."""
    rate = guesses_in_a_week(addresses)
    assert 0.9 * per_hour < rate < 1.15 * per_hour
    hours_to_find = (10**6 + 1) / 2 / rate  # a 6-digit PIN, on average
    assert hours_to_find / 24 > days


@pytest.mark.slow
def test_guessing_from_many_addresses_closes_sign_in_but_signed_in_phones_go_on(keeper, tmp_path):
    app = make_app(keeper, tmp_path)
    phone = app.test_client()
    token = sign_in(phone, address="192.168.1.50").get_json()["csrf"]
    attacker = app.test_client()
    for n in range(30):  # the board's 30 free, each address far below its own 5
        assert sign_in(attacker, address=f"10.1.0.{n}", pin="000000").status_code == 401
    assert sign_in(attacker, address="10.1.0.99", pin="000000").status_code == 401  # over
    refused = sign_in(attacker, address="10.1.1.1", pin="000000")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert sign_in(app.test_client(), address="192.168.1.51").status_code == 429  # even right
    assert act(phone, token, "new_game", players=["Ann", "Bob"]).status_code == 200


def test_a_new_board_gets_a_six_digit_pin(tmp_path):
    from pegboard.config import load_config
    from pegboard.service import board_pin

    pin, new = board_pin(load_config(), tmp_path)
    assert new and len(pin) == 6 and pin.isdigit()
    assert board_pin(load_config(), tmp_path) == (pin, False)


# --- the Host header ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("pegboard.local", 200),
        ("pegboard.local:8080", 200),
        ("localhost:8080", 200),
        ("127.0.0.1:8080", 200),
        ("[::1]:8080", 200),
        ("evil.example", 400),
        ("pegboard.local.evil.example", 400),
        ("192.168.1.99", 400),  # an address, but not the one the request came in on
        ("", 400),
    ],
)
def test_only_the_boards_own_names_are_answered(keeper, tmp_path, host, status):
    client = make_app(keeper, tmp_path).test_client()
    for path in ("/api/state", "/", "/api/session"):
        response = client.get(path, headers={"Host": host})
        assert response.status_code == status, path
    if status == 400:
        assert "does not answer" in response.get_json()["error"]


def test_a_rebinding_page_cannot_guess_pins(keeper, tmp_path):
    client = make_app(keeper, tmp_path).test_client()
    token = csrf(client)
    for _ in range(3):
        response = client.post(
            "/api/login",
            json={"pin": "000000"},
            headers={"X-CSRF-Token": token, "Host": "attacker.example"},
        )
        assert response.status_code == 400
    assert sign_in(client).status_code == 200  # no wrong PIN was counted


@pytest.mark.parametrize("host", ["pegboard.local", "evil.example"])
def test_a_double_slash_is_no_redirect(keeper, tmp_path, host):
    client = make_app(keeper, tmp_path).test_client()
    for path in ("//x", "//evil.example/", "//api/state", "/static//main.js"):
        response = client.get("/", headers={"Host": host}, environ_overrides={"PATH_INFO": path})
        assert not 300 <= response.status_code < 400 and "Location" not in response.headers
