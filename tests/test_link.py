"""LED back-ends behind one interface: the simulated board, SPI, choosing one, finding the Pico."""

import os
import re
import subprocess
import sys

import pytest
from pegboard._firmware import pegproto
from serial.tools.list_ports_common import ListPortInfo

from pegboard.board.layout import Strip, load_layout
from pegboard.board.render import BoardView, Frame, Renderer, TrackView
from pegboard.errors import ConfigError, LayoutError, LinkError
from pegboard.leds import link, open_driver
from pegboard.leds.pico import PicoDriver
from pegboard.leds.sim import EmulatedPicoDriver

LAYOUT = load_layout("two-track-61")


def a_frame(front=12):
    return Renderer(LAYOUT).render(BoardView((TrackView(front=front, back=3), TrackView())))


# -- the simulated board: the real firmware on an emulated Pico -----------------------


def test_sim_lights_what_the_firmware_shows_and_tells_on_show():
    seen = []
    frame = a_frame(12)
    with open_driver("sim", LAYOUT.strips, on_show=seen.append) as leds:
        leds.show(frame)
        leds.brightness = 0.25
        quarter = tuple(bytes(pegproto.scale(rgb, 64)) for rgb in frame.strips)
        assert leds.pico.wait_for(quarter, timeout=5)
        assert leds.pico.firmware.brightness == 64  # dimmed by the firmware, not the host
    assert seen[-1] == quarter


def test_frame_for_other_strips_is_refused_and_nothing_changes():
    with open_driver("sim", LAYOUT.strips) as leds:
        with pytest.raises(LayoutError, match=re.escape(str(LAYOUT.strip_lengths))):
            leds.show(Frame.dark((143, 143)))
        assert leds.wait_synced(5) and leds.frame is None
        assert set(leds.pico.shown) <= {(), Frame.dark(LAYOUT.strip_lengths).strips}


def test_driver_lifecycle_close_twice_context_and_repr():
    with open_driver("sim", LAYOUT.strips) as leds:
        assert repr(leds).startswith(
            f"<EmulatedPicoDriver strips={LAYOUT.strip_lengths} brightness=1 port="
        )
        with pytest.raises(ConfigError, match="brightness"):
            leds.brightness = 2
    leds.close()
    assert leds.closed and "closed" in repr(leds)
    assert not os.path.exists(leds.pico.path)  # closing the driver unplugs its Pico
    with pytest.raises(LinkError, match="closed"):
        leds.show(a_frame())


def test_driver_needs_strips():
    with pytest.raises(ConfigError, match="at least one strip"):
        open_driver("sim", [])


# -- choosing a back-end --------------------------------------------------------------


def test_open_driver_builds_the_back_end_asked_for():
    with open_driver("sim", LAYOUT.strips) as leds:
        assert isinstance(leds, EmulatedPicoDriver) and isinstance(leds, PicoDriver)
    with pytest.raises(ConfigError, match="serial, spi, sim"):
        open_driver("usb", LAYOUT.strips)


@pytest.mark.subprocess
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
