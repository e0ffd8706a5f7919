"""Fair connections, for real on loopback: phones holding idle streams from many
addresses never shut a new phone out, signed-in phones keep a reserve no watcher can
take, a stream the board ends is taken up again without missing anything, keep-alive
connections from many addresses never shut a new phone or a signed-in phone out, and
the caps grow with what the machine can hold."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import threading

import pytest
from test_panel import PIN
from test_panel_server import messages, signed_in

from pegboard.panel import create_app
from pegboard.panel.server import FILES_KEPT, Limits, PanelServer


def running(board, limits: Limits):
    app = create_app({"PIN": PIN, "SIM": True, "SECRET_KEY": "x" * 64}, board.keeper)
    server = PanelServer(app, "127.0.0.1", 0, limits)
    thread = threading.Thread(target=server.run)
    thread.start()
    return server, thread


@pytest.fixture
def serving(board, request):
    """A server with the Limits the test is parametrized with (indirectly)."""
    server, thread = running(board, request.param)
    yield server
    server.stop()
    thread.join(timeout=60)
    assert not thread.is_alive()


def stream(port: int, source: str, *headers: str) -> tuple[socket.socket, bytes]:
    """A phone asking for the live stream: its socket and the first thing it was told
    (the first messages, or the board's refusal)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60, source_address=(source, 0))
    head = "".join(f"{header}\r\n" for header in headers)
    sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: localhost\r\n{head}\r\n".encode())
    seen = b""
    while not seen.startswith(b"HTTP/1.1 429") and b"event: frame" not in seen:
        chunk = sock.recv(65536)
        if not chunk:
            break
        seen += chunk
    return sock, seen


def cookie_of(port: int) -> str:
    """A signed-in phone's session cookie."""
    return signed_in(port)[1]["Cookie"]


@pytest.mark.slow
@pytest.mark.parametrize("serving", [Limits(threads=4, connections=800)], indirect=True)
def test_17_addresses_of_48_idle_streams_do_not_shut_a_new_phone_out(serving):
    """The tester's attack: 17 addresses open 48 idle streams each (more than the 800
    connections). A new phone still gets its stream, and so does a signed-in one."""
    held = []
    for n in range(17 * 48):
        held.append(stream(serving.port, f"127.0.3.{1 + n % 17}")[0])
    phone, said = stream(serving.port, "127.0.4.1")
    assert said.startswith(b"HTTP/1.1 200") and b"event: state" in said
    assert len(serving.hub) == serving.limits.watcher_streams == 700  # 100 kept for players
    player, said = stream(serving.port, "127.0.4.2", f"Cookie: {cookie_of(serving.port)}")
    assert said.startswith(b"HTTP/1.1 200") and b"event: state" in said
    for sock in (*held, phone, player):
        sock.close()


@pytest.mark.slow
@pytest.mark.parametrize(
    "serving", [Limits(threads=4, connections=40, reserve=0.25, per_address=48)], indirect=True
)
def test_signed_in_phones_keep_a_reserve_no_watcher_can_take(serving):
    """Watchers from one address fill their share (30 of 40): the next watcher is turned
    away politely (429, come back later), a signed-in phone is let in beside them."""
    limits = serving.limits
    watchers = [stream(serving.port, "127.0.5.1") for _ in range(limits.watcher_streams)]
    assert all(said.startswith(b"HTTP/1.1 200") for _, said in watchers)
    late, said = stream(serving.port, "127.0.5.1")
    assert said.startswith(b"HTTP/1.1 429") and b"Retry-After:" in said
    cookie = f"Cookie: {cookie_of(serving.port)}"
    players = [stream(serving.port, "127.0.5.1", cookie) for _ in range(5)]
    assert all(said.startswith(b"HTTP/1.1 200") for _, said in players)
    # A watcher from another address: the address holding 30 gives one up for it.
    other, said = stream(serving.port, "127.0.5.2")
    assert said.startswith(b"HTTP/1.1 200")
    assert serving.hub.watchers == limits.watcher_streams
    for sock, _ in (*watchers, *players, (late, b""), (other, b"")):
        sock.close()


@pytest.mark.slow
@pytest.mark.parametrize("serving", [Limits(threads=4, stream_seconds=1.0)], indirect=True)
def test_a_stream_the_board_ends_is_taken_up_again_without_a_gap(serving, board):
    call, headers = signed_in(serving.port)
    call("POST", "/api/act/new_game", {"players": ["Ann", "Bob"], "dealer": 0}, headers)
    call("POST", "/api/act/starter", {"card": "5D"}, headers)
    sock, seen = stream(serving.port, "127.0.6.1")
    assert b"\r\nretry: " in seen or b"\nretry: " in seen  # how soon to come back
    while not seen.endswith(b"\r\n0\r\n\r\n"):  # until the board ends the response, whole
        chunk = sock.recv(65536)
        assert chunk, "the stream was cut, not ended"
        seen += chunk
    assert b"event: again" in seen  # told first, so the page shows no break
    tag = seen.split(b"id: ")[-1].split(b"\n")[0].decode()
    lines = messages(seen, "state")[-1]["game"]["history"]["count"]
    sock.close()
    # While the phone is away, a claim is pegged; it comes back with its last message's id.
    call("POST", "/api/act/claim", {"seat": 1, "points": 2}, headers)
    sock, seen = stream(serving.port, "127.0.6.1", f"Last-Event-ID: {tag}")
    told = messages(seen, "state")[0]["game"]["history"]
    assert told["prev"] == tag and told["from"] == lines
    assert [line["points"] for line in told["entries"]] == [2]
    sock.close()


@pytest.mark.slow
@pytest.mark.parametrize(("files", "expected"), [(600, 600 - FILES_KEPT), (20000, None)])
@pytest.mark.subprocess
def test_the_caps_grow_with_what_the_machine_can_hold(files, expected):
    """As many connections as the open files allow (the soft limit raised to the hard
    one), within the memory the machine has."""
    code = (
        f"import resource; resource.setrlimit(resource.RLIMIT_NOFILE, ({files}, {files}));"
        "from pegboard.panel.server import Limits; print(Limits().sized().connections)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    connections = json.loads(done.stdout)
    if expected is not None:
        assert connections == expected
    else:
        assert 600 - FILES_KEPT < connections <= 20000 - FILES_KEPT


class KeptAlive(threading.Thread):
    """One address holding ``count`` keep-alive connections, each asking ``GET /healthz``
    every ``period`` seconds (a connection the board closed is opened again at the next)."""

    def __init__(self, port: int, source: str, count: int, period: float) -> None:
        super().__init__(daemon=True)
        self.port, self.source, self.count, self.period = port, source, count, period
        self.stop, self.passed = threading.Event(), threading.Event()
        self.held = 0  # connections answered in the last pass

    def run(self) -> None:
        connections = [self._connection() for _ in range(self.count)]
        while not self.stop.is_set():
            held = 0
            for connection in connections:
                try:
                    connection.request("GET", "/healthz", headers={"Host": "localhost"})
                    response = connection.getresponse()
                    response.read()
                    if response.status == 200 and not response.will_close:
                        held += 1
                    else:
                        connection.close()
                except (OSError, http.client.HTTPException):
                    connection.close()  # opened again at the next request
            self.held = held
            self.passed.set()
            self.stop.wait(self.period)
        for connection in connections:
            connection.close()

    def _connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=30, source_address=(self.source, 0)
        )


def fresh_phone(port: int, source: str, path: str = "/api/state", **headers: str) -> int:
    """A phone's request on a connection of its own: the status it got."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=60, source_address=(source, 0)
    )
    try:
        connection.request("GET", path, headers={"Host": "localhost", **headers})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


@pytest.mark.slow
@pytest.mark.parametrize(
    "serving", [Limits(threads=4, connections=200, per_address=12)], indirect=True
)
def test_17_addresses_of_keep_alive_connections_do_not_shut_a_phone_out(serving):
    """The tester's attack, scaled: 17 addresses holding 12 keep-alive connections each
    (204, more than the 200 the board holds), a ``GET /healthz`` on each every 7 s. A
    new phone is served 20 times of 20, and a signed-in phone's actions go through."""
    held = [KeptAlive(serving.port, f"127.0.7.{1 + n}", 12, 7.0) for n in range(17)]
    for address in held:
        address.start()
    try:
        for address in held:
            assert address.passed.wait(120)
        assert sum(address.held for address in held) >= 150  # the board is full of them
        assert [fresh_phone(serving.port, "127.0.8.1") for _ in range(20)] == [200] * 20
        call, headers = signed_in(serving.port)  # on connections of its own, as a phone
        new = {"players": ["Ann", "Bob"], "dealer": 0}
        response, _ = call("POST", "/api/act/new_game", new, headers)
        assert response.status == 200
        for _ in range(10):
            code = fresh_phone(serving.port, "127.0.8.2", "/api/session", Cookie=headers["Cookie"])
            assert code == 200
    finally:
        for address in held:
            address.stop.set()
        for address in held:
            address.join(timeout=60)
