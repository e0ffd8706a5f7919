"""A power cut for SQLite, as SQLite's own crash tests make one (its test6.c): a VFS that
keeps every write in an OS cache until it is synced, and at a chosen moment drops the
machine: of the writes not yet synced, each 512-byte sector is written, lost, or torn
(garbage where it was being written), and nothing more reaches the disk.

:class:`PowerCutVFS` runs over the real files (apsw's VFS, inheriting the default one for
locks and the WAL-index): they hold what the disk held at the last cut, each file is read
whole when first opened and written back whole at the cut, so the next open - by the
stdlib's ``sqlite3``, as the board opens it - finds exactly what the cut left.
:func:`connect` gives the Store connections through it, in the shape of the stdlib's.
"""

from __future__ import annotations

import random
import sqlite3
from collections import Counter
from contextlib import suppress
from pathlib import Path

import apsw

SECTOR = 512


class Disk:
    """One file: what reads see (the OS cache) and what a cut keeps (the disk)."""

    def __init__(self, data: bytes) -> None:
        self.disk, self.cache = bytearray(data), bytearray(data)
        self.unsynced: list[tuple[int, bytes] | int] = []  # writes, or a truncation's size

    def write(self, data: bytes, offset: int) -> None:
        _put(self.cache, offset, data)
        self.unsynced.append((offset, bytes(data)))

    def truncate(self, size: int) -> None:
        del self.cache[size:]
        self.unsynced.append(size)

    def sync(self) -> None:
        self.disk[:] = self.cache
        self.unsynced.clear()

    def cut(self, rng: random.Random, figures: Counter) -> None:
        """Each unsynced sector of each write reaches the disk whole, not at all, or torn."""
        for op in self.unsynced:
            if isinstance(op, int):
                if rng.random() < 0.5:
                    del self.disk[op:]
                continue
            offset, data = op
            start = offset
            while start < offset + len(data):
                end = min(offset + len(data), (start // SECTOR + 1) * SECTOR)
                piece = data[start - offset : end - offset]
                fate = rng.choice(("written", "lost", "torn"))
                figures[f"sectors {fate}"] += 1
                if fate == "written":
                    _put(self.disk, start, piece)
                elif fate == "torn":
                    _put(self.disk, start, rng.randbytes(len(piece)))
                start = end
        self.unsynced.clear()


def _put(buffer: bytearray, offset: int, data: bytes) -> None:
    if offset > len(buffer):
        buffer.extend(bytes(offset - len(buffer)))
    buffer[offset : offset + len(data)] = data


class PowerCutVFS(apsw.VFS):
    """Cuts the power at the ``at``-th write, sync or truncation (counting from 1)."""

    def __init__(self, name: str, rng: random.Random, at: int) -> None:
        self.name, self.rng, self.at = name, rng, at
        self.disks: dict[str, Disk] = {}
        self.ops = 0
        self.dead = False
        self.figures: Counter = Counter()
        super().__init__(name, "")

    def xOpen(self, name, flags):
        return CachedFile(self, name, flags)

    def xDelete(self, name: str, syncdir: bool) -> None:
        self.alive()
        self.disks.pop(name, None)
        super().xDelete(name, syncdir)

    def disk(self, path: str | None) -> Disk:
        if path is None:  # a temporary file: never on the disk
            return Disk(b"")
        if path not in self.disks:
            file = Path(path)
            self.disks[path] = Disk(file.read_bytes() if file.exists() else b"")
        return self.disks[path]

    def alive(self) -> None:
        if self.dead:
            raise apsw.IOError("the power is off")

    def tick(self, what: str) -> None:
        """One more write, sync or truncation: the cut may come now."""
        self.alive()
        self.ops += 1
        self.figures[what] += 1
        if self.ops >= self.at:
            self.cut()
            raise apsw.IOError("power cut")

    def cut(self) -> None:
        """Drop the power: what the disk holds is what the files hold from now on."""
        self.dead = True
        self.figures["cuts"] += 1
        for path, disk in self.disks.items():
            disk.cut(self.rng, self.figures)
            Path(path).write_bytes(bytes(disk.disk))

    def connect(self, path: Path, readonly: bool) -> Connection:
        """A connection through this VFS, as the Store's ``connect`` makes one."""
        return connect(self.name, path, readonly)


class CachedFile(apsw.VFSFile):
    """A file of a :class:`PowerCutVFS`: its data in a :class:`Disk`, its locks real."""

    def __init__(self, vfs: PowerCutVFS, name, flags) -> None:
        super().__init__("", name, flags)
        self.vfs = vfs
        self.data = vfs.disk(name.filename() if isinstance(name, apsw.URIFilename) else name)

    def xRead(self, amount: int, offset: int) -> bytes:
        self.vfs.alive()
        return bytes(self.data.cache[offset : offset + amount])

    def xWrite(self, data: bytes, offset: int) -> None:
        self.vfs.tick("writes")
        self.data.write(data, offset)

    def xTruncate(self, size: int) -> None:
        self.vfs.tick("truncations")
        self.data.truncate(size)

    def xSync(self, flags: int) -> None:
        self.vfs.tick("syncs")
        self.data.sync()

    def xFileSize(self) -> int:
        self.vfs.alive()
        return len(self.data.cache)


def connect(vfs: str, path: Path, readonly: bool) -> Connection:
    """A connection to ``path`` through the VFS named ``vfs``, as the Store's ``connect``
    makes one."""
    flags = apsw.SQLITE_OPEN_READONLY
    if not readonly:
        flags = apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
    try:
        db = apsw.Connection(str(path), flags=flags, vfs=vfs)
    except apsw.Error as error:
        raise sqlite3.OperationalError(str(error)) from None
    return Connection(db)


class Connection:
    """An apsw connection in the stdlib's shape, as far as the Store uses it."""

    def __init__(self, db: apsw.Connection) -> None:
        self.db = db

    def execute(self, sql: str, args: tuple = ()) -> Rows:
        try:
            return Rows(self.db.execute(sql, args).fetchall())
        except apsw.ConstraintError as error:
            raise sqlite3.IntegrityError(str(error)) from None
        except apsw.Error as error:
            raise sqlite3.OperationalError(str(error)) from None

    @property
    def in_transaction(self) -> bool:
        return self.db.in_transaction

    def close(self) -> None:
        # SQLite's close does not report failures (a read-only connection's try for the
        # exclusive lock that would let it checkpoint, or the power being off); apsw does.
        with suppress(apsw.Error):
            self.db.close(True)


class Rows(list):
    def fetchone(self):
        return self[0] if self else None

    def fetchall(self):
        return list(self)
