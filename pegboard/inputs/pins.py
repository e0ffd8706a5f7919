"""The pin map: which GPIO each dial, button and switch is wired to.

One map (``hardware/pins.toml``, keys overridable from the config) drives the
controls and the pin table in ``hardware/PINS.md``. Pins are BCM GPIO numbers
on the Raspberry Pi's 40-pin header; a map is checked whole when it is read,
and a wrong one is refused with a ConfigError that names the problem.

>>> pin_map = parse_pins({"advance": 26, "seat": [{"dial": {"a": 17, "b": 27, "switch": 22}}]})
>>> pin_map.seats
(DialPins(a=17, b=27, switch=22),)
>>> parse_pins({"advance": 17, "seat": [{"dial": {"a": 17, "b": 27, "switch": 22}}]})
Traceback (most recent call last):
...
pegboard.errors.ConfigError: pin map: GPIO 17 is used twice: seat 1 dial.a and advance
"""

from __future__ import annotations

import argparse
import difflib
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from importlib.resources import files
from pathlib import Path
from typing import Any, ClassVar

from pegboard.errors import ConfigError

DEFAULT_PINS = Path(str(files("pegboard._hardware") / "pins.toml"))
DEFAULT_DOC = DEFAULT_PINS.with_name("PINS.md")
SEATS_MAX = 4

# BCM GPIO -> (header pin, what else may use it). The layout is the same on
# every 40-pin Pi (1 B+ to 5); tests check it against gpiozero's board data.
HEADER: dict[int, tuple[int, str]] = {
    0: (27, "HAT ID EEPROM (ID_SD)"),
    1: (28, "HAT ID EEPROM (ID_SC)"),
    2: (3, "I2C SDA, fixed 1.8 kΩ pull-up"),
    3: (5, "I2C SCL, fixed 1.8 kΩ pull-up"),
    4: (7, "1-Wire"),
    5: (29, ""),
    6: (31, ""),
    7: (26, "SPI CE1"),
    8: (24, "SPI CE0"),
    9: (21, "SPI MISO"),
    10: (19, "SPI MOSI: LED data with the spi driver"),
    11: (23, "SPI SCLK"),
    12: (32, "PWM0"),
    13: (33, "PWM1"),
    14: (8, "UART TX: serial console if enabled"),
    15: (10, "UART RX: serial console if enabled"),
    16: (36, ""),
    17: (11, ""),
    18: (12, "PCM CLK"),
    19: (35, "PCM FS"),
    20: (38, "PCM DIN"),
    21: (40, "PCM DOUT"),
    22: (15, ""),
    23: (16, ""),
    24: (18, ""),
    25: (22, ""),
    26: (37, ""),
    27: (13, ""),
}
POWER = {1: "3V3", 2: "5V", 4: "5V", 17: "3V3"} | dict.fromkeys(
    (6, 9, 14, 20, 25, 30, 34, 39), "GND"
)
# Allowed: BCM 2-27, every GPIO on the header. GPIO 0 and 1 are refused: the
# Pi's boot firmware reads a HAT's ID EEPROM on them, and a switch there can
# make the Pi misread (or corrupt) a HAT. Shared pins (I2C, SPI, UART, PCM)
# are allowed and flagged in PINS.md; the service passes what it has taken.
GPIO_PINS = range(2, 28)
_BY_HEADER = {header: bcm for bcm, (header, _) in HEADER.items()}

# How the board's voice reaches its speaker. An I2S amplifier (a MAX98357A) takes the
# Pi's PCM pins: `dtoverlay=max98357a` hands GPIO 18-21 to the I2S block, the Pi's PCM
# input (20) included, which an amplifier leaves unwired; no control may use them.
AUDIO = ("i2s", "jack", "usb", "none")
I2S_PINS = {
    18: ("bclk", "Audio amplifier BCLK (I2S)"),
    19: ("lrclk", "Audio amplifier LRC (I2S)"),
    20: ("in", "I2S input: not wired, kept by the audio overlay"),
    21: ("din", "Audio amplifier DIN (I2S)"),
}

_TYPES = {str: "text", bool: "true/false", float: "a decimal number", int: "a whole number"}
_TYPES |= {dict: "a table", list: "a list"}


