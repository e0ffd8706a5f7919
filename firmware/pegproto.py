"""The pegboard serial protocol: one file shared by the Pico firmware and the host.

Written in the subset of Python that both CPython and MicroPython run (no
f-strings, no dataclasses, no typing, no ``del bytearray[...]``, no ``in`` on
bytearrays). The host imports it as ``pegboard._firmware.pegproto``; on the Pico
it sits at the root of the filesystem as ``pegproto.py``.

A message on the wire::

    0x00  COBS( version:u8  type:u8  seq:u16le  payload...  crc32:u32le )  0x00

COBS removes every zero byte from the message, so a 0x00 always ends a frame
and a reader that starts in the middle of garbage resynchronises at the next
zero; the leading 0x00 ends any garbage before the frame, so even the first
frame after line noise gets through (empty frames are skipped). The CRC32
(``binascii.crc32``, also on the Pico) covers version, type, seq and payload.
Every message the Pico receives, except HELLO, is answered with an ACK carrying
the message's seq and a status.

Messages (payload layouts, all integers little-endian):

=========  ====  ===========================================================
HELLO      0x01  host->Pico: empty, "introduce yourself".
                 Pico->host: fw major, minor, patch (3 x u8), boot id (u32),
                 strip count (u8), then per strip pin (u8) and LEDs (u16),
                 then the MicroPython version (3 x u8; firmware 1.1 on).
SETUP      0x02  strip count (u8), then per strip pin (u8) and LEDs (u16);
                 every pin one of STRIP_PINS, else the ACK says BAD_PIN;
                 then the strips' colour order (u8, its place in ORDERS;
                 firmware 1.2 on), left out for GRB.
STATE      0x03  the whole board, idempotent: strip count (u8), then per
                 strip its LED count (u16) and runs of (count u8, r, g, b)
                 whose counts add up to the strip's LEDs.
BRIGHTNESS 0x04  level (u8), 255 = as sent, 0 = dark.
HEARTBEAT  0x05  empty; the host is alive.
ACK        0x06  acked seq (u16), status (u8).
REPL       0x07  the 4 bytes ``REPL``: reboot once into the REPL (mpremote).
=========  ====  ===========================================================
"""

import binascii
import struct

VERSION = 1
FIRMWARE_VERSION = (1, 2, 0)
# The oldest MicroPython the firmware runs on; the host refuses an older one.
MICROPYTHON_MIN = (1, 20, 0)

HELLO = 1
SETUP = 2
STATE = 3
BRIGHTNESS = 4
HEARTBEAT = 5
ACK = 6
REPL = 7
NAMES = {
    HELLO: "HELLO",
    SETUP: "SETUP",
    STATE: "STATE",
    BRIGHTNESS: "BRIGHTNESS",
    HEARTBEAT: "HEARTBEAT",
    ACK: "ACK",
    REPL: "REPL",
}

# ACK statuses.
OK = 0
BAD_TYPE = 1
BAD_PAYLOAD = 2
BAD_VERSION = 3
NOT_SET_UP = 4
HARDWARE = 5
BAD_PIN = 6
STATUSES = {
    OK: "ok",
    BAD_TYPE: "unknown message type",
    BAD_PAYLOAD: "malformed payload",
    BAD_VERSION: "protocol version differs",
    NOT_SET_UP: "board state does not match the strips set up",
    HARDWARE: "the Pico could not drive those strips",
    BAD_PIN: "a strip on a Pico pin that is not free for strips",
}

REPL_MAGIC = b"REPL"
MAX_STRIPS = 8  # the RP2040 has 8 PIO state machines
MAX_LEDS = 1000  # per strip
MAX_PIN = 29  # the RP2040's last GPIO
LATCH_US = 300  # WS2812 low time that ends a frame (newer WS2812B need 280 us): Pico and SPI
REPL_PIN = 22  # held to GND at power-up: the firmware stays off, the REPL free for mpremote
# The Pico pins a strip may use: GP0-GP21 and GP26-GP28. Not REPL_PIN, nor the
# four wired on the Pico itself: GP23 (power-save), GP24 (VBUS sense), GP25 (its
# LED), GP29 (VSYS/3). One home: the firmware and the layout check both read it.
STRIP_PINS = tuple(range(REPL_PIN)) + (26, 27, 28)  # noqa: RUF005 (MicroPython: no *a in a tuple)
# The order a strip takes a LED's three bytes in: a WS2812B takes GRB, some strips RGB.
# The host sends RGB; the firmware puts each LED's bytes on the wire in this order.
ORDERS = ("GRB", "RGB", "BRG", "BGR", "RBG", "GBR")
MAX_FRAME = 4 + 1 + MAX_STRIPS * (2 + 4 * MAX_LEDS) + 4 + 64  # worst case, COBS overhead incl.

