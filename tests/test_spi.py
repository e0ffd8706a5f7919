"""The SPI LED driver: the real neopixel_spi library writing to a stand-in bus, read back
as a strip reads it; a spidev that would cut a frame in pieces is refused with the fix."""

from __future__ import annotations

import pytest
from needs import missing

from pegboard.board.layout import Strip, layout_names, load_layout
from pegboard.board.render import Frame
from pegboard.errors import ConfigError
from pegboard.leds import open_driver, spi

try:
    import neopixel_spi  # noqa: F401 (the SPI route's library, in the test extra)
except ImportError:
    missing("adafruit-circuitpython-neopixel-spi is not installed: pip install -e '.[test]'")


@pytest.fixture(autouse=True)
def spidev(tmp_path, monkeypatch):
    """The kernel's spidev parameter, as a Pi with spidev.bufsiz=32768 has it."""
    bufsiz = tmp_path / "bufsiz"
    bufsiz.write_text("32768\n")
    monkeypatch.setattr(spi, "BUFSIZ", bufsiz)
    return bufsiz


class SpiBus:
    """A stand-in for the Pi's SPI bus: keeps what goes out on MOSI."""

    def __init__(self):
        self.written = []
        self.closed = False

    def try_lock(self):
        return True

    def unlock(self):
        pass

    def configure(self, baudrate, polarity, phase):
        self.baudrate = baudrate

    def write(self, data):
        self.written.append(bytes(data))

    def deinit(self):
        self.closed = True


def leds_on_the_wire(data, count):
    """What WS2812s read from an SPI write: one SPI byte per bit, GRB order, as RGB."""
    bits = data.strip(b"\x00")  # the reset (latch) time before and after
    assert len(bits) == 24 * count and set(bits) <= {0xC0, 0xF0}
    raw = bytes(
        int("".join("1" if b == 0xF0 else "0" for b in bits[i : i + 8]), 2)
        for i in range(0, len(bits), 8)
    )
    return [(raw[i + 1], raw[i], raw[i + 2]) for i in range(0, len(raw), 3)]


def test_spi_driver_puts_all_strips_on_one_chain():
    bus = SpiBus()
    strips = [Strip(0, 10, 3), Strip(1, 10, 2)]
    frame = Frame((b"\x01\x02\x03\x10\x20\x30\xff\x00\x80", b"\x00\x00\x00\x07\x08\x09"))
    with open_driver("spi", strips, spi=bus) as leds:
        leds.show(frame)
        assert leds_on_the_wire(bus.written[-1], 5) == [
            (1, 2, 3),
            (16, 32, 48),
            (255, 0, 128),
            (0, 0, 0),
            (7, 8, 9),
        ]
        leds.brightness = 0.5
        assert leds_on_the_wire(bus.written[-1], 5)[2][0] in (127, 128)
    assert leds_on_the_wire(bus.written[-1], 5) == [(0, 0, 0)] * 5  # dark when closed
    assert not bus.closed  # a bus we were given is the caller's to close


def test_the_colour_order_set_is_the_order_on_the_wire():
    bus = SpiBus()
    with open_driver("spi", [Strip(0, 10, 1)], spi=bus, colour_order="RGB") as leds:
        leds.show(Frame((b"\xff\x00\x00",)))
        # Bytes R, G, B on the wire: a GRB strip would light it green, an RGB strip red.
        assert leds_on_the_wire(bus.written[-1], 1) == [(0, 255, 0)]


def test_each_frame_is_one_write_with_the_latch_time_around_it():
    bus = SpiBus()
    with open_driver("spi", [Strip(0, 10, 4)], spi=bus) as leds:
        leds.show(Frame((b"\xff" * 12,)))
        data = bus.written[-1]
    lit = data.strip(b"\x00")
    before, after = data.index(lit), len(data) - data.index(lit) - len(lit)
    # A 0 bit's byte ends in zeros too, so the low time after is at least the zero bytes.
    assert min(before, after) * 8 / spi.SPI_HZ >= 280e-6


@pytest.mark.parametrize("name", layout_names())
def test_every_layout_fits_one_spidev_write_once_bufsiz_is_set(name):
    layout = load_layout(name)
    bus = SpiBus()
    with open_driver("spi", layout.strips, spi=bus) as leds:
        leds.show(Frame(tuple(b"\x10" * (3 * s.leds) for s in layout.strips)))
    assert len(bus.written[-1]) <= spi.BUFSIZ_FIX


def test_a_default_bufsiz_is_refused_with_the_kernel_parameter_named(spidev):
    spidev.write_text("4096\n")
    strips = load_layout("two-track-121").strips
    with pytest.raises(ConfigError) as refused:
        open_driver("spi", strips, spi=SpiBus())
    message = str(refused.value)
    assert "spidev.bufsiz=32768" in message and "/boot/firmware/cmdline.txt" in message
    leds = sum(s.leds for s in strips)
    assert f"{spi.frame_bytes(leds)} bytes a frame for {leds} LEDs" in message


def test_a_short_chain_works_with_the_default_bufsiz(spidev):
    spidev.write_text("4096\n")
    bus = SpiBus()
    with open_driver("spi", [Strip(0, 10, 150)], spi=bus) as leds:
        leds.show(Frame((b"\x01" * 450,)))
    assert len(bus.written[-1]) <= 4096
