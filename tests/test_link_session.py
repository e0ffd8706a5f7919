"""The link's reliability by itself: a LinkSession and the real firmware logic on a fake chip,
wired back to back on one clock the test moves. No port, no thread, no sleep."""

import logging

import pytest
from pegboard._firmware import fakehw, pegproto
from pegboard._firmware.fakehw import FakeHardware
from pegboard._firmware.pegfirm import Firmware

from pegboard.board.layout import Strip
from pegboard.errors import ConfigError
from pegboard.leds.session import LinkSession

STRIPS = (Strip(0, 2, 3), Strip(1, 3, 2))
RED = (b"\x80\x00\x00" * 3, b"\x80\x00\x00" * 2)
GREEN = (b"\x00\x80\x00" * 3, b"\x00\x80\x00" * 2)
BLUE = (b"\x00\x00\x80" * 3, b"\x00\x00\x80" * 2)
HALF_BLUE = (b"\x00\x00\x40" * 3, b"\x00\x00\x40" * 2)


DARK = (bytes(9), bytes(6))


def names(messages):
    return [pegproto.NAMES[kind] for kind, _, _ in messages]


class Bench:
    """A session and a Pico (the firmware logic on a fake chip) joined by a cable that can
    be cut one way; ``written`` is every message the host wrote, as (name, seq, payload)."""

    def __init__(self, faulty_pins=(), micropython=fakehw.MICROPYTHON, **timing):
        self.session = LinkSession(STRIPS, **timing)
        self.micropython = micropython
        self.boot(faulty_pins)
        self.cut = False  # host -> Pico bytes are lost
        self.hung = False  # the Pico hears nothing and says nothing
        self.written = []
        self.wake_at = None
        self.session.connection_made("bench")

    def boot(self, faulty_pins=()):
        """Power the Pico up (again): no strips set up, a new boot id, a HELLO."""
        old = getattr(self, "hw", None)
        self.hw = FakeHardware(boot_id=old.boot_id + 1 if old else 1, micropython=self.micropython)
        self.hw.faulty_pins = list(faulty_pins)
        self.hw.now = old.now if old else 0
        self.shown = []
        self.hw.on_show = lambda leds: self.shown.append(tuple(bytes(rgb) for rgb in leds))
        self.firmware = Firmware(self.hw)
        self.firmware.boot()
        self.deframer = pegproto.Deframer()

    def at(self, now):
        """At ``now`` (seconds): the session writes what is due, the Pico answers, the
        session hears it. Returns the names of the messages written."""
        self.hw.now = round(now * 1000)
        packets, self.wake_at = self.session.poll(now)
        sent = [pegproto.unpack(p[1:-1]) for p in packets]
        self.written += sent
        if self.hung:
            return names(sent)
        if not self.cut:
            self.hw.receive(b"".join(packets))
        self.firmware.step(0)
        for frame in self.deframer.feed(bytes(self.hw.sent)):
            self.session.received(*pegproto.unpack(frame))
        self.hw.sent = bytearray()
        return names(sent)

    def settle(self, now):
        """Exchange messages at ``now`` until the session has nothing more to write."""
        for _ in range(10):
            if not self.at(now):
                return
        raise AssertionError("the session never stops writing")

    @property
    def leds(self):
        return tuple(bytes(rgb) for rgb in self.hw.leds)


@pytest.fixture
def bench():
    bench = Bench(retry=0.1, heartbeat=1.0, silence=3.0)
    bench.settle(0)
    assert bench.session.synced
    return bench


def test_a_fresh_link_sets_up_the_strips_and_shows_the_board(bench):
    assert bench.hw.pins == [2, 3]
    bench.session.show(RED)
    assert bench.at(0.01) == ["STATE"]
    assert bench.leds == RED and bench.session.synced
    stats = bench.session.stats
    assert stats.connected and stats.firmware == pegproto.FIRMWARE_VERSION and stats.boot_id == 1