_HEADER = "<BBH"
_ZERO = b"\x00"


class FrameError(ValueError):
    """A frame that failed COBS, CRC, length or version checks."""


# -- COBS ------------------------------------------------------------------------


def cobs_encode(data):
    """Return ``data`` with every zero byte removed (Consistent Overhead Byte Stuffing).

    >>> cobs_encode(b"\\x11\\x00\\x22")
    b'\\x02\\x11\\x02"'
    """
    out = bytearray()
    start = 0
    end = len(data)
    while True:
        zero = data.find(_ZERO, start)
        stop = end if zero < 0 else zero
        # Blocks hold at most 254 data bytes; code 0xFF means "no zero follows".
        while stop - start >= 254:
            out.append(255)
            out.extend(data[start : start + 254])
            start += 254
        out.append(stop - start + 1)
        out.extend(data[start:stop])
        if zero < 0:
            return bytes(out)
        start = zero + 1


def cobs_decode(data):
    """Undo :func:`cobs_encode`; raise FrameError on a malformed block.

    >>> cobs_decode(cobs_encode(b"\\x00peg\\x00\\x00"))
    b'\\x00peg\\x00\\x00'
    """
    out = bytearray()
    i = 0
    end = len(data)
    while i < end:
        code = data[i]
        if code == 0 or i + code > end:
            raise FrameError("COBS block runs past the frame")
        out.extend(data[i + 1 : i + code])
        i += code
        if code != 255 and i < end:
            out.append(0)
    return bytes(out)


# -- messages --------------------------------------------------------------------


def pack(kind, seq, payload=b""):
    """Return the wire bytes of one message, delimiters included.

    >>> unpack(pack(HEARTBEAT, 7)[1:-1])
    (5, 7, b'')
    """
    body = struct.pack(_HEADER, VERSION, kind, seq & 0xFFFF) + payload
    crc = binascii.crc32(body) & 0xFFFFFFFF
    return _ZERO + cobs_encode(body + struct.pack("<I", crc)) + _ZERO


def unpack(frame):
    """Check one frame (without its 0x00) and return ``(type, seq, payload)``.

    Raises FrameError for anything that is not exactly a message we sent;
    a message from another protocol version raises FrameError whose
    ``args[1]`` is its seq, so the receiver can answer BAD_VERSION.
    """
    body = cobs_decode(frame)
    if len(body) < 8:
        raise FrameError("frame too short")
    crc = struct.unpack_from("<I", body, len(body) - 4)[0]
    body = body[:-4]
    if binascii.crc32(body) & 0xFFFFFFFF != crc:
        raise FrameError("CRC mismatch")
    version, kind, seq = struct.unpack_from(_HEADER, body, 0)
    if version != VERSION:
        raise FrameError("protocol version " + str(version) + ", expected " + str(VERSION), seq)
    return kind, seq, body[4:]


class Deframer:
    """Split a byte stream into frames at each 0x00; drop over-long garbage.

    >>> d = Deframer()
    >>> d.feed(b"ab\\x00c")
    [b'ab']
    >>> d.feed(b"d\\x00\\x00")
    [b'cd']
    """

    def __init__(self, limit=MAX_FRAME):
        self.limit = limit
        self.buffer = bytearray()
        self.overflows = 0

    def feed(self, data):
        frames = []
        buf = self.buffer
        buf.extend(data)
        start = 0
        while True:
            zero = buf.find(_ZERO, start)
            if zero < 0:
                break
            if zero > start:
                frames.append(bytes(buf[start:zero]))
            start = zero + 1
        if start:
            buf = buf[start:]
        if len(buf) > self.limit:
            self.overflows += 1
            buf = bytearray()
        self.buffer = buf
        return frames


