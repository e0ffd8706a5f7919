"""Where pegboard keeps its files: the game file in the user's data folder, or in the
folder given with ``--data``.  Nothing here creates a folder or a file.

>>> games_path("/srv/pegboard").as_posix()
'/srv/pegboard/games.db'
>>> games_path().parent == default_data_dir()
True
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "pegboard"
GAMES_FILE = "games.db"


def default_data_dir() -> Path:
    """The user's data folder for pegboard (``~/.local/share/pegboard`` on Linux)."""
    return Path(platformdirs.user_data_dir(APP))


def games_path(data_dir: str | os.PathLike[str] | None = None) -> Path:
    """The game file in ``data_dir``, or in :func:`default_data_dir` when none is given."""
    return Path(default_data_dir() if data_dir is None else data_dir) / GAMES_FILE
