"""A disk whose syncs take their time (an SD card), or wait until let through: an apsw VFS
over the real files (the default one's, locks and WAL-index too) that waits in ``xSync``.
:meth:`SlowDisk.connect` gives the Store its connections, in the stdlib's shape.
"""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path

import apsw
from powercut import Connection, connect

HELD = 30.0  # seconds a held sync waits at most (a test that forgets to let it go ends)
_names = itertools.count()


class SlowDisk(apsw.VFS):
    """Every sync takes ``seconds``; while :attr:`gate` is clear, a sync first waits for
    it to be set (:attr:`held` tells that one is waiting)."""

    def __init__(self, seconds: float = 0.0) -> None:
        self.name, self.seconds = f"slow-disk-{next(_names)}", seconds
        self.gate, self.held = threading.Event(), threading.Event()
        self.gate.set()
        super().__init__(self.name, "")

    def xOpen(self, name, flags):
        return SlowFile(self, name, flags)

    def connect(self, path: Path, readonly: bool) -> Connection:
        """A connection through this disk, as the Store's ``connect`` makes one."""
        return connect(self.name, path, readonly)


class SlowFile(apsw.VFSFile):
    def __init__(self, disk: SlowDisk, name, flags) -> None:
        super().__init__("", name, flags)
        self.disk = disk

    def xSync(self, flags: int) -> None:
        if not self.disk.gate.is_set():
            self.disk.held.set()
            self.disk.gate.wait(HELD)
        time.sleep(self.disk.seconds)
        super().xSync(flags)
