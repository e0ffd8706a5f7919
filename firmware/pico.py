"""The real Pico: WS2812 strips on PIO, the USB serial port, the watchdog.

MicroPython on an RP2040 only. Copy ``main.py``, ``pico.py``, ``pegfirm.py`` and
``pegproto.py`` to the Pico's filesystem (``mpremote cp firmware/*.py :``,
leaving out ``fakehw.py`` and ``__init__.py``). See ``main.py`` for the way back
to the REPL.
"""

# ruff: noqa: F821 - rp2.asm_pio supplies the PIO instruction names (out, jmp, x...)
import os
import select
import sys
import time
from array import array

import machine
import micropython
import pegfirm
import pegproto
import rp2

WATCHDOG_MS = 4000  # the RP2040 allows at most 8388
REPL_FLAG = "pegboard.repl"  # present at boot: stay in the REPL, once
READ_MAX = 512  # bytes taken from USB in one read
# WS2812B timing. One bit is T1 cycles high, then T2 high for a 1 or low for a 0,
# then T3 low. At 20 MHz (50 ns a cycle): a 0 is 300 ns high, 850 ns low; a 1 is
# 800 ns high, 350 ns low; 1.15 us a bit. That sits inside the windows of both
# datasheets, the first WS2812B's and the V5's (tests/test_pio.py checks it).
PIO_HZ = 20_000_000
T1, T2, T3 = 6, 10, 7
LED_US = (24 * (T1 + T2 + T3) * 1_000_000 + PIO_HZ - 1) // PIO_HZ  # 24 bits: 28 us


@rp2.asm_pio(
    sideset_init=rp2.PIO.OUT_LOW,
    out_shiftdir=rp2.PIO.SHIFT_LEFT,
    autopull=True,
    pull_thresh=24,
)
def ws2812(t1=T1, t2=T2, t3=T3):
    # asm_pio runs this with only the PIO names as globals: the timing comes in as defaults.
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[t3 - 1]
    jmp(not_x, "do_zero").side(1)[t1 - 1]
    jmp("bitloop").side(1)[t2 - 1]
    label("do_zero")
    nop().side(0)[t2 - 1]
    wrap()


class PicoHardware:
    """The hardware layer ``pegfirm.Firmware`` drives on a real Pico."""

    def __init__(self):
        self.boot_id = int.from_bytes(os.urandom(4), "little")
        self.micropython = tuple(sys.implementation.version[:3])
        self.machines = []  # (state machine, words) per strip
        self.offsets = pegproto.offsets(0)  # which of R, G, B each byte on the wire is
        self.ready_us = time.ticks_us()
        self.wdt = None
        self.stdin = self.stdout = self.poll = None

    def start(self):
        micropython.kbd_intr(-1)  # a 0x03 in a frame must not raise KeyboardInterrupt
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)
        self.wdt = machine.WDT(timeout=WATCHDOG_MS)

    def feed(self):
        self.wdt.feed()

    def setup(self, strips, order=0):
        self.offsets = pegproto.offsets(order)
        for sm, _ in self.machines:
            sm.active(0)
        self.machines = []
        for i, (pin, leds) in enumerate(strips):
            sm = rp2.StateMachine(i, ws2812, freq=PIO_HZ, sideset_base=machine.Pin(pin))
            sm.active(1)
            self.machines.append((sm, array("I", [0] * leds)))

    def show(self, buffers):
        # Let the previous frame latch before the next one starts.
        wait = time.ticks_diff(self.ready_us, time.ticks_us())
        if wait > 0:
            time.sleep_us(wait)
        longest = 0
        a, b, c = self.offsets
        for (sm, words), rgb in zip(self.machines, buffers):  # noqa: B905 (MicroPython)
            for i in range(len(words)):  # RGB in, the strips' colour order out (GRB: 1, 0, 2)
                at = 3 * i
                words[i] = (rgb[at + a] << 16) | (rgb[at + b] << 8) | rgb[at + c]
            sm.put(words, 8)
            longest = max(longest, len(words))
        self.ready_us = time.ticks_add(time.ticks_us(), longest * LED_US + pegproto.LATCH_US)

    def read(self, timeout_ms):
        if not self.poll.poll(timeout_ms):
            return b""
        data = bytearray()
        while len(data) < READ_MAX and self.poll.poll(0):
            data.extend(self.stdin.read(1))
        return data

    def write(self, data):
        self.stdout.write(data)

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def enter_repl(self):
        with open(REPL_FLAG, "w") as f:
            f.write("once")
        time.sleep_ms(100)  # let the ACK leave over USB
        machine.reset()


def wants_repl():
    """True (once) after a REPL frame, or while GP22 is held low at boot."""
    if REPL_FLAG in os.listdir():
        os.remove(REPL_FLAG)
        return True
    pin = machine.Pin(pegproto.REPL_PIN, machine.Pin.IN, machine.Pin.PULL_UP)
    return pin.value() == 0


def main():
    if wants_repl():
        print("pegboard: REPL requested, firmware not started")
        return
    pegfirm.Firmware(PicoHardware()).run()
