"""The front door: the one object every change of the game passes through.

The dials, the panel, the command line and the tests call the same methods of a
:class:`Scorekeeper` with the same checks. It owns the :class:`~pegboard.game.Table`
and the counts being dialled, asks the game's rules (:mod:`pegboard.game.dials`) what a
dial and a button mean, and announces every change to its subscribers (the LED
painter, the panel's live streams, the voice) as a :class:`Change`.

A refusal raises the rules' error and changes nothing; it is announced too (a dial's
track flashes red, the voice says why).

One writer (a thread of the door's) makes the entries in the order asked, each checked
and stored before it is announced: only who asked waits on the game file. A turn of a
dial, which stores nothing, is made at once; the board's controls post their intents
(:meth:`Scorekeeper.post`) from gpiozero's thread, which never waits for the game file;
readers never wait. Subscribers are told each change in order, each the board after it
(one snapshot, :class:`~pegboard.keeper.change.Change`).

>>> import tempfile, pathlib
>>> from pegboard.board.layout import load_layout
>>> from pegboard.game import Table
>>> table = Table(pathlib.Path(tempfile.mkdtemp()) / "games.db")
>>> keeper = Scorekeeper(table, load_layout("two-track-121"))
>>> heard = []
>>> _ = keeper.subscribe(heard.append)
>>> str(keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0).said)
'New game: Ann deals first.'
>>> keeper.turn_dial(0, 5).dials, keeper.peg_dial(0).state.history[-1].why
((2, 0, 0, 0), 'two for his heels')
>>> [change.what for change in heard]
['game', 'dial', 'game']
>>> table.close()
"""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import partial
from types import MappingProxyType
from typing import Any

from pegboard.board.layout import Layout
from pegboard.errors import PegboardError, RuleError
from pegboard.game import Settings, State, Table, commands, dials
from pegboard.game.acts import Act, Entries, Key
from pegboard.game.chain import GameLog
from pegboard.game.checks import Cards
from pegboard.game.entries import control
from pegboard.i18n import N_, Phrase, phrase_of
from pegboard.keeper.answers import Answers
from pegboard.keeper.change import NOTHING_LIT, Change, Lit, Versions
from pegboard.keeper.fit import SEATS, check_board, check_seat
from pegboard.keeper.games import Listed, listed, resumed, stored
from pegboard.keeper.intents import Advance, Intent, Peg, Repeat, Turn, Undo
from pegboard.keeper.order import Line, Teller
from pegboard.keeper.photo import BoardPhoto, Photos
from pegboard.keeper.said import REDONE, SILENCE, UNDONE, entered

log = logging.getLogger(__name__)

Seat = int | str
# What the door says of an entry, beyond the board.
TOLD: dict[Callable[..., Any], Phrase] = {commands.undo: UNDONE, commands.redo: REDONE}
Job = Callable[[], "Change"]  # a change to be made by the writer


