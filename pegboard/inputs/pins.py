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
import sys
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from importlib.resources import files
from pathlib import Path
from typing import Any, ClassVar

from pegboard.errors import ConfigError
from pegboard.i18n import N_, Phrase
from pegboard.inputs.header import HEADER as HEADER
from pegboard.inputs.header import pin_table as pin_table
from pegboard.inputs.header import pins_md
from pegboard.shape import Source, one_of

DEFAULT_PINS = Path(str(files("pegboard._hardware") / "pins.toml"))
DEFAULT_DOC = DEFAULT_PINS.with_name("PINS.md")
SEATS_MAX = 4

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

# Translators: a value of the pin map as typed ({value}), and what kind of value it is.
_TYPES = {
    str: N_("{value} (text)"),
    bool: N_("{value} ({true}/{false})"),
    float: N_("{value} (a decimal number)"),
    int: N_("{value} (a whole number)"),
    dict: N_("{value} (a table)"),
    list: N_("{value} (a list)"),
}


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
class SwitchTiming:
    """Timing for switches, in seconds.

    ``bounce_time``: how long a switch must stay released before its press
    counts (contact chatter shorter than this is one press).
    ``hold_time``: how long a press lasts to be a long press (undo).
    """

    bounce_time: float = 0.02
    hold_time: float = 1.0


_LIMITS = {"bounce_time": (0.0, 0.5), "hold_time": (0.05, 10.0)}


def seconds(name: str) -> Callable[[float], Phrase | None]:
    """The check of a timing: seconds, within its limits."""
    low, high = _LIMITS[name]
    return lambda value: (
        None if low <= value <= high else Phrase.of(OUTSIDE, value=value, low=low, high=high)
    )


OUTSIDE = N_("{source}: {key} = {value} is not {low} to {high} seconds")


@dataclass(frozen=True)
class PinMap:
    """A checked pin map: the seats in order, the advance button, the timings, and how
    the voice reaches its speaker (``audio``: one of :data:`AUDIO`)."""

    seats: tuple[Wiring, ...]
    advance: int
    settings: SwitchTiming = SwitchTiming()
    audio: str = "none"

    def uses(self) -> list[tuple[int, str, str]]:
        """Every pin in map order as (gpio, key in the map, label for people).

        >>> PinMap((ButtonPins(4, 18, 19),), advance=26).uses()[0]
        (4, 'seat 1 buttons.minus', 'Seat 1 minus button')
        """
        return [(gpio, str(place), label) for gpio, place, label in self._wired()]

    def _wired(self) -> list[tuple[int, Phrase | str, str]]:
        """As :meth:`uses`, a seat's keys said in any language (``seat 1 dial.a``)."""
        out: list[tuple[int, Phrase | str, str]] = []
        for number, wiring in enumerate(self.seats, 1):
            for field in fields(wiring):
                gpio, label = getattr(wiring, field.name), wiring.labels[field.name]
                place = seat_place(number, f"{wiring.kind}.{field.name}")
                out.append((gpio, place, f"Seat {number} {label}"))
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
        cannot = N_("cannot read the pin map {path}: {reason}")
        raise ConfigError(
            Phrase.of(cannot, path=str(path), reason=exc.strerror or str(exc))
        ) from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise _refused(N_("{source}: not valid TOML: {error}"), str(path), error=str(exc)) from exc
    source = str(path)
    if override:
        data = _merged(data, _table(override, "[pins]", source))
        source = f"{path} + [pins]"  # the file, and the config's [pins] over it
    return parse_pins(data, source=source, taken=taken)


def parse_pins(
    data: Mapping[str, Any], *, source: str = "pin map", taken: Mapping[int, str] | None = None
) -> PinMap:
    """Check a pin map given as a dict (as TOML reads it) and build it."""
    _known(data, ("advance", "settings", "seat", "audio"), None, source)
    settings = _settings(_table(data.get("settings", {}), "settings", source), source)
    if "seat" not in data:
        raise _refused(N_("{source}: no seats: add a {table} table per player"), source, **SEATS)
    seats = data["seat"]
    if not isinstance(seats, list) or not all(isinstance(seat, Mapping) for seat in seats):
        not_list = N_("{source}: {key} must be a list of tables ({table}), not {value}")
        raise _refused(not_list, source, key="seat", value=_kind(seats), **SEATS)
    if not 1 <= len(seats) <= SEATS_MAX:
        count = N_("{source}: {count} seats given; a board has 1 to {most}")
        raise _refused(count, source, count=len(seats), most=SEATS_MAX)
    if "advance" not in data:
        no_advance = N_("{source}: the advance button is missing: add {key} = <GPIO>")
        raise _refused(no_advance, source, key="advance")
    audio = Source(source).value(data, "audio", str, default="none", check=one_of(*AUDIO))
    pin_map = PinMap(
        seats=tuple(_wiring(seat, number, source) for number, seat in enumerate(seats, 1)),
        advance=_gpio(data["advance"], "advance", source),
        settings=settings,
        audio=audio,
    )
    _check_shared(pin_map, taken or {}, source)
    return pin_map


# Translators: a place in the pin map: the table of seat {number}, {key} one of its keys as
# typed (dial, dial.a, buttons.peg).
SEAT = N_("seat {number}")
SEAT_KEY = N_("seat {number} {key}")
SEATS = {"table": "[[seat]]"}
THE_PIN_MAP = N_("the pin map")


