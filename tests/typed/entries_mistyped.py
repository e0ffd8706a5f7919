"""Calls the type checker must refuse (tests/test_entries_typed.py): an entry given what
its command does not take."""

from __future__ import annotations

from pegboard.game import Table, commands
from pegboard.game.acts import Act


def mistakes(table: Table) -> None:
    table.claim("Bob")  # no points
    table.claim("Bob", "two")  # points are a number
    table.enter(commands.lay, "5H", seat=1, face="up")  # lay takes no face
    Act.of(commands.turn_starter, heels="yes")  # heels is a bool
    table.pass_the_crib()  # no such entry
