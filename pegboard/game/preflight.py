"""The game file and what SQLite's WAL mode leaves beside it, read before SQLite opens them.

SQLite opens whatever it finds and says nothing: it starts a 0-byte file empty (and
deletes the WAL beside it), reads a WAL only up to its first broken frame, and then
checkpoints and deletes the rest. :func:`inspect` reads the three files as bytes, so a
file that would lose acknowledged entries is refused before anything touches it:

- ``games.db`` missing while its ``-wal`` or ``-shm`` is there: the games were moved or lost;
- ``games.db`` of 0 bytes: pegboard creates the file whole, so it was cut short;
- ``games.db`` shorter than its page count, for pages the WAL does not hold;
- a WAL in which intact, committed frames follow a broken one. With
  ``synchronous=FULL`` every commit was on the disk before it was acknowledged, so a
  power cut can break only the transaction being written: frames past the break are
  allowed as that one transaction (no page twice, one commit at its end), never more;
- a WAL with a damaged header, or a header that does not match its frames, that holds
  pages the game file does not have (a header torn or rewritten while the WAL restarted
  is harmless: everything before it was checkpointed);
- a WAL shorter than its index (``-shm``) says, or missing or older while the index
  says it held frames not yet in the game file.

What cannot be told apart from a WAL that never had more: one cut at a frame boundary
(or within the last transaction's frames) with its index gone too.

The formats are SQLite's (https://www.sqlite.org/fileformat2.html, "The WAL file" and
"The WAL-Index Format"): WAL headers and frames are big-endian, their checksums in the
byte order the magic number says; the index is in the machine's own byte order.
"""

from __future__ import annotations

import struct
import sys
from dataclasses import dataclass, field
from functools import cache
from operator import mul
from pathlib import Path
from typing import BinaryIO

from pegboard.i18n import N_, Phrase

MAGIC = 0x377F0682  # | 1: checksums of big-endian words
VERSION = 3007000
WAL_HEADER, FRAME_HEADER, INDEX_HEADER = 32, 24, 136
SQLITE_HEADER = b"SQLite format 3\0"
MASK = 0xFFFFFFFF


@dataclass(frozen=True, slots=True)
class WalFrame:
    """One WAL frame: the page it holds, the database size in pages if it ends a
    transaction (0 if not), whether it carries the header's salts, and whether its
    checksum follows from the frame before it (as stored there)."""

    page: int
    commit: int
    ours: bool
    intact: bool
    offset: int  # of its page data in the WAL


@dataclass
class Wal:
    """A WAL as SQLite's recovery reads it: frames up to the last commit before the first
    broken frame count (``recovered`` of them); the rest is ignored."""

    page_size: int
    salts: bytes
    frames: list[WalFrame]
    recovered: int = 0  # frames SQLite will use
    pages: dict[int, int] = field(default_factory=dict)  # page -> offset of its newest copy
    size: int = 0  # the database's pages after the last recovered commit


@dataclass(frozen=True, slots=True)
class Index:
    """The WAL-index header (``-shm``): which WAL it describes and how far."""

    salts: bytes
    frames: int  # mxFrame: the last committed frame SQLite knew of
    backfilled: int  # nBackfill: frames already copied into the database


