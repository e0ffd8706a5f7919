"""The players' dials and buttons on the Pi's GPIO (gpiozero), read as intents.

- ``pins``: the pin map (``hardware/pins.toml``) and its checks; ``header``: the 40-pin
  header and the PINS.md tables.
- ``factory``: gpiozero's pin factory, chosen at start-up.
- ``devices``: the controls per seat, turning pin edges into intents.
- the intents they make (``Turn``, ``Peg``, ``Undo``, ``Advance``, ``Repeat``) are the
  front door's (:mod:`pegboard.keeper.intents`): it keeps the count each seat dials.

Importing this package touches no pins.
"""

from pegboard.inputs.devices import Controls, Seat, Switch
from pegboard.inputs.factory import make_factory
from pegboard.inputs.header import pins_md
from pegboard.inputs.pins import (
    ButtonPins,
    DialPins,
    PinMap,
    SwitchTiming,
    load_pins,
    parse_pins,
)
from pegboard.keeper.intents import Advance, Intent, Peg, Repeat, Turn, Undo

__all__ = [
    "Advance",
    "ButtonPins",
    "Controls",
    "DialPins",
    "Intent",
    "Peg",
    "PinMap",
    "Repeat",
    "Seat",
    "Switch",
    "SwitchTiming",
    "Turn",
    "Undo",
    "load_pins",
    "make_factory",
    "parse_pins",
    "pins_md",
]
