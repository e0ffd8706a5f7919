"""An emulated Pico: the real firmware logic on a fake chip at the far end of a pty.

The host opens ``pico.path`` (a symlink, like the udev name) exactly as it would
open the real Pico, and talks the real protocol to ``pegboard._firmware.pegfirm``
running in a thread. ``unplug()``/``plug()`` pull and push the cable (a new pty
behind the same name, and a freshly booted firmware), ``reboot()`` restarts the
firmware on the same port, ``tamper_in``/``tamper_out`` damage bytes on the way
and ``inject()`` adds some; ``seen`` is what its strips (WS2812B, GRB, unless
``strip_order`` says otherwise) show a person; ``shown`` keeps the last ``history`` boards the LEDs
showed, in order (an empty tuple marks each boot), and ``wait_for()`` waits for one.

>>> from pegboard.board.layout import load_layout
>>> from pegboard.board.render import Frame
>>> from pegboard.leds.pico import PicoDriver
>>> layout = load_layout("two-track-61")
>>> frame = Frame((b"\\x10" * 228, b"\\x20" * 228))  # 76 LEDs a strip
>>> with EmulatedPico() as pico, PicoDriver(layout.strips, pico.path) as leds:
...     leds.show(frame)
...     pico.wait_for(frame.strips, timeout=5)
True
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import tty
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path

from pegboard._firmware import pegproto
from pegboard._firmware.fakehw import PtyHardware
from pegboard._firmware.pegfirm import Firmware

Tamper = Callable[[bytes], bytes]


class EmulatedPico:
    """A Pico you can plug, unplug, reboot and listen to; see the module docstring."""

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        plugged: bool = True,
        history: int = 2000,
    ):
        self._folder: str | None = None  # a folder of our own for its name, removed at close
        if not path:
            self._folder = _own_folder()
            path = Path(self._folder) / "pegboard-pico"
        self.path = str(path)
        self.tamper_in: Tamper | None = None  # host -> Pico bytes
        self.tamper_out: Tamper | None = None  # Pico -> host bytes
        self.on_show: Callable[[tuple[bytes, ...]], None] | None = None
        self.shown: deque[tuple[bytes, ...]] = deque(maxlen=history)  # the latest boards, in order
        self.strip_order = "GRB"  # the strips' own colour order: WS2812B
        self._cond = threading.Condition()
        self.hw: PtyHardware | None = None
        self.firmware: Firmware | None = None
        self._fds: tuple[int, int] | None = None
        self._thread: threading.Thread | None = None
        if plugged:
            self.plug()

    @property
    def seen(self) -> list[bytes]:
        """What a person sees on the strips now, one RGB ``bytes`` per strip: the bytes the
        firmware sent down each data line, read as strips of ``strip_order`` read them."""
        order = pegproto.ORDERS.index(self.strip_order)
        return [bytes(pegproto.from_wire(wire, order)) for wire in self.hw.wire] if self.hw else []

    @property
    def leds(self) -> list[bytes]:
        """What the strips show now, one RGB ``bytes`` per strip."""
        return [bytes(rgb) for rgb in self.hw.leds] if self.hw else []

    def plug(self) -> None:
        """Plug in: a new pty behind ``path`` and a freshly booted firmware."""
        if self._fds:
            return
        master, slave = os.openpty()
        tty.setraw(slave)  # what pySerial does too; no echo before the host opens it
        self._fds = (master, slave)  # our slave fd keeps the pty alive between opens
        link = self.path + ".new"
        os.symlink(os.ttyname(slave), link)
        os.replace(link, self.path)
        self._boot()

    def unplug(self) -> None:
        """Pull the cable: the firmware stops and the host's port fails."""
        if not self._fds:
            return
        self._halt()
        for fd in self._fds:
            os.close(fd)
        self._fds = None

    def reboot(self) -> None:
        """Restart the firmware on the same port: no strips set up, a new boot id, a HELLO
        (unplugged: it has no power, so nothing)."""
        if self._fds:
            self._halt()
            self._boot()

    def hang(self) -> None:
        """Stop the firmware but leave the port open: a Pico that says nothing."""
        self._halt()

    def inject(self, data: bytes) -> None:
        """Put ``data`` on the line towards the Pico, between whatever the host sends
        (unplugged: nowhere)."""
        if self._fds:
            os.write(self._fds[1], data)

    def wait_for(self, strips: Sequence[bytes], timeout: float) -> bool:
        """Wait until the LEDs show ``strips`` (one RGB ``bytes`` per strip)."""
        want = tuple(strips)
        with self._cond:
            return self._cond.wait_for(lambda: bool(self.shown) and self.shown[-1] == want, timeout)

    def close(self) -> None:
        self.unplug()
        if self._folder:
            shutil.rmtree(self._folder, ignore_errors=True)

    def __enter__(self) -> EmulatedPico:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<EmulatedPico {self.path} {'plugged' if self._fds else 'unplugged'}>"

    def _boot(self) -> None:
        assert self._fds is not None  # booted only when plugged in
        with self._cond:
            self.shown.append(())
        self.hw = PtyHardware(self._fds[0], tamper_in=self._in, tamper_out=self._out)
        self.hw.on_show = self._shown
        self.firmware = Firmware(self.hw)
        self._thread = threading.Thread(target=self.firmware.run, name="emulated-pico", daemon=True)
        self._thread.start()

    def _halt(self) -> None:
        if self.firmware is not None and self._thread and self._thread.is_alive():
            self.firmware.stop()
            self._thread.join(5)

    def _in(self, data: bytes) -> bytes:
        return self.tamper_in(data) if self.tamper_in else data

    def _out(self, data: bytes) -> bytes:
        return self.tamper_out(data) if self.tamper_out else data

    def _shown(self, leds: list[bytearray]) -> None:
        board = tuple(bytes(rgb) for rgb in leds)
        with self._cond:
            self.shown.append(board)
            self._cond.notify_all()
        if self.on_show:
            self.on_show(board)


FOLDER = "pegboard-pico-"  # + the pid of the process it is for + a unique end


def _own_folder() -> str:
    """A new temporary folder for the Pico's name, named for this process.  A process
    killed outright cannot remove its own, so the folders of processes that are gone are
    removed first."""
    for left in Path(tempfile.gettempdir()).glob(f"{FOLDER}*-*"):
        pid = left.name.removeprefix(FOLDER).split("-")[0]
        if pid.isdigit() and not _running(int(pid)):
            shutil.rmtree(left, ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"{FOLDER}{os.getpid()}-")


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True
