"""The board's stored games as a list to choose from: each game (or match) with where it
stands, so a game left unfinished, or one a new game replaced, can be taken up again
(:meth:`~pegboard.keeper.Scorekeeper.resume`).

The list is the store's summaries (:mod:`pegboard.game.summary`), one query however many
games the board keeps: no game is replayed to be listed (one stored before summaries is
replayed once, and its summary kept). tests/test_resume.py shows a game listed and taken
up again.
"""

from __future__ import annotations

from pegboard.errors import RuleError
from pegboard.game import GameRecord, State, Summary, Table
from pegboard.i18n import N_, Phrase


class Listed:
    """A stored game: its id, when it started and when its last entry was made (UTC,
    "YYYY-MM-DD HH:MM:SS"), how many entries it has, whether it is the board's current
    game, and its summary (read from the file when first asked for: a list of a thousand
    games reads only those it has not shown as they are)."""

    __slots__ = (
        "_record",
        "_summary",
        "_table",
        "created",
        "current",
        "head",
        "id",
        "updated",
        "versions",
    )

    def __init__(self, table: Table, record: GameRecord, current: bool) -> None:
        self.id, self.created, self.updated = record.id, record.created, record.updated
        self.versions, self.current = record.versions, current
        self.head = record.head  # the chain value after its last entry, as ``versions``
        self._table, self._record = table, record
        self._summary: Summary | None = None

    @property
    def summary(self) -> Summary:
        if self._summary is None:
            self._summary = self._table.summary_of(self._record)
        return self._summary

    def __repr__(self) -> str:
        return f"<Listed game {self.id} v{self.versions}{' current' if self.current else ''}>"

    @property
    def set_aside(self) -> Phrase | None:
        """Why the game was set aside as the board started (its entries no longer chain:
        the file was edited), if it was; it is kept as it is and cannot be taken up."""
        return self._table.set_aside.get(self.id)

    @property
    def finished(self) -> bool:
        """The game is over and nothing of its match is left to play."""
        return self.summary.finished


def listed(table: Table, current: int | None, only: int | None = None) -> list[Listed]:
    """Every stored game with something entered after its start (a game started and left
    at once holds nothing to go back to), and the current one; newest first (``only``:
    that game alone, as it would be listed)."""
    records = reversed(table.games()) if only is None else [table.record(only)]
    return [
        Listed(table, record, record.id == current)
        for record in records
        if record is not None and (record.versions > 1 or record.id == current)
    ]


def stored(table: Table, game: int) -> GameRecord:
    """The stored game ``game``, or a RuleError that says there is none."""
    record = table.record(game)
    if record is not None:
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
