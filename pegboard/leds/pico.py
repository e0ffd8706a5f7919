"""The LED driver for a Pico running pegboard's firmware, over USB serial.

One supervisor thread owns the port: it opens it (the udev name, a USB id scan,
or a path/URL given), writes what the :class:`~pegboard.leds.session.LinkSession`
asks for when it asks (SETUP, BRIGHTNESS and the board, retries, heartbeats),
and when the port fails or the session finds the Pico silent, closes it and
reopens with backoff. A reader thread feeds the session what the Pico says.
``show()`` only hands the frame over, so the game never waits on a cable.

Back to the REPL for ``mpremote`` (service stopped)::

    python -m pegboard.leds.pico repl [PORT]
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace

import serial

from pegboard._firmware import pegproto
from pegboard.board.layout import Strip
from pegboard.board.render import Frame
from pegboard.errors import LinkError
from pegboard.leds.base import LedDriver
from pegboard.leds.link import PicoProtocol, PortReader, frames_within, open_port
from pegboard.leds.session import LinkSession, LinkStats

log = logging.getLogger(__name__)


class PicoDriver(LedDriver):
    """Drive the strips through a Pico.

    ``port``: a device path, a pty, or a pySerial URL; None finds the Pico.
    ``colour_order``: the order the strips take a LED's bytes in (GRB for a WS2812B).
    ``retry``: seconds before an unacked frame is sent again; ``heartbeat``:
    seconds of quiet before a heartbeat; ``silence``: seconds the Pico may leave
    us unanswered before the port is reopened (all three go to the
    :class:`~pegboard.leds.session.LinkSession`); ``backoff``: first and longest
    wait between attempts to open the port; ``health_every``: seconds between
    link health lines in the log.
    """

    def __init__(
        self,
        strips: Sequence[Strip],
        port: str | None = None,
        *,
        colour_order: str = "GRB",
        retry: float = 0.1,
        heartbeat: float = 1.0,
        silence: float = 3.0,
        backoff: tuple[float, float] = (0.05, 0.5),
        health_every: float = 60.0,
    ):
        super().__init__(strips)
        self._session = LinkSession(
            self.strips,
            colour_order=colour_order,
            retry=retry,
            heartbeat=heartbeat,
            silence=silence,
        )
        self.port = port
        self.backoff = backoff
        self.health_every = health_every
        self._cond = threading.Condition()  # guards the session and what follows
        self._lost = False
        self._lost_error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="pegboard-pico-link", daemon=True)
        self._thread.start()

    # -- public ----------------------------------------------------------------

    @property
    def stats(self) -> LinkStats:
        """A snapshot of the link's counters."""
        with self._cond:
            return replace(self._session.stats)

    def wait_stats(self, ready: Callable[[LinkStats], bool], timeout: float) -> bool:
        """Wait until ``ready(stats)`` holds, e.g. ``lambda s: s.connected``; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: ready(self._session.stats), timeout)

    def wait_synced(self, timeout: float) -> bool:
        """Wait until the Pico has acked everything (the board it shows is ours)."""
        with self._cond:
            return self._cond.wait_for(lambda: self._session.synced, timeout)

    # -- LedDriver hooks -----------------------------------------------------------

    def _show(self, frame: Frame) -> None:
        with self._cond:
            self._session.show(frame.strips)
            self._cond.notify_all()

    def _set_brightness(self, level: float) -> None:
        with self._cond:
            self._session.set_brightness(level)
            self._cond.notify_all()

    def _close(self) -> None:
        with self._cond:
            self._cond.notify_all()
        self._thread.join(5)

    def _detail(self) -> str:
        s = self._session.stats
        where = s.port or self.port or "?"
        return f"port={where} {'up' if s.connected else 'down'}"

    # -- what the reader thread reports (link.Listener) ---------------------------------

    def received(self, kind: int, seq: int, payload: bytes) -> None:
        with self._cond:
            self._session.received(kind, seq, payload)
            self._cond.notify_all()

    def bad_frame(self, reason: str) -> None:
        with self._cond:
            self._session.bad_frame()
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
            with self._cond:
                self._session.stats.tries += 1
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

    def _serve(self, port: serial.Serial) -> None:
        reader = PortReader(port, PicoProtocol(self))
        with self._cond:
            self._lost = False
            self._session.connection_made(port.name or port.portstr or "")
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
                self._session.connection_lost(closing=self.closed)
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
                if self._session.silent(now):
                    return [], f"no answer for {self._session.silence:g} s"
                packets, wake_at = self._session.poll(now)
                if packets:
                    return packets, None
                self._cond.wait(max(0.001, wake_at - now))


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
