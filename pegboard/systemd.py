"""systemd's notify protocol (``Type=notify``, ``WatchdogSec=``), without a dependency.

Outside systemd (no ``NOTIFY_SOCKET``) every call does nothing. The :class:`Watchdog`
pings only while every part it is given shows progress, so a part that died or hangs
stops the pings and systemd restarts the service.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)


def notify(state: str) -> bool:
    """Send ``state`` (e.g. ``READY=1``, ``WATCHDOG=1``, ``STOPPING=1``); True if sent."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # abstract namespace socket
        address = "\0" + address[1:]
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        sock.sendall(state.encode())
    return True


def watchdog_interval() -> float | None:
    """Half the watchdog timeout in seconds (how often to ping), or None without one."""
    usec = os.environ.get("WATCHDOG_USEC")
    if not usec or not usec.isdigit():
        return None
    if os.environ.get("WATCHDOG_PID", str(os.getpid())) != str(os.getpid()):
        return None
    return int(usec) / 2_000_000


class Watchdog:
    """Pings systemd's watchdog every ``interval`` seconds while each of ``checks`` (a part's
    name -> a check that says whether it made progress) holds; says in the log which part
    stopped, and when it moves again.

    >>> beats = iter([True, False])
    >>> dog = Watchdog({"painter": lambda: next(beats)}, interval=1)
    >>> dog.beat(), dog.beat(), dog.stuck
    (True, False, ['painter'])
    """

    def __init__(self, checks: Mapping[str, Callable[[], bool]], interval: float) -> None:
        self.checks, self.interval = dict(checks), interval
        self.stuck: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)

    def beat(self) -> bool:
        """Check every part once; ping systemd if all made progress. True if all did."""
        stuck = [name for name, check in self.checks.items() if not _holds(name, check)]
        if stuck != self.stuck:
            if stuck:
                log.error("no progress from %s: systemd's watchdog is not pinged", ", ".join(stuck))
            else:
                log.warning("every part makes progress again: systemd's watchdog is pinged")
        self.stuck = stuck
        if not stuck:
            notify("WATCHDOG=1")
        return not stuck

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.beat()


def _holds(name: str, check: Callable[[], bool]) -> bool:
    try:
        return bool(check())
    except Exception:  # a check that fails says: no progress
        log.exception("checking %s", name)
        return False


def moving(count: Callable[[], int], within: float) -> Callable[[], bool]:
    """A check that holds while ``count()`` changed in the last ``within`` seconds.

    >>> ticks = iter([1, 1, 2])
    >>> check = moving(lambda: next(ticks), within=0)
    >>> check(), check(), check()
    (True, False, True)
    """
    last: int | None = None  # the count when it last changed, and when that was
    changed = time.monotonic()

    def check() -> bool:
        nonlocal last, changed
        now, seen = time.monotonic(), count()
        if seen != last:
            last, changed = seen, now
            return True
        return now - changed <= within

    return check
