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
import rp2

WATCHDOG_MS = 4000  # the RP2040 allows at most 8388
REPL_FLAG = "pegboard.repl"  # present at boot: stay in the REPL, once
REPL_PIN = 22  # GP22 held to GND at power-up: stay in the REPL
READ_MAX = 512  # bytes taken from USB in one read
LED_US = 30  # WS2812: 24 bits at 800 kHz
LATCH_US = 80  # low time that ends a WS2812 frame


@rp2.asm_pio(
    sideset_init=rp2.PIO.OUT_LOW,
    out_shiftdir=rp2.PIO.SHIFT_LEFT,
    autopull=True,
    pull_thresh=24,
)
def ws2812():
    # One bit in 10 cycles at 8 MHz: high 2, then high or low 5 for the bit, low 3.
    wrap_target()
    label("bitloop")
    out(x, 1).side(0)[2]
    jmp(not_x, "do_zero").side(1)[1]
    jmp("bitloop").side(1)[4]
    label("do_zero")
    nop().side(0)[4]
    wrap()


class PicoHardware:
    """The hardware layer ``pegfirm.Firmware`` drives on a real Pico."""

    def __init__(self):
        self.boot_id = int.from_bytes(os.urandom(4), "little")
        self.machines = []  # (state machine, words) per strip
        self.ready_us = time.ticks_us()
        self.wdt = None
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)

    def start(self):
        micropython.kbd_intr(-1)  # a 0x03 in a frame must not raise KeyboardInterrupt
        self.wdt = machine.WDT(timeout=WATCHDOG_MS)

    def feed(self):
        self.wdt.feed()

    def setup(self, strips):
        for sm, _ in self.machines:
            sm.active(0)
        self.machines = []
        for i, (pin, leds) in enumerate(strips):
            sm = rp2.StateMachine(i, ws2812, freq=8_000_000, sideset_base=machine.Pin(pin))
            sm.active(1)
            self.machines.append((sm, array("I", [0] * leds)))

    def show(self, buffers):
        # Let the previous frame latch before the next one starts.
        wait = time.ticks_diff(self.ready_us, time.ticks_us())
        if wait > 0:
            time.sleep_us(wait)
        longest = 0
        for (sm, words), rgb in zip(self.machines, buffers):  # noqa: B905 (MicroPython)
            for i in range(len(words)):  # RGB in, GRB out
                words[i] = (rgb[3 * i + 1] << 16) | (rgb[3 * i] << 8) | rgb[3 * i + 2]
            sm.put(words, 8)
            longest = max(longest, len(words))
        self.ready_us = time.ticks_add(time.ticks_us(), longest * LED_US + LATCH_US)

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
    return machine.Pin(REPL_PIN, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0


def main():
    if wants_repl():
        print("pegboard: REPL requested, firmware not started")
        return
    pegfirm.Firmware(PicoHardware()).run()