def test_an_unacked_board_is_sent_again_after_retry(bench):
    bench.cut = True
    bench.session.show(RED)
    assert bench.at(1.0) == ["STATE"]
    assert bench.wake_at == pytest.approx(1.1)
    assert bench.at(1.09) == []
    assert bench.at(1.1) == ["STATE"] and bench.session.stats.retries == 1
    bench.cut = False
    assert bench.at(1.25) == ["STATE"]
    assert bench.leds == RED and bench.session.synced
    assert bench.at(1.5) == []  # acked: no more retries


def test_a_quiet_link_gets_a_heartbeat_the_pico_acks(bench):
    bench.session.show(RED)
    bench.settle(0.5)
    assert bench.wake_at == pytest.approx(1.5)
    assert bench.at(1.49) == []
    assert bench.at(1.5) == ["HEARTBEAT"]
    acks = bench.session.stats.acks
    assert bench.at(2.5) == ["HEARTBEAT"]
    assert bench.session.stats.acks == acks + 1 and bench.session.stats.heartbeats == 2
    assert not bench.session.silent(10.0)  # every heartbeat was answered


def test_a_silent_pico_is_given_up_after_silence(bench):
    bench.hung = True
    bench.session.show(RED)
    assert bench.at(5.0) == ["STATE"]
    assert bench.at(7.0) == ["STATE"]  # retries do not restart the count
    assert not bench.session.silent(7.99)
    assert bench.session.silent(8.0)


def test_the_session_wakes_for_the_silence_check_before_the_next_heartbeat():
    bench = Bench(heartbeat=1.0, silence=0.5)
    bench.settle(0)
    bench.hung = True
    assert bench.at(1.0) == ["HEARTBEAT"]
    assert bench.wake_at == pytest.approx(1.5)
    assert not bench.session.silent(1.49) and bench.session.silent(1.5)


def test_an_answer_ends_the_silence(bench):
    bench.cut = True
    bench.session.show(RED)
    bench.at(5.0)
    bench.cut = False
    bench.at(7.9)
    assert not bench.session.silent(100.0)


def test_hello_from_a_rebooted_pico_gets_everything_again_in_order(bench):
    bench.session.set_brightness(0.5)
    bench.session.show(BLUE)
    bench.settle(0.1)
    assert bench.leds == HALF_BLUE
    hellos, written = bench.session.stats.hellos, len(bench.written)
    bench.boot()
    assert bench.leds == ()  # a freshly booted Pico shows nothing
    bench.at(0.2)  # the session hears its HELLO
    assert bench.at(0.2) == ["SETUP", "BRIGHTNESS", "STATE"]
    assert bench.leds == HALF_BLUE and set(bench.shown) == {DARK, HALF_BLUE}
    stats = bench.session.stats
    assert stats.hellos == hellos + 1 and stats.boot_id == 2 and bench.session.synced
    assert len(bench.written) == written + 3


def test_a_refused_setup_is_retried_and_logged_once(caplog):
    caplog.set_level(logging.WARNING)
    bench = Bench(faulty_pins=[3], retry=0.1)
    bench.session.show(RED)
    for tick in range(10):
        bench.at(tick / 10)
    assert bench.session.stats.refusals >= 10 and not bench.session.synced
    assert names(bench.written).count("SETUP") >= 5
    refused = [r.getMessage() for r in caplog.records]
    assert refused == [
        "the Pico refused SETUP: the Pico could not drive those strips",
        "the Pico refused STATE: board state does not match the strips set up",
    ]
    bench.hw.faulty_pins = []  # the builder fixed the wiring
    bench.settle(1.0)
    assert bench.leds == RED and bench.session.synced