@dataclass(frozen=True)
class DialPins:
    """A rotary encoder (pins A and B) with a push switch."""

    a: int
    b: int
    switch: int
    kind: ClassVar[str] = "dial"
    labels: ClassVar[dict[str, str]] = {"a": "dial A", "b": "dial B", "switch": "dial push switch"}


@dataclass(frozen=True)
class ButtonPins:
    """Three buttons: minus and plus set the count, peg enters it."""

    minus: int
    plus: int
    peg: int
    kind: ClassVar[str] = "buttons"
    labels: ClassVar[dict[str, str]] = {
        "minus": "minus button",
        "plus": "plus button",
        "peg": "peg button",
    }


Wiring = DialPins | ButtonPins
_WIRINGS: dict[str, type[DialPins] | type[ButtonPins]] = {"dial": DialPins, "buttons": ButtonPins}


@dataclass(frozen=True)
class Settings:
    """Timing for switches, in seconds.

    ``bounce_time``: how long a switch must stay released before its press
    counts (contact chatter shorter than this is one press).
    ``hold_time``: how long a press lasts to be a long press (undo).
    """

    bounce_time: float = 0.02
    hold_time: float = 1.0


_LIMITS = {"bounce_time": (0.0, 0.5), "hold_time": (0.05, 10.0)}


@dataclass(frozen=True)
class PinMap:
    """A checked pin map: the seats in order, the advance button, the timings, and how
    the voice reaches its speaker (``audio``: one of :data:`AUDIO`)."""

    seats: tuple[Wiring, ...]
    advance: int
    settings: Settings = Settings()
    audio: str = "none"

    def uses(self) -> list[tuple[int, str, str]]:
        """Every pin in map order as (gpio, key in the map, label for people).

        >>> PinMap((ButtonPins(4, 18, 19),), advance=26).uses()[0]
        (4, 'seat 1 buttons.minus', 'Seat 1 minus button')
        """
        out = []
        for number, wiring in enumerate(self.seats, 1):
            for field in fields(wiring):
                gpio, label = getattr(wiring, field.name), wiring.labels[field.name]
                out.append(
                    (gpio, f"seat {number} {wiring.kind}.{field.name}", f"Seat {number} {label}")
                )
        out.append((self.advance, "advance", "Advance button (shared)"))
        if self.audio == "i2s":
            out += [(gpio, f"audio i2s.{key}", label) for gpio, (key, label) in I2S_PINS.items()]
        return out


def load_pins(
    path: str | Path | None = None,
    override: Mapping[str, Any] | None = None,
    *,
    taken: Mapping[int, str] | None = None,
) -> PinMap:
    """Read a pin map file (default ``hardware/pins.toml``), apply the config's overrides, check it.

    ``override`` is the config's pin section as a dict: its tables merge key by
    key into the file's, anything else (``advance``, the ``seat`` list) replaces.
    ``taken`` names pins the service already uses elsewhere, e.g. ``{10: "SPI LED data"}``.
    """
    path = Path(path) if path is not None else DEFAULT_PINS
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read the pin map {path}: {exc.strerror or exc}") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    source = str(path)
    if override:
        data = _merged(data, _table(override, "the config's pin section", source))
        source = f"{path} + config"
    return parse_pins(data, source=source, taken=taken)


def parse_pins(
    data: Mapping[str, Any], *, source: str = "pin map", taken: Mapping[int, str] | None = None
) -> PinMap:
    """Check a pin map given as a dict (as TOML reads it) and build it."""
    _known(data, ("advance", "settings", "seat", "audio"), "the pin map", source)
    settings = _settings(_table(data.get("settings", {}), "settings", source), source)
    if "seat" not in data:
        raise ConfigError(f"{source}: no seats: add a [[seat]] table per player")
    seats = data["seat"]
    if not isinstance(seats, list) or not all(isinstance(seat, Mapping) for seat in seats):
        raise ConfigError(f"{source}: seat must be a list of tables ([[seat]]), not {_kind(seats)}")
    if not 1 <= len(seats) <= SEATS_MAX:
        raise ConfigError(f"{source}: {len(seats)} seats given; a board has 1 to {SEATS_MAX}")
    if "advance" not in data:
        raise ConfigError(f"{source}: the advance button is missing: add advance = <GPIO>")
    audio = data.get("audio", "none")
    if audio not in AUDIO:
        raise ConfigError(f"{source}: audio is one of {_quoted(AUDIO)}, not {_kind(audio)}")
    pin_map = PinMap(
        seats=tuple(_seat(seat, number, source) for number, seat in enumerate(seats, 1)),
        advance=_gpio(data["advance"], "advance", source),
        settings=settings,
        audio=audio,
    )
    _check_shared(pin_map, taken or {}, source)
    return pin_map