def checksum(data: bytes, seed: tuple[int, int], big_endian: bool) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes) from ``seed``.

    SQLite folds 32-bit words in pairs: ``s1 += a + s2; s2 += b + s1``. That step is
    linear, with the matrix [[1, 1], [1, 2]] whose powers are Fibonacci numbers, so the
    whole fold is two dot products with coefficients made once per length.

    >>> data, s1, s2 = bytes(range(200, 248)), 7, 9  # the fold, a pair at a time
    >>> for a, b in zip(*[iter(struct.unpack(">12I", data))] * 2):
    ...     s1 = (s1 + a + s2) & MASK
    ...     s2 = (s2 + b + s1) & MASK
    >>> checksum(data, (7, 9), big_endian=True) == (s1, s2)
    True
    """
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    first, second, (a, b, c) = _coefficients(len(words))
    s1, s2 = seed
    return (
        (a * s1 + b * s2 + sum(map(mul, first, words))) & MASK,
        (b * s1 + c * s2 + sum(map(mul, second, words))) & MASK,
    )


@cache
def _coefficients(words: int) -> tuple[list[int], list[int], tuple[int, int, int]]:
    pairs = words // 2
    fib = [0, 1]
    while len(fib) < 2 * pairs + 3:
        fib.append((fib[-1] + fib[-2]) & MASK)
    first, second = [], []
    for k in range(pairs):  # pair k is folded in j = pairs - 1 - k steps before the end
        j = pairs - 1 - k
        first += [fib[2 * j + 1], fib[2 * j]]
        second += [fib[2 * j + 2], fib[2 * j + 1]]
    return first, second, (fib[2 * pairs - 1], fib[2 * pairs], fib[2 * pairs + 1])


def read_wal(data: bytes) -> Wal | None:
    """The WAL in ``data``, or None if its header is not a valid one."""
    if len(data) < WAL_HEADER:
        return None
    magic, version, page_size = struct.unpack(">3I", data[:12])
    stored = struct.unpack(">2I", data[24:32])
    if magic & ~1 != MAGIC or version != VERSION or not _page_size_ok(page_size):
        return None
    big = bool(magic & 1)
    if checksum(data[:24], (0, 0), big) != stored:
        return None
    wal = Wal(page_size, data[16:24], _scan(data, page_size, big, data[16:24], stored))
    wal.recovered, wal.size, wal.pages = _committed(wal.frames)
    return wal


def _committed(frames: list[WalFrame]) -> tuple[int, int, dict[int, int]]:
    """As SQLite's recovery reads ``frames``: up to the last commit before the first broken
    frame. (How many frames, the database's pages then, page -> offset of its newest copy.)"""
    count, size, pages, pending = 0, 0, {}, {}
    for number, frame in enumerate(frames, start=1):
        if not frame.intact:
            break
        pending[frame.page] = frame.offset
        if frame.commit:
            count, size = number, frame.commit
            pages.update(pending)
            pending = {}
    return count, size, pages


def _scan(
    data: bytes, page_size: int, big: bool, salts: bytes, seed: tuple[int, int]
) -> list[WalFrame]:
    """The frames in a WAL's ``data``: ``ours`` if they carry ``salts``, ``intact`` if
    their checksum follows from the one before (``seed`` for the first)."""
    frames, before, step = [], seed, FRAME_HEADER + page_size
    for offset in range(WAL_HEADER, len(data) - step + 1, step):
        page, commit = struct.unpack(">2I", data[offset : offset + 8])
        own = struct.unpack(">2I", data[offset + 16 : offset + 24])
        body = offset + FRAME_HEADER
        summed = checksum(data[offset : offset + 8] + data[body : body + page_size], before, big)
        ours = data[offset + 8 : offset + 16] == salts and page > 0
        frames.append(WalFrame(page, commit, ours, ours and summed == own, body))
        before = own
    return frames


def read_index(data: bytes) -> Index | None:
    """The WAL-index header in ``data`` (a ``-shm`` file), or None if it is not a whole one."""
    if len(data) < INDEX_HEADER:
        return None
    first, second = data[:48], data[48:96]
    version, _, _, ready = struct.unpack("=3IB", first[:13])
    frames = struct.unpack("=I", first[16:20])[0]
    stored = struct.unpack("=2I", first[40:48])
    if first != second or version != VERSION or not ready:
        return None
    if checksum(first[:40], (0, 0), sys.byteorder == "big") != stored:
        return None
    return Index(first[32:40], frames, struct.unpack("=I", data[96:100])[0])


def _page_size_ok(size: int) -> bool:
    return 512 <= size <= 65536 and size & (size - 1) == 0


# --- the checks ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Problem:
    """Why the game file must not be opened, and what to do instead."""

    what: Phrase
    remedy: Phrase | None = None  # None: restore a copy, or move the files aside


def companions(path: Path) -> tuple[Path, Path]:
    """The WAL and the WAL-index SQLite keeps beside ``path``."""
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def inspect(path: Path) -> Problem | None:
    """A reason not to open the game file at ``path`` as it lies, or None; reads only."""
    wal_path, index_path = companions(path)
    index = read_index(_read(index_path, INDEX_HEADER) or b"")  # first: written after the WAL
    wal_data = _read(wal_path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:  # the companions must hold nothing (SQLite's own empty ones may)
        if (wal_data and len(wal_data) >= WAL_HEADER) or (index and index.frames):
            return Problem(Phrase(ORPHANED))
        return None
    if size == 0:
        return Problem(Phrase(EMPTY))
    wal = read_wal(wal_data) if wal_data else None
    with path.open("rb") as main:
        unread = wal is None or (wal.frames and not wal.frames[0].ours)
        if wal_data and len(wal_data) >= WAL_HEADER and unread:
            problem = _unread_frames(main, wal_data, wal)
            if problem or wal is None:
                return problem
        problem = _against_index(wal, wal_data, index, wal_path, index_path)
        return problem or _broken_frames(wal) or _cut_short(main, size, wal, wal_data)


def _against_index(
    wal: Wal | None, wal_data: bytes | None, index: Index | None, wal_path: Path, index_path: Path
) -> Problem | None:
    """The index (``-shm``) knows how far the WAL went: it is written after each commit is
    on the disk, so a WAL of the same generation must reach as far."""
    if index is None or not index.frames:
        return None
    if wal is None:
        if index.frames > index.backfilled and (wal_data is None or len(wal_data) < WAL_HEADER):
            remedy = Phrase.of(REPLACE_WAL, wal=str(wal_path), index=str(index_path))
            return Problem(Phrase(WAL_MISSING), remedy)
        return None
    ahead = (int.from_bytes(wal.salts[:4], "big") - int.from_bytes(index.salts[:4], "big")) & MASK
    if ahead >= 1 << 31 or (ahead == 0 and wal.salts != index.salts):
        return Problem(Phrase(WAL_OLDER))  # each restart adds one to salt-1
    if ahead == 0 and wal.recovered < index.frames:
        return Problem(Phrase.of(WAL_SHORT, have=wal.recovered, need=index.frames))
    return None


def _broken_frames(wal: Wal | None) -> Problem | None:
    """Past the first broken frame, at most the one transaction being written."""
    if wal is None:
        return None
    frames = wal.frames
    broken = next((i for i, frame in enumerate(frames) if not frame.intact), None)
    if broken is None:
        return None
    later = [i for i in range(broken + 1, len(frames)) if frames[i].intact and frames[i].commit]
    if later:
        written = [frame for frame in frames[wal.recovered : later[0] + 1] if frame.ours]
        pages = {frame.page for frame in written}
        if len(later) > 1 or any(f.commit for f in written[:-1]) or len(pages) < len(written):
            return Problem(Phrase.of(WAL_BROKEN, frame=broken + 1))
    return None


def _unread_frames(main: BinaryIO, wal_data: bytes, wal: Wal | None) -> Problem | None:
    """Frames SQLite will not read, of a WAL whose header is damaged (``wal`` None) or
    belongs to the next generation: harmless if the pages they hold are in the game file,
    as after a WAL restart cut short by a power cut (the restart waits until everything
    before it is checkpointed).  Only frames whose checksums hold are compared, and only
    of the generation the header's checksum seeds, or of the one just before the header's:
    older frames may hold pages the game file has since replaced."""
    header = _read_at(main, 0, 100)
    if not header.startswith(SQLITE_HEADER):
        return None  # SQLite will call the game file itself damaged
    page_size = _page_size(header)
    if wal is None:
        magic = struct.unpack(">I", wal_data[:4])[0]
        big = bool(magic & 1) if magic & ~1 == MAGIC else sys.byteorder == "big"
        salts, seed = wal_data[WAL_HEADER + 8 : WAL_HEADER + 16], wal_data[24:32]
    else:
        big, seed = bool(wal_data[3] & 1), wal_data[24:32]
        before = (int.from_bytes(wal.salts[:4], "big") - 1) & MASK  # salt-1 grows by one
        starts = [f.offset - 16 for f in wal.frames if _salt1(wal_data, f) == before]
        salts = wal_data[starts[0] : starts[0] + 8] if starts else b""
    frames = _scan(wal_data, page_size, big, salts, struct.unpack(">2I", seed))
    newest: dict[int, int] = {}
    pending: dict[int, int] = {}
    for frame in frames:
        if not frame.intact:
            pending = {}
            continue
        pending[frame.page] = frame.offset
        if frame.commit:
            newest.update(pending)
            pending = {}
    for page, body in newest.items():
        if _read_at(main, (page - 1) * page_size, page_size) != wal_data[body : body + page_size]:
            return Problem(Phrase(WAL_UNREAD))
    return None


def _salt1(data: bytes, frame: WalFrame) -> int:
    return int.from_bytes(data[frame.offset - 16 : frame.offset - 12], "big")


def _cut_short(
    main: BinaryIO, size: int, wal: Wal | None, wal_data: bytes | None
) -> Problem | None:
    """Every page of the database is in the game file or in the WAL's recovered frames."""
    pages = wal.pages if wal else {}
    if 1 in pages and wal_data is not None:
        header = wal_data[pages[1] : pages[1] + 100]
    else:
        header = _read_at(main, 0, 100)
    if not header.startswith(SQLITE_HEADER):
        return None  # SQLite will call it damaged or not a database
    page_size = _page_size(header)
    count, changes, valid_for = struct.unpack(">I", header[28:32])[0], header[24:28], header[92:96]
    need = wal.size if wal and wal.recovered else (count if changes == valid_for else 0)
    have = size // page_size
    if any(page not in pages for page in range(have + 1, need + 1)):
        return Problem(Phrase.of(CUT_SHORT, have=have, need=need))
    return None


def _page_size(header: bytes) -> int:
    size = struct.unpack(">H", header[16:18])[0]
    return 65536 if size == 1 else size


def _read_at(main: BinaryIO, offset: int, length: int) -> bytes:
    main.seek(offset)
    return main.read(length)


def _read(path: Path, limit: int = -1) -> bytes | None:
    try:
        with path.open("rb") as file:
            return file.read(limit)
    except FileNotFoundError:
        return None


ORPHANED = N_(
    "it is missing, but its WAL or its index is still there: its games were moved or lost"
)
EMPTY = N_("it is empty (0 bytes), yet pegboard never leaves a game file empty: it was cut short")
CUT_SHORT = N_("it is cut short: it holds {have} of its {need} pages")
WAL_BROKEN = N_(
    "its WAL is damaged at frame {frame}, and entries saved after that frame would be lost"
)
WAL_UNREAD = N_(
    "its WAL holds entries not yet in the game file that would not be read (the WAL's header "
    "is damaged or does not match them)"
)
WAL_SHORT = N_("its WAL holds {have} of the {need} frames its index says were saved")
WAL_MISSING = N_(
    "its WAL is missing, but its index says the WAL held entries not yet in the game file"
)
WAL_OLDER = N_("its WAL is older than its index: it was replaced")
REPLACE_WAL = N_(
    "put {wal} back; if it is lost, move {index} into another folder to go on with what the "
    "game file holds"
)
