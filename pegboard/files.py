"""The small files the board keeps beside its game file in the data folder: its PIN, the
key that signs the phones' cookies, the signed-in sessions and the wrong PINs.

Each is written whole (made beside its place, synced, then moved into place), readable
by the board's user only, so a crash or a power cut leaves the old file or the new one.
Each is read back as it was written or refused at start, in one line that names it and
says what to do: never written over (a PIN file written over would change the PIN
without a word and sign every phone out).

>>> import tempfile
>>> path = Path(tempfile.mkdtemp()) / "pin"
>>> read_private(path) is None
True
>>> write_private(path, "123456")
>>> read_private(path), oct(path.stat().st_mode & 0o777)
('123456', '0o600')
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def write_private(path: Path, text: str) -> None:
    """``text`` (and a newline) as the whole of ``path``, readable by this user only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    made = path.with_name(path.name + ".new")
    fd = os.open(made, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text + "\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(made, path)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def read_private(path: Path) -> str | None:
    """What ``path`` holds (its surrounding spaces dropped), or None when there is no
    such file. Raises ValueError when it is not UTF-8 text, OSError when it cannot be
    read."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    return data.decode("utf-8").strip()


def read_json(path: Path) -> object | None:
    """The JSON ``path`` holds, or None when there is no such file (ValueError: it holds
    no JSON)."""
    text = read_private(path)
    return None if text is None else json.loads(text)


def is_number(value: object) -> bool:
    """A JSON number (not a boolean)."""
    return isinstance(value, int | float) and not isinstance(value, bool)
