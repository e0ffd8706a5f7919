"""An entry as a value: an :class:`Act` is a command of the game (a pure function
``(state, *args) -> event`` of :mod:`pegboard.game.commands` or :mod:`pegboard.game.calls`)
with its arguments, checked by the type checker against the command's own signature, as
python-chess's ``board.push(move)`` takes a ``Move``.

Who makes entries (the :class:`~pegboard.game.Table`, the front door) *takes* an act:
``take(act, version=, key=)`` (``version``: refused if the game has moved on; ``key``:
the request's, stored with it). The same act is written three ways, each typed end to
end (:class:`Entries`, the one ``enter`` of both):

>>> import tempfile, pathlib
>>> from pegboard.game import Settings, Table, commands
>>> table = Table(pathlib.Path(tempfile.mkdtemp()) / "games.db")
>>> _ = table.new_game(Settings(players=("Ann", "Bob")), dealer=0)
>>> table.take(Act.of(commands.turn_starter, "JC")).scores       # the act, a value
(2, 0)
>>> table.enter(commands.claim, "Bob", 2).scores                  # the command itself
(2, 2)
>>> table.undo().scores                                           # a method of each entry
(2, 0)
>>> table.close()

Nothing is made at run time: each entry's method is declared below, once, for both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from pegboard.game import calls, commands
from pegboard.game.entries import ENTRIES, Declared
from pegboard.game.events import Event
from pegboard.game.state import State

P = ParamSpec("P")
R = TypeVar("R")
Key = tuple[str, str]  # a request's Idempotency-Key, and a digest of what it asked
Command = Callable[Concatenate[State, P], Event]


@dataclass(frozen=True, slots=True)
class Act(Generic[P]):
    """An entry to be made: its command and the arguments it is given (build it with
    :meth:`of`, which the type checker holds to the command's signature)."""

    command: Command[P]
    args: tuple[Any, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def of(cls, command: Command[P], /, *args: P.args, **kwargs: P.kwargs) -> Act[P]:
        return cls(command, args, MappingProxyType(dict(kwargs)))

    def event(self, state: State) -> Event:
        """The event the act makes of ``state`` (or the RuleError that refuses it)."""
        return self.command(state, *self.args, **self.kwargs)

    @property
    def declared(self) -> Declared:
        """The entry's declaration (``@entry`` over its command)."""
        return ENTRIES[self.command.__name__]

    @property
    def seat(self) -> Any:
        """The seat (or name) the act names as whose entry it is, if any."""
        return self.declared.seat_given(self.args, dict(self.kwargs))


class EntryMethod(Generic[P]):
    """One entry as a method of who takes entries: ``table.claim("Bob", 2)`` is
    ``table.take(Act.of(claim, "Bob", 2))``, typed as the command is."""

    def __init__(self, command: Command[P]) -> None:
        self.command = command
        self.__doc__ = command.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        if name != self.command.__name__:  # the method is named as its entry
            raise TypeError(f"{owner.__name__}.{name} makes {self.command.__name__}")

    @overload
    def __get__(self, taker: None, owner: type) -> EntryMethod[P]: ...
    @overload
    def __get__(self, taker: Entries[R], owner: type) -> Callable[P, R]: ...
    def __get__(self, taker: Entries[R] | None, owner: type) -> EntryMethod[P] | Callable[P, R]:
        if taker is None:
            return self
        command = self.command

        def enter(*args: P.args, **kwargs: P.kwargs) -> R:
            return taker.take(Act.of(command, *args, **kwargs))

        enter.__name__ = enter.__qualname__ = command.__name__
        enter.__doc__ = command.__doc__
        return enter


class Entries(Generic[R]):
    """Every entry of the game, for who makes entries (the Table, which gives the state
    after it, ``R`` = State; the front door, which gives its change): :meth:`take`,
    :meth:`enter` and a method per entry. A new entry is its command (with ``@entry``)
    and its line here (a test holds the two lists equal)."""

    def take(self, act: Act[Any], /, *, version: int | None = None, key: Key | None = None) -> R:
        """Make the entry ``act``: checked by its command, stored as one event; refused
        (ConflictError) if ``version`` is given and the game has moved on from it;
        stored with the request's ``key`` when given."""
        raise NotImplementedError

    next_game = EntryMethod(commands.next_game)
    turn_starter = EntryMethod(commands.turn_starter)
    name_starter = EntryMethod(commands.name_starter)
    lay = EntryMethod(commands.lay)
    go = EntryMethod(commands.go)
    claim = EntryMethod(commands.claim)
    advance = EntryMethod(commands.advance)
    undo = EntryMethod(commands.undo)
    redo = EntryMethod(commands.redo)
    muggins = EntryMethod(calls.muggins)
    dispute_muggins = EntryMethod(calls.dispute_muggins)
    challenge = EntryMethod(calls.challenge)

    def enter(self, command: Command[P], /, *args: P.args, **kwargs: P.kwargs) -> R:
        """Make the entry ``command`` with its arguments (:meth:`take`)."""
        return self.take(Act.of(command, *args, **kwargs))


def entry_methods() -> dict[str, EntryMethod[Any]]:
    """The entries :class:`Entries` makes methods of, by name."""
    return {name: m for name, m in vars(Entries).items() if isinstance(m, EntryMethod)}
