"""The board's configuration: embedded defaults, overridden by an optional TOML file.

A wrong key or value stops start-up with a message that names it:

>>> load_config(text="[board]\\nbrightnes = 0.5")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pegboard.errors.ConfigError: config: unknown key 'board.brightnes' (did you mean ...?)
>>> load_config(text="[board]\\nbrightness = 2").board["brightness"]
Traceback (most recent call last):
...
pegboard.errors.ConfigError: config: board.brightness must be between 0.0 and 1.0, not 2
>>> load_config().panel["port"]
8080
"""

from __future__ import annotations

import copy
import ipaddress
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pegboard.errors import ConfigError
from pegboard.i18n import N_, Phrase
from pegboard.shape import Check, Source, between, one_of


def _driver(value: str) -> Phrase | None:
    from pegboard.leds import KINDS  # one home: the LED back-ends

    return one_of(*KINDS)(value)


def is_pin(text: str) -> bool:
    """A PIN is 4 to 8 of the digits 0-9 (``isdigit`` alone takes ``٤`` and ``²`` too).

    >>> is_pin("0042"), is_pin("٤٥٦٧"), is_pin("12a4")
    (True, False, False)
    """
    return text.isascii() and text.isdigit() and 4 <= len(text) <= 8


def _pin(value: str) -> Phrase | None:
    if value and not is_pin(value):
        return Phrase(NOT_A_PIN)
    return None


def _host(value: str) -> Phrase | None:
    """An IP address, or a name (a name's labels are not all numbers, as in 999.1.1.1)."""
    try:
        ipaddress.ip_address(value)
        return None
    except ValueError:
        pass
    labels = value.rstrip(".").split(".")
    if all(_LABEL.fullmatch(label) for label in labels) and not labels[-1].isdigit():
        return None
    return Phrase.of(NOT_AN_ADDRESS, value=repr(value))


def _voice_out(value: str) -> Phrase | None:
    from pegboard.voice import KINDS  # one home: the voice's outputs

    return one_of(*KINDS)(value)


def _said_events() -> list[str]:
    from pegboard.keeper.aloud import SAID  # all but the cards by name

    return list(SAID)


def _events(value: list[object]) -> Phrase | None:
    from pegboard.keeper.aloud import EVENTS  # one home: the kinds of announcement

    wrong = [event for event in value if event not in EVENTS]
    if wrong:
        some = N_("{source}: {key} must name some of {choices}; not {value}")
        return Phrase.of(some, choices=", ".join(EVENTS), value=", ".join(map(repr, wrong)))
    return None


def _colour_order(value: str) -> Phrase | None:
    """One of the orders a 3-colour strip takes; a strip with a white LED is refused."""
    from pegboard._firmware.pegproto import ORDERS  # one home: the firmware's

    if isinstance(value, str) and "W" in value.upper() and len(value) == 4:
        return Phrase.of(WHITE_LED, value=repr(value), choices=", ".join(ORDERS), **CHIPS)
    return one_of(*ORDERS)(value)


def _language(value: str) -> Phrase | None:
    from pegboard.i18n import LANGUAGES

    return one_of(*LANGUAGES)(value)


# Translators: {value} is what the maker typed (RGBW); {rgbw} and {chip} name LED chips.
WHITE_LED = N_(
    "{source}: {key} = {value}: that is a strip with a fourth, white LED (RGBW, such as "
    "{rgbw}), which takes 32 bits a LED; pegboard drives 3-colour strips ({chip}), "
    "whose order is one of {choices}"
)
CHIPS = {"rgbw": "SK6812 RGBW", "chip": "WS2812B"}  # the LEDs refused, and the ones driven
NOT_TOML = N_("{source}: not valid TOML: {error}")  # {error}: what the TOML reader says
NOT_UTF8 = N_("{source}: not UTF-8 text ({byte} at {offset}); save it as UTF-8")
NOT_A_PIN = N_(
    "{source}: {key} must be 4 to 8 digits 0-9 (or empty for a random PIN printed at start)"
)
NOT_AN_ADDRESS = N_(
    "{source}: {key} must be one of this machine's IP addresses or its name, not {value}"
)
_LABEL = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)")

