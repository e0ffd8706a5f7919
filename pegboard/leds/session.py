"""The Pico link's reliability, driven by a clock: no port, no thread, no sleep.

Like a pySerial protocol kept apart from its transport, a :class:`LinkSession`
never reads or writes a port. Its owner tells it what happens (a port opened or
lost, a message arrived, the board changed) and asks it, with the time now,
which packets to write and when to ask again. It keeps:

- one sequence number per message (16 bits, wrapping);
- an outbox holding the latest unacked message of each kind, sent in the order
  HELLO, SETUP, BRIGHTNESS, STATE and sent again every ``retry`` seconds until
  acked; a refusal is retried too, and logged once per connection;
- a heartbeat after ``heartbeat`` seconds with nothing to write;
- the silence check: a Pico that leaves a write unanswered for ``silence``
  seconds is given up on (its owner reopens the port);
- the HELLO a Pico sends when it boots or is asked, which makes the session
  send everything again: every message is idempotent; unless the HELLO names a
  MicroPython older than the firmware needs, which is logged and leaves the
  Pico alone (``stats.problem`` says why).

>>> from pegboard.board.layout import Strip
>>> session = LinkSession([Strip(0, 2, 3)], retry=0.1)
>>> session.connection_made("pty")
>>> packets, wake_at = session.poll(now=10.0)  # HELLO, SETUP and BRIGHTNESS
>>> len(packets), wake_at
(3, 10.1)
>>> session.poll(now=10.05)  # nothing due before the retry
([], 10.1)
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass

from pegboard._firmware import pegproto
from pegboard.board.layout import Strip
from pegboard.errors import ConfigError
from pegboard.i18n import N_, Phrase

log = logging.getLogger(__name__)

ORDER = (pegproto.HELLO, pegproto.SETUP, pegproto.BRIGHTNESS, pegproto.STATE)  # send order


@dataclass
class LinkStats:
    """Counters of the link's health since the driver started."""

    connected: bool = False
    tries: int = 0  # ports the driver tried to open (its supervisor is alive while they grow)
    connects: int = 0  # ports opened
    losses: int = 0  # connections lost (unplug, port error, silence)
    sent: int = 0  # frames written
    retries: int = 0  # frames written again for want of an ack
    acks: int = 0
    refusals: int = 0  # acks with a status other than OK
    bad_frames: int = 0  # frames from the Pico that failed COBS/CRC/version checks
    hellos: int = 0  # HELLOs from the Pico (each makes us resend the board)
    heartbeats: int = 0
    firmware: tuple[int, int, int] | None = None
    micropython: tuple[int, int, int] | None = None  # None: a firmware before 1.1 says not
    problem: str | None = None  # why the session will not drive this Pico
    boot_id: int | None = None
    port: str | None = None

    def summary(self) -> str:
        return (
            f"sent {self.sent} (retries {self.retries}), acks {self.acks}, "
            f"refused {self.refusals}, bad frames {self.bad_frames}, hellos {self.hellos}, "
            f"connects {self.connects}, losses {self.losses}"
        )


@dataclass
class _Outgoing:
    seq: int
    packet: bytes
    due: float = -math.inf  # monotonic time to (re)send it; at once until sent
    tries: int = 0  # writes on this connection


