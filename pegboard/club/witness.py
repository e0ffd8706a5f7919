"""The director as each game's witness: every head of a game's chain a table tells the
director as the game is played (on a board's live stream, or a hosted table's change) is
kept, the first one told for each entry, in memory and, a second's worth at a time, in the
club's file (:meth:`~pegboard.club.store.ClubStore.keep_heads`). A log is counted only if
its entries chain to every head kept (:func:`pegboard.club.results.witnessed`): one edited
on the board after the director saw it played, even chained again, no longer does.

>>> seen = Witness()
>>> seen.heard(3, 1, 5, b"a"), seen.heard(3, 1, 5, b"b"), seen.heard(3, 1, 9, b"c")
(True, False, True)
>>> seen.of(3, 1), seen.seen(3, 1), seen.seen(3, 2)
({5: b'a', 9: b'c'}, 9, 0)
"""

from __future__ import annotations

import threading
import time

from pegboard.club.store import ClubStore

KEEP = 1.0  # seconds between two writes of the heads witnessed
Head = tuple[int, int, int, bytes]  # table, game, entries, head


class Witness:
    """The heads witnessed in a night; safe to use from several threads."""

    def __init__(self, heads: dict[tuple[int, int], dict[int, bytes]] | None = None) -> None:
        self._heads = heads or {}
        self._unkept: list[Head] = []
        self._lock = threading.Lock()
        self._kept_at = 0.0

    @classmethod
    def of_night(cls, store: ClubStore, night: int) -> Witness:
        """What the director witnessed of ``night`` before it was restarted."""
        return cls(store.heads(night))

    def heard(self, table: int, game: int, versions: int, head: bytes) -> bool:
        """``table``'s ``game`` told at ``versions`` entries, with ``head`` after the
        last: kept, unless a head was kept for that entry already (False)."""
        with self._lock:
            kept = self._heads.setdefault((table, game), {})
            if versions in kept:
                return False
            kept[versions] = head
            self._unkept.append((table, game, versions, head))
            return True

    def of(self, table: int, game: int) -> dict[int, bytes]:
        """The heads kept of ``table``'s ``game``: entries -> head (a copy)."""
        with self._lock:
            return dict(self._heads.get((table, game), {}))

    def seen(self, table: int, game: int | None) -> int:
        """How far ``game`` was seen played: its entries, when last told (0: never)."""
        with self._lock:
            return max(self._heads.get((table, game), {}) if game is not None else (), default=0)

    def keep(self, store: ClubStore, night: int, now: bool = False) -> None:
        """Write the heads kept since the last write, at most once every KEEP seconds
        (``now``: at once)."""
        with self._lock:
            if not self._unkept or (not now and time.monotonic() - self._kept_at < KEEP):
                return
            heads, self._unkept = self._unkept, []
            self._kept_at = time.monotonic()
        store.keep_heads(night, heads)
