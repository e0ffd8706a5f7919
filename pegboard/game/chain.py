"""The chain that makes a stored game's log show any edit.

Each entry is stored with a chain value: the SHA-256 of the value before it (32 zero
bytes before the first) and of the entry itself (its game, its position, its type, its
data and its time, as stored). The game keeps the value after its last entry (its
*head*) and how many entries it has. So an entry changed, even by one byte of the same
length, dropped, moved or put in another game no longer hashes to what is stored, and
:func:`verify` names the game and the position where it stops agreeing.

The chain shows an edit made without its arithmetic; anyone can work a chain out again.
So a board signs the head **when the game ends** (:func:`ended`: the game, its length,
its head and what the club asked at its start, signed with the board's Ed25519 identity,
:mod:`pegboard.identity`; kept in the game file, :mod:`.ends`): a log edited after the
end and chained again has another head, which the board never signed. Whoever holds the
board's private key as well can sign again: the club's witness of the game as it was
played answers that.

>>> entries = chained(1, [("GameStarted", "{}", "2026-01-01 10:00:00"),
...                       ("PlayEnded", "{}", "2026-01-01 10:01:00")])
>>> log = GameLog(1, tuple(entries), entries[-1].chain)
>>> verify(log) == log.head
True
>>> moved = GameLog(1, (entries[1], entries[0]), log.head)
>>> verify(moved)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pegboard.game.chain.ChainError: entry 1 of game 1 is not the one stored there: it was changed, ...
>>> ended(log)[:20]  # what the board signs when the game ends
b'pegboard end 1 2 0:\\n'
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pegboard.errors import StoreError
from pegboard.i18n import N_, Phrase

START = bytes(32)  # the value before a game's first entry
CHANGED = N_(
    "entry {version} of game {game} is not the one stored there: it was changed, or one was "
    "dropped or moved"
)
MISSING = N_("entry {version} of game {game} is missing")
ADDED = N_("entry {version} of game {game} was added after the game's last entry")


class ChainError(StoreError):
    """A log that is not the one stored: ``game`` and ``version`` (the first entry that
    does not agree; 0 when the game's whole length does not) name where."""

    def __init__(self, message: Phrase, game: int, version: int) -> None:
        super().__init__(message)
        self.game, self.version = game, version


@dataclass(frozen=True, slots=True)
class Chained:
    """One stored entry as the chain covers it: its position (``version``), event type,
    data (the JSON text as stored), time stored (UTC) and chain value."""

    version: int
    type: str
    data: str
    at: str
    chain: bytes


@dataclass(frozen=True, slots=True)
class GameLog:
    """A game's whole log: its entries in order and the head the game keeps; what a club
    asked at its start (``asked``, as sent) and the board's signature of its end
    (``end``: empty when none was made: a game not over, or a table that signs none)
    and the length it was signed at (``ended``: a log cut after its end is shorter)."""

    game: int
    entries: tuple[Chained, ...]
    head: bytes
    asked: str = ""
    end: bytes = b""
    ended: int = 0

    def as_dict(self) -> dict[str, Any]:
        """The log as JSON can carry it (chain values in hex)."""
        return {
            "game": self.game,
            "head": self.head.hex(),
            "entries": [[e.version, e.type, e.data, e.at, e.chain.hex()] for e in self.entries],
            "asked": self.asked,
            "end": self.end.hex(),
            "ended": self.ended,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameLog:
        """Read :meth:`as_dict`; a malformed one raises ValueError."""
        try:
            entries = tuple(
                Chained(int(v), str(t), str(d), str(a), bytes.fromhex(c))
                for v, t, d, a, c in data["entries"]
            )
            asked, end = str(data.get("asked", "")), bytes.fromhex(str(data.get("end", "")))
            head, ended = bytes.fromhex(data["head"]), int(data.get("ended", 0))
            return cls(int(data["game"]), entries, head, asked, end, ended)
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a game log: {error}") from None


def link(before: bytes, game: int, version: int, kind: str, data: str, at: str) -> bytes:
    """The chain value of an entry stored after the value ``before``."""
    entry = f"{game} {version} {len(kind)}:{kind}{len(data)}:{data}{len(at)}:{at}"  # no two alike
    return hashlib.sha256(before + entry.encode()).digest()


def chained(game: int, entries: Iterable[tuple[str, str, str]]) -> list[Chained]:
    """(type, data, at) of a game's entries in order, chained."""
    made, before = [], START
    for version, (kind, data, at) in enumerate(entries, start=1):
        before = link(before, game, version, kind, data, at)
        made.append(Chained(version, kind, data, at, before))
    return made


def verify(log: GameLog, versions: int | None = None) -> bytes:
    """Check every entry of ``log`` against the chain and its head (and its length,
    when the game says how many entries it has); return the head. Raises ChainError
    naming the game and the first entry that does not agree."""
    found = len(log.entries) if versions is None else versions
    rows = ((e.version, e.type, e.data, e.at, e.chain) for e in log.entries)
    return check(log.game, rows, found, log.head)


def check(game: int, rows: Iterable[tuple[Any, ...]], versions: int, head: bytes | None) -> bytes:
    """:func:`verify` over (version, type, data, at, chain) rows read one at a time (a
    whole file is checked without holding it)."""
    before, count = START, 0
    for count, (version, kind, data, at, chain) in enumerate(rows, start=1):
        if version != count or chain != link(before, game, count, kind, data, at):
            raise ChainError(Phrase.of(CHANGED, version=count, game=game), game, count)
        before = chain
    if count != versions:
        version = min(count, versions) + 1
        message = MISSING if count < versions else ADDED
        raise ChainError(Phrase.of(message, version=version, game=game), game, version)
    if before != head:
        raise ChainError(Phrase.of(CHANGED, version=count, game=game), game, count)
    return before


def ended(log: GameLog) -> bytes:
    """What the board signs when ``log``'s game ends: the game, its length, its head
    and what the club asked at its start (its night, table, round and nonce)."""
    return end_of(log.game, len(log.entries), log.head, log.asked)


def end_of(game: int, versions: int, head: bytes, asked: str) -> bytes:
    """:func:`ended` of a game stored with ``versions`` entries up to ``head``."""
    return f"pegboard end {game} {versions} {len(asked)}:{asked}\n".encode() + head
