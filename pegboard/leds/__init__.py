"""LED back-ends behind one small interface: ``show(frame)``, ``close()``, ``brightness``.

- ``serial``: a Pico running pegboard's firmware, over USB (:class:`pegboard.leds.pico.PicoDriver`);
- ``spi``: the Pi's own SPI bus (:class:`pegboard.leds.spi.SpiDriver`, the ``spi`` extra);
- ``sim``: no hardware: the same firmware on an emulated Pico at the far end of a pty
  (:class:`pegboard.leds.sim.EmulatedPicoDriver`), what ``--sim`` lights.

Importing this package touches no hardware; :func:`open_driver` picks the
back-end at start-up.

>>> from pegboard.board.layout import load_layout
>>> with open_driver("sim", load_layout("two-track-121").strips) as leds:
...     leds.wait_synced(timeout=5)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pegboard.board.layout import Strip
from pegboard.errors import ConfigError
from pegboard.leds.base import LedDriver

KINDS = ("serial", "spi", "sim")  # also the values of the config's board.driver


def open_driver(kind: str, strips: Sequence[Strip], **options: Any) -> LedDriver:
    """Build the back-end ``kind`` for ``strips`` (``layout.strips``).

    Options go to the back-end: ``colour_order=`` for all (the order the strips take a
    LED's bytes in: ``"GRB"``, a WS2812B's, unless told), ``port=`` for serial (None:
    find the Pico), ``spi=`` for spi, ``on_show=`` for sim (called with each board the
    emulated Pico lights).
    """
    if kind == "serial":
        from pegboard.leds.pico import PicoDriver

        return PicoDriver(strips, **options)
    if kind == "spi":
        from pegboard.leds.spi import SpiDriver

        return SpiDriver(strips, **options)
    if kind == "sim":
        from pegboard.leds.sim import EmulatedPicoDriver

        return EmulatedPicoDriver(strips, **options)
    raise ConfigError(f"no LED driver called {kind!r}; choose one of {', '.join(KINDS)}")


__all__ = ["KINDS", "LedDriver", "open_driver"]
