"""Genuine MicroPython for the tests: the WebAssembly port under Node, from tests/mpy."""

from __future__ import annotations

import shutil
from pathlib import Path

from needs import missing

MPY = Path(__file__).parent / "mpy"


def micropython_node() -> str:
    """Node's path, once tests/mpy is installed; otherwise skip (fail in CI: it must run)."""
    node = shutil.which("node")
    if node is None or not (MPY / "node_modules" / "@micropython").is_dir():
        missing("genuine MicroPython needs Node 20 and `npm ci --prefix tests/mpy`")
    return node
