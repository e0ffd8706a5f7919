"""One way to read a shape, for everything the board reads from outside: the config, the
pin map, the layouts, a game's settings, the panel's arguments and the stored events.

A :class:`Source` names where the values come from (a file, a request, a stored event)
and the error its refusals raise; :meth:`Source.value` reads one value of a table by its
type, with a default when it may be left out, and a check of its own. Every refusal is
one phrase of the catalogue, said in the hearer's language, naming the source and the key
as they were typed: "config.toml: board.brightness must be between 0.0 and 1.0, not 2".
The checks that belong to what is read (a pin's GPIO, a hole's place, a rule of the
game) stay with it; what is the same for all (a number, a list, one of some choices, a key
nobody knows) is here, once.

Why our own and not msgspec or pydantic: their errors are English sentences with a path
("Expected `int`, got `str` - at `$.seat`"); ours are catalogue phrases, so a Dutch phone
and a Finnish maker read them in their own words, and the shapes are a few flat tables.

>>> source = Source("config.toml")
>>> source.value({"port": 80}, "port", int, check=between(1024, 65535), key="panel.port")
Traceback (most recent call last):
...
pegboard.errors.ConfigError: config.toml: panel.port must be between 1024 and 65535, not 80
>>> source.value({}, "port", int, default=8080)
8080
"""

from __future__ import annotations

import copy
import difflib
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pegboard.errors import ConfigError, PegboardError
from pegboard.i18n import N_, Phrase, phrase_of

REQUIRED = object()  # a value that must be given
# A type read from JSON by a parser: the JSON form it comes in, and the parser.
Parsers = Mapping[type, tuple[type, Callable[[Any], Any]]]
Check = Callable[[Any], "Phrase | None"]  # a check's own refusal: a phrase of {value} and more

# Translators: a value refused; {source} is where it was read (a file, a request, an entry),
# {key} its name as typed (board.brightness), {value} what it holds.
MUST_BE = {
    bool: N_("{source}: {key} must be {true} or {false}, not {value}"),
    int: N_("{source}: {key} must be a whole number, not {value}"),
    float: N_("{source}: {key} must be a number, not {value}"),
    str: N_("{source}: {key} must be text, not {value}"),
    list: N_("{source}: {key} must be a list, not {value}"),
    dict: N_("{source}: {key} must be a table, not {value}"),
}
MISSING = N_("{source}: {key} is missing")
BETWEEN = N_("{source}: {key} must be between {low} and {high}, not {value}")
AT_LEAST = N_("{source}: {key} must be at least {least}, not {value}")
MORE_THAN = N_("{source}: {key} must be more than {least}, not {value}")
ONE_OF = N_("{source}: {key} must be one of {choices}, not {value}")
UNKNOWN = N_("{source}: unknown key {key} ({hint})")
UNKNOWN_IN = N_("{source}: unknown key {key} in {where} ({hint})")
DID_YOU_MEAN = N_("did you mean {key}?")
KNOWN = N_("known: {keys}")
PROBLEM = N_("{source}: {key}: {problem}")  # {problem}: why its parser refused it
BOOLS = {"true": "true", "false": "false"}  # as typed, in TOML and JSON, in every language


