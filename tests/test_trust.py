"""Trust between a board and the director, attacked as someone on the club's Wi-Fi
would: the PIN never crosses it at pairing; an impostor at a paired board's address is
refused and named, even one that knows the PIN; a log captured one night and replayed
the next is refused; a new PIN ends every pairing (the director is told to pair again)
and every sign-in link; and a log edited and chained again after its game ended, or
whose end the board did not sign, is refused with the table named."""

from __future__ import annotations

import http.server
import json
import random
import sqlite3
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, ClassVar

import pytest
from flask import request
from test_chain import rechain, swap_players

from pegboard.club import views
from pegboard.club.boards import PairAgain
from pegboard.club.director import Director
from pegboard.identity import fingerprint
from tests.club_players import BOARD_PIN
from tests.trust_boards import LedBoard, director_of, follow, play_out, table_error

pytestmark = pytest.mark.slow


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[Director, list[LedBoard]]]:
    """A director with two players and a board paired as table 1 (the test may replace
    the board: the last in the list is closed at the end)."""
    boards = [LedBoard(tmp_path / "board")]
    director = director_of(tmp_path / "club")
    try:
        for name in ("Ann", "Bob"):
            director.add_player(name, "", "Dana")
        director.set_format({"target": 31}, "Dana")
        assert director.pair(boards[0].address, BOARD_PIN, "Dana") == 1
        yield director, boards
    finally:
        director.close()
        boards[-1].close()


def started(director: Director) -> int:
    """Round's game at table 1, started by the director (drawn first)."""
    director.draw("Dana")
    follow(director, lambda: (director.night.round, 1) in director.night.started, "the start")
    return director.night.started[director.night.round, 1]


def seen_refusal(director: Director, said: str) -> str:
    return str(
        follow(
            director, lambda: said in table_error(director, 1) and table_error(director, 1), said
        )
    )


def test_the_pin_never_crosses_the_wifi_and_an_impostor_without_it_pairs_nothing(
    tmp_path: Path,
) -> None:
    pin = "80243519"
    impostor = LedBoard(tmp_path / "impostor", pin="11111111")
    heard: list[bytes] = []

    @impostor.app.before_request
    def overhear() -> None:
        heard.append(str(request.headers).encode() + request.get_data())

    director = director_of(tmp_path / "club")
    try:
        with pytest.raises(Exception) as refused:
            director.pair(impostor.address, pin, "Dana")
        assert str(refused.value) == f"the board at {impostor.address} answered: wrong PIN"
        assert len(heard) == 2 and not any(pin.encode() in said for said in heard)
        assert director.store.paired(impostor.address) is None and not director.night.tables
    finally:
        director.close()
        impostor.close()


def test_an_impostor_at_the_paired_address_is_refused_and_named_even_with_the_pin(
    club: tuple[Director, list[LedBoard]], tmp_path: Path
) -> None:
    director, boards = club
    board = boards[0]
    pinned = fingerprint(board.identity.public)
    shown = views.tables_view(director, "en")["tables"][0]
    assert shown["key"] == pinned  # what the director compares with the board's own
    game = started(director)
    board.close()
    impostor = LedBoard(tmp_path / "impostor", BOARD_PIN, board.port)  # another key, the PIN
    boards.append(impostor)
    impostor.keeper.new_game({"players": ["Ann", "Bob"], "target": 31}, dealer=0)
    play_out(impostor.keeper, game, random.Random(1))  # a forged game, over
    said = seen_refusal(director, "is not signed by the board paired")
    assert said.startswith("table 1: the answer is not signed by the board paired with the club")
    assert pinned in said and not director.night.results
    with pytest.raises(Exception) as changed:  # paired again: its other key is refused, named
        director.pair_again(1, BOARD_PIN)
    found = fingerprint(impostor.identity.public)
    assert str(changed.value).startswith(f"table 1: the board's key is {found}, not {pinned}")


Answer = tuple[int, list[tuple[str, str]], bytes]  # status, headers, body


class Replay(http.server.BaseHTTPRequestHandler):
    """Answers every request with what the board answered the night before."""

    answers: ClassVar[dict[str, Answer]] = {}

    def do_GET(self) -> None:
        self._replay()

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self._replay()

    def _replay(self) -> None:
        status, headers, body = self.answers[self.path.split("?")[0]]
        self.send_response(status)
        for name, value in headers:
            if name.lower() not in ("content-length", "connection", "date", "server"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def replaying(
    port: int, answers: dict[str, tuple[int, list[tuple[str, str]], bytes]]
) -> Iterator[None]:
    Replay.answers = answers
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Replay)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()