# -- payloads --------------------------------------------------------------------


def pack_strips(strips):
    """SETUP payload (and HELLO's tail) from ``[(pin, leds), ...]``.

    >>> unpack_strips(pack_strips([(2, 143), (3, 4)]))
    [(2, 143), (3, 4)]
    """
    out = bytearray((len(strips),))
    for pin, leds in strips:
        out.extend(struct.pack("<BH", pin, leds))
    return bytes(out)


def unpack_strips(payload, offset=0):
    """Read ``[(pin, leds), ...]``; raise FrameError if it does not fit exactly."""
    if len(payload) <= offset:
        raise FrameError("no strip count")
    count = payload[offset]
    if count > MAX_STRIPS or len(payload) != offset + 1 + 3 * count:
        raise FrameError("bad strip list")
    strips = []
    pins = []
    for i in range(count):
        pin, leds = struct.unpack_from("<BH", payload, offset + 1 + 3 * i)
        if leds > MAX_LEDS:
            raise FrameError("too many LEDs on one strip")
        if pin > MAX_PIN or pin in pins:
            raise FrameError("bad or repeated pin")
        pins.append(pin)
        strips.append((pin, leds))
    return strips


def pack_setup(strips, order=0):
    """SETUP payload: the strips, and the colour order's place in ORDERS unless GRB (0).

    >>> unpack_setup(pack_setup([(2, 143)], ORDERS.index("RGB")))
    ([(2, 143)], 1)
    >>> unpack_setup(pack_setup([(2, 143)]))
    ([(2, 143)], 0)
    """
    tail = bytes((order,)) if order else b""
    return pack_strips(strips) + tail


def unpack_setup(payload):
    """Return ``(strips, order)``; FrameError unless exact, or for an order not in ORDERS."""
    if payload and len(payload) == 2 + 3 * payload[0]:
        order = payload[-1]
        if order >= len(ORDERS):
            raise FrameError("no such colour order")
        return unpack_strips(payload[:-1]), order
    return unpack_strips(payload), 0


def offsets(order):
    """For each byte on the wire, which of R, G and B it carries (0, 1, 2).

    >>> offsets(0), offsets(1)
    ((1, 0, 2), (0, 1, 2))
    """
    name = ORDERS[order]
    return ("RGB".index(name[0]), "RGB".index(name[1]), "RGB".index(name[2]))


def to_wire(rgb, order):
    """``rgb`` (3 bytes a LED) as it goes down the data line in colour order ``order``.

    >>> to_wire(b"\\x01\\x02\\x03\\x04\\x05\\x06", 0)
    bytearray(b'\\x02\\x01\\x03\\x05\\x04\\x06')
    """
    a, b, c = offsets(order)
    out = bytearray(len(rgb))
    for i in range(0, len(rgb) - 2, 3):
        out[i] = rgb[i + a]
        out[i + 1] = rgb[i + b]
        out[i + 2] = rgb[i + c]
    return out


def from_wire(wire, order):
    """What a strip of colour order ``order`` lights for the bytes ``wire``: RGB again.

    >>> from_wire(to_wire(b"\\xff\\x00\\x00", 1), 0)  # red sent for RGB, a GRB strip shows
    bytearray(b'\\x00\\xff\\x00')
    """
    a, b, c = offsets(order)
    out = bytearray(len(wire))
    for i in range(0, len(wire) - 2, 3):
        out[i + a] = wire[i]
        out[i + b] = wire[i + 1]
        out[i + c] = wire[i + 2]
    return out


def pack_hello(boot_id, strips, version=FIRMWARE_VERSION, micropython=MICROPYTHON_MIN):
    """HELLO payload the Pico sends.

    >>> unpack_hello(pack_hello(0xC0FFEE, [(2, 10)]))
    ((1, 2, 0), 12648430, [(2, 10)])
    >>> hello_micropython(pack_hello(0xC0FFEE, [(2, 10)], micropython=(1, 24, 1)))
    (1, 24, 1)
    """
    head = struct.pack("<BBBI", version[0], version[1], version[2], boot_id & 0xFFFFFFFF)
    tail = struct.pack("<BBB", micropython[0], micropython[1], micropython[2])
    return head + pack_strips(strips) + tail


