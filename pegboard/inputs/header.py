"""The Raspberry Pi's 40-pin header, and the wiring docs (``hardware/PINS.md``) of a pin
map on it (:mod:`pegboard.inputs.pins` reads and checks the map).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class Timing(Protocol):
    """What the docs read of a pin map's switch timing (:class:`.pins.SwitchTiming`)."""

    @property
    def bounce_time(self) -> float: ...
    @property
    def hold_time(self) -> float: ...


class PinMap(Protocol):
    """What the docs read of a pin map (a :class:`pegboard.inputs.pins.PinMap`)."""

    @property
    def settings(self) -> Timing: ...
    @property
    def audio(self) -> str: ...

    def uses(self) -> list[tuple[int, str, str]]: ...


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


def pin_table(pin_map: PinMap) -> str:
    """The wiring table in Markdown: what, BCM GPIO, header pin, shared with.

    >>> from pegboard.inputs.pins import DialPins, PinMap
    >>> print(pin_table(PinMap((DialPins(17, 27, 22),), advance=26)).splitlines()[2])
    | Seat 1 dial A | 17 | 11 | |
    """
    rows: list[tuple[object, ...]] = [
        ("Wired to", "GPIO (BCM)", "Header pin", "Also used for"),
        ("---", "---:", "---:", "---"),
    ]
    rows += [(label, gpio, *HEADER[gpio]) for gpio, _, label in pin_map.uses()]
    return _markdown(rows)


def header_table(pin_map: PinMap) -> str:
    """The 40-pin header, two pins a row as on the board, marked with their use."""
    use = {HEADER[gpio][0]: label for gpio, _, label in pin_map.uses()}
    name = {header: f"GPIO {bcm}" for bcm, (header, _) in HEADER.items()} | POWER
    rows: list[tuple[object, ...]] = [
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
