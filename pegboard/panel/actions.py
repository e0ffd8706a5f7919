"""The panel's actions: each change a phone may ask of the board, made from the entries'
and the controls' declarations (:mod:`pegboard.game.entries`): ``POST /api/act/<action>``
with the JSON arguments its command takes, checked against its own signature, and made
through the front door.

An argument an action does not take, or one missing or of the wrong type, is an
:class:`ArgumentError` (a 400) that names it. The entries that depend on what the phone
saw take ``version`` (the game's version it saw): made against a game that has moved on,
they are refused (ConflictError). The README's table of actions is :func:`table`.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from functools import partial
from typing import Any

from pegboard.errors import PegboardError, RuleError
from pegboard.i18n import N_, Phrase
from pegboard.keeper import (
    CONTROLS,
    ENTRIES,
    Act,
    Arg,
    Change,
    Declared,
    Scorekeeper,
    Settings,
)
from pegboard.shape import MUST_BE, REQUIRED, Source, fits

SIM_STEPS = 30  # the most steps one on-screen turn of a simulated dial may take
MAX_TARGET = 999  # the panel's limit on a game's target
NAME_LENGTH = 20
CARD_LENGTH = 8  # "10 of ♥" at the most: a card as text
SEEN = "version"  # the game's version the phone saw (entries that depend on it)
SETTINGS = tuple(f.name for f in fields(Settings))  # a new game's arguments, and dealer


class ArgumentError(PegboardError, ValueError):
    """An action's arguments are not what it takes (the request is wrong, not the entry)."""


# action -> its declaration: every entry the panel makes, then the door's own controls
ACTIONS: dict[str, Declared] = {
    "new_game": CONTROLS["new_game"],
    **{declared.action: declared for declared in ENTRIES.values() if declared.action},
    **CONTROLS,
}


def takes(declared: Declared) -> tuple[str, ...]:
    """The JSON arguments ``declared`` takes (a new game: each setting by its name)."""
    names = [arg.name for arg in declared.args]
    if "settings" in names:
        names[names.index("settings") : names.index("settings") + 1] = SETTINGS
    return (*names, SEEN) if declared.seen else tuple(names)


@dataclass(frozen=True)
class Asked:
    """A change a phone asked for, its arguments read and checked (on the thread that
    read the request): the door's method that makes it, with them. The door's writer
    makes it (:meth:`Scorekeeper.once`); nothing of the panel's runs there."""

    make: Callable[..., Change]  # the door's, bound
    kwargs: Mapping[str, Any]
    keyed: bool  # takes the request's key, stored with the entry it makes

    def __call__(self, key: tuple[str, str] | None = None) -> Change:
        return self.make(**self.kwargs, **({"key": key} if self.keyed else {}))


def asked(keeper: Scorekeeper, action: str, data: dict[str, Any], *, sim: bool) -> Asked:
    """The change ``action`` asks of ``keeper`` with the JSON object ``data``, read and
    checked: an entry, as a value the door takes (:class:`~pegboard.keeper.Act`), or a
    control of the door's. Raises ArgumentError or RuleError (nothing is changed)."""
    declared = ACTIONS.get(action)
    if declared is None:
        raise LookupError(action)
    if declared.sim and not sim:
        raise RuleError(Phrase(N_("the on-screen dials work on the simulated board only")))
    unknown = sorted(set(data) - set(takes(declared)))
    if unknown:
        message = N_("{action} takes no {names}")
        raise ArgumentError(Phrase.of(message, action=action, names=", ".join(unknown)))
    read = {arg.name: _read(action, arg, data) for arg in declared.args}
    given = {name: value for name, value in read.items() if value is not None}
    if action in CHECKS:
        CHECKS[action](given)
    extra: dict[str, Any] = {}
    if declared.seen:
        extra["version"] = _read(action, Arg(SEEN, int | None, False), data)
    if declared.entry:  # a command of the game, with its arguments: a value
        return Asked(partial(keeper.take, Act(declared.make, (), given)), extra, keyed=True)
    return Asked(partial(declared.make, keeper, **given), extra, keyed=declared.keyed)