class LinkSession:
    """The host's side of the protocol for ``strips``, whose LEDs take their bytes in
    ``colour_order`` (one of ``pegproto.ORDERS``); see the module docstring.

    Not thread-safe: its owner holds a lock around every call.
    """

    def __init__(
        self,
        strips: Sequence[Strip],
        *,
        colour_order: str = "GRB",
        retry: float = 0.1,
        heartbeat: float = 1.0,
        silence: float = 3.0,
    ):
        if len(strips) > pegproto.MAX_STRIPS:
            most = N_("a Pico drives at most {most} strips, not {count}")
            raise ConfigError(Phrase.of(most, most=pegproto.MAX_STRIPS, count=len(strips)))
        for s in strips:
            if s.leds > pegproto.MAX_LEDS:
                most = N_("strip {strip}: at most {most} LEDs per strip, not {count}")
                said = Phrase.of(most, strip=s.id, most=pegproto.MAX_LEDS, count=s.leds)
                raise ConfigError(said)
        self.retry, self.heartbeat, self.silence = retry, heartbeat, silence
        self.stats = LinkStats()
        if colour_order not in pegproto.ORDERS:
            raise ConfigError(f"no colour order {colour_order!r}: {', '.join(pegproto.ORDERS)}")
        order = pegproto.ORDERS.index(colour_order)  # GRB, a WS2812B's, goes unsaid
        self._setup = pegproto.pack_setup([(s.pin, s.leds) for s in strips], order)
        self._current = {pegproto.BRIGHTNESS: b"\xff"}  # what the Pico should have, by kind
        self._outbox: dict[int, _Outgoing] = {}  # unacked, the latest of each kind
        self._refused: set[tuple[int, int]] = set()  # (kind, status) logged on this connection
        self._seq = 0
        self._heartbeat_at = -math.inf
        self._answer_by: float | None = None  # the Pico is silent after this

    @property
    def synced(self) -> bool:
        """Connected, and the Pico has acked everything (the board it shows is ours)."""
        return self.stats.connected and not self._outbox

    # -- what the owner tells it --------------------------------------------------------

    def show(self, strips: Sequence[bytes]) -> None:
        """The board to show: one RGB ``bytes`` per strip."""
        self._latest(pegproto.STATE, pegproto.pack_state(strips))

    def set_brightness(self, level: float) -> None:
        """The firmware's dimmer, 0..1."""
        self._latest(pegproto.BRIGHTNESS, bytes((round(level * 255),)))

    def connection_made(self, port: str) -> None:
        """A port is open: nothing is in flight; ask the Pico who it is and send everything."""
        self._outbox.clear()
        self._refused.clear()
        self._heartbeat_at, self._answer_by = -math.inf, None
        self.stats.problem = None  # perhaps another Pico: its HELLO will tell
        self._queue(pegproto.HELLO)
        self._queue_everything()
        s = self.stats
        s.connected, s.connects, s.port = True, s.connects + 1, port

    def connection_lost(self, closing: bool = False) -> None:
        """The port is gone; a loss unless its owner closed it."""
        self.stats.connected = False
        if not closing:
            self.stats.losses += 1

    def received(self, kind: int, seq: int, payload: bytes) -> None:
        """A message from the Pico, checked by the framing."""
        self._answer_by = None  # the Pico answers
        if kind == pegproto.ACK:
            self._acked(payload)
        elif kind == pegproto.HELLO:
            self._hello(payload)

    def bad_frame(self) -> None:
        """A frame from the Pico failed the framing's checks."""
        self.stats.bad_frames += 1

    # -- what it answers -----------------------------------------------------------------

    def silent(self, now: float) -> bool:
        """True once the Pico has left a write unanswered for ``silence`` seconds."""
        return self._answer_by is not None and now >= self._answer_by

    def poll(self, now: float) -> tuple[list[bytes], float]:
        """The packets to write at ``now``, and when to poll again at the latest.

        New messages, overdue ones in ``ORDER``, or else a heartbeat when it is due.
        """
        packets = []
        for kind in ORDER:
            out = self._outbox.get(kind)
            if out is None or out.due > now:
                continue
            if out.tries:
                self.stats.retries += 1
            out.due, out.tries = now + self.retry, out.tries + 1
            packets.append(out.packet)
        if not packets and now >= self._heartbeat_at:
            self.stats.heartbeats += 1
            packets.append(pegproto.pack(pegproto.HEARTBEAT, self._next_seq()))
        if packets:
            self._heartbeat_at = now + self.heartbeat
            self.stats.sent += len(packets)
            if self._answer_by is None:
                self._answer_by = now + self.silence
        wake = [self._heartbeat_at, *(out.due for out in self._outbox.values())]
        if self._answer_by is not None:
            wake.append(self._answer_by)
        return packets, min(wake)

    # -- inside -------------------------------------------------------------------------

    def _next_seq(self) -> int:
        self._seq = (self._seq + 1) & 0xFFFF
        return self._seq

    def _latest(self, kind: int, payload: bytes) -> None:
        """Remember the newest STATE or BRIGHTNESS (sent again after every HELLO) and send it."""
        if self._current.get(kind) != payload:
            self._current[kind] = payload
            self._queue(kind, payload)

    def _queue(self, kind: int, payload: bytes = b"") -> None:
        if self.stats.problem and kind != pegproto.HELLO:
            return  # a Pico we do not drive
        """Replace any unsent or unacked message of this kind with a new one."""
        seq = self._next_seq()
        self._outbox[kind] = _Outgoing(seq, pegproto.pack(kind, seq, payload))

    def _queue_everything(self) -> None:
        """What a freshly booted Pico needs: its strips, then the latest of each kind."""
        self._queue(pegproto.SETUP, self._setup)
        for kind, payload in self._current.items():
            self._queue(kind, payload)

    def _acked(self, payload: bytes) -> None:
        try:
            seq, status = pegproto.unpack_ack(payload)
        except pegproto.FrameError:
            self.stats.bad_frames += 1
            return
        self.stats.acks += 1
        kind = next((k for k, out in self._outbox.items() if out.seq == seq), None)
        if kind is None or kind == pegproto.HELLO:  # stale, a heartbeat's, or not ours
            return
        if status == pegproto.OK:
            del self._outbox[kind]
            return
        self.stats.refusals += 1  # it stays in the outbox and is retried; said once
        if (kind, status) not in self._refused:
            self._refused.add((kind, status))
            log.warning(
                "the Pico refused %s: %s",
                pegproto.NAMES.get(kind),
                pegproto.STATUSES.get(status, status),
            )

    def _hello(self, payload: bytes) -> None:
        """The Pico introduced itself (it booted, or we asked): the one place that judges
        its firmware, then everything it should show goes out again, in order."""
        try:
            version, boot_id, _ = pegproto.unpack_hello(payload)
        except pegproto.FrameError:
            self.stats.bad_frames += 1
            return
        s = self.stats
        s.hellos += 1
        micropython = pegproto.hello_micropython(payload)
        s.problem = pegproto.micropython_problem(micropython)
        if boot_id != s.boot_id:
            firmware = ".".join(map(str, version))
            log.info("Pico firmware %s (boot %08x) on %s", firmware, boot_id, s.port)
            if s.problem:
                log.error("%s; the LEDs stay dark", s.problem)
        s.firmware, s.micropython, s.boot_id = version, micropython, boot_id
        self._outbox.pop(pegproto.HELLO, None)  # our question is answered
        if s.problem:
            self._outbox.clear()
        else:
            self._queue_everything()
