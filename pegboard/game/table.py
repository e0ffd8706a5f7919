"""The table: one board's games over one game file.  Enter what happens at the table,
read the state, follow the changes.  Safe to use from several threads at once.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "games.db"
>>> with Table(path) as table:
...     _ = table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
...     _ = table.turn_starter("JC")          # his heels: 2 for Ann
...     _ = table.claim("Bob", 2)             # a fifteen in the play, pegged by hand
...     table.state.scores, table.state.due
((2, 2), Count(seat=None, kind='play'))
>>> with Table(path) as table:                # the file remembers
...     table.state.scores, [e.why for e in table.undo().history]
((2, 2), ['two for his heels'])
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from pegboard.errors import ConflictError, PegboardError, RuleError
from pegboard.game import commands
from pegboard.game.chain import GameLog
from pegboard.game.commands import Cards
from pegboard.game.events import Event, from_dict
from pegboard.game.fold import apply
from pegboard.game.settings import Settings
from pegboard.game.state import State
from pegboard.game.store import GameRecord, Receipt, Store
from pegboard.game.summary import Summary, summarise
from pegboard.i18n import N_, Phrase, phrase_of
from pegboard.rules.cards import Card

log = logging.getLogger(__name__)
Seat = int | str  # a seat number, or the player's name
NO_GAME = N_("no game yet: start one")
BREAKS_RULES = N_("event {version} of game {game} breaks the rules: {error}")


class Table:
    """Games kept in the file at ``store`` (a path or an open Store); the most recent
    game is picked up again.  Every entry is checked, then stored as one event, then
    the subscribers hear of it.  Give ``version=`` to refuse an entry made against a
    state that has moved on (ConflictError); make it inside :meth:`keyed` to store the
    key of the request that asked for it with it."""

    def __init__(self, store: Store | str | os.PathLike) -> None:
        self._store = store if isinstance(store, Store) else Store(store)
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._revision = 0
        self._subscribers: list[Callable[[State], None]] = []
        self._game: int | None = None
        self._state: State | None = None
        self._key: tuple[str, str] | None = None
        try:
            latest = self._store.latest()
            if latest is not None:
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
        settings: Settings | Mapping | None = None,
        *,
        dealer: Seat | None = None,
        cuts: Cards | None = None,
    ) -> State:
        """Start a game (the first of a match): the first dealer is chosen, or cut for
        (one card per player in seat order, lowest deals), or else seat 0."""
        event = commands.start(settings, dealer, cuts)
        state = apply(None, event)
        with self._lock:
            game = self._store.start(event, self._take_key(), summarise(state))
            self._switch(game, state)
        return state

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
        return state

    # --- requests that may come twice ---------------------------------------------------

    @contextmanager
    def keyed(self, key: str, request: str) -> Iterator[None]:
        """The first entry made in this block (on this thread: the table is held) is
        stored with ``key`` and ``request`` in its own transaction; :meth:`recall` finds
        it from then on, across restarts."""
        with self._lock:
            self._key = (key, request)
            try:
                yield
            finally:
                self._key = None

    def recall(self, key: str) -> Receipt | None:
        """The entry a request with ``key`` made (see :meth:`keyed`), if any."""
        return self._store.recall(key)

    def _take_key(self) -> tuple[str, str] | None:
        key, self._key = self._key, None
        return key

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

    def turn_starter(
        self, card: Card | str | None = None, *, heels: bool = False, version: int | None = None
    ) -> State:
        """The dealer turned the starter (a jack pegs two for his heels).  With no card,
        say whether it was a jack."""
        return self._enter(commands.turn_starter, card, heels, version=version)

    def name_starter(self, card: Card | str, *, version: int | None = None) -> State:
        """Name the starter turned without its card, so the counts' cards can be checked."""
        return self._enter(commands.name_starter, card, version=version)

    def lay(
        self, card: Card | str, seat: Seat | None = None, *, version: int | None = None
    ) -> State:
        """A card laid in the play; the game scores it (15, 31, pairs, runs, go, last card)."""
        return self._enter(commands.lay, card, seat, version=version)

    def go(self, seat: Seat | None = None, *, version: int | None = None) -> State:
        """The player whose turn it is cannot lay."""
        return self._enter(commands.go, seat, version=version)

    def claim(
        self,
        seat: Seat,
        points: int,
        *,
        kind: str | None = None,
        cards: Cards | None = None,
        version: int | None = None,
    ) -> State:
        """``seat`` pegs a count: play points during the play, the due hand or crib in the
        show.  ``cards`` (without the starter) let the game check it."""
        return self._enter(commands.claim, seat, points, kind, cards, version=version)

    def muggins(
        self, seat: Seat, points: int, *, cards: Cards | None = None, version: int | None = None
    ) -> State:
        """``seat`` calls Muggins: the count just pegged missed ``points``."""
        return self._enter(commands.muggins, seat, points, cards, version=version)

    def dispute_muggins(self, seat: Seat, cards: Cards, *, version: int | None = None) -> State:
        """``seat``, of the mugged side, disputes the Muggins call just made without the
        cards by showing them: the cards settle it (until the next count is pegged)."""
        return self._enter(commands.dispute, seat, cards, version=version)

    def advance(self, *, version: int | None = None) -> State:
        """End the play, or end the show and pass the deal."""
        return self._enter(commands.advance, version=version)

    def next_game(
        self,
        *,
        dealer: Seat | None = None,
        cuts: Cards | None = None,
        version: int | None = None,
    ) -> State:
        """Start the next game of the match.  Its first deal passes to the next seat, or
        to the ``dealer`` chosen, or to the lowest of the ``cuts`` (one card per player
        in seat order, as for a new game): :attr:`State.cut_customary` says when the
        players customarily cut again (the third game of a match of three)."""
        return self._enter(commands.next_game, dealer, cuts, version=version)

    def undo(self, *, version: int | None = None) -> State:
        return self._enter(commands.undo, version=version)

    def redo(self, *, version: int | None = None) -> State:
        return self._enter(commands.redo, version=version)

    def submit(self, event: Event | Mapping, *, version: int | None = None) -> State:
        """Enter an event given whole (say, JSON from the panel: ``{"type": "Go", "seat": 1}``)."""
        if isinstance(event, Mapping):
            event = from_dict(dict(event))
        return self._enter(commands.check, event, version=version)

    def _enter(self, command: Callable[..., Event], *args: object, version: int | None) -> State:
        with self._lock:
            self.expect(version)
            state = self.state
            event = command(state, *args)
            after = apply(state, event)
            try:
                key = self._take_key()
                self._store.append(self._current(), after.version, event, key, summarise(after))
            except ConflictError:
                self.reload()  # another program wrote first: catch up, then refuse
                raise
            self._switch(self._game, after)
            return after

    def _current(self) -> int:
        if self._game is None:
            raise RuleError(Phrase(NO_GAME))
        return self._game

    # --- following the changes --------------------------------------------------------

    @property
    def revision(self) -> int:
        """Counts every change of the state seen through this table (entries, loads)."""
        return self._revision

    def subscribe(self, callback: Callable[[State], None]) -> Callable[[], None]:
        """Call ``callback(state)`` after every change, on the thread that made it and
        under the table's lock (so keep it short).  Returns a function to unsubscribe."""
        with self._lock:
            self._subscribers.append(callback)
        return lambda: self._unsubscribe(callback)

    def _unsubscribe(self, callback: Callable[[State], None]) -> None:
        with self._lock:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

    def wait_for_change(self, revision: int, timeout: float | None = None) -> int:
        """Block until the revision passes ``revision`` (or ``timeout`` seconds pass);
        return the revision now."""
        with self._changed:
            self._changed.wait_for(lambda: self._revision != revision, timeout)
            return self._revision

    def _switch(self, game: int, state: State) -> None:
        with self._lock:
            self._game, self._state = game, state
            self._revision += 1
            self._changed.notify_all()
            for callback in list(self._subscribers):
                try:
                    callback(state)
                except Exception:
                    log.exception("a subscriber failed on version %s", state.version)
