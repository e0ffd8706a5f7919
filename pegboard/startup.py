"""What the machine must give the board before it starts, checked before anything is
written: the panel's address and port, and a data folder it can make and write in.

>>> import tempfile
>>> with socket.create_server(("127.0.0.1", 0)) as other:  # another program's
...     check_listen("127.0.0.1", other.getsockname()[1])
Traceback (most recent call last):
...
pegboard.errors.ConfigError: the panel cannot listen on 127.0.0.1 port ...: another program ...
>>> check_data_folder(Path(tempfile.mkdtemp()) / "new" / "folder")  # it can be made
"""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

from pegboard.errors import ConfigError
from pegboard.i18n import N_, Phrase

PORT_TAKEN = N_(
    "the panel cannot listen on {host} port {port}: another program uses it; stop that "
    "program, or choose another port with {option} or {setting}"
)
NOT_HERE = N_(
    "the panel cannot listen on {host}: it is not one of this machine's addresses; choose "
    "another with {option} or {setting}"
)
PRIVILEGED = N_(
    "the panel cannot listen on port {port}: ports below 1024 need rights this user lacks (the "
    "installed service has them); choose another port with {option} or {setting}"
)
CANNOT_LISTEN = N_("the panel cannot listen on {host} port {port}: {error}")
FOLDER_BLOCKED = N_(
    "the data folder {path} cannot be made: {blocker} is a file; give another folder with {option}"
)
FOLDER_FAILED = N_("the data folder {path} cannot be made: {error}")
FOLDER_LOCKED = N_(
    "the data folder {path} cannot be written: this user may not write in {blocker}; give "
    "another folder with {option}"
)

# Where each is chosen: the option and the config's setting (names, not words to translate).
_HOST = {"option": "--host", "setting": "[panel] host"}
_PORT = {"option": "--port", "setting": "[panel] port"}
_DATA = {"option": "--data"}


def check_listen(host: str, port: int) -> None:
    """The panel can listen on ``host`` and ``port`` (0: any free port): tried now, before
    anything is written, and let go (the panel's server binds it again)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, UnicodeError):
        raise ConfigError(Phrase.of(NOT_HERE, host=host, **_HOST)) from None
    with socket.socket(family, kind, proto) as sock:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
            sock.bind(address)
            sock.listen()
        except OSError as error:
            raise cannot_listen(error, host, port) from None


def cannot_listen(error: OSError, host: str, port: int) -> ConfigError:
    """The one line that says why the panel cannot listen on ``host`` and ``port``."""
    said = {errno.EADDRINUSE: PORT_TAKEN, errno.EADDRNOTAVAIL: NOT_HERE, errno.EACCES: PRIVILEGED}
    message = said.get(error.errno, CANNOT_LISTEN)
    where = _HOST if message is NOT_HERE else _PORT
    why = error.strerror or str(error)
    return ConfigError(Phrase.of(message, host=host, port=port, error=why, **where))


def check_data_folder(path: Path) -> None:
    """The data folder exists and may be written in, or can be made; makes nothing."""
    blocker = path
    while not blocker.exists() and blocker != blocker.parent:
        blocker = blocker.parent
    if not blocker.is_dir():
        raise ConfigError(Phrase.of(FOLDER_BLOCKED, path=str(path), blocker=str(blocker), **_DATA))
    if not os.access(blocker, os.W_OK | os.X_OK):
        raise ConfigError(Phrase.of(FOLDER_LOCKED, path=str(path), blocker=str(blocker), **_DATA))


def make_data_folder(path: Path) -> None:
    """Make the data folder (and those above it) if it is not there."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        said = error.strerror or str(error)
        raise ConfigError(Phrase.of(FOLDER_FAILED, path=str(path), error=said)) from None