def seat_place(number: int, key: str | None = None) -> Phrase:
    """A seat's table in the pin map, or one of its keys: ``seat 1 dial.a``."""
    return (
        Phrase.of(SEAT, number=number)
        if key is None
        else Phrase.of(SEAT_KEY, number=number, key=key)
    )


def _wiring(data: Mapping[str, Any], number: int, source: str) -> Wiring:
    where = seat_place(number)
    _known(data, tuple(_WIRINGS), where, source)
    if len(data) != 1:  # both, or neither (any other key is refused above)
        either = (
            N_("{source}: {where} has {dial} and {buttons}: give either a dial or buttons")
            if data
            else N_("{source}: {where} has nothing: give either a dial or buttons")
        )
        raise _refused(either, source, where=where, dial="dial", buttons="buttons")
    [(kind, pins)] = data.items()
    wiring, pins = _WIRINGS[kind], _table(pins, seat_place(number, kind), source)
    names = [field.name for field in fields(wiring)]
    _known(pins, names, seat_place(number, kind), source)
    missing = [name for name in names if name not in pins]
    if missing:
        said = N_("{source}: {where} is missing {keys}")
        raise _refused(said, source, where=seat_place(number, kind), keys=_quoted(missing))
    return wiring(
        *(_gpio(pins[name], seat_place(number, f"{kind}.{name}"), source) for name in names)
    )


def _settings(data: Mapping[str, Any], source: str) -> SwitchTiming:
    _known(data, tuple(_LIMITS), "settings", source)
    read = Source(source)
    values = {
        name: float(read.value(data, name, float, check=seconds(name), key=f"settings.{name}"))
        for name in data
    }
    settings = SwitchTiming(**values)
    if settings.hold_time <= settings.bounce_time:
        longer = N_("{source}: {hold} ({held} s) must be longer than {bounce} ({bounced} s)")
        raise _refused(
            longer,
            source,
            hold="settings.hold_time",
            held=settings.hold_time,
            bounce="bounce_time",
            bounced=settings.bounce_time,
        )
    return settings


def _gpio(value: object, where: Phrase | str, source: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        not_number = N_("{source}: {where} must be a BCM GPIO number (2-27), not {value}")
        raise _refused(not_number, source, where=where, value=_kind(value))
    if value in (0, 1):
        hat = N_(
            "{source}: {where} = {value}: GPIO 0 and 1 are kept for a HAT's ID EEPROM; "
            "use GPIO 2-27"
        )
        raise _refused(hat, source, where=where, value=value)
    if value not in GPIO_PINS:
        off = (
            N_(
                "{source}: {where} = {value} is not a GPIO on the 40-pin header; use BCM numbers "
                "2-27 (header pin {value} is GPIO {gpio})"
            )
            if value in _BY_HEADER
            else N_(
                "{source}: {where} = {value} is not a GPIO on the 40-pin header; use BCM numbers "
                "2-27"
            )
        )
        raise _refused(off, source, where=where, value=value, gpio=_BY_HEADER.get(value))
    return value


def _check_shared(pin_map: PinMap, taken: Mapping[int, str], source: str) -> None:
    users: dict[int, list[Phrase | str]] = {gpio: [what] for gpio, what in taken.items()}
    for gpio, place, _ in pin_map._wired():
        users.setdefault(gpio, []).append(place)
    for gpio, places in users.items():
        if len(places) > 1:
            twice = (
                N_(
                    "{source}: GPIO {gpio} is used twice: {first} and {second}; {i2s} keeps "
                    "GPIO 18-21 for the amplifier: move the control, or set {key} = {jack}, "
                    "{usb} or {none}"
                )
                if any(str(place).startswith("audio ") for place in places)
                else N_("{source}: GPIO {gpio} is used twice: {first} and {second}")
            )
            others = {way: f'"{way}"' for way in AUDIO if way != "i2s"}
            said = {"i2s": 'audio = "i2s"', "key": "audio", **others}
            raise _refused(twice, source, gpio=gpio, first=places[0], second=places[1], **said)


def _known(
    data: Mapping[str, Any], known: Sequence[str], where: Phrase | str | None, source: str
) -> None:
    """Every key of ``data`` is ``known``; ``where`` is the table (None: the pin map's top)."""
    place = Phrase(THE_PIN_MAP) if where is None else where
    Source(source).only(data, known, Phrase.as_is(place) if isinstance(place, str) else place)


def _table(value: object, where: Phrase | str, source: str) -> Mapping[str, Any]:
    table: Mapping[str, Any] = Source(source).value({"table": value}, "table", dict, key=where)
    return table


def _refused(message: str, source: str, **params: Any) -> ConfigError:
    return ConfigError(Phrase.of(message, source=source, **params))


def _merged(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in override.items():
        both = isinstance(value, Mapping) and isinstance(out.get(key), Mapping)
        out[key] = _merged(out[key], value) if both else value
    return out


def _kind(value: object) -> Phrase:
    """A value as typed, with what kind of value it is: ``'GPIO27' (text)``."""
    kind = _TYPES.get(type(value))
    if kind is None:
        return Phrase.of(N_("{value} ({type})"), value=repr(value), type=type(value).__name__)
    return Phrase.of(kind, value=repr(value), true="true", false="false")  # as typed in TOML


def _quoted(names: Sequence[str]) -> str:
    return ", ".join(repr(name) for name in names)


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