def _hello_strips_end(payload):
    if len(payload) < 8:
        raise FrameError("HELLO too short")
    return 8 + 3 * payload[7]


def unpack_hello(payload):
    """Return ``(firmware version, boot id, strips)`` from a HELLO payload."""
    end = _hello_strips_end(payload)
    if len(payload) not in (end, end + 3):
        raise FrameError("bad HELLO")
    major, minor, patch, boot_id = struct.unpack_from("<BBBI", payload, 0)
    return (major, minor, patch), boot_id, unpack_strips(payload[:end], 7)


def hello_micropython(payload):
    """The MicroPython version a HELLO names, or None (firmware before 1.1 names none)."""
    end = _hello_strips_end(payload)
    if len(payload) != end + 3:
        return None
    return tuple(payload[end : end + 3])


def micropython_problem(version):
    """Why pegboard's firmware cannot run on MicroPython ``version``, or None.

    >>> micropython_problem((1, 19, 1))  # doctest: +ELLIPSIS
    'the Pico runs MicroPython 1.19.1; the firmware needs 1.20.0 or newer: flash a newer...'
    >>> micropython_problem((1, 20, 0)) is None
    True
    """
    if version is None or tuple(version) >= MICROPYTHON_MIN:
        return None
    return (
        "the Pico runs MicroPython "
        + _dotted(version)
        + "; the firmware needs "
        + _dotted(MICROPYTHON_MIN)
        + " or newer: flash a newer MicroPython, then run "
        "pegboard firmware install"
    )


def _dotted(version):
    return ".".join([str(v) for v in version])


def pack_ack(seq, status=OK):
    return struct.pack("<HB", seq & 0xFFFF, status)


def unpack_ack(payload):
    """Return ``(acked seq, status)``."""
    if len(payload) != 3:
        raise FrameError("bad ACK")
    return struct.unpack("<HB", payload)


def pack_state(strips):
    """STATE payload from one RGB ``bytes`` per strip (3 bytes a LED), run-length coded.

    >>> pack_state([bytes(6) + b"\\x01\\x02\\x03"])
    b'\\x01\\x03\\x00\\x02\\x00\\x00\\x00\\x01\\x01\\x02\\x03'
    """
    out = bytearray((len(strips),))
    for rgb in strips:
        leds = len(rgb) // 3
        out.extend(struct.pack("<H", leds))
        i = 0
        while i < leds:
            colour = rgb[3 * i : 3 * i + 3]
            run = 1
            while run < 255 and i + run < leds and rgb[3 * (i + run) : 3 * (i + run) + 3] == colour:
                run += 1
            out.append(run)
            out.extend(colour)
            i += run
    return bytes(out)


def unpack_state(payload):
    """Return a list of RGB bytearrays, one per strip; FrameError unless exact."""
    if not payload:
        raise FrameError("empty STATE")
    count = payload[0]
    if count > MAX_STRIPS:
        raise FrameError("too many strips")
    strips = []
    i = 1
    end = len(payload)
    for _ in range(count):
        if i + 2 > end:
            raise FrameError("STATE cut short")
        leds = struct.unpack_from("<H", payload, i)[0]
        if leds > MAX_LEDS:
            raise FrameError("too many LEDs on one strip")
        i += 2
        rgb = bytearray(3 * leds)
        at = 0
        while at < 3 * leds:
            if i + 4 > end:
                raise FrameError("STATE cut short")
            run = payload[i]
            if run == 0 or at + 3 * run > 3 * leds:
                raise FrameError("bad run")
            rgb[at : at + 3 * run] = payload[i + 1 : i + 4] * run
            at += 3 * run
            i += 4
        strips.append(rgb)
    if i != end:
        raise FrameError("STATE has trailing bytes")
    return strips


def scale(rgb, level):
    """Return ``rgb`` dimmed to ``level``/255 (the firmware-side brightness).

    >>> scale(b"\\xff\\x80\\x00", 128)
    bytearray(b'\\x80@\\x00')
    """
    if level >= 255:
        return bytearray(rgb)
    out = bytearray(len(rgb))
    for i in range(len(rgb)):
        out[i] = (rgb[i] * level + 127) // 255
    return out
