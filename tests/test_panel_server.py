"""The panel's server, for real on loopback: many live streams hold no thread, slow or
half-sent requests are cut and starve no one, big bodies are refused unread, a gone
phone is dropped, and each change sends what changed."""

from __future__ import annotations

import http.client
import json
import socket
import threading
from collections.abc import Callable
from typing import Any

import pytest
from test_panel import PIN
from waiting import eventually

from pegboard.panel import create_app
from pegboard.panel.server import Limits, PanelServer

LIMITS = Limits(threads=4, header_seconds=1.0, body_seconds=1.0)


@pytest.fixture
def server(keeper):
    app = create_app({"PIN": PIN, "SIM": True, "SECRET_KEY": "x" * 64}, keeper)
    running = PanelServer(app, "127.0.0.1", 0, LIMITS)
    thread = threading.Thread(target=running.run)
    thread.start()
    yield running
    running.stop()
    thread.join(timeout=30)
    assert not thread.is_alive()


def get(port: int, path: str, source: str = "127.0.0.1", **headers) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=30, source_address=(source, 0)
    )
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, body


def open_stream(port: int, source: str) -> socket.socket:
    """A phone on the live stream: its first message read."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
    read_until(sock, b"event: frame")
    return sock


def read_until(sock: socket.socket, mark: bytes, seen: bytes = b"") -> bytes:
    """Read until ``mark`` and the end of the event it is in."""
    while mark not in seen or b"\n\n" not in seen[seen.index(mark) :]:
        chunk = sock.recv(65536)
        assert chunk, "the server closed the stream"
        seen += chunk
    return seen


def messages(seen: bytes, name: str) -> list[dict]:
    """The ``name`` events in what a stream sent (its chunked framing ignored)."""
    found = []
    for block in seen.split(b"event: ")[1:]:
        head, _, rest = block.partition(b"\ndata: ")
        if head == name.encode():
            found.append(json.loads(rest.split(b"\n")[0]))
    return found


def signed_in(port: int) -> tuple[Callable[..., tuple[Any, Any]], dict]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(method, path, body=None, headers=None):
        connection.request(method, path, body=json.dumps(body), headers=headers or {})
        response = connection.getresponse()
        return response, json.loads(response.read())

    response, data = call("GET", "/api/session")
    cookie = response.getheader("Set-Cookie").split(";")[0]
    response, data = call(
        "POST", "/api/login", {"pin": PIN}, {"Cookie": cookie, "X-CSRF-Token": data["csrf"]}
    )
    cookie = response.getheader("Set-Cookie").split(";")[0]
    return call, {"Cookie": cookie, "X-CSRF-Token": data["csrf"]}


def test_two_hundred_streams_hold_no_thread_and_leave_when_their_phones_do(server):
    streams = [open_stream(server.port, f"127.0.0.{10 + n % 10}") for n in range(200)]
    assert len(server.hub) == 200
    # Four worker threads, two hundred streams: ordinary requests are still answered.
    for _ in range(20):
        assert get(server.port, "/api/state")[0] == 200
    for sock in streams[:150]:
        sock.close()
    eventually(lambda: len(server.hub) == 50, timeout=20)
    for sock in streams[150:]:
        sock.close()


@pytest.mark.slow
def test_half_sent_requests_are_cut_and_starve_no_one(server):
    trickles = []
    for n in range(150):
        sock = socket.create_connection(
            ("127.0.0.1", server.port), timeout=30, source_address=(f"127.0.1.{n % 50}", 0)
        )
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: loc")  # and then nothing more
        trickles.append(sock)
    assert get(server.port, "/healthz")[0] == 200
    for sock in trickles:  # the head did not come in time: the server hung up
        assert sock.recv(100) == b""
        sock.close()


def test_a_huge_body_is_refused_before_it_is_read(server):
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    sock.sendall(
        b"POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Content-Length: 300000000\r\n\r\n" + b"[" * 1000
    )
    answer = sock.recv(1000)
    assert answer.startswith(b"HTTP/1.1 400")
    sock.close()


def test_one_address_cannot_take_every_connection(server):
    mine = [open_stream(server.port, "127.0.2.1") for _ in range(LIMITS.per_address)]
    sock = socket.create_connection(
        ("127.0.0.1", server.port), timeout=30, source_address=("127.0.2.1", 0)
    )
    assert sock.recv(100).startswith(b"HTTP/1.1 429")  # this address has enough open
    sock.close()
    assert get(server.port, "/healthz", source="127.0.2.2")[0] == 200  # others go on
    for stream in mine:
        stream.close()


def test_deep_json_and_foreign_hosts_are_refused_for_real(server):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.request("POST", "/api/login", body=b"[" * 5000 + b"]" * 5000)
    assert connection.getresponse().status in (400, 403)
    status, body = get(server.port, "/api/state", Host="rebound.example")
    assert status == 400 and b"does not answer" in body
    status, _ = get(server.port, "//rebound.example/x", Host="rebound.example")
    assert status == 400


def test_each_change_sends_what_the_history_gained(server):
    call, headers = signed_in(server.port)
    call("POST", "/api/act/new_game", {"players": ["Ann", "Bob"], "dealer": 0}, headers)
    call("POST", "/api/act/starter", {"card": "5D"}, headers)
    call("POST", "/api/act/advance", {}, headers)
    stream = open_stream(server.port, "127.0.0.1")
    answer = call("POST", "/api/act/claim", {"seat": 1, "points": 8}, headers)[1]
    assert answer["state"]["game"]["history"] == {"count": 1}  # counted, not sent whole
    seen = read_until(stream, b'"entries"')
    told = messages(seen, "state")[-1]["game"]["history"]
    assert (told["count"], told["from"]) == (1, 0) and told["prev"]
    assert [line["points"] for line in told["entries"]] == [8]
    # The history of that message, read by page, agrees.
    status, body = get(server.port, f"/api/history?at={told['at']}&start=0")
    page = json.loads(body)
    assert status == 200 and page["entries"] == told["entries"] and page["count"] == 1
    stream.close()


def test_a_dial_turn_sends_the_dials_only(server):
    call, headers = signed_in(server.port)
    call("POST", "/api/act/new_game", {"players": ["Ann", "Bob"], "dealer": 0}, headers)
    stream = open_stream(server.port, "127.0.0.1")
    call("POST", "/api/act/sim_turn", {"seat": 1, "steps": 2}, headers)
    dials = messages(read_until(stream, b"event: dials"), "dials")[0]
    assert dials["pending"][1] == 2 and set(dials) == {"version", "pending"}
    stream.close()


def test_a_bug_of_ours_is_one_500_saying_nothing_changed_and_answers_log_no_line(caplog):
    def app(environ, start_response):
        if environ["PATH_INFO"] == "/broken":
            raise RuntimeError("a bug")
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"fine, ", b"thanks"]

    running = PanelServer(app, "127.0.0.1", 0, LIMITS)
    thread = threading.Thread(target=running.run)
    thread.start()
    try:
        with caplog.at_level("INFO"):
            assert get(running.port, "/") == (200, b"fine, thanks")
            status, body = get(running.port, "/broken")
    finally:
        running.stop()
        thread.join(timeout=30)
    assert status == 500 and json.loads(body) == {"error": "internal error: nothing was changed"}
    assert [r.name for r in caplog.records] == ["pegboard.panel.container"]  # the bug, once
