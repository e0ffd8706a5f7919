"""A script that plays through the entries' interface, for the type checker: every call
is checked against its command's own signature (tests/test_entries_typed.py runs mypy
--strict over it, and runs it)."""

from __future__ import annotations

from pathlib import Path

from pegboard.board.layout import load_layout
from pegboard.game import Settings, State, Table, commands
from pegboard.game.acts import Act
from pegboard.keeper import Change, Scorekeeper


def play(path: Path) -> tuple[State, Change]:
    """The start of a deal on a table, then on its door: each entry made three ways."""
    with Table(path) as table:
        table.new_game(Settings(players=("Ann", "Bob")), dealer=0)
        after: State = table.turn_starter("5H")  # a method of the entry
        after = table.enter(commands.lay, "10D", "Bob")  # the command itself
        door = Scorekeeper(table, load_layout("two-track-121"))
        told: Change = door.lay("5C", "Ann")  # fifteen two
        told = door.enter(commands.undo)
        told = door.take(Act.of(commands.lay, "5D", "Ann"), key=("script", "lay 5D"))
        door.settle()
        door.close()
        return after, told