def _seat(data: Mapping[str, Any], number: int, source: str) -> Wiring:
    where = f"seat {number}"
    _known(data, tuple(_WIRINGS), where, source)
    if len(data) != 1:
        given = " and ".join(data) if data else "nothing"
        raise ConfigError(f"{source}: {where} has {given}: give either a dial or buttons")
    [(kind, pins)] = data.items()
    wiring, pins = _WIRINGS[kind], _table(pins, f"{where} {kind}", source)
    names = [field.name for field in fields(wiring)]
    _known(pins, names, f"{where} {kind}", source)
    missing = [name for name in names if name not in pins]
    if missing:
        raise ConfigError(f"{source}: {where} {kind} is missing {_quoted(missing)}")
    return wiring(*(_gpio(pins[name], f"{where} {kind}.{name}", source) for name in names))


def _settings(data: Mapping[str, Any], source: str) -> Settings:
    _known(data, tuple(_LIMITS), "settings", source)
    values = {}
    for name, value in data.items():
        low, high = _LIMITS[name]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{source}: settings.{name} must be seconds, not {_kind(value)}")
        if not low <= value <= high:
            raise ConfigError(f"{source}: settings.{name} = {value} is not {low} to {high} seconds")
        values[name] = float(value)
    settings = Settings(**values)
    if settings.hold_time <= settings.bounce_time:
        raise ConfigError(
            f"{source}: settings.hold_time ({settings.hold_time} s) must be longer than "
            f"bounce_time ({settings.bounce_time} s)"
        )
    return settings


