"""A table-side robot for tests: plays random but legal entries through the public Table API.

It deals itself cards it has not seen this deal, lays them, says go, claims counts (true,
short or long), calls Muggins now and then and disputes calls made without the cards,
undoes and redoes, and starts the next game (cutting for it now and then).
"""

from __future__ import annotations

import os
import random
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from pegboard.errors import PegboardError, RuleError
from pegboard.game import Phase, Settings, State, Table
from pegboard.game.acts import Act
from pegboard.game.entries import ENTRIES
from pegboard.rules.cards import DECK
from pegboard.rules.play import GO_LIMIT
from pegboard.rules.scoring import possible_totals, show_total

TABLES = [  # (players, variant) that the rules allow
    *[(n, "standard") for n in (2, 3, 4)],
    *[(n, "shotgun") for n in (2, 3, 4)],
    *[(n, "lowball") for n in (2, 3, 4)],
    (2, "five-card"),
    (2, "seven-card"),
]
NAMES = ("Ann", "Bob", "Cat", "Dan")


def random_settings(rng: random.Random, **fixed: object) -> Settings:
    players, variant = rng.choice(TABLES)
    chosen = {
        "players": NAMES[:players],
        "variant": variant,
        "muggins": rng.random() < 0.5,
        "over_count": rng.choice(["correct", "penalise"]),
        "skunk": rng.choice(["none", "single", "double", "triple"]),
        "match_games": rng.choice([1, 1, 3]),
        "match_scoring": rng.choice(["home", "acc"]),
    }
    return Settings(**{**chosen, **fixed})


class Bot:
    """Makes one entry per :meth:`step` on ``table``; ``undo`` is the chance of an undo."""

    def __init__(
        self, table: Table, rng: random.Random, undo: float = 0.04, settings: Settings | None = None
    ) -> None:
        self.table, self.rng, self.undo_rate, self.settings = table, rng, undo, settings

    def step(self) -> State:
        """One entry that the game accepts; returns the state after it."""
        while True:
            try:
                return self._try()
            except RuleError:  # a random call that the rules refuse: try something else
                continue

    def play_game(self, limit: int = 5000) -> State:
        """Play until the current game (or the whole match) is over."""
        for _ in range(limit):
            state = self.step()
            if state.over:
                return state
        raise AssertionError("the game did not end")

    def _try(self) -> State:
        table, rng = self.table, self.rng
        if table.game_id is None or (table.state.over and table.state.match.winner is not None):
            return table.new_game(self.settings or random_settings(rng), dealer=rng.randrange(2))
        state = table.state
        if state.can_redo and rng.random() < 0.3:
            return table.redo()
        if state.can_undo and rng.random() < self.undo_rate:
            return table.undo()
        if state.disputable is not None and rng.random() < 0.3:
            return self._dispute(state)
        if state.challengeable is not None and rng.random() < 0.15:
            return self._challenge(state)  # a claim of game too: before the game is over
        if state.over:
            if not state.cut_customary:
                return table.next_game()
            if rng.random() < 0.5:  # a tie is refused: cut again
                return table.next_game(cuts=rng.sample(DECK, len(state.players)))
            return table.next_game(ranks=[rng.randint(1, 13) for _ in state.players])
        if state.window is not None and state.settings.muggins and rng.random() < 0.3:
            return self._muggins(state)
        if state.phase is Phase.DISCARD:
            if rng.random() < 0.1:
                return table.turn_starter(None, heels=rng.random() < 0.1)
            return table.turn_starter(self._unseen(state, 1)[0])
        if state.phase is Phase.PLAY:
            return self._play(state)
        return self._show(state)

    def _unseen(self, state: State, n: int) -> list:
        known = state.known_cards()
        return self.rng.sample([c for c in DECK if c not in known], n)

    def _play(self, state: State):
        table, rng = self.table, self.rng
        if (state.play.mode is None and rng.random() < 0.2) or state.play.mode == "points":
            if rng.random() < 0.3:
                return table.advance()
            return table.claim(rng.randrange(len(state.players)), rng.randint(1, 6))
        room = GO_LIMIT - state.play.count
        fits = [c for c in self._unseen(state, 10) if c.value <= room]
        if state.play.pile and (not fits or rng.random() < 0.1):
            return table.go()
        return table.lay(fits[0])

    def _show(self, state: State):
        table, rng = self.table, self.rng
        due = state.due
        if due is None:
            return table.advance()
        crib = due.kind == "crib"
        size = 4 if crib else state.hand_size
        cards = state.hand_of(due.seat) if not crib else None
        if cards is None and state.starter is not None and rng.random() < 0.7:
            cards = tuple(self._unseen(state, size))
        if cards is None or state.starter is None:
            points = rng.choice(sorted(possible_totals(size, crib))[:13])
            return table.claim(due.seat, points)
        true = show_total(cards, state.starter, crib)
        points = max(0, true + rng.choice([0, 0, 0, -2, -1, 1, 2]))
        if points not in possible_totals(size, crib):
            points = true
        return table.claim(due.seat, points, cards=cards if rng.random() < 0.9 else None)

    def _muggins(self, state: State):
        mugged = state.claims[state.window]
        caller = next(s for s in range(len(state.players)) if state.side_of(s) != mugged.side)
        missed = -mugged.difference if mugged.verdict == "under" else self.rng.randint(1, 3)
        return self.table.muggins(caller, max(1, missed + self.rng.choice([0, 0, 1])))

    def _challenge(self, state: State):
        """Another side says the count just pegged is over, naming its cards when the
        count had none: the hand laid in the play, or any it could hold."""
        claim = state.claims[state.challengeable]
        caller = next(s for s in range(len(state.players)) if state.side_of(s) != claim.side)
        if claim.cards is not None:
            return self.table.challenge(caller)
        size = 4 if claim.kind == "crib" else state.hand_size
        return self.table.challenge(caller, self._unseen(state, size))

    def _dispute(self, state: State):
        """The mugged side shows the cards: the hand laid in the play, or any it could hold."""
        mugged = state.claims[state.disputable]
        cards = state.hand_of(mugged.seat) if mugged.kind == "hand" else None
        size = 4 if mugged.kind == "crib" else state.hand_size
        return self.table.dispute_muggins(mugged.seat, cards or self._unseen(state, size))


