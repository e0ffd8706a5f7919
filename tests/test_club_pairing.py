"""The director pairs a board over the network with the night's lock let go: a board slow
to answer its pairing holds up no other request (the director adds a table, gives the
standings meanwhile), and the pairing is recorded in the night as it is when it ends
(numbered after a table added meanwhile; in the night opened meanwhile). A pairing sent
again with its request's key while the first is in flight is the same table, not a
refusal.

The slow board is a real socket in front of a real board: it accepts the director's
connection and passes nothing on until the test lets it.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pegboard.club import boards
from pegboard.club.director import Director
from pegboard.club.night import BOARD, HOSTED
from tests.club_players import BOARD_PIN
from tests.trust_boards import LedBoard, director_of

WAIT = 60.0  # seconds a test waits for what it expects (a busy machine is slow, never red)


class Held:
    """A listening socket in front of ``target`` (host, port): the first connection is
    accepted and its first bytes read, then held (:attr:`asked` set) until :meth:`let_go`;
    after that, and for every later connection, bytes pass both ways."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.asked, self._go = threading.Event(), threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._open: list[socket.socket] = []
        self._threads = [threading.Thread(target=self._accept, daemon=True)]
        self._threads[0].start()

    def _accept(self) -> None:
        first = True
        while True:
            try:
                near, _ = self._listener.accept()
            except OSError:  # closed
                return
            self._open.append(near)
            self._thread(self._serve, near, first)
            first = False

    def _thread(self, target: Callable[..., None], *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _serve(self, near: socket.socket, held: bool) -> None:
        if held:
            said = near.recv(65536)  # the request's first bytes: the pairing is under way
            self.asked.set()
            self._go.wait()
        else:
            said = b""
        far = socket.create_connection(self.target)
        self._open.append(far)
        far.sendall(said)
        self._thread(_pipe, far, near)
        _pipe(near, far)

    def let_go(self) -> None:
        self._go.set()

    def close(self) -> None:
        """Stop: every socket shut down first (a close alone wakes no thread in accept or
        recv on Linux), then closed."""
        self._go.set()
        for end in [self._listener, *self._open]:
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()
        for thread in self._threads:
            thread.join(timeout=WAIT)


def _pipe(source: socket.socket, to: socket.socket) -> None:
    """Pass what ``source`` sends on to ``to`` until it ends."""
    try:
        while data := source.recv(65536):
            to.sendall(data)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            to.shutdown(socket.SHUT_WR)


class Pairing:
    """``director.pair(...)`` on a thread of its own: :meth:`result` its table (or raises
    what it raised)."""

    def __init__(self, director: Director, address: str, key: Any = None) -> None:
        self.table: int | None = None
        self.error: BaseException | None = None

        def pair() -> None:
            try:
                self.table = director.pair(address, BOARD_PIN, "Dana", key)
            except BaseException as error:
                self.error = error

        self._thread = threading.Thread(target=pair, daemon=True)
        self._thread.start()

    def result(self) -> int | None:
        self._thread.join(WAIT)
        assert not self._thread.is_alive(), "the pairing did not end"
        if self.error is not None:
            raise self.error
        return self.table


@pytest.fixture
def slow(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Director, Held]]:
    """A director, and a real board behind a socket that holds its first connection."""
    monkeypatch.setattr(boards, "SECONDS", WAIT)  # the board is given time on a busy machine
    board = LedBoard(tmp_path / "board")
    held = Held(("127.0.0.1", board.port))
    director = director_of(tmp_path / "club")
    try:
        yield director, held
    finally:
        held.close()
        director.close()
        board.close()


def test_a_board_slow_to_pair_holds_up_no_other_request_and_is_numbered_when_paired(
    slow: tuple[Director, Held],
) -> None:
    director, held = slow
    pairing = Pairing(director, held.address)
    assert held.asked.wait(WAIT), "the director never asked the board"
    assert director.add_hosted("Dana") == 1  # answered while the board says nothing
    assert director.standings() == []
    held.let_go()
    assert pairing.result() == 2  # the board paired, after the table added meanwhile
    tables = director.night.tables
    assert [(n, t.kind) for n, t in sorted(tables.items())] == [(1, HOSTED), (2, BOARD)]
    assert tables[2].address == held.address and director.store.paired(held.address)
    assert director.links[2].kind == BOARD


def test_a_night_opened_while_a_board_pairs_is_the_night_it_joins(
    slow: tuple[Director, Held],
) -> None:
    director, held = slow
    before = director.night_id
    pairing = Pairing(director, held.address)
    assert held.asked.wait(WAIT), "the director never asked the board"
    director.new_night("Dana")  # the night's tables go: the board is being paired
    held.let_go()
    assert pairing.result() == 1
    assert director.night_id != before and list(director.night.tables) == [1]
    assert director.store.paired(held.address) and 1 in director.links


def test_a_pairing_sent_again_while_the_first_is_under_way_is_the_same_table(
    slow: tuple[Director, Held],
) -> None:
    director, held = slow
    key = ("pair-once", "the same request")
    first = Pairing(director, held.address, key)
    assert held.asked.wait(WAIT), "the director never asked the board"
    again = Pairing(director, held.address, key)  # a phone's retry: it waits for the first
    held.let_go()
    assert first.result() == again.result() == 1
    assert list(director.night.tables) == [1]
