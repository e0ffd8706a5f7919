"""What the machine must give the board before it starts, checked before anything is
written: the panel's address and port, a data folder it can make and write in, and the
files the board keeps there (its PIN, the key of the phones' cookies, the signed-in
sessions, the wrong PINs, the clubs paired, its identity): each as it was written, or
refused in one line that names it and says what to do (:func:`check_kept`; never written over).

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
import secrets
import socket
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pegboard import identity
from pegboard.config import is_pin
from pegboard.errors import ConfigError
from pegboard.files import read_private, write_private
from pegboard.i18n import N_, Phrase

T = TypeVar("T")  # what a kept file holds
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

PIN_DAMAGED = N_(
    "the PIN file {path} is damaged: it holds no PIN of 4 to 8 digits. Nothing was changed: put "
    "the board's PIN in it, or remove it to have a new PIN made (every phone then signs in again)"
)
KEY_DAMAGED = N_(
    "the key file {path} is damaged: it holds no key of 32 letters or digits or more. Nothing "
    "was changed: remove it to have a new key made (every phone then signs in again)"
)
SESSIONS_DAMAGED = N_(
    "the sessions file {path} is damaged ({error}). Nothing was changed: remove it (every phone "
    "then signs in again)"
)
TRIES_DAMAGED = N_(
    "the wrong-PIN file {path} is damaged ({error}). Nothing was changed: remove it (the count "
    "of wrong PINs then starts again)"
)
FILE_UNREADABLE = N_("the file {path} cannot be read ({error}): let this user read it")
PIN_FILE, KEY_FILE, SESSIONS_FILE, TRIES_FILE = "pin", "secret", "sessions", "pin-tries"
PAIRINGS_FILE = "pairings"  # the keys of the clubs paired (pegboard.panel.signing)
IDENTITY_FILE = identity.FILE  # the board's key pair
BOARD_KEY_DAMAGED = N_(
    "the board's key file {path} is damaged ({error}). Nothing was changed: remove it, then "
    "pair the board with the club again"
)
IDENTITY_DAMAGED = N_(
    "the board's identity file {path} is damaged ({error}). Nothing was changed: put its key "
    "back from a backup, or remove it to have a new one made (the club then pairs the board again)"
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
    said: dict[int | None, str] = {
        errno.EADDRINUSE: PORT_TAKEN,
        errno.EADDRNOTAVAIL: NOT_HERE,
        errno.EACCES: PRIVILEGED,
    }
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


PIN_DIGITS = 6  # a PIN made at first start: a million of them (see pegboard.panel.tries)


def kept_pin(data_dir: Path) -> str | None:
    """The PIN made at the first start and kept (None: none yet)."""
    return _kept(data_dir / PIN_FILE, lambda text: text if is_pin(text) else None, PIN_DAMAGED)


def pin_of(data_dir: Path, given: str | None) -> tuple[str, bool]:
    """The PIN: ``given``, else the one kept in ``data_dir``, else one made now and kept
    there. (pin, new?) A damaged PIN file is refused, never written over."""
    if given:
        return given, False
    pin = kept_pin(data_dir)
    if pin is not None:
        return pin, False
    pin = f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
    write_private(data_dir / PIN_FILE, pin)
    return pin, True


def kept_key(data_dir: Path) -> str | None:
    """The key that signs the phones' cookies, made at the first start (None: none yet)."""
    return _kept(data_dir / KEY_FILE, _key, KEY_DAMAGED)


def check_kept(data_dir: Path, pin_kept: bool) -> None:
    """Every file the board keeps in ``data_dir`` (the PIN's only when ``pin_kept``: a
    PIN in the config leaves it unread) as it was written; writes nothing."""
    from pegboard.panel import auth, signing, tries  # what the panel keeps, as it reads it

    if pin_kept:
        kept_pin(data_dir)
    kept_key(data_dir)
    for name, read, damaged in (
        (SESSIONS_FILE, auth.read, SESSIONS_DAMAGED),
        (TRIES_FILE, tries.read, TRIES_DAMAGED),
        (PAIRINGS_FILE, signing.read, BOARD_KEY_DAMAGED),
        (IDENTITY_FILE, identity.Identity.read, IDENTITY_DAMAGED),
    ):
        _kept(data_dir / name, _reading(read, data_dir / name), damaged)


def _key(text: str) -> str | None:
    return text if len(text) >= 32 and text.isascii() and text.isalnum() else None


def _reading(read: Callable[[Path], T | None], path: Path) -> Callable[[str], T | None]:
    """A file's own reader (``read(path)``) in the place of a parse of its text."""
    return lambda _text: read(path)


def _kept(path: Path, parse: Callable[[str], T | None], damaged: str) -> T | None:
    """``parse`` of what ``path`` holds (None: no such file), or the one line that
    refuses it: ``damaged`` (with the error, if any, of a file that ``parse`` rejects)."""
    try:
        text = read_private(path)
        if text is None:
            return None
        found = parse(text)
    except ValueError as error:  # not UTF-8, or not what it must hold
        raise ConfigError(Phrase.of(damaged, path=str(path), error=str(error))) from None
    except OSError as error:
        said = error.strerror or str(error)
        raise ConfigError(Phrase.of(FILE_UNREADABLE, path=str(path), error=said)) from None
    if found is None:
        raise ConfigError(Phrase.of(damaged, path=str(path), error=""))
    return found