def test_a_log_captured_one_night_and_replayed_the_next_is_refused(
    club: tuple[Director, list[LedBoard]],
) -> None:
    director, boards = club
    board = boards[0]
    captured: dict[str, Answer] = {}
    board.app.wsgi_app = overheard(board.app.wsgi_app, captured)
    game = started(director)
    play_out(board.keeper, game, random.Random(2))
    follow(director, lambda: director.night.results, "night 1's result")
    assert json.loads(captured["/api/log"][2])["over"]
    director.new_night("Dana")
    for name in ("Ann", "Bob"):
        director.add_player(name, "", "Dana")
    director.set_format({"target": 31}, "Dana")
    director.pair(board.address, None, "Dana")  # paired the night before
    started(director)  # tonight's game, started at the board itself
    board.close()
    with replaying(board.port, captured):  # and night 1's log answered in its place
        said = seen_refusal(director, "is not signed by the board paired")
        assert said.startswith("table 1: the answer is not signed by the board paired")
        assert not director.night.results
    boards.append(board.again())


def overheard(app: Any, captured: dict[str, Answer]) -> Any:
    """``app``, its answers overheard (as anyone on the Wi-Fi sees them go by)."""

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        said: list[Any] = []

        def start(status: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            said.append((int(status.split()[0]), headers))
            return start_response(status, headers, *rest)

        body = b"".join(app(environ, start))
        captured[environ["PATH_INFO"]] = (*said[-1], body)
        return [body]

    return wsgi


def test_a_new_pin_ends_every_pairing_and_sign_in_link_and_says_pair_again(
    club: tuple[Director, list[LedBoard]],
) -> None:
    director, boards = club
    link = director.links[1].join()  # a player's one-time link, made before the PIN changes
    boards.append(boards[0].again(pin="2468"))
    board = boards[-1]
    with pytest.raises(PairAgain, match="table 1: the board's PIN changed: pair it again"):
        director.links[1].join()
    director.draw("Dana")
    said = seen_refusal(director, "pair it again")
    assert said == "table 1: the board's PIN changed: pair it again"
    base, token = link.split("/#join=")
    assert joined(base, token) == 401  # the link from before the new PIN lets no one in
    with pytest.raises(Exception, match="wrong PIN"):
        director.pair_again(1, BOARD_PIN)  # the old PIN pairs nothing
    director.pair_again(1, "2468")
    game = follow(director, lambda: director.night.started.get((1, 1)), "the game started")
    play_out(board.keeper, game, random.Random(3))
    follow(director, lambda: director.night.results, "the result counted")


def joined(base: str, token: str) -> int:
    """The status of a phone's sign-in with the one-time link's ``token``."""
    jar = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
    with jar.open(f"{base}/api/session", timeout=30) as answer:
        csrf = json.load(answer)["csrf"]
    body = json.dumps({"token": token}).encode()
    headers = {"Content-Type": "application/json", "X-CSRF-Token": csrf}
    try:
        jar.open(urllib.request.Request(f"{base}/api/join", body, headers), timeout=30)
    except urllib.error.HTTPError as error:
        return error.code
    return 200


def test_a_finished_game_cut_back_to_unfinished_is_refused_naming_the_table(
    club: tuple[Director, list[LedBoard]],
) -> None:
    """Someone with the board's game file deletes the last entry and sets the head back
    (chained again): the game looks unfinished, but the board signed its end."""
    director, boards = club
    board = boards[0]
    game = started(director)
    play_out(board.keeper, game, random.Random(5))
    versions = board.table.log(game).ended
    rechain(board.folder / "games.db", game, lambda rows: rows[:-1])
    said = seen_refusal(director, "refused")
    assert said == (
        f"table 1: the log of its game {game} is refused: the board signed its end at entry "
        f"{versions}, and its log now stops at entry {versions - 1}"
    )


@pytest.mark.parametrize("forgery", ["rechained", "unsigned", "signed by another"])
def test_a_log_forged_after_its_game_ended_is_refused_naming_the_table(
    club: tuple[Director, list[LedBoard]], forgery: str
) -> None:
    """Someone with the board's game file swaps the players and chains the log again
    (start-up takes it), or takes the end's signature away, or puts another key's there."""
    director, boards = club
    board = boards[0]
    game = started(director)
    play_out(board.keeper, game, random.Random(4))
    path = board.folder / "games.db"
    if forgery == "rechained":
        rechain(path, game, swap_players)
    else:
        other = b"" if forgery == "unsigned" else bytes(64)
        with closing(sqlite3.connect(path)) as db, db:
            db.execute("UPDATE ends SET signature = ? WHERE game = ?", (other, game))
    said = seen_refusal(director, "refused")
    assert said == (
        f"table 1: the log of its game {game} is refused: its head is not the one the board "
        "signed when the game ended"
    )
    assert not director.night.results
