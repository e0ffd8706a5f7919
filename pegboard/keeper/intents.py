"""What the players mean by a turn or a press of the board's own controls.

The dials and buttons on the GPIO (:mod:`pegboard.inputs`) only ever produce these
five intents, and post them to the front door (:meth:`Scorekeeper.post
<pegboard.keeper.door.Scorekeeper.post>`), which keeps the count each seat is dialling.
Seats are numbered from 0 in code, in pin map order (people see seat 1 to 4). Plain
values: no gpiozero, no game.
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
