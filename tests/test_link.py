"""LED back-ends behind one interface: the simulated board, SPI, choosing one, finding the Pico."""

import subprocess
import sys

import pytest
from serial.tools.list_ports_common import ListPortInfo

from pegboard.board.layout import Strip, load_layout
from pegboard.board.render import BoardView, Frame, Renderer, TrackView
from pegboard.errors import ConfigError, LayoutError, LinkError
from pegboard.leds import link, open_driver
from pegboard.leds.sim import SimDriver

LAYOUT = load_layout("two-track-61")


def a_frame(front=12):
    return Renderer(LAYOUT).render(BoardView((TrackView(front=front, back=3), TrackView())))


# -- the simulated board ------------------------------------------------------------


def test_sim_shows_frames_to_every_observer_until_unsubscribed():
    seen_a, seen_b = [], []
    sim = SimDriver(LAYOUT.strips, on_show=seen_a.append)
    unsubscribe = sim.subscribe(seen_b.append)
    first, second = a_frame(12), a_frame(13)
    sim.show(first)
    unsubscribe()
    sim.show(second)
    assert seen_a == [first, second] and seen_b == [first]
    assert sim.shown == second and sim.frame == second


def test_sim_brightness_dims_what_observers_see():
    seen = []
    sim = SimDriver([Strip(0, 2, 2)], on_show=seen.append)
    sim.show(Frame((b"\xff\x00\x80\x10\x10\x10",)))
    sim.brightness = 0.25
    assert seen[-1].strips == (b"\x40\x00\x20\x04\x04\x04",)
    with pytest.raises(ConfigError, match="brightness"):
        sim.brightness = 2


def test_frame_for_other_strips_is_refused_and_nothing_changes():
    sim = SimDriver(LAYOUT.strips)
    with pytest.raises(LayoutError, match=r"\(140, 4\)"):
        sim.show(Frame.dark((143, 143)))
    assert sim.shows == 0 and sim.frame is None


def test_driver_lifecycle_close_twice_context_and_repr():
    with SimDriver(LAYOUT.strips) as sim:
        assert repr(sim) == "<SimDriver strips=(140, 4) brightness=1>"
    sim.close()
    assert sim.closed and "closed" in repr(sim)
    with pytest.raises(LinkError, match="closed"):
        sim.show(a_frame())


def test_driver_needs_strips():
    with pytest.raises(ConfigError, match="at least one strip"):
        SimDriver([])


# -- choosing a back-end --------------------------------------------------------------


def test_open_driver_builds_the_back_end_asked_for():
    with open_driver("sim", LAYOUT.strips) as leds:
        assert isinstance(leds, SimDriver)
    with pytest.raises(ConfigError, match="serial, spi, sim"):
        open_driver("usb", LAYOUT.strips)


def test_importing_the_leds_package_touches_no_back_end():
    code = (
        "import sys, pegboard.leds;"
        "bad = [m for m in ('serial', 'neopixel_spi', 'board', 'pegboard.leds.pico') "
        "if m in sys.modules];"
        "sys.exit(str(bad) if bad else 0)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_pico_driver_refuses_more_strips_than_a_pico_has():
    strips = [Strip(i, i, 10) for i in range(9)]
    with pytest.raises(ConfigError, match="at most 8 strips"):
        open_driver("serial", strips, port="loop://")


# -- SPI --------------------------------------------------------------------------------


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
    pytest.importorskip("neopixel_spi")
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


# -- finding the Pico --------------------------------------------------------------------


def usb_port(device, vid, pid):
    port = ListPortInfo(device, skip_link_detection=True)
    port.vid, port.pid = vid, pid
    return port


def test_find_pico_prefers_the_udev_name(tmp_path, monkeypatch):
    stable = tmp_path / "pegboard-pico"
    stable.touch()
    monkeypatch.setattr(link, "STABLE_NAME", str(stable))
    assert link.find_pico() == str(stable)


def test_find_pico_falls_back_to_the_usb_id(tmp_path, monkeypatch):
    monkeypatch.setattr(link, "STABLE_NAME", str(tmp_path / "absent"))
    ports = [usb_port("/dev/ttyUSB0", 0x0403, 0x6001), usb_port("/dev/ttyACM1", 0x2E8A, 0x0005)]
    monkeypatch.setattr(link.list_ports, "comports", lambda: ports)
    assert link.find_pico() == "/dev/ttyACM1"


def test_no_pico_is_a_link_error_that_says_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.setattr(link, "STABLE_NAME", str(tmp_path / "absent"))
    monkeypatch.setattr(link.list_ports, "comports", lambda: [])
    with pytest.raises(LinkError, match="2e8a:0005"):
        link.find_pico()
