"""Waiting on the board without sleeping: woken by its changes, bounded by a timeout."""

from __future__ import annotations

import threading
import time

WAIT = 10.0  # seconds a test waits for the board before it fails (a busy machine too)


def eventually(check, timeout: float = 5.0, board=None):
    """Wait until ``check()`` is true (woken by the board's changes); fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not check():
        left = deadline - time.monotonic()
        assert left > 0, "timed out waiting"
        if board is not None:
            board.wait(board.versions(), timeout=min(left, 0.2))
        else:
            threading.Event().wait(0.01)
