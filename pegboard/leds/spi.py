"""Direct drive from the Pi's SPI bus, for builders without a Pico.

All strips form one chain on MOSI (GPIO 10), strip 0 first, through a level
shifter like the Pico's. Needs the ``spi`` extra (adafruit-circuitpython-neopixel-spi),
imported only when this driver is built.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pegboard.board.layout import Strip
from pegboard.board.render import Frame
from pegboard.errors import ConfigError, LinkError
from pegboard.leds.base import LedDriver


class SpiDriver(LedDriver):
    """WS2812 strips on an SPI bus; ``spi`` defaults to Blinka's ``board.SPI()``."""

    def __init__(self, strips: Sequence[Strip], spi: Any = None, *, pixel_order: str = "GRB"):
        super().__init__(strips)
        try:
            import neopixel_spi
        except ImportError as e:
            raise ConfigError(
                "the SPI LED driver needs the 'spi' extra: pip install 'pegboard[spi]'"
            ) from e
        self._own_bus = spi is None
        if spi is None:
            try:
                import board

                spi = board.SPI()
            except Exception as e:  # Blinka raises several kinds off a Pi
                raise LinkError(f"cannot open the Pi's SPI bus: {e}") from e
        self._spi = spi
        self._count = sum(s.leds for s in self.strips)
        self._pixels = neopixel_spi.NeoPixel_SPI(
            spi, self._count, pixel_order=pixel_order, auto_write=False
        )

    def _show(self, frame: Frame) -> None:
        data = b"".join(frame.strips)
        self._pixels[:] = [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]
        self._pixels.show()

    def _set_brightness(self, level: float) -> None:
        self._pixels.brightness = level
        self._pixels.show()

    def _close(self) -> None:
        self._pixels.deinit()  # dark
        if self._own_bus:
            self._spi.deinit()
