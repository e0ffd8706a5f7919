"""The firmware's WS2812 PIO program on an RP2040 PIO emulator: what the data pin does.

firmware/pico.py runs under CPython with its PIO program assembled by
adafruit_pioasm and run by pioemu (tests/pico_on_pioemu.py); the test reads the
pin's waveform back as a strip would and holds it to the WS2812B datasheets.
"""

from __future__ import annotations

import pytest
from pico_on_pioemu import load

# Windows in ns (lowest, highest) from the two WS2812B datasheets: the first
# (each time ±150 ns, a bit 1.25 µs ±600 ns, reset above 50 µs) and the V5
# (T0H 220-380 ns, T1H 580-1000 ns, reset above 280 µs). A bit must fit both.
T0H = (max(250, 220), min(550, 380))
T1H = (max(650, 580), min(950, 1000))
T0L = (700, 1000)
T1L = (300, 600)
BIT = (650, 1850)
RESET_NS = 280_000
GAP_NS = 10_000  # a low this long ends a frame (any bit is far shorter)


def frames(wave: list[tuple[int, int]]) -> list[list[tuple[int, int, int]]]:
    """Split a waveform into frames of bits ``(start ns, high ns, low ns)``; the last
    bit's low runs into the gap after its frame, and is given as None."""
    rises = [(t, i) for i, (t, level) in enumerate(wave) if level]
    out: list[list[tuple[int, int, int]]] = []
    for n, (t, i) in enumerate(rises):
        fall = wave[i + 1][0] if i + 1 < len(wave) else None
        assert fall is not None, "the pin is left high"
        following = rises[n + 1][0] if n + 1 < len(rises) else None
        low = None if following is None or following - t > GAP_NS else following - fall
        if not out or out[-1][-1][2] is None:
            out.append([])
        out[-1].append((t, fall - t, low))
    return out


def decoded(bits: list[tuple[int, int, int]]) -> bytes:
    """The bytes a WS2812 reads: a high longer than the middle of the windows is a 1."""
    threshold = (T0H[1] + T1H[0]) / 2
    value = "".join("1" if high > threshold else "0" for _, high, _ in bits)
    assert len(value) % 8 == 0, f"{len(value)} bits is not whole bytes"
    return bytes(int(value[i : i + 8], 2) for i in range(0, len(value), 8))


@pytest.fixture
def pico():
    return load()


def test_a_frame_goes_out_in_grb_order_most_significant_bit_first(pico):
    firmware, chip = pico
    hw = firmware.PicoHardware()
    hw.setup([(2, 3)])
    hw.show([bytes([0x12, 0x34, 0x56, 0xFF, 0x00, 0x81, 0x00, 0x01, 0x80])])
    (frame,) = frames(chip.wave(2))
    assert decoded(frame) == bytes([0x34, 0x12, 0x56, 0x00, 0xFF, 0x81, 0x01, 0x00, 0x80])


def test_every_bit_is_within_the_datasheet_windows(pico):
    firmware, chip = pico
    hw = firmware.PicoHardware()
    hw.setup([(7, 4)])
    hw.show([bytes(range(0x55, 0x55 + 12))])
    (frame,) = frames(chip.wave(7))
    highs = {high for _, high, _ in frame}
    assert len(highs) == 2, "a 0 and a 1, each with one high time"
    for (start, high, low), following in zip(frame, [*frame[1:], None], strict=True):
        one = high > T0H[1]
        assert (T1H if one else T0H)[0] <= high <= (T1H if one else T0H)[1], high
        if low is not None:
            assert (T1L if one else T0L)[0] <= low <= (T1L if one else T0L)[1], low
            assert BIT[0] <= following[0] - start <= BIT[1]


@pytest.mark.slow
@pytest.mark.parametrize("lengths", [(3,), (10, 143)])
def test_frames_are_kept_apart_by_the_latch(pico, lengths):
    """Two boards in a row: each strip sees the low reset time between them."""
    firmware, chip = pico
    hw = firmware.PicoHardware()
    strips = list(zip((2, 3), lengths, strict=False))
    hw.setup(strips)
    for shade in (0x10, 0x20):
        hw.show([bytes([shade]) * (3 * leds) for _, leds in strips])
    for pin, leds in strips:
        first, second = frames(chip.wave(pin))
        assert len(first) == len(second) == 24 * leds
        end_of_first = first[-1][0] + first[-1][1]
        assert second[0][0] - end_of_first >= RESET_NS
