"""The table: one board's games over one game file.  Enter what happens at the table and
read the state (the front door, :mod:`pegboard.keeper`, tells who follows the changes).
Safe to use from several threads at once.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.db"
>>> with Table(path) as table:
...     _ = table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
...     _ = table.turn_starter("JC")          # his heels: 2 for Ann
...     _ = table.claim("Bob", 2)             # a fifteen in the play, pegged by hand
...     table.state.scores, table.state.due
((2, 2), Count(seat=None, kind=<CountKind.PLAY: 'play'>))
>>> with Table(path) as table:                # the file remembers
...     table.state.scores, [e.why for e in table.undo().history]
((2, 2), ['two for his heels'])
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pegboard.errors import ConflictError, PegboardError, RuleError
from pegboard.game import commands
from pegboard.game.acts import Act, Entries, Key
from pegboard.game.chain import GameLog
from pegboard.game.checks import Cards
from pegboard.game.events import Event, from_dict
from pegboard.game.fold import apply
from pegboard.game.settings import Settings
from pegboard.game.state import State
from pegboard.game.store import Receipt, Store
from pegboard.game.summary import GameRecord, Summary, summarise
from pegboard.i18n import N_, Phrase, phrase_of

log = logging.getLogger(__name__)
Seat = int | str  # a seat number, or the player's name
NO_GAME = N_("no game yet: start one")
BREAKS_RULES = N_("event {version} of game {game} breaks the rules: {error}")


class Table(Entries[State]):
    """Games kept in the file at ``store`` (a path or an open Store); the most recent
    game is picked up again.  Every entry is checked, then stored as one event.  Give
    ``version=`` to refuse an entry made against a state that has moved on
    (ConflictError), and ``key=`` to store the key of the request that asked for it."""

    def __init__(self, store: Store | str | os.PathLike[str]) -> None:
        self._store = store if isinstance(store, Store) else Store(store)
        self._lock = threading.RLock()
        self._game: int | None = None
        self._state: State | None = None
        try:
            latest = self._store.latest()
            if latest is not None and latest not in self._store.set_aside:
                self.load(latest)
        except BaseException:
            if self._store is not store:
                self._store.close()  # refused: nothing was written
            raise

    def close(self) -> None:
        self._store.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Table {self._store.path} game={self._game} version={self.version}>"

    # --- which game ---------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The state of the current game."""
        state = self._state
        if state is None:
            raise RuleError(Phrase(NO_GAME))
        return state

    @property
    def game_id(self) -> int | None:
        return self._game

    @property
    def version(self) -> int:
        return 0 if self._state is None else self._state.version

    def new_game(
        self,
        settings: Settings | Mapping[str, Any] | None = None,
        *,
        dealer: Seat | None = None,
        cuts: Cards | None = None,
        key: Key | None = None,
    ) -> State:
        """Start a game (the first of a match): the first dealer is chosen, or cut for
        (one card per player in seat order, lowest deals), or else seat 0. ``key``: as
        for an entry (:meth:`enter`)."""
        event = commands.start(settings, dealer, cuts)
        state = apply(None, event)
        with self._lock:
            game = self._store.start(event, key, summarise(state))
            self._switch(game, state)
        return state

    def ask(self, game: int, asked: str) -> None:
        """Keep what a club asked at ``game``'s start (its night, table, round and
        nonce): the board signs it with the game's end (:mod:`.ends`)."""
        self._store.ask(game, asked)

    def load(self, game: int) -> State:
        """Make a stored game the current one."""
        state = self.state_of(game)
        with self._lock:
            self._switch(game, state)
        return state

    def resume(self, game: int) -> State:
        """Take a stored game up again: it is the current one, after a restart too."""
        state = self.state_of(game)
        with self._lock:
            self._store.choose(game)
            self._switch(game, state)
        return state

    def reload(self) -> State:
        """Read the current game again (another program may have written to it), or the
        latest stored game if there is no current one."""
        game = self._game if self._game is not None else self._store.latest()
        if game is None:
            raise RuleError(Phrase(NO_GAME))
        return self.load(game)

    def games(self) -> list[GameRecord]:
        """Every stored game, finished or not, oldest first, each with its summary as
        stored (None when it has none yet: :meth:`summary_of` works it out)."""
        return self._store.games()

    def record(self, game: int) -> GameRecord | None:
        """The stored game ``game`` as :meth:`games` lists it, if there is one."""
        return self._store.game(game)

    def summary_of(self, record: GameRecord) -> Summary:
        """The summary of a stored game: as stored, else worked out from its events (and
        kept, so it is worked out once)."""
        kept = record.summary
        if kept is not None:
            return kept
        summary = summarise(self.state_of(record.id, record.versions))
        self._store.summarise(record.id, record.versions, summary)
        return summary

    def log(self, game: int | None = None) -> GameLog:
        """A game's stored log (the current one by default), its chain checked: what a
        club trusts a board's game by (see :mod:`pegboard.game.chain`)."""
        return self._store.log(self._current() if game is None else game)

    @property
    def set_aside(self) -> dict[int, Phrase]:
        """The old games set aside as the file was opened (their entries no longer chain:
        the file was edited), each with why; they are left as they are."""
        return {game: phrase_of(error) for game, error in self._store.set_aside.items()}

    @property
    def path(self) -> Path:
        """The game file."""
        return self._store.path

    def events(self, game: int | None = None) -> list[Event]:
        """The stored events of a game (the current one by default), oldest first."""
        return self._store.events(self._current() if game is None else game)

    def state_of(self, game: int, version: int | None = None) -> State:
        """The state of any stored game (after its first ``version`` events), without
        making it the current one.  Every event is checked again by the rules, against
        the state before it, as a live entry is: one they refuse stops with a StoreError
        (and the file is left as it is)."""
        state = None
        for number, event in enumerate(self._store.events(game)[:version], start=1):
            try:
                state = apply(state, commands.recheck(state, event))
            except PegboardError as error:
                said = phrase_of(error)
                problem = Phrase.of(BREAKS_RULES, version=number, game=game, error=said)
                raise self._store.refusal(problem) from None
        if state is None:  # a game is stored with its start, or not at all
            raise self._store.refusal(Phrase.of(BREAKS_RULES, version=0, game=game, error=""))
        return state

    # --- requests that may come twice ---------------------------------------------------

    def recall(self, key: str) -> Receipt | None:
        """The entry a request with ``key`` made (given as ``key=`` to an entry), if any:
        it is stored with its entry, so it is known across restarts."""
        return self._store.recall(key)

    def expect(self, version: int | None) -> None:
        """Refuse (ConflictError) when ``version`` is given and the game is no longer at it."""
        state = self.state
        if version is not None and version != state.version:
            raise ConflictError(
                Phrase.of(
                    N_("the game moved on to version {version}: look again and retry"),
                    version=state.version,
                )
            )

    # --- entries: each checks, then stores exactly one event --------------------------
    # The entries themselves (turn_starter, lay, go, claim, ...) and enter() are the
    # methods of every maker of entries (:class:`~pegboard.game.acts.Entries`).

    def take(
        self, act: Act[Any], /, *, version: int | None = None, key: Key | None = None
    ) -> State:
        """Make the entry ``act``: checked by its rules, then stored as one event (with
        the ``key`` and request of the phone that asked for it, when given), then the
        state after it. ``version``: refused (ConflictError) if the game is no longer at it."""
        return self._append(act.event, version, key)

    def push(self, event: Event, *, version: int | None = None, key: Key | None = None) -> State:
        """Store ``event``, made by the rules' own commands (:mod:`pegboard.game.dials`)
        for the state as it is: it is not checked again."""
        return self._append(lambda state: event, version, key)

    def submit(self, event: Event | Mapping[str, Any], *, version: int | None = None) -> State:
        """Enter an event given whole, as a script may (``{"type": "Go", "seat": 1}``):
        checked as if entered by its command."""
        if isinstance(event, Mapping):
            event = from_dict(dict(event))
        return self._append(lambda state: commands.check(state, event), version, None)

    def _append(
        self, made: Callable[[State], Event], version: int | None, key: Key | None
    ) -> State:
        with self._lock:
            self.expect(version)
            state = self.state
            event = made(state)
            after = apply(state, event)
            try:
                self._store.append(self._current(), after.version, event, key, summarise(after))
            except ConflictError:
                self.reload()  # another program wrote first: catch up, then refuse
                raise
            self._switch(self._current(), after)
            return after

    def _current(self) -> int:
        if self._game is None:
            raise RuleError(Phrase(NO_GAME))
        return self._game

    def _switch(self, game: int, state: State) -> None:
        with self._lock:
            self._game, self._state = game, state
