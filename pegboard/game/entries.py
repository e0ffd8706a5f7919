"""Every entry a player or the board makes in a game, declared once, next to its command.

``@entry`` on a command of :mod:`pegboard.game.commands` (a pure function ``(state, *args)
-> event``) declares the entry for the panel's wire: its name, the panel's name for it
(``POST /api/act/<action>``), its arguments and their types (the command's own
signature), whether it is made against the version of the game its maker saw (``seen``: a
phone's tap on a game that has moved on is refused, not made twice), and which argument
says whose entry it is (``seat``). Its refusals are its command's. The panel's actions and
their argument checks, the README's table of actions and what the page needs to know are
made from :data:`ENTRIES`. Typed code never names an entry by a string: it makes the
command itself, as a value (:mod:`pegboard.game.acts`).

>>> from pegboard.game import commands
>>> lay = ENTRIES["lay"]
>>> lay.action, [arg.name for arg in lay.args], lay.seen, lay.seat
('lay', ['card', 'seat'], True, 'seat')
>>> ENTRIES["turn_starter"].action, ENTRIES["dispute_muggins"].action
('starter', 'dispute')
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class Arg:
    """An argument of an entry: its name, the type it takes, whether it must be given."""

    name: str
    hint: Any
    required: bool


@dataclass(frozen=True, slots=True)
class Declared:
    """An entry (or a control of the board, :mod:`pegboard.keeper.door`) as declared:
    ``make`` makes it, after its first parameter (the state, or the door)."""

    name: str
    action: str  # the panel's name: POST /api/act/<action>
    make: Callable[..., Any]
    args: tuple[Arg, ...]
    seen: bool  # refused when made against a version of the game that has moved on
    seat: str | None  # the argument that names whose entry it is
    doc: str  # what it does, in one sentence
    keyed: bool = False  # takes the request's key (``key=``), stored with what it enters
    sim: bool = False  # a control of the simulated board only
    entry: bool = False  # a command of the game (else a control: a method of the door)

    def seat_given(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """The seat (or name) the call names as whose entry it is, if any."""
        if self.seat is None:
            return None
        names = [arg.name for arg in self.args]
        if self.seat in kwargs:
            return kwargs[self.seat]
        index = names.index(self.seat)
        return args[index] if index < len(args) else None


ENTRIES: dict[str, Declared] = {}  # by name: the game's entries
CONTROLS: dict[str, Declared] = {}  # by the panel's action: the front door's own
SEEN_AND_KEY = ("version", "key")  # what every entry may carry beyond its arguments


def declare(
    make: Callable[..., Any],
    *,
    action: str | None = None,
    seat: str | None = None,
    seen: bool,
    sim: bool = False,
) -> Declared:
    """The declaration of ``make``, read from its signature (its first parameter, the
    state or the door, is not an argument; nor are ``version`` and ``key``)."""
    hints = typing.get_type_hints(make)
    parameters = list(inspect.signature(make).parameters.values())[1:]
    args = tuple(
        Arg(p.name, hints[p.name], p.default is inspect.Parameter.empty)
        for p in parameters
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in SEEN_AND_KEY
    )
    keyed = any(p.name == "key" for p in parameters)
    doc = re.split(r"(?<=\.)\s", inspect.cleandoc(make.__doc__ or "").replace("\n", " "))[0]
    name = make.__name__
    return Declared(
        name, name if action is None else action, make, args, seen, seat, doc, keyed, sim
    )


def entry(*, action: str | None = None, seat: str | None = None) -> Callable[[F], F]:
    """Declare the command below as an entry (see the module); ``action=""``: none of
    the panel's (the panel reaches it through a control of the board)."""

    def declared(command: F) -> F:
        made = declare(command, action=action, seat=seat, seen=True)
        ENTRIES[command.__name__] = replace(made, keyed=True, entry=True)  # stored with its key
        return command

    return declared


def control(
    action: str,
    *,
    seen: bool = False,
    sim: bool = False,
    seat: str | None = None,
) -> Callable[[F], F]:
    """Declare the front door's method below as the panel's ``action`` (see
    :mod:`pegboard.keeper`): a control of the board (its advance button, a simulated
    dial when ``sim``), or what the door does beyond an entry (a new game, the
    brightness). One that takes ``key=`` is given the request's key."""

    def declared(method: F) -> F:
        CONTROLS[action] = declare(method, action=action, seat=seat, seen=seen, sim=sim)
        return method

    return declared
