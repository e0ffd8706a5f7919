"""End to end over a real pty: the host's PicoDriver and the firmware logic on a fake chip.

Bad cables, junk on the line, unplugging, rebooting and a hung Pico: the LEDs
never show a board the host did not send, and the link recovers within 2 s.
"""

import logging
import random

import pytest
from pegboard._firmware import pegproto

from pegboard.board.layout import load_layout
from pegboard.board.render import BoardView, Frame, Renderer, TrackView
from pegboard.errors import LinkError
from pegboard.leds.emulator import EmulatedPico
from pegboard.leds.pico import PicoDriver, send_repl

LAYOUT = load_layout("two-track-61")
RECOVERY = 2.0  # seconds the link may take to recover
DARK = Frame.dark(LAYOUT.strip_lengths).strips


def boards(count, seed=0):
    """Real frames of a game in progress, all different."""
    renderer = Renderer(LAYOUT)
    frames = []
    for i in range(count):
        front = (seed + i) % 60 + 1
        view = BoardView(
            (TrackView(front=front, back=front - 1), TrackView(front=(seed + i) // 60))
        )
        frames.append(renderer.render(view))
    return frames


class Noise:
    """A bad cable: flips a bit, drops a byte or adds junk (zeros too) in some chunks."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.hits = 0

    def __call__(self, data):
        rng, data = self.rng, bytearray(data)
        roll = rng.random()
        if roll < 0.15:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif roll < 0.25:
            del data[rng.randrange(len(data))]
        elif roll < 0.35:
            at = rng.randrange(len(data) + 1)
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 24)))
        else:
            return bytes(data)
        self.hits += 1
        return bytes(data)


@pytest.fixture
def pico():
    with EmulatedPico() as emulated:
        yield emulated


@pytest.fixture
def leds(pico):
    with PicoDriver(LAYOUT.strips, pico.path) as driver:
        yield driver


@pytest.fixture
def eager_leds(pico):
    """A driver that retries sooner, to keep the noisy tests short."""
    with PicoDriver(LAYOUT.strips, pico.path, retry=0.02) as driver:
        yield driver


def assert_only_sent_boards_shown(pico, sent):
    allowed = {f.strips for f in sent} | {DARK, ()}
    wrong = [board for board in pico.shown if board not in allowed]
    assert not wrong, f"{len(wrong)} boards shown that the host never sent"


def test_board_reaches_the_leds(pico, leds):
    frame = boards(1)[0]
    leds.show(frame)
    assert pico.wait_for(frame.strips, RECOVERY)
    assert leds.wait_synced(RECOVERY)
    assert pico.hw.pins == [s.pin for s in LAYOUT.strips]
    stats = leds.stats
    assert stats.connected and stats.acks >= 3 and stats.firmware == pegproto.FIRMWARE_VERSION


def test_every_board_change_arrives_in_order(pico, leds):
    sent = boards(25)
    for frame in sent:
        leds.show(frame)
        assert pico.wait_for(frame.strips, RECOVERY)
    shown = [b for b in pico.shown if b not in (DARK, ())]
    assert shown == [f.strips for f in sent]


def test_driver_brightness_dims_the_leds(pico, leds):
    frame = Frame(tuple(b"\xc8" * 3 * n for n in LAYOUT.strip_lengths))
    leds.show(frame)
    leds.brightness = 0.5
    assert pico.wait_for(tuple(b"\x64" * 3 * n for n in LAYOUT.strip_lengths), RECOVERY)


@pytest.mark.parametrize("seed", [1, 2])
def test_noisy_cable_to_the_pico_never_shows_a_wrong_board(pico, eager_leds, seed):
    leds, noise = eager_leds, Noise(seed)
    pico.tamper_in = noise
    sent = boards(40, seed)
    for frame in sent:
        leds.show(frame)
        pico.wait_for(frame.strips, 0.1)  # under noise some frames get through late
    pico.tamper_in = None
    last = boards(1, seed + 100)[0]
    sent.append(last)
    leds.show(last)
    assert pico.wait_for(last.strips, RECOVERY)
    assert noise.hits > 5 and pico.firmware.bad_frames > 0
    assert leds.stats.retries > 0
    assert_only_sent_boards_shown(pico, sent)


def test_noisy_cable_from_the_pico_makes_the_host_resend(pico, eager_leds):
    leds = eager_leds
    pico.tamper_out = Noise(3)
    sent = boards(30, 7)
    for frame in sent:
        leds.show(frame)
        leds.wait_synced(0.2)  # a damaged ack makes the host send the same board again
    pico.tamper_out = None
    assert leds.wait_synced(RECOVERY)
    assert pico.wait_for(sent[-1].strips, RECOVERY)
    stats = leds.stats
    assert stats.bad_frames > 0 and stats.retries > 0
    assert_only_sent_boards_shown(pico, sent)


def test_junk_between_frames_is_ignored(pico, leds):
    sent = boards(10, 3)
    rng = random.Random(4)
    for frame in sent:
        pico.inject(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))))
        leds.show(frame)
        assert pico.wait_for(frame.strips, RECOVERY)
    assert_only_sent_boards_shown(pico, sent)


def test_unplug_and_replug_recovers_without_restarting(pico, leds, caplog):
    caplog.set_level(logging.INFO, logger="pegboard.leds.pico")
    first, second = boards(2, 9)
    leds.show(first)
    assert pico.wait_for(first.strips, RECOVERY)
    pico.unplug()
    assert leds.wait_stats(lambda s: not s.connected, RECOVERY)
    leds.show(second)  # while the cable is out
    pico.plug()
    assert pico.wait_for(second.strips, RECOVERY)
    stats = leds.stats
    assert (stats.connects, stats.losses) == (2, 1)
    assert_only_sent_boards_shown(pico, [first, second])
    lost = [r.getMessage() for r in caplog.records if "LED link lost" in r.getMessage()]
    assert len(lost) == 1 and "port failed" in lost[0] and "acks" in lost[0]


def test_refused_setup_is_logged_once_and_retried_until_it_works(pico, caplog):
    caplog.set_level(logging.WARNING, logger="pegboard.leds.pico")
    pico.hw.faulty_pins = [LAYOUT.strips[0].pin]
    with PicoDriver(LAYOUT.strips, pico.path, retry=0.02) as leds:
        frame = boards(1, 4)[0]
        leds.show(frame)
        assert leds.wait_stats(lambda s: s.refusals >= 3, RECOVERY)
        pico.hw.faulty_pins = []  # the builder fixed the wiring
        assert pico.wait_for(frame.strips, RECOVERY)
    refused = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert "the Pico refused SETUP: the Pico could not drive those strips" in refused
    assert len(refused) == len(set(refused))  # each refusal said once, not at every retry


def test_rebooted_pico_says_hello_and_gets_the_board_back(pico, leds):
    frame = boards(1, 5)[0]
    leds.show(frame)
    assert leds.wait_synced(RECOVERY)  # nothing left to resend but for a HELLO
    hellos = leds.stats.hellos
    pico.reboot()
    assert pico.wait_for(frame.strips, RECOVERY)  # after the boot marker: shown again
    stats = leds.stats
    assert stats.hellos > hellos and stats.losses == 0


def test_silent_pico_is_reopened(pico):
    with PicoDriver(LAYOUT.strips, pico.path, heartbeat=0.2, silence=0.4) as leds:
        frame = boards(1, 6)[0]
        leds.show(frame)
        assert pico.wait_for(frame.strips, RECOVERY)
        pico.hang()
        assert leds.wait_stats(lambda s: s.losses == 1, RECOVERY)
        pico.reboot()
        assert pico.wait_for(frame.strips, RECOVERY)
        assert leds.stats.losses >= 1


def test_pico_plugged_in_after_the_service_started():
    with (
        EmulatedPico(plugged=False) as pico,
        PicoDriver(LAYOUT.strips, pico.path) as leds,
    ):
        frame = boards(1, 8)[0]
        leds.show(frame)
        assert not leds.stats.connected
        pico.plug()
        assert pico.wait_for(frame.strips, RECOVERY)


def test_an_unplugged_pico_neither_reboots_nor_hears_bytes_until_plugged_in():
    with EmulatedPico(plugged=False) as pico:
        pico.reboot()  # no power: nothing boots
        pico.inject(b"junk\x00")  # no cable: the bytes go nowhere
        assert pico.firmware is None and "unplugged" in repr(pico)
        with PicoDriver(LAYOUT.strips, pico.path) as leds:
            pico.plug()
            frame = boards(1, 3)[0]
            leds.show(frame)
            assert pico.wait_for(frame.strips, RECOVERY)


def test_closed_driver_refuses_frames_and_closes_twice(pico):
    leds = PicoDriver(LAYOUT.strips, pico.path)
    assert leds.wait_stats(lambda s: s.connected, RECOVERY)
    leds.close()
    leds.close()
    assert not leds.stats.connected
    assert "closed" in repr(leds)
    with pytest.raises(LinkError, match="closed"):
        leds.show(boards(1)[0])


def test_repl_frame_sends_the_pico_to_the_repl(pico):
    assert send_repl(pico.path)
    assert pico.hw.in_repl and not pico.firmware.running