def test_sequence_numbers_wrap_around(bench):
    start = bench.written[-1][1]
    for i in range(0x10000 - start - 2):  # each change takes a number
        bench.session.set_brightness(i % 2 / 2)
    bench.session.set_brightness(0.25)
    bench.session.show(RED)
    assert bench.at(1.0) == ["BRIGHTNESS", "STATE"]
    assert [seq for _, seq, _ in bench.written[-2:]] == [0xFFFF, 0]
    quarter_red = tuple(bytes(pegproto.scale(rgb, 64)) for rgb in RED)
    assert bench.session.synced and bench.leds == quarter_red
    assert bench.at(2.0) == ["HEARTBEAT"] and bench.written[-1][1] == 1


def test_a_late_ack_for_a_board_since_replaced_is_ignored(bench):
    bench.cut = True
    bench.session.show(RED)
    bench.at(1.0)
    red_seq = bench.written[-1][1]
    bench.session.show(BLUE)
    bench.session.received(pegproto.ACK, 9, pegproto.pack_ack(red_seq))  # RED's, arriving late
    assert not bench.session.synced
    bench.cut = False
    assert bench.at(1.01) == ["STATE"]
    assert bench.leds == BLUE and bench.session.synced


def test_only_the_latest_board_and_brightness_are_sent(bench):
    bench.cut = True
    bench.session.show(RED)
    assert bench.at(1.0) == ["STATE"]  # lost on the way
    bench.session.show(GREEN)
    bench.session.set_brightness(0.2)
    assert bench.at(1.01) == ["BRIGHTNESS", "STATE"]  # lost too
    bench.session.show(BLUE)
    bench.session.set_brightness(0.5)
    bench.cut = False
    assert bench.at(1.02) == ["BRIGHTNESS", "STATE"]
    assert bench.leds == HALF_BLUE and bench.session.synced
    assert bench.at(1.5) == []  # nothing older is retried
    assert set(bench.shown) == {DARK, HALF_BLUE}
    bench.session.show(BLUE)  # the same board again: nothing to say
    assert bench.at(1.6) == []


def test_a_new_connection_asks_hello_first_and_forgets_what_was_in_flight(bench):
    bench.cut = True
    bench.session.show(RED)
    bench.at(1.0)
    bench.session.connection_lost()
    assert not bench.session.stats.connected and bench.session.stats.losses == 1
    bench.session.connection_made("bench")
    assert bench.at(1.01) == ["HELLO", "SETUP", "BRIGHTNESS", "STATE"]
    assert bench.session.stats.retries == 0  # a new port: first tries, not retries
    bench.session.connection_lost(closing=True)
    assert bench.session.stats.losses == 1


def test_more_than_a_pico_can_drive_is_refused():
    with pytest.raises(ConfigError, match="at most 8 strips"):
        LinkSession([Strip(i, i, 10) for i in range(9)])
    with pytest.raises(ConfigError, match="at most 1000 LEDs"):
        LinkSession([Strip(0, 2, 1001)])


def test_a_pico_on_too_old_a_micropython_is_named_and_left_dark(caplog):
    caplog.set_level(logging.ERROR)
    bench = Bench(micropython=(1, 19, 1), retry=0.1)
    bench.settle(0)
    bench.session.show(RED)
    bench.settle(0.5)
    stats = bench.session.stats
    assert stats.micropython == (1, 19, 1) and "MicroPython 1.19.1" in stats.problem
    assert "STATE" not in names(bench.written) and bench.leds == DARK
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert errors == [f"{stats.problem}; the LEDs stay dark"]
    assert "needs 1.20.0 or newer: flash a newer MicroPython" in errors[0]


def test_a_hello_from_a_firmware_before_1_1_names_no_micropython_and_is_driven(bench):
    assert bench.session.stats.micropython == pegproto.MICROPYTHON_MIN  # the emulated chip's
    old = pegproto.pack_hello(7, [], version=(1, 0, 0))[:-3]  # no MicroPython version
    bench.session.received(pegproto.HELLO, 1, old)
    stats = bench.session.stats
    assert stats.micropython is None and stats.problem is None and stats.firmware == (1, 0, 0)
    assert bench.at(0.5) == ["SETUP", "BRIGHTNESS"]