def act(
    keeper: Scorekeeper,
    action: str,
    data: dict[str, Any],
    *,
    sim: bool,
    key: tuple[str, str] | None = None,
) -> Change:
    """Make the change ``action`` asks for with the JSON object ``data`` (and ``key``,
    the request's, stored with the entry it makes): :func:`asked`, made."""
    return asked(keeper, action, data, sim=sim)(key)


def _read(action: str, arg: Arg, data: dict[str, Any]) -> Any:
    """Argument ``arg`` of ``data`` in the JSON form the panel takes for its type (a seat
    is a number, a card text, cards a list of text, ranks a list of numbers); a new game's
    ``settings`` are the settings given by their names."""
    if arg.name == "settings":
        return {key: data[key] for key in SETTINGS if data.get(key) is not None}
    form = _form(arg.hint)
    read = Source(action, ArgumentError)
    value = read.value(data, arg.name, form, default=None if not arg.required else REQUIRED)
    if value is None:
        return None
    if form is list:
        item = _form(_items(arg.hint))
        if not all(fits(v, (item,)) and _short(v) for v in value):
            message = N_("{source}: {key} must be a list of cards, not {value}")
            if item is not str:
                message = N_("{source}: {key} must be a list of whole numbers, not {value}")
            raise read.fail(message, key=arg.name, value=repr(value))
    elif not _short(value):
        raise read.fail(MUST_BE[str], key=arg.name, value=repr(value)[:NAME_LENGTH] + "…")
    return value


def _short(value: Any) -> bool:
    """Text no longer than a name or a card; anything else."""
    return not isinstance(value, str) or len(value) <= max(CARD_LENGTH, NAME_LENGTH)


def _form(hint: Any) -> type:
    """The JSON form of an argument of type ``hint``: the most structured of its options
    (a list, then a number, then text)."""
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    origins = [typing.get_origin(option) or option for option in options]
    if any(isinstance(o, type) and o is not str and issubclass(o, Iterable) for o in origins):
        return list
    for form in (bool, int, float):
        if form in origins:
            return form
    return str


def _items(hint: Any) -> Any:
    """The type of the items of the list in ``hint``: cards are text, ranks numbers."""
    options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    for option in options:
        origin = typing.get_origin(option)
        if isinstance(origin, type) and issubclass(origin, Iterable) and typing.get_args(option):
            return typing.get_args(option)[0]
    return str


def _new_game(given: dict[str, Any]) -> None:
    """The panel's own limits on a game started from a phone."""
    settings = given["settings"]
    players = settings.get("players")
    if not isinstance(players, list) or not all(
        isinstance(p, str) and 0 < len(p.strip()) <= NAME_LENGTH for p in players
    ):
        message = N_("each player needs a name of 1 to {most} characters")
        raise RuleError(Phrase.of(message, most=NAME_LENGTH))
    settings["players"] = [p.strip() for p in players]
    target = settings.get("target", 0)
    if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target <= MAX_TARGET:
        message = N_("a game is played to at most {most} (0: the variant's own)")
        raise RuleError(Phrase.of(message, most=MAX_TARGET))


def _dial_turn(given: dict[str, Any]) -> None:
    if not 0 < abs(given["steps"]) <= SIM_STEPS:
        message = N_("turn the dial 1 to {most} steps at a time, either way")
        raise RuleError(Phrase.of(message, most=SIM_STEPS))


CHECKS = {"new_game": _new_game, "sim_turn": _dial_turn}  # the panel's limits beyond the rules


def table() -> str:
    """The README's table of the actions: each with the arguments it takes and what it
    does, from its declaration."""
    rows = ["| action | arguments | what it does |", "| --- | --- | --- |"]
    for action, declared in ACTIONS.items():
        if declared.sim:
            continue
        names = ", ".join(f"`{name}`" for name in takes(declared) if name != SEEN)
        rows.append(f"| `{action}` | {names or '—'} | {declared.doc} |")
    return "\n".join(rows)


def versioned() -> list[str]:
    """The actions a phone sends with the game's version it saw."""
    return [action for action, declared in ACTIONS.items() if declared.seen]
