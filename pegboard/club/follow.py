"""The director follows each LED board's live stream (``GET /api/events``: the stream a
phone follows, :mod:`pegboard.panel.live`), all of them on one thread of its own: no
board is asked again and again where its game stands.

Each ``state`` message carries the game being played as the board stored it (its
``chain``: game, entries, head, over). What is heard is handed to ``heard`` at once,
on this thread (keep it short): the director keeps every head as its witness and, when
a seated game is over, fetches its log once. A board that cannot be reached (or stops
answering: the board sends a comment every few seconds) is told to ``seen`` with why,
and followed again as soon as it answers; a stream the board ends is taken up again at
once.

The request is signed as the club's other requests are (:mod:`pegboard.panel.signing`),
so the board counts it as a paired club's, never a stranger's to be ended for room.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import urllib.parse
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from pegboard.club.boards import Board
from pegboard.club.tables import UNREACHABLE
from pegboard.i18n import Phrase

log = logging.getLogger(__name__)

QUIET = 20.0  # seconds without a byte (the board comments every 5 s): it is gone
AGAIN = (0.5, 5.0)  # seconds before following a board again: at first, at most
PATH = "/api/events"


@dataclass(frozen=True, slots=True)
class Heard:
    """A board's game as its stream told it: ``versions`` entries with ``head`` after
    the last; ``over`` once the game has ended."""

    table: int
    game: int
    versions: int
    head: bytes
    over: bool


class Streams:
    """The live streams of the boards :meth:`follow` is given, until :meth:`close`."""

    def __init__(
        self, heard: Callable[[Heard], None], seen: Callable[[int, Phrase | None], None]
    ) -> None:
        self._heard, self._seen = heard, seen
        self._loop = asyncio.new_event_loop()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._thread = threading.Thread(target=self._loop.run_forever, name="streams", daemon=True)
        self._thread.start()

    def follow(self, board: Board) -> None:
        """Follow ``board``'s stream (again, if it was followed)."""
        self._loop.call_soon_threadsafe(self._start, board)

    def drop(self, table: int) -> None:
        if not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._stop, table)

    def close(self) -> None:
        """Stop following every board; safe twice."""
        if self._loop.is_closed():
            return

        async def end() -> None:
            for task in list(self._tasks.values()):
                task.cancel()
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)
            self._loop.stop()

        asyncio.run_coroutine_threadsafe(end(), self._loop)
        self._thread.join(timeout=10)
        self._loop.close()

    def _start(self, board: Board) -> None:
        self._stop(board.number)
        self._tasks[board.number] = self._loop.create_task(self._follow(board))

    def _stop(self, table: int) -> None:
        task = self._tasks.pop(table, None)
        if task is not None:
            task.cancel()

    async def _follow(self, board: Board) -> None:
        wait, last = AGAIN[0], None
        while True:
            try:
                last = await self._stream(board, last)
                wait = AGAIN[0]  # the board ended the stream: take it up again at once
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the board is away, or said no: say so, try later
                why = str(error) or type(error).__name__
                self._seen(board.number, Phrase.of(UNREACHABLE, table=board.number, why=why))
                await asyncio.sleep(wait)
                wait = min(wait * 2, AGAIN[1])

    async def _stream(self, board: Board, last: str | None) -> str | None:
        """One stream of ``board`` until it ends: the id of its last message."""
        parts = urllib.parse.urlsplit(board.address)
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(parts.hostname, parts.port or 80), QUIET
        )
        try:
            headers = board.headers("GET", PATH, b"")
            headers |= {"Accept": "text/event-stream", "Host": parts.netloc}
            if last is not None:
                headers["Last-Event-ID"] = last
            head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
            writer.write(f"GET {PATH} HTTP/1.1\r\n{head}\r\n".encode())
            status = await _line(reader)
            if not status.startswith(b"HTTP/1.1 200"):
                raise ConnectionError(status.decode("latin-1").strip() or "no answer")
            chunked = False
            while line := (await _line(reader)).strip():
                name, _, value = line.decode("latin-1").partition(":")
                if name.strip().lower() == "transfer-encoding":
                    chunked = "chunked" in value.lower()
            self._seen(board.number, None)
            message: dict[str, str] = {}
            async for text in _lines(reader, chunked):
                if text:
                    name, _, value = text.partition(":")
                    message[name] = value[1:] if value.startswith(" ") else value
                    continue
                last = message.get("id", last)
                if message.get("event") == "state":
                    self._told(board.number, message.get("data", ""))
                message = {}
            return last
        finally:
            writer.close()

    def _told(self, table: int, data: str) -> None:
        try:
            chain = json.loads(data).get("chain")
            if chain:
                heard = Heard(
                    table,
                    int(chain["game"]),
                    int(chain["versions"]),
                    bytes.fromhex(chain["head"]),
                    bool(chain["over"]),
                )
                self._heard(heard)
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            log.warning("table %s: a message not understood: %s", table, error)


async def _line(reader: asyncio.StreamReader) -> bytes:
    line = await asyncio.wait_for(reader.readline(), QUIET)
    if not line:
        raise ConnectionError("the board closed the connection")
    return line


async def _lines(reader: asyncio.StreamReader, chunked: bool) -> AsyncIterator[str]:
    """The stream's lines as text, its chunks put together; ends with the stream."""
    buffer = b""
    while True:
        if chunked:
            size = int((await _line(reader)).split(b";")[0].strip() or b"0", 16)
            if size == 0:
                return
            data = await asyncio.wait_for(reader.readexactly(size + 2), QUIET)
            buffer += data[:-2]
        else:
            data = await asyncio.wait_for(reader.read(65536), QUIET)
            if not data:
                return
            buffer += data
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            yield line.rstrip(b"\r").decode("utf-8", "replace")
