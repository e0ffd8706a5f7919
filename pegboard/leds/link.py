"""The host's side of the Pico link: finding the port, reading it, and framing.

Transport apart from protocol, as in pySerial's ``serial.threaded``: a
:class:`PortReader` owns the open port and feeds a :class:`PicoProtocol`, which
splits the stream at 0x00, checks each frame with the shared
``pegboard._firmware.pegproto`` and hands good messages to its listener (the
:class:`~pegboard.leds.pico.PicoDriver`, which feeds them to its
:class:`~pegboard.leds.session.LinkSession`).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from typing import Protocol, cast

import serial
import serial.threaded
from serial.tools import list_ports

from pegboard._firmware import pegproto
from pegboard.errors import LinkError
from pegboard.i18n import N_, Phrase

STABLE_NAME = "/dev/pegboard-pico"  # made by hardware/99-pegboard-pico.rules
PICO_USB = (0x2E8A, 0x0005)  # Raspberry Pi, MicroPython on a Pico


def find_pico() -> str:
    """The Pico's serial port: the udev symlink, else the first USB 2e8a:0005 port."""
    if os.path.exists(STABLE_NAME):
        return STABLE_NAME
    for port in sorted(list_ports.comports(), key=lambda p: p.device):
        if (port.vid, port.pid) == PICO_USB:
            return port.device
    no_pico = N_(
        "no Pico found: {name} does not exist and no USB serial device is {usb} "
        "(is it plugged in and running MicroPython?)"
    )
    usb = "{:04x}:{:04x}".format(*PICO_USB)
    raise LinkError(Phrase.of(no_pico, name=STABLE_NAME, usb=usb))


def open_port(url: str | None = None) -> serial.Serial:
    """Open ``url`` (a device path, a pty, or a pySerial URL such as ``loop://``),
    or the Pico that :func:`find_pico` finds. Raises LinkError or SerialException."""
    target = url or find_pico()
    exclusive = None if "://" in target else True  # a device is ours alone; a URL may not lock
    return serial.serial_for_url(target, baudrate=115200, write_timeout=1.0, exclusive=exclusive)


class Listener(Protocol):
    """What the protocol reports to (the PicoDriver, which feeds its LinkSession)."""

    def received(self, kind: int, seq: int, payload: bytes) -> None: ...

    def bad_frame(self, reason: str) -> None: ...

    def lost(self, error: BaseException | None) -> None: ...


class PicoProtocol(serial.threaded.Packetizer):
    """COBS frames split at 0x00, checked, and passed on as messages."""

    TERMINATOR = b"\x00"
    buffer: bytearray  # the Packetizer's: bytes since the last 0x00

    def __init__(self, listener: Listener):
        super().__init__()
        self.listener = listener

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if len(self.buffer) > pegproto.MAX_FRAME:  # garbage with no 0x00 in sight
            self.buffer = bytearray()
            self.listener.bad_frame("over-long frame")

    def handle_packet(self, packet: bytes) -> None:
        if not packet:
            return
        try:
            kind, seq, payload = pegproto.unpack(bytes(packet))
        except pegproto.FrameError as e:
            self.listener.bad_frame(str(e.args[0]))
            return
        self.listener.received(kind, seq, payload)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.transport = None
        self.listener.lost(exc)


class PortReader(threading.Thread):
    """Owns an open port and feeds what it reads to a protocol, like pySerial's
    ``ReaderThread``, except that every failure, including the ``OSError`` a
    vanished USB device raises from ``in_waiting``, ends the loop through
    ``protocol.connection_lost(error)``."""

    def __init__(self, port: serial.Serial, protocol: serial.threaded.Protocol):
        super().__init__(name="pegboard-pico-reader", daemon=True)
        self.port = port
        self.protocol = protocol
        self.alive = True
        self._lock = threading.Lock()
        if not hasattr(port, "cancel_read"):
            port.timeout = 0.2  # so close() is noticed

    def run(self) -> None:
        error = None
        # pySerial's protocols take their ReaderThread as the transport: this is one to
        # them (they only write to it).
        self.protocol.connection_made(cast(serial.threaded.ReaderThread, self))
        try:
            while self.alive and self.port.is_open:
                data = self.port.read(self.port.in_waiting or 1)
                if data:
                    self.protocol.data_received(data)
        except Exception as e:  # the port's errors and the protocol's alike
            error = e
        self.alive = False
        self.protocol.connection_lost(error)

    def write(self, data: bytes) -> None:
        with self._lock:
            self.port.write(data)

    def close(self) -> None:
        """Stop reading and close the port; safe from any thread, and twice."""
        self.alive = False
        if hasattr(self.port, "cancel_read"):
            self.port.cancel_read()
        if self.is_alive() and self is not threading.current_thread():
            self.join(2)
        with self._lock:
            self.port.close()


def frames_within(link: serial.SerialBase, timeout: float) -> Iterator[bytes]:
    """The frames arriving on ``link`` until ``timeout`` seconds have passed."""
    link.timeout = 0.1
    deframer = pegproto.Deframer()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        yield from deframer.feed(link.read(256))
