"""The board's stored games as a list to choose from: each game (or match) with where it
stands, so a game left unfinished, or one a new game replaced, can be taken up again
(:meth:`~pegboard.keeper.Scorekeeper.resume`).

A game's state is worked out once for each version of it seen (replaying a long game
for every look at the list would cost more than the list is worth). tests/test_resume.py
shows a game listed and taken up again.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from pegboard.errors import RuleError
from pegboard.game import GameRecord, State, Table
from pegboard.i18n import N_, Phrase

KEPT = 256  # game states remembered (a game's, at the version last seen)


@dataclass(frozen=True, slots=True)
class Listed:
    """A stored game: its id, when it started (UTC, "YYYY-MM-DD HH:MM:SS"), how it
    stands, and whether it is the board's current game."""

    id: int
    created: str
    state: State
    current: bool

    @property
    def finished(self) -> bool:
        """The game is over and nothing of its match is left to play."""
        return self.state.over and self.state.match.winner is not None


class Listing:
    """The stored games of one table, each replayed once per version."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._states: dict[int, State] = {}

    def games(self, table: Table, current: int | None) -> list[Listed]:
        """Every stored game with something entered after its start (a game started and
        left at once holds nothing to go back to), and the current one; newest first."""
        return [
            Listed(record.id, record.created, self._state(table, record), record.id == current)
            for record in reversed(table.games())
            if record.versions > 1 or record.id == current
        ]

    def _state(self, table: Table, record: GameRecord) -> State:
        with self._lock:
            known = self._states.get(record.id)
        if known is not None and known.version == record.versions:
            return known
        state = table.state_of(record.id)
        with self._lock:
            self._states[record.id] = state
            while len(self._states) > KEPT:
                del self._states[next(iter(self._states))]
        return state


def stored(table: Table, game: int) -> GameRecord:
    """The stored game ``game``, or a RuleError that says there is none."""
    for record in table.games():
        if record.id == game:
            return record
    raise RuleError(Phrase.of(N_("there is no game {game} on this board"), game=game))


def resumed(state: State) -> Phrase:
    """What the board says when a stored game is taken up again."""
    names = state.settings.side_names
    if len(names) == 2:
        return Phrase.of(N_("Back to the game of {a} and {b}."), a=names[0], b=names[1])
    return Phrase.of(
        N_("Back to the game of {a}, {b} and {c}."), a=names[0], b=names[1], c=names[2]
    )
