"""A night's hosted tables in one server, against `pegboard club` over loopback: the
club's pages and every hosted table's panel on the club's one port, each table under
``/table/N/`` with its own game, PIN and sessions (two tables signed in apart in one
cookie jar, as in one browser), another site's changes refused under a prefix as at a
board's root; a table added during the night served at once, a table gone (the night
closed) a 404 that ends its phones' streams; and the director's threads do not grow by a
server for each table."""

from __future__ import annotations

import http.client
import json
import socket
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest

from tests.club_players import Client, Director, Process, Refused, director_program

PIN = "8642"
pytestmark = [pytest.mark.slow, pytest.mark.subprocess]


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`pegboard club` with three hosted tables: its address."""
    process, url = director_program(tmp_path_factory.mktemp("club"), PIN, tables=3)
    try:
        yield url
    finally:
        process.stop()


def tables(director: Director) -> dict[int, dict[str, Any]]:
    """The night's tables as the signed-in director reads them (with their PINs)."""
    return {t["table"]: t for t in director.call("GET", "/club/api/tables")["tables"]}


def phone(address: str, jar: CookieJar | None = None) -> Client:
    """A phone at the table at ``address`` (``jar``: the cookies of a browser it shares
    with other tables), its session's CSRF token read."""
    client = Client(address, patience=10)
    if jar is not None:
        client.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    client.csrf = client.call("GET", "/api/session")["csrf"]
    return client


def sign_in(client: Client, pin: str) -> Client:
    client.csrf = client.call("POST", "/api/login", {"pin": pin})["csrf"]
    return client


def request(url: str, method: str = "GET", body: bytes | None = None, **headers: str) -> Any:
    """One request as any program sends it (``Sec_Fetch_Site=...``: a header
    Sec-Fetch-Site): its status, headers and JSON body (None: not JSON)."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection("127.0.0.1", parts.port, timeout=30)
    sent = {name.replace("_", "-"): value for name, value in headers.items()}
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    try:
        connection.request(method, target, body, {"Host": parts.netloc, **sent})
        answer = connection.getresponse()
        data = answer.read()
        kind = answer.getheader("Content-Type", "")
        return (
            answer.status,
            dict(answer.getheaders()),
            json.loads(data) if "json" in kind else None,
        )
    finally:
        connection.close()


class Stream:
    """A phone's live stream of the table at ``address``, as it is told."""

    def __init__(self, address: str) -> None:
        parts = urllib.parse.urlsplit(address)
        assert parts.port is not None
        self.socket = socket.create_connection(("127.0.0.1", parts.port), timeout=30)
        head = f"GET {parts.path}/api/events HTTP/1.1\r\nHost: {parts.netloc}\r\n\r\n"
        self.socket.sendall(head.encode())
        self.told = b""
        self.until(b"event: state")
        assert self.told.startswith(b"HTTP/1.1 200")

    def until(self, said: bytes) -> None:
        """Read until the stream has said ``said``."""
        while said not in self.told:
            chunk = self.socket.recv(65536)
            assert chunk, f"the stream ended before it said {said!r}"
            self.told += chunk

    def ended(self) -> None:
        """Read until the server ends the stream."""
        while chunk := self.socket.recv(65536):
            self.told += chunk

    def close(self) -> None:
        self.socket.close()


def test_the_nights_tables_answer_on_the_clubs_port_each_its_own_game(club: str) -> None:
    director = Director(club, PIN)
    port = urllib.parse.urlsplit(club).port
    found = tables(director)
    assert [t["address"] for t in found.values()] == [
        f"http://localhost:{port}/table/{n}" for n in (1, 2, 3)
    ]
    assert len({t["pin"] for t in found.values()}) == 3  # a PIN each
    streams = {number: Stream(table["address"]) for number, table in found.items()}
    for number, table in found.items():
        players = [f"Ann {number}", f"Bob {number}"]
        at = sign_in(phone(table["address"]), table["pin"])
        at.call("POST", "/api/act/new_game", {"players": players, "dealer": 0})
        streams[number].until(f'"Ann {number}"'.encode())  # its stream tells its game
    for number, stream in streams.items():  # and no other table's
        others = {f'"Ann {n}"'.encode() for n in found if n != number}
        assert not any(other in stream.told for other in others), number
        stream.close()
    for number, table in found.items():  # each its own game, read by a watcher
        state = Client(table["address"]).call("GET", "/api/state")
        assert [seat["name"] for seat in state["game"]["seats"]] == [
            f"Ann {number}",
            f"Bob {number}",
        ]
        assert state["game_id"] == 1
    # The club's own pages on the same port; a table's root is its path with a slash.
    assert request(f"{club}/club/api/night")[0] == 200
    status, headers, _ = request(f"{club}/table/2?x=1")
    assert (status, headers["Location"]) == (308, "/table/2/?x=1")
    status, _, _ = request(f"{club}/table/2/")
    assert status == 200

    # A table added during the night is served at once, on the same port.
    added = director.call("POST", "/club/api/tables", {})["table"]
    assert tables(director)[added]["address"] == f"http://localhost:{port}/table/{added}"
    fresh = Client(tables(director)[added]["address"]).call("GET", "/api/state")
    assert fresh["game"] is None  # a table of its own: no game yet
    status, _, said = request(f"{club}/table/9/api/state")  # no such table
    assert status == 404 and said["error"]


