"""The LED driver for a Pico running pegboard's firmware, over USB serial.

One supervisor thread owns the link: it opens the port (the udev name, a USB id
scan, or a path/URL given), sends SETUP, BRIGHTNESS and the board, resends
whatever the Pico has not acked, sends a heartbeat when idle, and when the port
fails or falls silent, closes it and reopens with backoff. ``show()`` only hands
the frame over, so the game never waits on a cable.

A HELLO from the Pico (it rebooted, or had not heard from us) makes the driver
resend everything: all messages are idempotent.

Back to the REPL for ``mpremote`` (service stopped)::

    python -m pegboard.leds.pico repl [PORT]
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import serial

from pegboard._firmware import pegproto
from pegboard.board.layout import Strip
from pegboard.board.render import Frame
from pegboard.errors import ConfigError, LinkError
from pegboard.leds.base import LedDriver
from pegboard.leds.link import LinkStats, PicoProtocol, PortReader, frames_within, open_port

log = logging.getLogger(__name__)

ORDER = (pegproto.HELLO, pegproto.SETUP, pegproto.BRIGHTNESS, pegproto.STATE)  # send order


@dataclass
class _Outgoing:
    kind: int
    seq: int
    packet: bytes
    sent_at: float | None = None  # monotonic; None: not sent on this connection yet


class PicoDriver(LedDriver):
    """Drive the strips through a Pico.

    ``port``: a device path, a pty, or a pySerial URL; None finds the Pico.
    ``retry``: seconds before an unacked frame is sent again; ``heartbeat``:
    seconds of quiet before a heartbeat; ``silence``: seconds the Pico may leave
    us unanswered before the port is reopened; ``backoff``: first and longest
    wait between attempts to open the port; ``health_every``: seconds between
    link health lines in the log.
    """

    def __init__(
        self,
        strips: Sequence[Strip],
        port: str | None = None,
        *,
        retry: float = 0.1,
        heartbeat: float = 1.0,
        silence: float = 3.0,
        backoff: tuple[float, float] = (0.05, 0.5),
        health_every: float = 60.0,
    ):
        super().__init__(strips)
        if len(self.strips) > pegproto.MAX_STRIPS:
            raise ConfigError(f"a Pico drives at most {pegproto.MAX_STRIPS} strips")
        for s in self.strips:
            if s.leds > pegproto.MAX_LEDS:
                raise ConfigError(f"strip {s.id}: at most {pegproto.MAX_LEDS} LEDs per strip")
        self.port = port
        self.retry, self.heartbeat, self.silence = retry, heartbeat, silence
        self.backoff = backoff
        self.health_every = health_every
        self._stats = LinkStats()
        self._cond = threading.Condition()
        self._outbox: dict[int, _Outgoing] = {}  # unacked messages, the latest of each kind
        self._current = {pegproto.BRIGHTNESS: b"\xff"}  # what the Pico should have, by kind
        self._refused: set[tuple[int, int]] = set()  # (kind, status) logged on this connection
        self._seq = 0
        self._lost = False
        self._lost_error: BaseException | None = None
        self._asked_at: float | None = None  # first write the Pico has not answered since
        self._last_write = 0.0
        self._thread = threading.Thread(target=self._run, name="pegboard-pico-link", daemon=True)
        self._thread.start()

    # -- public ----------------------------------------------------------------

    @property
    def stats(self) -> LinkStats:
        """A snapshot of the link's counters."""
        with self._cond:
            return replace(self._stats)

    def wait_stats(self, ready: Callable[[LinkStats], bool], timeout: float) -> bool:
        """Wait until ``ready(stats)`` holds, e.g. ``lambda s: s.connected``; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: ready(self._stats), timeout)

    def wait_synced(self, timeout: float) -> bool:
        """Wait until the Pico has acked everything (the board it shows is ours)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._stats.connected and not self._outbox, timeout)

    # -- LedDriver hooks -----------------------------------------------------------

    def _show(self, frame: Frame) -> None:
        self._latest(pegproto.STATE, pegproto.pack_state(frame.strips))

    def _set_brightness(self, level: float) -> None:
        self._latest(pegproto.BRIGHTNESS, bytes((round(level * 255),)))

    def _close(self) -> None:
        with self._cond:
            self._cond.notify_all()
        self._thread.join(5)

    def _detail(self) -> str:
        s = self._stats
        where = s.port or self.port or "?"
        return f"port={where} {'up' if s.connected else 'down'}"

    # -- messages ------------------------------------------------------------------

    def _latest(self, kind: int, payload: bytes) -> None:
        """Remember the newest STATE or BRIGHTNESS (resent after every reconnect) and send it."""
        with self._cond:
            if self._current.get(kind) != payload:
                self._current[kind] = payload
                self._queue(kind, payload)

    def _queue(self, kind: int, payload: bytes = b"") -> None:
        """Replace any unsent or unacked message of this kind with a new one."""
        with self._cond:
            self._seq = (self._seq + 1) & 0xFFFF
            self._outbox[kind] = _Outgoing(kind, self._seq, pegproto.pack(kind, self._seq, payload))
            self._cond.notify_all()

    def _queue_everything(self, hello: bool) -> None:
        """What a freshly booted (or freshly opened) Pico needs, in order."""
        if hello:
            self._queue(pegproto.HELLO)
        self._queue(pegproto.SETUP, pegproto.pack_strips([(s.pin, s.leds) for s in self.strips]))
        for kind, payload in self._current.items():
            self._queue(kind, payload)

    # Session: called from the reader thread.

    def received(self, kind: int, seq: int, payload: bytes) -> None:
        with self._cond:
            self._asked_at = None  # the Pico answers
            if kind == pegproto.ACK:
                self._acked(payload)
            elif kind == pegproto.HELLO:
                self._hello(payload)
            self._cond.notify_all()

    def _acked(self, payload: bytes) -> None:
        try:
            seq, status = pegproto.unpack_ack(payload)
        except pegproto.FrameError:
            self._stats.bad_frames += 1
            return
        self._stats.acks += 1
        for kind, out in list(self._outbox.items()):
            if out.seq != seq or kind == pegproto.HELLO:
                continue
            if status == pegproto.OK:
                del self._outbox[kind]
                continue
            self._stats.refusals += 1
            if (kind, status) not in self._refused:  # it is retried; say so once
                self._refused.add((kind, status))
                log.warning(
                    "the Pico refused %s: %s",
                    pegproto.NAMES.get(kind),
                    pegproto.STATUSES.get(status, status),
                )

    def _hello(self, payload: bytes) -> None:
        try:
            version, boot_id, _ = pegproto.unpack_hello(payload)
        except pegproto.FrameError:
            self._stats.bad_frames += 1
            return
        s = self._stats
        s.hellos += 1
        if boot_id != s.boot_id:
            log.info(
                "Pico firmware %s (boot %08x) on %s",
                ".".join(map(str, version)),
                boot_id,
                s.port,
            )
        s.firmware, s.boot_id = version, boot_id
        self._outbox.pop(pegproto.HELLO, None)  # our question is answered
        self._queue_everything(hello=False)

    def bad_frame(self, reason: str) -> None:
        with self._cond:
            self._stats.bad_frames += 1
        log.debug("bad frame from the Pico: %s", reason)

    def lost(self, error: BaseException | None) -> None:
        with self._cond:
            self._lost, self._lost_error = True, error
            self._cond.notify_all()

    # -- the supervisor thread ------------------------------------------------------

    def _run(self) -> None:
        delay = self.backoff[0]
        failing = False
        while not self.closed:
            try:
                port = open_port(self.port)
            except (LinkError, serial.SerialException, OSError) as e:
                if not failing:
                    log.warning("LED link down, retrying: %s", e)
                    failing = True
                with self._cond:
                    self._cond.wait_for(lambda: self.closed, delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            failing, delay = False, self.backoff[0]
            try:
                self._serve(port)
            except Exception:  # a bug must not end the link for good
                log.exception("LED link supervisor failed; reopening the port")

    def _serve(self, port: serial.SerialBase) -> None:
        reader = PortReader(port, PicoProtocol(self))
        with self._cond:
            self._lost = False
            self._refused.clear()
            self._asked_at = None
            self._last_write = 0.0
            for out in self._outbox.values():
                out.sent_at = None
            self._queue_everything(hello=True)
            self._stats.connects += 1
            self._stats.connected = True
            self._stats.port = port.name
            self._cond.notify_all()
        log.info("LED link up on %s", port.name)
        reader.start()
        health_at = time.monotonic() + self.health_every
        why = None
        try:
            while why is None:
                due, why = self._next_work()
                for packet in due:
                    reader.write(packet)
                if time.monotonic() >= health_at:
                    health_at += self.health_every
                    log.info("LED link health: %s", self.stats.summary())
        except (serial.SerialException, OSError) as e:
            why = f"port failed: {e}"
        finally:
            reader.close()
            with self._cond:
                self._stats.connected = False
                if not self.closed:
                    self._stats.losses += 1
                self._cond.notify_all()
        if not self.closed:
            log.warning("LED link lost (%s); %s", why, self.stats.summary())

    def _next_work(self) -> tuple[list[bytes], str | None]:
        """Wait for packets to write, or for the reason to give up this port."""
        with self._cond:
            while True:
                now = time.monotonic()
                if self.closed:
                    return [], "closed"
                if self._lost:
                    return [], f"port failed: {self._lost_error or 'closed'}"
                if self._asked_at is not None and now - self._asked_at > self.silence:
                    return [], f"no answer for {self.silence:g} s"
                due = self._due(now)
                if due:
                    return due, None
                self._cond.wait(self._next_wake(now))

    def _due(self, now: float) -> list[bytes]:
        """Packets to write now (holding the lock): new, overdue, or a heartbeat."""
        packets = []
        for kind in ORDER:
            out = self._outbox.get(kind)
            if out is None or (out.sent_at is not None and now - out.sent_at < self.retry):
                continue
            if out.sent_at is not None:
                self._stats.retries += 1
            out.sent_at = now
            packets.append(out.packet)
        if not packets and now - self._last_write >= self.heartbeat:
            self._seq = (self._seq + 1) & 0xFFFF
            self._stats.heartbeats += 1
            packets.append(pegproto.pack(pegproto.HEARTBEAT, self._seq))
        if packets:
            self._last_write = now
            self._stats.sent += len(packets)
            if self._asked_at is None:
                self._asked_at = now
        return packets

    def _next_wake(self, now: float) -> float:
        """Seconds until a retry, a heartbeat or a silence check is due."""
        wake = [self.heartbeat - (now - self._last_write)]
        wake += [self.retry - (now - o.sent_at) for o in self._outbox.values() if o.sent_at]
        if self._asked_at is not None:
            wake.append(self.silence - (now - self._asked_at))
        return max(0.001, min(wake)) + 0.001


def send_repl(port: str | None = None, timeout: float = 2.0) -> bool:
    """Ask the Pico to reboot once into the REPL (for ``mpremote``); True once acked."""
    with open_port(port) as link:
        link.write(pegproto.pack(pegproto.REPL, 1, pegproto.REPL_MAGIC))
        for frame in frames_within(link, timeout):
            try:
                kind, _, payload = pegproto.unpack(frame)
            except pegproto.FrameError:
                continue
            if kind == pegproto.ACK and pegproto.unpack_ack(payload) == (1, pegproto.OK):
                return True
    return False


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] != "repl":
        print("usage: python -m pegboard.leds.pico repl [PORT]", file=sys.stderr)
        return 2
    try:
        done = send_repl(args[1] if len(args) > 1 else None)
    except (LinkError, serial.SerialException) as e:
        print(f"pegboard: {e}", file=sys.stderr)
        return 1
    print("the Pico is rebooting into the REPL" if done else "no answer from the Pico")
    return 0 if done else 1


if __name__ == "__main__":
    sys.exit(main())
