"""What the players mean by a turn or a press, and the count they are dialling.

The controls (GPIO or on-screen) only ever produce these five intents; the
game controller reads them. Seats are numbered from 0 in code, in pin map
order (people see seat 1 to 4). Pure: no gpiozero, no game.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Turn:
    """A dial turned ``steps`` clicks (negative: back), or a plus/minus press."""

    seat: int
    steps: int


@dataclass(frozen=True)
class Peg:
    """A short press: peg the count dialled so far (no turn: a zero count)."""

    seat: int


@dataclass(frozen=True)
class Undo:
    """A long press: take back that seat's last entry."""

    seat: int


@dataclass(frozen=True)
class Advance:
    """The shared button: end of the play -> the show; confirm a new game."""


@dataclass(frozen=True)
class Repeat:
    """A long press on the shared button: say the last announcement again."""


Intent = Turn | Peg | Undo | Advance | Repeat


class Entry:
    """The count each seat is dialling before it pegs.

    Starts at 0; a turn adds its steps, never below 0 nor above the cap the
    caller gives (say 29 in the show); ``peg`` hands the count over and
    starts again at 0.

    >>> entry = Entry()
    >>> entry.turn(0, 5, cap=29)
    5
    >>> entry.turn(0, -7, cap=29)
    0
    >>> entry.turn(1, 40, cap=29)
    29
    >>> entry.peg(1), entry.value(1)
    (29, 0)
    """

    def __init__(self) -> None:
        self._counts: dict[int, int] = {}

    def __repr__(self) -> str:
        return f"<Entry {self._counts}>"

    def value(self, seat: int) -> int:
        """The count showing on ``seat``'s dial."""
        return self._counts.get(seat, 0)

    def turn(self, seat: int, steps: int, cap: int) -> int:
        """Move ``seat``'s count by ``steps``, kept within 0..``cap``; return it."""
        if cap < 0:
            raise ValueError(f"cap must be 0 or more, not {cap}")
        self._counts[seat] = min(max(self.value(seat) + steps, 0), cap)
        return self._counts[seat]

    def peg(self, seat: int) -> int:
        """Return ``seat``'s count and start it again at 0."""
        return self._counts.pop(seat, 0)

    def clear(self) -> None:
        """Drop every seat's count (a new deal, an undo)."""
        self._counts.clear()
