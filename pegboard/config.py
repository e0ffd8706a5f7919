"""The board's configuration: embedded defaults, overridden by an optional TOML file.

A wrong key or value stops start-up with a message that names it:

>>> load_config(text="[board]\\nbrightnes = 0.5")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pegboard.errors.ConfigError: config: unknown key board.brightnes (known: brightness, ...)
>>> load_config(text="[board]\\nbrightness = 2").board["brightness"]
Traceback (most recent call last):
...
pegboard.errors.ConfigError: config: board.brightness must be between 0.0 and 1.0, not 2
>>> load_config().panel["port"]
8080
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pegboard.errors import ConfigError


def _between(low: float, high: float):
    def check(value: Any) -> str | None:
        if not low <= value <= high:
            return f"must be between {low} and {high}, not {value}"
        return None

    return check


def _one_of(*choices: str):
    def check(value: Any) -> str | None:
        if value not in choices:
            return f"must be one of {', '.join(choices)}, not {value!r}"
        return None

    return check


def _driver(value: str) -> str | None:
    from pegboard.leds import KINDS  # one home: the LED back-ends

    return _one_of(*KINDS)(value)


def _pin(value: str) -> str | None:
    if value and not (value.isdigit() and 4 <= len(value) <= 8):
        return "must be 4 to 8 digits (or empty for a random PIN printed at start)"
    return None


def _voice_out(value: str) -> str | None:
    from pegboard.voice import KINDS  # one home: the voice's outputs

    return _one_of(*KINDS)(value)


def _all_events() -> list[str]:
    from pegboard.keeper.aloud import EVENTS

    return list(EVENTS)


def _events(value: list) -> str | None:
    from pegboard.keeper.aloud import EVENTS  # one home: the kinds of announcement

    wrong = [event for event in value if event not in EVENTS]
    if wrong:
        return f"must name some of {', '.join(EVENTS)}; not {', '.join(map(repr, wrong))}"
    return None


def _language(value: str) -> str | None:
    from pegboard.i18n import LANGUAGES

    if value not in LANGUAGES:
        return f"must be one of {', '.join(LANGUAGES)}, not {value!r}"
    return None


# section -> key -> (default or a function making it, type, check or None). "pins" and
# "game" are free-form tables handed to the inputs and the game, which check them.
SCHEMA: dict[str, dict[str, tuple[Any, type | tuple[type, ...], Any]]] = {
    "board": {
        "layout": ("two-track-121", str, None),
        "driver": ("sim", str, _driver),  # sim: no hardware, as --sim
        "serial_port": ("", str, None),
        "brightness": (0.35, (int, float), _between(0.0, 1.0)),
        "supply_ma": (4000, int, _between(100, 100_000)),
        "pin": ("", str, _pin),
        "language": ("en", str, _language),
    },
    "panel": {
        "host": ("0.0.0.0", str, None),  # every interface: phones on the LAN (writes need the PIN)
        "port": (8080, int, _between(0, 65535)),
        "threads": (32, int, _between(4, 256)),
    },
    # The board's voice, in [board] language: out = auto speaks through the computer's
    # audio when it has some; files writes a WAV per sentence to folder (default: the
    # data folder's voice/); rate in words a minute; events: which announcements.
    "voice": {
        "enabled": (True, bool, None),
        "out": ("auto", str, _voice_out),
        "folder": ("", str, None),
        "volume": (0.8, (int, float), _between(0.0, 1.0)),
        "rate": (160, int, _between(80, 450)),
        "events": (_all_events, list, _events),
    },
}
FREE_SECTIONS = ("pins", "game")


@dataclass(frozen=True)
class Config:
    board: dict[str, Any]
    panel: dict[str, Any]
    voice: dict[str, Any]
    pins: dict[str, Any] = field(default_factory=dict)
    game: dict[str, Any] = field(default_factory=dict)
    source: str = "defaults"


def _made(default: Any) -> Any:
    return default() if callable(default) else default


def load_config(path: Path | None = None, text: str | None = None) -> Config:
    """Defaults, overridden by the TOML at ``path`` (or ``text``)."""
    source = "config"
    if path is not None:
        source = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise ConfigError(f"{source}: cannot read: {error.strerror}") from error
    try:
        data = tomllib.loads(text or "")
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}") from error
    sections: dict[str, dict[str, Any]] = {}
    for name in data:
        if name not in SCHEMA and name not in FREE_SECTIONS:
            known = ", ".join(sorted([*SCHEMA, *FREE_SECTIONS]))
            raise ConfigError(f"{source}: unknown section [{name}] (known: {known})")
        if not isinstance(data[name], dict):
            raise ConfigError(f"{source}: {name} must be a table [{name}]")
    for name, keys in SCHEMA.items():
        given = data.get(name, {})
        for key in given:
            if key not in keys:
                raise ConfigError(
                    f"{source}: unknown key {name}.{key} (known: {', '.join(sorted(keys))})"
                )
        values = {}
        for key, (default, kind, check) in keys.items():
            value = copy.deepcopy(given[key] if key in given else _made(default))
            if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
                expected = kind.__name__ if isinstance(kind, type) else "a number"
                raise ConfigError(f"{source}: {name}.{key} must be {expected}, not {value!r}")
            problem = check(value) if check else None
            if problem:
                raise ConfigError(f"{source}: {name}.{key} {problem}")
            values[key] = value
        sections[name] = values
    free = {name: copy.deepcopy(data.get(name, {})) for name in FREE_SECTIONS}
    return Config(**sections, **free, source=source)