# --- helpers for the tests -------------------------------------------------------------------


@contextmanager
def game_dir() -> Iterator[Path]:
    """A new folder for game files, in memory (/dev/shm) when there is one: the same SQLite
    files, without waiting for the disk on every commit (which a process kill never needs)."""
    shm = Path("/dev/shm")
    memory = shm if shm.is_dir() and os.access(shm, os.W_OK) else None
    with tempfile.TemporaryDirectory(dir=memory, prefix="pegboard-") as folder:
        yield Path(folder)


@contextmanager
def open_table() -> Iterator[Table]:
    """A table over a new game file, closed afterwards."""
    with game_dir() as folder, Table(folder / "games.db") as table:
        yield table


def stored_rows(path: object) -> list[tuple]:
    """Every stored event, read straight from the file with sqlite3."""
    with closing(sqlite3.connect(path)) as db:
        return db.execute("SELECT game, version, type, data FROM events ORDER BY 1, 2").fetchall()


def refuse(
    table: Table,
    entry: str,
    *args: object,
    match: str,
    version: int | None = None,
    **kwargs: object,
) -> str:
    """Make the entry named ``entry`` (as the panel names it on the wire, ENTRIES; or
    another of the table's methods: ``submit``) on ``table`` (at ``version``), expect it
    refused with a message matching ``match``, and check that neither the file nor the
    state changed.  Returns the message."""
    rows, state, before = stored_rows(table.path), table.state, table.version
    with pytest.raises(PegboardError, match=match) as refusal:
        if entry in ENTRIES:
            table.take(Act(ENTRIES[entry].make, args, kwargs), version=version)
        else:
            getattr(table, entry)(*args, version=version, **kwargs)
    assert stored_rows(table.path) == rows
    assert table.state == state and table.version == before
    return str(refusal.value)


def peg_play(table: Table, seat: int, points: int) -> State:
    """Peg ``points`` for ``seat`` as play claims (at most 15 each), from the discard or
    the play of a deal."""
    if table.state.phase is Phase.DISCARD:
        table.turn_starter(None)
    state = table.state
    while points > 0:
        state = table.claim(seat, min(points, 15))
        points -= 15
    return state