def _gpio(value: object, where: str, source: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(f"{source}: {where} must be a BCM GPIO number (2-27), not {_kind(value)}")
    if value in (0, 1):
        raise ConfigError(
            f"{source}: {where} = {value}: GPIO 0 and 1 are kept for a HAT's ID EEPROM; "
            "use GPIO 2-27"
        )
    if value not in GPIO_PINS:
        hint = f" (header pin {value} is GPIO {_BY_HEADER[value]})" if value in _BY_HEADER else ""
        raise ConfigError(
            f"{source}: {where} = {value} is not a GPIO on the 40-pin header; "
            f"use BCM numbers 2-27{hint}"
        )
    return value


def _check_shared(pin_map: PinMap, taken: Mapping[int, str], source: str) -> None:
    users = {gpio: [what] for gpio, what in taken.items()}
    for gpio, key, _ in pin_map.uses():
        users.setdefault(gpio, []).append(key)
    for gpio, keys in users.items():
        if len(keys) > 1:
            hint = (
                '; audio = "i2s" keeps GPIO 18-21 for the amplifier: move the control, '
                'or set audio = "jack", "usb" or "none"'
                if any(key.startswith("audio ") for key in keys)
                else ""
            )
            raise ConfigError(f"{source}: GPIO {gpio} is used twice: {' and '.join(keys)}{hint}")


def _known(data: Mapping[str, Any], known: Sequence[str], where: str, source: str) -> None:
    for key in data:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"known: {_quoted(known)}"
            raise ConfigError(f"{source}: unknown key {key!r} in {where} ({hint})")


def _table(value: object, where: str, source: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{source}: {where} must be a table, not {_kind(value)}")
    return value


def _merged(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in override.items():
        both = isinstance(value, Mapping) and isinstance(out.get(key), Mapping)
        out[key] = _merged(out[key], value) if both else value
    return out


def _kind(value: object) -> str:
    return f"{value!r} ({_TYPES.get(type(value), type(value).__name__)})"


def _quoted(names: Sequence[str]) -> str:
    return ", ".join(repr(name) for name in names)


# --- the docs ------------------------------------------------------------


def pin_table(pin_map: PinMap) -> str:
    """The wiring table in Markdown: what, BCM GPIO, header pin, shared with.

    >>> print(pin_table(PinMap((DialPins(17, 27, 22),), advance=26)).splitlines()[2])
    | Seat 1 dial A | 17 | 11 | |
    """
    rows = [
        ("Wired to", "GPIO (BCM)", "Header pin", "Also used for"),
        ("---", "---:", "---:", "---"),
    ]
    rows += [(label, gpio, *HEADER[gpio]) for gpio, _, label in pin_map.uses()]
    return _markdown(rows)


def header_table(pin_map: PinMap) -> str:
    """The 40-pin header, two pins a row as on the board, marked with their use."""
    use = {HEADER[gpio][0]: label for gpio, _, label in pin_map.uses()}
    name = {header: f"GPIO {bcm}" for bcm, (header, _) in HEADER.items()} | POWER
    rows = [
        ("Used for", "Name", "Pin", "Pin", "Name", "Used for"),
        ("---:", "---:", ":-:", ":-:", "---", "---"),
    ]
    rows += [
        (use.get(pin, ""), name[pin], pin, pin + 1, name[pin + 1], use.get(pin + 1, ""))
        for pin in range(1, 41, 2)
    ]
    return _markdown(rows)


def _markdown(rows: Sequence[Sequence[object]]) -> str:
    return "\n".join(
        "|" + "|".join(f" {cell} " if cell != "" else " " for cell in row) + "|" for row in rows
    )


def pins_md(pin_map: PinMap) -> str:
    """The whole of ``hardware/PINS.md`` for a pin map."""
    s = pin_map.settings
    grounds = ", ".join(str(pin) for pin, what in POWER.items() if what == "GND")
    return f"""\
# Pins

<!-- Generated from hardware/pins.toml by `python -m tools.hardware --write`; do not edit. -->

Numbers are BCM GPIO numbers; "header pin" is the physical pin on the 40-pin
header (pin 1 has the square pad; even pins are on the board's edge).
Wire every switch and every encoder's common (C) pin to a ground pin
(GND: {grounds}). The Pi's internal pull-ups are used, so no resistors
are needed. A dial that counts backwards: swap its
`a` and `b` in the pin map.

## Wiring

{pin_table(pin_map)}

Switch timing: a press counts once the switch has stayed released for
{s.bounce_time * 1000:g} ms (`bounce_time`); holding for {s.hold_time:g} s (`hold_time`) is a
long press, which undoes that seat's last entry (on the advance button: says the last
announcement again).

## Audio

`audio = "{pin_map.audio}"`. The board's voice reaches its speaker through the 3.5 mm
jack of a Pi 4 or earlier (`jack`), a USB speaker (`usb`), or an I2S amplifier such as a
MAX98357A (`i2s`: BCLK on GPIO 18, LRC on GPIO 19, DIN on GPIO 21; the audio overlay also
takes GPIO 20). With `i2s` a control on GPIO 18 to 21 is refused.

## Which pins may be used

BCM GPIO 2 to 27 may be used. GPIO 0 and 1 (header pins 27 and 28) are
refused: a HAT's ID EEPROM sits on them and the Pi reads it at boot.
Pins shared with I2C, SPI, UART or PCM work as plain inputs but are then lost
to those uses; the LED data line of the `spi` LED driver is GPIO 10. A pin
used twice, or a number that is not a GPIO on the header, is refused at
start-up.

## The header

{header_table(pin_map)}
"""


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pegboard.inputs [PINS.toml]``: print the PINS.md of a pin map (the
    shipped one is written into a checkout by ``python -m tools.hardware --write``)."""
    parser = argparse.ArgumentParser(prog="python -m pegboard.inputs", description=main.__doc__)
    parser.add_argument("pins", nargs="?", default=DEFAULT_PINS, help="pin map (TOML)")
    args = parser.parse_args(argv)
    try:
        text = pins_md(load_pins(args.pins))
    except ConfigError as exc:
        print(f"pegboard: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0
