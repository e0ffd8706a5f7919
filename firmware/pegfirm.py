"""The Pico firmware's logic: read frames, light the board, answer the host.

Hardware-free, in the CPython/MicroPython subset. Everything that touches the
chip goes through a hardware object ``hw`` (``pico.PicoHardware`` on the Pico,
``fakehw.FakeHardware`` under CPython and in the tests) that offers:

- ``start()``: disable Ctrl-C on the data port, arm the watchdog;
- ``feed()``: feed the watchdog;
- ``setup(strips, order)``: drive ``[(pin, leds), ...]`` whose LEDs take their bytes in
  colour order ``order`` (a place in ``pegproto.ORDERS``), returns nothing;
- ``show(buffers)``: put one RGB bytearray per strip on the LEDs, each LED's bytes in
  the colour order set up;
- ``read(timeout_ms)``: bytes from the host, waiting at most ``timeout_ms``;
- ``write(data)``: bytes to the host (dropped if nobody listens);
- ``ticks_ms()`` and ``ticks_diff(a, b)``: a wrapping millisecond clock;
- ``boot_id``: a random 32-bit number drawn at power-up;
- ``micropython``: the MicroPython version it runs, ``(major, minor, patch)``;
- ``enter_repl()``: leave the firmware for the REPL (reboots on the Pico).
"""

try:
    from . import pegproto  # the host: pegboard._firmware.pegfirm
except ImportError:
    import pegproto  # the Pico: flat filesystem

LINK_LOST_MS = 5000  # no valid frame from the host for this long: show "link lost"
ANNOUNCE_MS = 1000  # while the host is silent, say HELLO this often
SILENT_MS = 2000  # ... once it has been silent this long (or never spoke)
LOST_STEP_MS = 80  # one step of the link-lost pattern
POLL_MS = 20  # longest wait for host bytes in one step
LOST_RED = b"\x40\x00\x00"


class Firmware:
    """One Pico's worth of state: strips, the last board, the link's health."""

    def __init__(self, hw):
        self.hw = hw
        self.deframer = pegproto.Deframer()
        self.strips = []  # [(pin, leds)] as set up by the host
        self.order = 0  # the strips' colour order: its place in pegproto.ORDERS
        self.board = None  # the last board the host sent, one RGB bytearray per strip
        self.brightness = 255
        self.seq = 0
        self.heard = None  # ticks_ms of the last valid frame from the host
        self.announced = None  # ticks_ms of the last HELLO we sent
        self.lost_step = None  # ticks_ms of the last link-lost pattern step
        self.lost_phase = 0
        self.running = False
        self.bad_frames = 0

    # -- the main loop ----------------------------------------------------------

    def run(self):
        """Serve the host until :meth:`stop` (the Pico: forever)."""
        self.boot()
        while self.running:
            self.step()

    def boot(self):
        """Arm the hardware and say HELLO."""
        self.hw.start()
        self.running = True
        self.announce()

    def stop(self):
        self.running = False

    def step(self, timeout_ms=POLL_MS):
        """Handle what the host sent within ``timeout_ms``, then keep time."""
        data = self.hw.read(timeout_ms)
        if data:
            for frame in self.deframer.feed(data):
                self.receive(frame)
        now = self.hw.ticks_ms()
        silent = self.heard is None or self.hw.ticks_diff(now, self.heard) >= SILENT_MS
        if silent and (
            self.announced is None or self.hw.ticks_diff(now, self.announced) >= ANNOUNCE_MS
        ):
            self.announce()
        if self.heard is not None and self.hw.ticks_diff(now, self.heard) >= LINK_LOST_MS:
            self.show_link_lost(now)
        self.hw.feed()

    # -- messages ---------------------------------------------------------------

    def send(self, kind, payload=b""):
        self.seq = (self.seq + 1) & 0xFFFF
        self.hw.write(pegproto.pack(kind, self.seq, payload))

    def announce(self):
        self.announced = self.hw.ticks_ms()
        hello = pegproto.pack_hello(self.hw.boot_id, self.strips, micropython=self.hw.micropython)
        self.send(pegproto.HELLO, hello)

    def receive(self, frame):
        """Act on one frame; anything that fails a check changes nothing."""
        try:
            kind, seq, payload = pegproto.unpack(frame)
        except pegproto.FrameError as e:
            self.bad_frames += 1
            if len(e.args) > 1:
                self.send(pegproto.ACK, pegproto.pack_ack(e.args[1], pegproto.BAD_VERSION))
            return
        self.heard = self.hw.ticks_ms()
        if self.lost_step is not None:
            self.lost_step = None
            self.light()
        if kind == pegproto.HELLO:
            self.announce()
            return
        status = self.obey(kind, payload)
        self.send(pegproto.ACK, pegproto.pack_ack(seq, status))
        if kind == pegproto.REPL and status == pegproto.OK:
            self.running = False
            self.hw.enter_repl()

    def obey(self, kind, payload):
        """Carry out one message; return an ACK status."""
        try:
            if kind == pegproto.SETUP:
                strips, order = pegproto.unpack_setup(payload)
                return self.setup(strips, order)
            if kind == pegproto.STATE:
                return self.set_board(pegproto.unpack_state(payload))
            if kind == pegproto.BRIGHTNESS:
                if len(payload) != 1:
                    return pegproto.BAD_PAYLOAD
                if payload[0] != self.brightness:
                    self.brightness = payload[0]
                    self.light()
                return pegproto.OK
            if kind == pegproto.HEARTBEAT:
                return pegproto.OK
            if kind == pegproto.REPL:
                return pegproto.OK if payload == pegproto.REPL_MAGIC else pegproto.BAD_PAYLOAD
        except pegproto.FrameError:
            return pegproto.BAD_PAYLOAD
        return pegproto.BAD_TYPE

    def setup(self, strips, order=0):
        for pin, _ in strips:
            if pin not in pegproto.STRIP_PINS:
                return pegproto.BAD_PIN
        if strips != self.strips or order != self.order:
            try:
                self.hw.setup(strips, order)
            except Exception:  # a PIO or pin the chip refuses: say so, keep running
                self.strips, self.board = [], None
                return pegproto.HARDWARE
            self.strips, self.order = strips, order
            self.board = [bytearray(3 * leds) for _, leds in strips]
            self.light()
        return pegproto.OK

    def set_board(self, board):
        if len(board) != len(self.strips):
            return pegproto.NOT_SET_UP
        for rgb, (_, leds) in zip(board, self.strips):  # noqa: B905 (MicroPython's zip)
            if len(rgb) != 3 * leds:
                return pegproto.NOT_SET_UP
        if board != self.board:
            self.board = board
            self.light()
        return pegproto.OK

    # -- the LEDs ---------------------------------------------------------------

    def light(self):
        """Show the board as the host sent it, at the current brightness."""
        if self.board is not None:
            self.hw.show([pegproto.scale(rgb, self.brightness) for rgb in self.board])

    def show_link_lost(self, now):
        """The last board at a quarter brightness, a red dot running along each strip."""
        if self.board is None:
            return
        if self.lost_step is not None and self.hw.ticks_diff(now, self.lost_step) < LOST_STEP_MS:
            return
        self.lost_step = now
        self.lost_phase += 1
        level = self.brightness // 4
        shown = []
        for rgb in self.board:
            dim = pegproto.scale(rgb, level)
            leds = len(dim) // 3
            if leds:
                at = 3 * (self.lost_phase % leds)
                dim[at : at + 3] = LOST_RED
            shown.append(dim)
        self.hw.show(shown)
