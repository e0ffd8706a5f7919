"""A fake Pico for running the firmware logic off the chip.

``FakeHardware`` keeps everything in memory and runs under both CPython and
MicroPython: bytes from the host are queued with :meth:`FakeHardware.receive`,
bytes to the host collect in ``sent``, and the LEDs are ``leds`` (one RGB
bytearray per strip, as last shown); ``wire`` holds the same as it went down each
data line, every LED's bytes in the colour order set up (``order``). Its clock is a
number the caller moves.

``PtyHardware`` (CPython only) talks over a file descriptor instead, such as
the master side of a pty, and keeps real time; ``tamper_in``/``tamper_out``
let a test damage the bytes on the way, like a noisy cable.
"""

import os
import select
import sys
import time

try:
    from . import pegproto  # the host
except ImportError:
    import pegproto  # MicroPython, flat

# Under MicroPython the chip claims the interpreter's own version; under CPython
# the oldest one the firmware supports.
if sys.implementation.name == "micropython":
    MICROPYTHON = tuple(sys.implementation.version[:3])
else:
    MICROPYTHON = pegproto.MICROPYTHON_MIN


class FakeHardware:
    """The chip, in memory: LEDs, a byte queue each way, a settable clock."""

    def __init__(self, boot_id=0x5EB0A7ED, micropython=MICROPYTHON):
        self.boot_id = boot_id
        self.micropython = micropython
        self.pins = []
        self.faulty_pins = []  # setup() on these fails, as a real chip's might
        self.leds = []  # as shown: one RGB bytearray per strip
        self.order = 0  # the colour order set up: a place in pegproto.ORDERS
        self.wire = []  # what went down each strip's data line: leds in that order
        self.shows = 0
        self.on_show = None  # called with the shown buffers after each show
        self.inbox = bytearray()
        self.sent = bytearray()
        self.now = 0
        self.kbd_intr = 3  # Ctrl-C, as MicroPython boots
        self.watchdog = False
        self.feeds = 0
        self.in_repl = False

    def start(self):
        self.kbd_intr = -1
        self.watchdog = True

    def feed(self):
        self.feeds += 1

    def setup(self, strips, order=0):
        for pin, _ in strips:
            if pin in self.faulty_pins:
                raise OSError("pin does not work: " + str(pin))
        self.pins = [pin for pin, _ in strips]
        self.order = order
        self.leds = [bytearray(3 * leds) for _, leds in strips]
        self.wire = [bytearray(3 * leds) for _, leds in strips]

    def show(self, buffers):
        self.leds = [bytearray(rgb) for rgb in buffers]
        self.wire = [pegproto.to_wire(rgb, self.order) for rgb in buffers]
        self.shows += 1
        if self.on_show is not None:
            self.on_show(self.leds)

    def receive(self, data):
        """Queue bytes as if the host had sent them."""
        self.inbox.extend(data)

    def read(self, timeout_ms):
        data = bytes(self.inbox)
        self.inbox = bytearray()
        return data

    def write(self, data):
        self.sent.extend(data)

    def ticks_ms(self):
        return self.now

    def ticks_diff(self, a, b):
        return a - b

    def enter_repl(self):
        self.in_repl = True


class PtyHardware(FakeHardware):
    """The chip on a real file descriptor (a pty master), on a real clock."""

    def __init__(self, fd, boot_id=None, tamper_in=None, tamper_out=None, micropython=MICROPYTHON):
        if boot_id is None:
            boot_id = int.from_bytes(os.urandom(4), "little")
        FakeHardware.__init__(self, boot_id, micropython)
        self.fd = fd
        self.tamper_in = tamper_in
        self.tamper_out = tamper_out
        os.set_blocking(fd, False)

    def read(self, timeout_ms):
        ready = select.select([self.fd], [], [], timeout_ms / 1000)[0]
        if not ready:
            return b""
        try:
            data = os.read(self.fd, 4096)
        except BlockingIOError:
            return b""
        except OSError:  # EIO: nobody has the other end open; wait like a poll would
            select.select([], [], [], timeout_ms / 1000)
            return b""
        return self.tamper_in(data) if self.tamper_in else data

    def write(self, data):
        if self.tamper_out:
            data = self.tamper_out(data)
        view = memoryview(data)
        while view:  # like USB CDC with no reader: what does not fit is dropped
            try:
                view = view[os.write(self.fd, view) :]
            except OSError:
                return

    def ticks_ms(self):
        return time.monotonic_ns() // 1000000