@dataclass(frozen=True, slots=True)
class Source:
    """Where values come from (``name``: a file's path, an action, a phrase such as "the
    layout two-track-121"), and the error its refusals raise."""

    name: str | Phrase
    error: type[PegboardError] = ConfigError

    def fail(self, message: str, **params: Any) -> PegboardError:
        """A refusal: ``message`` is a msgid that starts with ``{source}:``."""
        return self.error(Phrase.of(message, source=self.name, **params))

    def value(
        self,
        table: Mapping[str, Any],
        name: str,
        kind: type | tuple[type, ...],
        *,
        default: Any = REQUIRED,
        check: Check | None = None,
        key: str | Phrase | None = None,
    ) -> Any:
        """``table[name]``, of type ``kind`` (``float`` takes a whole number too), that
        passes ``check``; ``default`` when it is left out (a callable makes it), else a
        refusal. ``key`` is how the value is named to people (``name`` by default)."""
        shown = name if key is None else key
        if table.get(name) is None:
            if default is REQUIRED:
                raise self.fail(MISSING, key=shown)
            return default() if callable(default) else default
        value = copy.deepcopy(table[name])
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not fits(value, kinds):
            raise self.fail(MUST_BE[kinds[0]], key=shown, value=repr(value), **BOOLS)
        problem = check(value) if check else None
        if problem is not None:  # the check's phrase, its source and key filled in here
            where = (("source", self.name), ("key", shown))
            raise self.error(Phrase(problem.message, where + problem.params))
        return value

    def typed(self, value: Any, hint: Any, key: str, parsers: Parsers) -> Any:
        """``value`` from JSON as the type ``hint``: an optional may be None (null), a
        union takes its first option that fits, ``tuple[X, ...]`` is a list of X, and a
        type of ``parsers`` is read from its JSON form by its parser (a card from text)."""
        options = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
        if value is None:
            if type(None) in options:
                return None
            raise self.fail(MISSING, key=key)
        options = tuple(option for option in options if option is not type(None))
        for option in options:
            if typing.get_origin(option) is tuple and isinstance(value, list):
                item = typing.get_args(option)[0]
                return tuple(self.typed(v, item, key, parsers) for v in value)
            if option in parsers and fits(value, (parsers[option][0],)):
                try:
                    return parsers[option][1](value)
                except PegboardError as error:
                    raise self.fail(PROBLEM, key=key, problem=phrase_of(error)) from None
            if option in MUST_BE and fits(value, (option,)):
                return value
        first = options[0]
        form = list if typing.get_origin(first) is tuple else parsers.get(first, (first,))[0]
        raise self.fail(MUST_BE[form], key=key, value=repr(value), **BOOLS)

    def only(
        self, table: Mapping[str, Any], known: Iterable[str], prefix: str | Phrase = ""
    ) -> None:
        """Refuse a key of ``table`` that is none of ``known``, with the one it was
        likely meant to be ("did you mean 'brightness'?"), or the keys known; ``prefix``
        names the table (a section's ``board.``, a phrase such as "seat 1")."""
        known = list(known)
        named = "" if isinstance(prefix, Phrase) else prefix  # keys named as typed
        for name in table:
            if name in known:
                continue
            close = difflib.get_close_matches(str(name), known, n=1)
            hint = (
                Phrase.of(DID_YOU_MEAN, key=repr(named + close[0]))
                if close
                else Phrase.of(KNOWN, keys=", ".join(repr(named + key) for key in known))
            )
            if isinstance(prefix, Phrase):
                raise self.fail(UNKNOWN_IN, key=repr(name), where=prefix, hint=hint)
            raise self.fail(UNKNOWN, key=repr(prefix + str(name)), hint=hint)


def fits(value: Any, kinds: tuple[type, ...]) -> bool:
    """Whether ``value`` is one of ``kinds``, as JSON and TOML give it: a bool is no
    number, a whole number is a ``float`` too."""
    if isinstance(value, bool):
        return bool in kinds
    if float in kinds and isinstance(value, int):
        return True
    return isinstance(value, kinds)


def between(low: float, high: float) -> Check:
    """A check: ``low`` to ``high``."""

    def check(value: Any) -> Phrase | None:
        return None if low <= value <= high else Phrase.of(BETWEEN, low=low, high=high, value=value)

    return check


def at_least(least: int) -> Check:
    def check(value: Any) -> Phrase | None:
        return None if value >= least else Phrase.of(AT_LEAST, least=least, value=value)

    return check


def more_than(least: float) -> Check:
    def check(value: Any) -> Phrase | None:
        return None if value > least else Phrase.of(MORE_THAN, least=least, value=value)

    return check


def one_of(*choices: str) -> Check:
    """A check: one of ``choices``."""

    def check(value: Any) -> Phrase | None:
        if value in choices:
            return None
        return Phrase.of(ONE_OF, choices=", ".join(choices), value=repr(value))

    return check
