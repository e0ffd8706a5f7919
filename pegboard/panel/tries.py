"""Wrong PINs, counted for each address and for the whole board, and kept across restarts.

Each count is a :class:`Bucket`: a wrong PIN adds one to its level, which drains by one
every ``drain`` seconds; while the level is at most ``free``, signing in is open; each
wrong PIN above it closes it for a delay that doubles (1 s, 2 s, 4 s, ... at most an hour).

**A guesser slows only itself.** Each address has its own bucket (ADDRESS: 5 free, one
back every 5 minutes): after five wrong PINs an address waits, and in the long run it
can try at most 12 times an hour (about 16 more while its level rises to the longest
delay, once). Every other address signs in at once: a player's correct PIN is never
held up by someone else's wrong ones.

**The board-wide ceiling** (BOARD: 30 free, one back every 20 s) counts the wrong PINs
of every address together: in the long run 180 an hour, whatever the number of
addresses, so that many addresses together cannot guess faster than that. One address
never reaches it (it is 15 times one address's pace); while 15 or more guess flat out,
signing in by PIN waits for everyone, and a phone already signed in lets others in with
its one-time link (:mod:`pegboard.panel.auth`).

The figures, with the 6-digit PIN a board makes at its first start (1,000,000 PINs:
500,000 guesses on average): from one address 500,000 / 12 an hour = 41,667 hours,
4.8 years; from any number of addresses 500,000 / 180 an hour = 2,778 hours, 116
days: almost 4 months. (A 4-digit PIN set in the config: 17 days from one address, 28
hours from many.)

The counts are kept in a file (``path``), written at each wrong PIN, so a restart
forgets none. Times are the wall clock's: a clock set back counts as no time passed.

>>> bucket = Bucket(free=2, drain=60, base=1, longest=3600)
>>> for _ in range(4):
...     bucket.fail(0.0)
>>> bucket.wait(0.0)  # the 3rd failure closed it for 1 s, the 4th for 2 s
2.0
>>> bucket.wait(2.0)
0.0
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from pegboard.files import is_number, read_json, write_private

ADDRESSES = 10_000  # addresses whose wrong PINs are kept, at most (the oldest go first)


@dataclass(frozen=True)
class Rules:
    """One bucket's rules: free wrong PINs, seconds to drain one, the first and the
    longest delay."""

    free: int
    drain: float
    base: float = 1.0
    longest: float = 3600.0


ADDRESS = Rules(free=5, drain=300.0)
BOARD = Rules(free=30, drain=20.0)


@dataclass
class Bucket:
    """Wrong PINs as a level that drains, and the time signing in is closed until."""

    free: int
    drain: float
    base: float = 1.0
    longest: float = 3600.0
    level: float = 0.0
    at: float = 0.0
    until: float = 0.0

    @classmethod
    def of(cls, rules: Rules) -> Bucket:
        return cls(rules.free, rules.drain, rules.base, rules.longest)

    def wait(self, now: float) -> float:
        """Seconds until signing in opens again (0: open)."""
        return max(0.0, min(self.until - now, self.longest))

    def fail(self, now: float) -> None:
        """One more wrong PIN at ``now``."""
        self.level = self.drained(now) + 1
        self.at = max(self.at, now)
        over = self.level - self.free
        if over > 0:
            delay = min(self.base * 2 ** min(over - 1, 64), self.longest)
            self.until = max(self.until, now + delay)

    def drained(self, now: float) -> float:
        """The level at ``now`` (a clock set back drains nothing)."""
        return max(0.0, self.level - max(0.0, now - self.at) / self.drain)

    def empty(self, now: float) -> bool:
        return self.drained(now) == 0 and self.wait(now) == 0


class Tries:
    """The wrong PINs of each address and of the whole board, kept in ``path`` (if
    given). A damaged file raises ValueError (start-up refuses it)."""

    def __init__(
        self,
        path: Path | None = None,
        clock: Callable[[], float] = time.time,
        address: Rules = ADDRESS,
        board: Rules = BOARD,
        most: int = ADDRESSES,
    ) -> None:
        self.path, self.clock, self.rules, self.most = path, clock, address, most
        self._lock = threading.Lock()
        self._board = Bucket.of(board)
        self._addresses: dict[str, Bucket] = {}
        self._load(read(path) if path is not None else None)

    def wait(self, address: str) -> float:
        """Seconds ``address`` waits before its PIN is checked (0: at once)."""
        with self._lock:
            now, mine = self.clock(), self._addresses.get(address)
            return max(self._board.wait(now), 0.0 if mine is None else mine.wait(now))

    def fail(self, address: str) -> None:
        """A wrong PIN from ``address``: counted for it and for the board, and kept."""
        with self._lock:
            now = self.clock()
            self._board.fail(now)
            mine = self._addresses.pop(address, None) or Bucket.of(self.rules)
            mine.fail(now)
            self._addresses[address] = mine  # the latest last
            for gone in [a for a, bucket in self._addresses.items() if bucket.empty(now)]:
                del self._addresses[gone]
            while len(self._addresses) > self.most:  # address rotation: forget the oldest
                del self._addresses[next(iter(self._addresses))]
            self._save()

    def forgive(self, address: str) -> None:
        """The right PIN from ``address``: its own wrong ones are forgotten (the board's
        count stays)."""
        with self._lock:
            if self._addresses.pop(address, None) is not None:
                self._save()

    def _load(self, data: dict | None) -> None:
        if data is None:
            return
        now = self.clock()
        self._board = _bucket(self._board, data["board"], now)
        for address, kept in sorted(data["addresses"].items(), key=lambda item: item[1][1]):
            self._addresses[address] = _bucket(Bucket.of(self.rules), kept, now)

    def _save(self) -> None:
        if self.path is None:
            return
        state = {
            "board": _kept(self._board),
            "addresses": {address: _kept(bucket) for address, bucket in self._addresses.items()},
        }
        write_private(self.path, json.dumps(state, separators=(",", ":")))


def read(path: Path) -> dict | None:
    """The counts kept in ``path`` (None: no file yet); ValueError when it is damaged."""
    data = read_json(path)
    if data is None:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("addresses"), dict):
        raise ValueError("it holds no counts of wrong PINs")
    for kept in (data.get("board"), *data["addresses"].values()):
        if not (isinstance(kept, list) and len(kept) == 3 and all(map(is_number, kept))):
            raise ValueError(f"{kept!r} is no count of wrong PINs")
    return data


def _kept(bucket: Bucket) -> list[float]:
    return [round(bucket.level, 3), bucket.at, bucket.until]


def _bucket(bucket: Bucket, kept: list[float], now: float) -> Bucket:
    """``bucket`` as kept, its times no later than now (a clock set back since)."""
    level, at, until = kept
    until = min(until, now + bucket.longest)
    return replace(bucket, level=max(0.0, level), at=min(at, now), until=until)