def test_signing_in_at_one_table_signs_in_at_no_other_in_the_same_browser(club: str) -> None:
    found = tables(Director(club, PIN))
    jar = CookieJar()
    one = sign_in(phone(found[1]["address"], jar), found[1]["pin"])
    two = phone(found[2]["address"], jar)
    assert one.call("GET", "/api/session")["signed_in"] is True
    assert two.call("GET", "/api/session")["signed_in"] is False
    # Each table's cookie is its own: named for it, sent to its path only.
    assert sorted((c.name, c.path) for c in jar) == [
        ("pegboard_table_1", "/table/1/"),
        ("pegboard_table_2", "/table/2/"),
    ]
    with pytest.raises(Refused) as refused:  # table 2 is not changed from table 1's sign-in
        two.call("POST", "/api/act/new_game", {"players": ["Eve", "Mal"], "dealer": 0})
    assert (refused.value.status, refused.value.error) == (401, "enter the board's PIN first")
    own, two.csrf = two.csrf, one.csrf  # nor with table 1's CSRF token
    with pytest.raises(Refused) as refused:
        two.call("POST", "/api/act/new_game", {"players": ["Eve", "Mal"], "dealer": 0})
    assert refused.value.status == 403
    two.csrf = own
    # Table 1's PIN is not table 2's.
    with pytest.raises(Refused) as refused:
        sign_in(phone(found[2]["address"], jar), found[1]["pin"])
    assert (refused.value.status, refused.value.error) == (401, "wrong PIN")
    # Signed out at table 1: table 2's sign-in, made meanwhile, holds.
    sign_in(two, found[2]["pin"])
    one.csrf = one.call("POST", "/api/logout", {})["csrf"]
    assert one.call("GET", "/api/session")["signed_in"] is False
    assert two.call("GET", "/api/session")["signed_in"] is True


def test_another_sites_changes_are_refused_under_a_prefix_as_at_a_boards_root(club: str) -> None:
    login = f"{club}/table/1/api/login"
    body = json.dumps({"pin": "0000"}).encode()
    json_type = {"Content_Type": "application/json"}
    elsewhere = "a request from another site changes nothing here"
    status, _, said = request(login, "POST", body, Origin="http://evil.example", **json_type)
    assert (status, said["error"]) == (403, elsewhere)
    status, _, said = request(login, "POST", body, Sec_Fetch_Site="cross-site", **json_type)
    assert (status, said["error"]) == (403, elsewhere)
    form = {"Content_Type": "application/x-www-form-urlencoded"}
    status, _, said = request(login, "POST", b"pin=0000", **form)
    assert (status, said["error"]) == (415, "send the body as JSON")
    status, _, said = request(f"{club}/table/1/api/state", Host="rebound.example")
    assert status == 400 and "rebound.example" in said["error"]
    # From the club's own origin (the table's page), it is the table's own checks that answer.
    here = urllib.parse.urlsplit(club)
    origin = f"http://{here.netloc}"
    status, _, said = request(login, "POST", body, Origin=origin, **json_type)
    assert (status, said["error"]) == (403, "missing or wrong CSRF token: reload the page")


def test_a_table_gone_answers_404_and_ends_its_phones_streams(tmp_path: Path) -> None:
    process, url = director_program(tmp_path / "club", PIN, tables=2)
    try:
        director = Director(url, PIN)
        stream = Stream(tables(director)[1]["address"])
        director.call("POST", "/club/api/nights", {})  # the night closes: its tables go
        stream.ended()  # its phones' streams end (none is left open for ever)
        stream.close()
        for path in ("/table/1/api/state", "/table/2/", "/table/1/api/events"):
            status, _, said = request(f"{url}{path}")
            assert status == 404 and said == {
                "error": "The requested URL was not found on the server. If you entered the URL"
                " manually please check your spelling and try again."
            }, path
        assert request(f"{url}/club/api/night")[0] == 200  # the club goes on
        secret = tmp_path / "club/night-1/table-1/secret"  # each table's own, kept private
        assert secret.stat().st_mode & 0o777 == 0o600
    finally:
        process.stop()


def threads_of(process: Process) -> int:
    assert process.process is not None
    status = Path(f"/proc/{process.process.pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("Threads:"))[8:])


def busy(*urls: str) -> None:
    """Each URL asked 48 times, 24 at once (every worker of its server busy)."""
    with ThreadPoolExecutor(24) as pool:
        asked = [url for url in urls for _ in range(48)]
        assert all(status == 200 for status, _, _ in pool.map(request, asked))


def settled(process: Process, *urls: str) -> int:
    """The process's threads once asking ``urls`` makes no more of them."""
    counts = [-1]
    for _ in range(12):
        busy(*urls)
        counts.append(threads_of(process))
        if counts[-1] == counts[-2]:
            break
    return counts[-1]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="counts threads in /proc")
def test_the_directors_threads_do_not_grow_by_a_server_for_each_table(tmp_path: Path) -> None:
    process, url = director_program(tmp_path / "club", PIN, tables=1)
    try:
        director = Director(url, PIN)
        first = tables(director)[1]["address"]
        before = settled(process, f"{first}/api/state", f"{url}/club/api/night")
        for _ in range(3):
            director.call("POST", "/club/api/tables", {})
        found = [f"{t['address']}/api/state" for t in tables(director).values()]
        after = settled(process, *found, f"{url}/club/api/night")
        assert len(found) == 4
        # Each table its broadcaster's thread, and no more: one server with its one loop
        # and its one pool for all of them (a server of its own cost a table 9 or 10).
        assert after - before <= 3, (before, after)
    finally:
        process.stop()
