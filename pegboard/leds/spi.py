"""Direct drive from the Pi's SPI bus, for builders without a Pico.

All strips form one chain on MOSI (GPIO 10), strip 0 first, through a level
shifter like the Pico's. Needs the ``spi`` extra (adafruit-circuitpython-neopixel-spi),
imported only when this driver is built, and ``dtparam=spi=on`` in the Pi's config.txt.

Each WS2812 bit is one SPI byte at 6.4 MHz, so a frame is 24 bytes a LED plus the
latch time before and after it, and it must go out in one write: the kernel's
spidev splits a longer write into pieces of ``spidev.bufsiz`` bytes (4096 unless
set), and the pause between pieces latches the strips part-way (past about 160
LEDs). The driver reads that size at start and refuses to run with too small a one,
naming the fix.

>>> frame_bytes(429)  # the three-track board
10776
>>> frame_bytes(1345) <= BUFSIZ_FIX < frame_bytes(1346)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pegboard._firmware.pegproto import LATCH_US
from pegboard.board.layout import Strip
from pegboard.board.render import Frame
from pegboard.errors import ConfigError, LinkError
from pegboard.i18n import N_, Phrase
from pegboard.leds.base import LedDriver

SPI_HZ = 6_400_000  # 8 SPI bits for each WS2812 bit of 1.25 us
BUFSIZ = Path("/sys/module/spidev/parameters/bufsiz")  # the largest write spidev makes whole
BUFSIZ_FIX = 32768  # spidev.bufsiz=32768 on the kernel command line: frames of up to 1345 LEDs
CMDLINE = "/boot/firmware/cmdline.txt"


def latch_bytes(hz: int = SPI_HZ) -> int:
    """Zero bytes that hold MOSI low for the latch time."""
    return round(hz * float(LATCH_US) / 1_000_000 / 8)


def frame_bytes(leds: int, hz: int = SPI_HZ) -> int:
    """The bytes of one frame's write: latch, 24 bytes a LED, latch."""
    return 24 * leds + 2 * latch_bytes(hz)


def check_bufsiz(leds: int) -> None:
    """ConfigError unless spidev writes a whole frame of ``leds`` LEDs at once.
    No spidev parameter (not a Pi, or spidev built differently): nothing to check."""
    try:
        bufsiz = int(BUFSIZ.read_text().strip())
    except (OSError, ValueError):
        return
    need = frame_bytes(leds)
    if bufsiz < need:
        too_small = N_(
            "the SPI LED driver writes {need} bytes a frame for {leds} LEDs but spidev takes "
            "{bufsiz} at once, so the strips would latch mid-frame: add {fix} to the line in "
            "{path} and reboot (or drive the strips from a Pico)"
        )
        fix = f"spidev.bufsiz={BUFSIZ_FIX}"
        said = Phrase.of(too_small, need=need, leds=leds, bufsiz=bufsiz, fix=fix, path=CMDLINE)
        raise ConfigError(said)


class SpiDriver(LedDriver):
    """WS2812 strips on an SPI bus; ``spi`` defaults to Blinka's ``board.SPI()``;
    ``colour_order``: the order the strips take a LED's bytes in (GRB for a WS2812B)."""

    def __init__(self, strips: Sequence[Strip], spi: Any = None, *, colour_order: str = "GRB"):
        super().__init__(strips)
        self._count = sum(s.leds for s in self.strips)
        check_bufsiz(self._count)
        try:
            import neopixel_spi
        except ImportError as e:
            extra = N_("the SPI LED driver needs the {extra} extra: {command}")
            said = Phrase.of(extra, extra="'spi'", command="pip install 'pegboard[spi]'")
            raise ConfigError(said) from e
        self._own_bus = spi is None
        if spi is None:
            try:
                import board

                spi = board.SPI()
            except Exception as e:  # Blinka raises several kinds off a Pi
                no_bus = N_("cannot open the Pi's SPI bus ({reason}): is {line} in {file}?")
                said = Phrase.of(no_bus, reason=str(e), line="dtparam=spi=on", file="config.txt")
                raise LinkError(said) from e
        self._spi = spi
        self._pixels = neopixel_spi.NeoPixel_SPI(
            spi,
            self._count,
            pixel_order=colour_order,
            auto_write=False,
            frequency=SPI_HZ,
            reset_time=LATCH_US / 1_000_000,
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