class Scorekeeper(Entries[Change]):
    """The game of one board behind one door; safe to call from several threads.

    ``layout`` is the board the game is shown on (a game it cannot show is refused);
    ``house`` the settings of a game started from the board's own button."""

    def __init__(self, table: Table, layout: Layout, *, house: Settings | None = None) -> None:
        self._table, self.layout = table, layout
        self.house = house or Settings()
        # Guards the counts and the versions; never held over a write to the game file
        # nor while a subscriber is told.
        self._cond = threading.Condition(threading.RLock())
        self._writer = Line("door-writer")  # every entry, in order
        self._teller: Teller[Change] = Teller()
        self._dials = [0] * SEATS
        self._version = 0
        self._lit: Lit = NOTHING_LIT
        self._lit_version = 0
        self._brightness = 1.0
        self._message = SILENCE
        self._photos = Photos()  # the board's camera's reading, while its count is due
        self._closing = False
        self._answers = Answers(table)
        self._now = self._change("game")  # the board as the last change left it

    def __repr__(self) -> str:
        return f"<Scorekeeper layout={self.layout.name} game={self.game_id} v{self._version}>"

    # --- reading ----------------------------------------------------------------------

    @property
    def now(self) -> Change:
        """The board as the last change announced left it: one snapshot, whole (read it
        once, and every part of it agrees). Readers never wait for a change being made
        (its file write may take a while): it is replaced whole, never half-changed."""
        return self._now

    @property
    def state(self) -> State | None:
        """The current game as the table may know it (a verdict kept for Muggins is not
        in it: :attr:`State.told`), or None before the first (:attr:`now`'s)."""
        return self._now.state

    @property
    def game_id(self) -> int | None:
        return self._now.game_id

    @property
    def dials(self) -> tuple[int, ...]:
        """The count showing on each seat's dial (0: nothing dialled)."""
        return self._now.dials

    @property
    def message(self) -> Phrase:
        """The last thing the board said to everyone."""
        return self._now.message

    @property
    def brightness(self) -> float:
        return self._now.brightness

    def lit(self) -> dict[str, str]:
        """Hole id -> colour of every lit hole, as the LEDs show it now."""
        return dict(self._now.lit)

    def versions(self) -> Versions:
        """The changes and LED frames seen so far: a reader waits for either to move on."""
        return self._now.versions

    def wait(self, seen: Versions, timeout: float) -> Versions:
        """Wait until :meth:`versions` differs from ``seen``, or ``timeout`` seconds."""
        with self._cond:
            self._cond.wait_for(lambda: self.versions() != seen or self._closing, timeout)
            return self.versions()

    @property
    def closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        """Wake every waiting reader: the board is going away. Safe twice."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()

    def settle(self, timeout: float | None = None) -> bool:
        """Wait until every change posted or asked for so far is made (False after
        ``timeout`` seconds): before the game file closes, or a test reads the game."""
        return self._writer.settle(timeout)

    def subscribe(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        """Call ``callback(change)`` after every change, in order, holding none of the
        door's locks (:class:`~pegboard.keeper.order.Teller`): it may read the door; keep
        it short (note it and return), the next change is told after it. Returns the
        unsubscribe."""
        return self._teller.subscribe(callback)

    # --- requests that may come twice -----------------------------------------------------

    def once(self, key: str, request: str, change: Callable[[Key], Change]) -> Change:
        """Make ``change`` at most once for ``key`` (a phone's Idempotency-Key; ``request``
        a digest of what it asked). Asked again, nothing changes: the answer is a
        ``"replayed"`` change that says what the first said. The same key with another
        request raises KeyReused. ``change`` is given ``(key, request)`` to hand to the
        entry it makes: the entry is stored with it in one transaction, so a retry after
        a crash or a restart is known too; a change that is no entry (a dial, the
        brightness) is remembered while the board runs. A refusal is not remembered: it
        changed nothing."""
        return self._writer.run(lambda: self._once(key, request, change))

    def _once(self, key: str, request: str, change: Callable[[Key], Change]) -> Change:
        said = self._answers.first(key, request)
        if said is not None:
            return self._change("replayed", said=said)
        made = change((key, request))
        self._answers.remember(key, request, made.said)
        return made

    # --- games --------------------------------------------------------------------------

    @control("new_game")
    def new_game(
        self,
        settings: Settings | Mapping[str, Any] | None = None,
        *,
        dealer: Seat | None = None,
        cuts: Cards | None = None,
        key: Key | None = None,
    ) -> Change:
        """Start a game (the first of a match) this board can show: chosen dealer, a
        cut (one card per player, lowest deals), or the board cuts at random."""
        if not isinstance(settings, Settings):
            settings = Settings.from_dict(dict(settings or {}))
        check_board(self.layout, settings)
        if dealer is None and cuts is None:
            dealer = secrets.randbelow(len(settings.players))
        start = partial(self._table.new_game, settings, dealer=dealer, cuts=cuts, key=key)
        return self._writer.run(partial(self._made, start))

    def log(self, game: int) -> GameLog:
        """A stored game's log, its chain checked: what a club counts the game by."""
        return self._table.log(game)

    def ask(self, game: int, asked: str) -> None:
        """Keep what a club asked at ``game``'s start (see :meth:`Table.ask`)."""
        self._table.ask(game, asked)

    def games(self, only: int | None = None) -> list[Listed]:
        """The stored games, newest first (:mod:`.games`); with ``only``, that game alone."""
        return listed(self._table, self.game_id, only)

    @control("resume")
    def resume(self, game: int) -> Change:
        """Take a stored game up again: one left unfinished, or the one a new game
        replaced. Nothing is entered (so nothing is said again of its entries)."""
        return self._writer.run(lambda: self._resumed(game))

    def _resumed(self, game: int) -> Change:
        try:
            check_board(self.layout, stored(self._table, game).settings)
            state = self._table.resume(game)
        except PegboardError as error:
            with self._changing():
                self._announce("refused", said=phrase_of(error))
            raise
        with self._changing():
            self._dials = [0] * SEATS
            return self._announce("game", said=resumed(state), before=state.told)

    # --- entries ------------------------------------------------------------------------
    # Each entry of the game (turn_starter, lay, go, claim, muggins, ...) and enter() are
    # the methods of every maker of entries (:class:`~pegboard.game.acts.Entries`).

    def take(
        self, act: Act[Any], /, *, version: int | None = None, key: Key | None = None
    ) -> Change:
        """Make the entry ``act`` through the table (see :meth:`Table.take`), on the
        writer, and announce it; a refusal is announced too, and changes nothing."""
        entry = partial(self._table.take, act, version=version, key=key)
        told = TOLD.get(act.command)
        return self._writer.run(partial(self._made, entry, act.seat, told=told))

    # --- the board's own controls -----------------------------------------------------------
    # A turn is made at once; a press takes the count dialled at once, and its entry is
    # made by the writer: :meth:`post` does not wait for it, the methods below do.

    def post(self, intent: Intent) -> None:
        """A turn or a press of the board's own controls, on the thread that saw it
        (gpiozero's), in the order seen; the caller never waits for the game file nor
        for a subscriber: a turn is made at once (in memory, under the door's lock for a
        moment), a press reads its dial at once and queues its entry for the writer. A
        refusal is told to the subscribers, as every change is."""
        try:
            match intent:
                case Turn(seat=seat, steps=steps):
                    self.turn_dial(seat, steps)
                case Peg(seat=seat):
                    self._writer.put(self._pegged(seat))
                case Undo(seat=seat):
                    self._writer.put(self.undo_own, seat)
                case Advance():
                    self._writer.put(self._advanced())
                case Repeat():
                    self.repeat()
        except PegboardError as error:  # told to the subscribers; the pin's thread goes on
            log.debug("%r refused: %s", intent, error)

    @control("sim_turn", sim=True, seat="seat")
    def turn_dial(self, seat: int, steps: int) -> Change:
        """``seat``'s dial turned ``steps`` clicks: its count moves, within what the entry
        due now can be worth."""
        check_seat(seat)
        cap = dials.dial_cap(self._game())
        with self._changing():
            self._dials[seat] = min(max(self._dials[seat] + steps, 0), cap)
            return self._announce("dial", seat=seat, dial=True)

    @control("sim_press", sim=True, seat="seat")
    def peg_dial(self, seat: int) -> Change:
        """A press on ``seat``'s dial pegs the count dialled (the dial starts again at 0)."""
        return self._writer.run(self._pegged(seat))

    def _pegged(self, seat: int) -> Job:
        check_seat(seat)
        with self._cond:
            points = self._dials[seat]
            if dials.button(self._game()) != "cut":  # a cut stays dialled for the advance
                self._dials[seat] = 0

        def peg() -> State:
            return self._table.push(dials.dialled(self._table.state, seat, points))

        return partial(self._made, peg, seat, dial=True)

    @control("sim_hold", sim=True, seat="seat")
    def undo_own(self, seat: int) -> Change:
        """A long press takes back the last entry, when ``seat`` made it."""
        check_seat(seat)

        def undo() -> State:
            return self._table.push(dials.undo_own(self._table.state, seat))

        return self._writer.run(partial(self._made, undo, seat, dial=True, told=UNDONE))

    @control("advance", seen=True)
    @control("sim_advance", sim=True)
    def press_advance(self, *, version: int | None = None, key: Key | None = None) -> Change:
        """The advance button: the deal goes on, the match's next game (the third of
        three cut for on the dials), or a new game."""
        return self._writer.run(self._advanced(version, key))

    def _advanced(self, version: int | None = None, key: Key | None = None) -> Job:
        with self._cond:
            ranks = tuple(self._dials)  # for a cut: the ranks dialled at the press

        def advance() -> Change:
            if version is not None:
                self._table.expect(version)
            state = self._game()
            if state is None:  # the button starts a game of the house rules
                return self.new_game(self.house, key=key)
            match dials.button(state):
                case "advance" | "next_game" as button:
                    act = Act(commands.advance if button == "advance" else commands.next_game)
                    return self._made(partial(self._table.take, act, key=key), dial=True)
                case "cut":
                    cut = dials.cut(self._table.state, ranks)
                    return self._made(partial(self._table.push, cut, key=key), dial=True)
            rematch = state.seat_after(state.first_dealer)
            return self.new_game(state.settings, dealer=rematch, key=key)

        return advance

    @control("sim_repeat", sim=True)
    def repeat(self) -> Change:
        """The last announcement again, please (the advance button's long press): the
        voice says it; nothing in the game changes."""
        with self._changing():
            return self._announce("repeat")

    @control("brightness")
    def set_brightness(self, level: float) -> Change:
        """Dim the LEDs, 0..1 (the supply's budget still holds)."""
        if isinstance(level, bool) or not isinstance(level, int | float) or not 0 <= level <= 1:
            raise RuleError(Phrase(N_("brightness is between 0 and 1")))
        with self._changing():
            self._brightness = float(level)
            return self._announce("brightness")

    def show_photo(self, photo: BoardPhoto) -> None:
        """The board's camera read ``photo`` of the count due (:class:`.photo.Photos`)."""
        with self._changing():
            if self._photos.keep(self._game(), photo):
                self._announce("photo")

    def show_lit(self, lit: Mapping[str, str]) -> None:
        """The LEDs now light ``lit`` (hole id -> colour): phones draw the same board."""
        with self._changing():
            if dict(lit) != self._lit:
                self._lit = MappingProxyType(dict(lit))
                self._lit_version += 1
                self._now = self._change("lit")
                self._teller.queue(self._now)
                self._cond.notify_all()

    # --- making a change ---------------------------------------------------------------------

    def _made(
        self,
        entry: Callable[[], State],
        seat: Seat | None = None,
        *,
        dial: bool = False,
        told: Phrase | None = None,
    ) -> Change:
        """One entry made through the table (the writer's job), announced; a refusal too."""
        before = self._game()
        try:
            after = entry()  # checked by the rules, then stored: the disk may take a while
        except PegboardError as error:
            with self._changing():
                why = phrase_of(error)
                self._announce("refused", said=why, seat=self._seat_of(seat), dial=dial)
            raise
        with self._changing():
            if after.version == 1 or (before is not None and after.game != before.game):
                self._dials = [0] * SEATS  # a new game: nothing dialled carries over
            said, seat_no = told or entered(after.told), self._seat_of(seat)
            return self._announce("game", said=said, seat=seat_no, dial=dial, before=before)

    @contextmanager
    def _changing(self) -> Iterator[None]:
        """Hold the door's lock while a change is made; tell it once the lock is let go."""
        try:
            with self._cond:
                yield
        finally:
            self._teller.tell()

    def _announce(self, what: str, **fields: Any) -> Change:
        """Count the change, keep what it said (a dial's refusal too), make the board's
        snapshot after it, queue it for the subscribers; wake the readers (lock held)."""
        self._version += 1
        if what == "game" or (what == "refused" and fields.get("dial")):
            self._message = fields.get("said", SILENCE)
        change = self._now = self._change(what, **fields)
        self._teller.queue(change)
        self._cond.notify_all()
        return change

    def _change(self, what: str, **fields: Any) -> Change:
        """The board now, after a change ``what`` (holding the lock)."""
        return Change(
            what,
            self._version,
            self._game(),
            tuple(self._dials),
            lit=self._lit,
            lit_version=self._lit_version,
            brightness=self._brightness,
            message=self._message,
            game_id=self._table.game_id,
            photo=self._photos.of(self._game()),
            **fields,
        )

    def _game(self) -> State | None:
        """The game as the table has it now (the writer's; readers read :attr:`now`)."""
        try:
            return self._table.state.told
        except RuleError:
            return None

    def _seat_of(self, seat: Seat | None) -> int | None:
        """A seat given by number or name, as a number (None if there is no such seat)."""
        state = self._game()
        if isinstance(seat, str) and state is not None and seat in state.players:
            return state.players.index(seat)
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None