# section -> key -> (default or a function making it, type, check or None). "pins" and
# "game" are free-form tables handed to the inputs and the game, which check them.
SCHEMA: dict[str, dict[str, tuple[Any, type, Check | None]]] = {
    "board": {
        "layout": ("two-track-121", str, None),
        "driver": ("sim", str, _driver),  # sim: no hardware, as --sim
        "serial_port": ("", str, None),
        "brightness": (0.35, float, between(0.0, 1.0)),
        # The order the strips take a LED's bytes in: GRB for a WS2812B, as the guide
        # pins; `pegboard doctor` asks for red, green and blue and names the one to set.
        "colour_order": ("GRB", str, _colour_order),
        "supply_ma": (4000, int, between(100, 100_000)),
        "pin": ("", str, _pin),
        "language": ("en", str, _language),
    },
    "panel": {
        "host": ("0.0.0.0", str, _host),  # every interface: phones on the LAN (writes need the PIN)
        "port": (8080, int, between(0, 65535)),
        "threads": (32, int, between(4, 256)),
    },
    # The board's voice, in [board] language: out = auto speaks through the computer's
    # audio when it has some; files writes a WAV per sentence to folder (default: the
    # data folder's voice/); rate in words a minute; events: which announcements.
    "voice": {
        "enabled": (True, bool, None),
        "out": ("auto", str, _voice_out),
        "folder": ("", str, None),
        "volume": (0.8, float, between(0.0, 1.0)),
        "rate": (160, int, between(80, 450)),
        "events": (_said_events, list, _events),
    },
    # The board's own camera over the table (pegboard.camera): off unless enabled; a
    # simulated board (--sim) takes each photo of folder in turn, a Pi its camera module.
    "camera": {
        "enabled": (False, bool, None),
        "folder": ("", str, None),
    },
}
FREE_SECTIONS = ("pins", "game")


@dataclass(frozen=True)
class Config:
    board: dict[str, Any]
    panel: dict[str, Any]
    voice: dict[str, Any]
    camera: dict[str, Any]
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
            reason = error.strerror or str(error)
            cannot = N_("{source}: cannot read: {reason}")
            raise ConfigError(Phrase.of(cannot, source=source, reason=reason)) from error
        except UnicodeDecodeError as error:
            byte = f"0x{error.object[error.start]:02x}"
            raise ConfigError(
                Phrase.of(NOT_UTF8, source=source, byte=byte, offset=error.start)
            ) from None
    try:
        data = tomllib.loads(text or "")
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(Phrase.of(NOT_TOML, source=source, error=str(error))) from error
    sections: dict[str, dict[str, Any]] = {}
    for name in data:
        if name not in SCHEMA and name not in FREE_SECTIONS:
            known = ", ".join(sorted([*SCHEMA, *FREE_SECTIONS]))
            unknown = N_("{source}: unknown section {section} (known: {known})")
            raise ConfigError(Phrase.of(unknown, source=source, section=f"[{name}]", known=known))
        if not isinstance(data[name], dict):
            table = N_("{source}: {key} must be a table {section}")
            raise ConfigError(Phrase.of(table, source=source, key=name, section=f"[{name}]"))
    read = Source(source)
    for name, keys in SCHEMA.items():
        given = data.get(name, {})
        read.only(given, keys, prefix=f"{name}.")
        sections[name] = {
            key: read.value(given, key, kind, default=default, check=check, key=f"{name}.{key}")
            for key, (default, kind, check) in keys.items()
        }
    free = {name: copy.deepcopy(data.get(name, {})) for name in FREE_SECTIONS}
    return Config(**sections, **free, source=source)


def with_panel(config: Config, **given: Any) -> Config:
    """``config`` with the panel's ``host``/``port`` from the command line (None: keep),
    checked as the file's are, each named by its option.

    >>> with_panel(load_config(), port=70000)
    Traceback (most recent call last):
    ...
    pegboard.errors.ConfigError: --port: panel.port must be between 0 and 65535, not 70000
    """
    panel = dict(config.panel)
    for key, value in given.items():
        if value is not None:
            _, kind, check = SCHEMA["panel"][key]
            panel[key] = Source(f"--{key}").value(
                {key: value}, key, kind, check=check, key=f"panel.{key}"
            )
    return replace(config, panel=panel)
