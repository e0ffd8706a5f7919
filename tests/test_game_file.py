"""What a crash can leave of the game file, its WAL and its index (-shm), with real files:
start-up opens what holds every acknowledged entry, and refuses, with one line that says
what to do, what would lose one, leaving every file as it was.

The files of a crash are copied from a game file still open in this process: a killed
process leaves the OS's cache, so that is what a restart finds.  A power cut loses the
index too (`lose_index`), and tears the transaction being written.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from game_bot import Bot

from pegboard.errors import StoreError
from pegboard.game import Table

PAGE = 4096  # SQLite's default page size
FRAME = 24 + PAGE


def frame_at(number: int) -> int:
    """The offset of WAL frame ``number`` (from 1) after the 32-byte WAL header."""
    return 32 + (number - 1) * FRAME


class Game:
    """A game file being played in ``folder/live``; :meth:`crash` copies its files."""

    def __init__(self, folder: Path, seed: int = 1) -> None:
        self.folder, self.live = folder, folder / "live" / "games.db"
        self.live.parent.mkdir()
        self.table = Table(self.live)
        self.bot = Bot(self.table, random.Random(seed), undo=0)
        self.states = []  # the state after each acknowledged entry

    def play(self, entries: int) -> None:
        for _ in range(entries):
            self.states.append(self.bot.step())

    def checkpoint(self, mode: str = "PASSIVE") -> None:
        """Copy the WAL into the game file, as SQLite does every 1000 pages."""
        with closing(sqlite3.connect(self.live)) as db:
            db.execute(f"PRAGMA wal_checkpoint({mode})")

    def crash(self, name: str) -> Path:
        """The game file, its WAL and its index as a killed process leaves them."""
        found = self.folder / name
        found.mkdir()
        for file in self.live.parent.iterdir():
            shutil.copyfile(file, found / file.name)
        return found / "games.db"

    def close(self) -> None:
        self.table.close()


@pytest.fixture
def game(tmp_path):
    game = Game(tmp_path)
    game.play(40)
    yield game
    game.close()


def wal(path: Path) -> Path:
    return path.with_name("games.db-wal")


def index(path: Path) -> Path:
    return path.with_name("games.db-shm")


def frames(path: Path) -> int:
    return (wal(path).stat().st_size - 32) // FRAME


def damage(file: Path, offset: int, length: int = 64) -> None:
    data = bytearray(file.read_bytes())
    data[offset : offset + length] = bytes(b ^ 0xA5 for b in data[offset : offset + length])
    file.write_bytes(bytes(data))


def folder_as_is(path: Path) -> dict[str, bytes]:
    return {file.name: file.read_bytes() for file in sorted(path.parent.iterdir())}


def opens_with(path: Path, state) -> None:
    """Start-up opens the files and finds ``state`` (every acknowledged entry)."""
    with Table(path) as table:
        assert table.version == state.version and table.state == state


def refused(path: Path, match: str) -> str:
    """Start-up refuses the files in one line that says what to do, changing none of them."""
    before = folder_as_is(path)
    with pytest.raises(StoreError, match=match) as refusal:
        Table(path)
    assert folder_as_is(path) == before
    message = str(refusal.value)
    assert message.startswith(f"the game file {path} cannot be used: ") and "\n" not in message
    assert "Nothing was changed: " in message
    return message


# --- what a crash leaves, and opens ---------------------------------------------------------


@pytest.mark.parametrize("index_kept", [True, False])
def test_a_crash_leaves_files_that_open_with_every_entry(game, index_kept):
    path = game.crash("found")
    assert frames(path) >= 40 and path.stat().st_size < 8 * PAGE  # the pages are in the WAL
    if not index_kept:
        index(path).unlink()
    opens_with(path, game.states[-1])


def test_the_entry_being_written_at_a_power_cut_is_dropped_and_the_rest_open(game):
    before = game.crash("before")  # 40 entries acknowledged
    game.play(1)  # the 41st: its frames are torn, as a power cut leaves them
    path = game.crash("found")
    first = frames(before) + 1
    damage(wal(path), frame_at(first) + 24 + 1000)
    index(path).unlink()
    opens_with(path, game.states[-2])


@pytest.mark.parametrize("cut", [1, FRAME // 2, FRAME - 1])
def test_a_wal_cut_within_the_entry_being_written_opens_with_the_rest(game, cut):
    before = game.crash("before")
    game.play(1)
    path = game.crash("found")
    data = wal(path).read_bytes()
    wal(path).write_bytes(data[: frame_at(frames(before) + 1) + cut])
    shutil.copyfile(index(before), index(path))  # the index as written before that entry
    opens_with(path, game.states[-2])


def test_a_wal_header_torn_by_a_restart_after_a_checkpoint_opens(game):
    game.checkpoint()  # every frame is in the game file: the next write restarts the WAL
    path = game.crash("found")
    damage(wal(path), 0, 32)
    index(path).unlink()
    opens_with(path, game.states[-1])


def test_a_wal_restarted_over_older_frames_opens(game):
    game.checkpoint("RESTART")
    game.play(5)  # written from the WAL's start, over the older frames
    path = game.crash("found")
    opens_with(path, game.states[-1])


def test_a_restart_torn_over_the_older_frames_opens(game):
    """The power went while the WAL restarted over frames already checkpointed: the first
    frame's header sector kept the old frame's, its page sectors the new page's."""
    game.checkpoint()
    before = game.crash("before")  # every frame in the game file
    game.play(1)  # written from the WAL's start, in a new generation
    path = game.crash("found")
    data = bytearray(wal(path).read_bytes())
    data[32:512] = wal(before).read_bytes()[32:512]  # that sector never reached the disk
    wal(path).write_bytes(bytes(data))
    index(path).unlink()
    opens_with(path, game.states[-2])


def test_frames_left_from_older_restarts_do_not_count(game):
    """Each restart writes from the WAL's start, so frames of many generations back stay
    behind the new ones, with pages the game file has long replaced."""
    for _ in range(3):
        game.checkpoint("RESTART")
        game.play(1)  # one short transaction each: the first frames only
    game.checkpoint()
    game.play(1)  # a new generation, cut while its first frame was being written
    path = game.crash("found")
    data = bytearray(wal(path).read_bytes())
    data[32 : 32 + FRAME] = random.Random(5).randbytes(FRAME)
    wal(path).write_bytes(bytes(data))
    index(path).unlink()
    opens_with(path, game.states[-2])


def test_companions_left_empty_by_a_refused_look_do_not_stop_a_new_file(tmp_path):
    path = tmp_path / "games.db"
    wal(path).touch()
    with Table(path) as table:
        assert table.games() == []


# --- what would lose entries, and is refused -------------------------------------------------


def test_a_wal_damaged_in_the_middle_is_refused(game):
    path = game.crash("found")
    middle = frames(path) // 2
    damage(wal(path), frame_at(middle) + 24 + 100)
    message = refused(path, "its WAL holds ")
    assert f"of the {frames(path)} frames its index says were saved" in message
    index(path).unlink()  # a power cut loses the index: the frames tell
    message = refused(path, f"its WAL is damaged at frame {middle}, and entries saved after")
    assert message.endswith(
        f"move {path}, {wal(path)} into another folder to start a new game file (keep the "
        "files you move)."
    )


def test_a_wal_cut_short_of_what_its_index_says_is_refused(game):
    path = game.crash("found")
    data = wal(path).read_bytes()
    wal(path).write_bytes(data[: frame_at(frames(path) // 2)])
    refused(path, "its WAL holds [0-9]+ of the [0-9]+ frames its index says were saved")


def test_a_wal_header_damaged_before_its_frames_were_checkpointed_is_refused(game):
    path = game.crash("found")
    damage(wal(path), 0, 8)
    index(path).unlink()
    refused(path, "its WAL holds entries not yet in the game file that would not be read")


def two_generations(game) -> tuple[Path, Path]:
    """The files of a crash, and of a later one after the WAL restarted."""
    early = game.crash("early")
    game.checkpoint("RESTART")
    game.play(3)
    return early, game.crash("later")


def test_a_wal_whose_header_does_not_match_its_frames_is_refused(game):
    early, later = two_generations(game)
    data = bytearray(wal(early).read_bytes())
    data[:32] = wal(later).read_bytes()[:32]  # a whole header, of the next WAL generation
    wal(early).write_bytes(bytes(data))
    index(early).unlink()
    refused(early, "holds entries not yet in the game file that would not be read")


def test_a_wal_older_than_its_index_is_refused(game):
    early, later = two_generations(game)
    shutil.copyfile(wal(early), wal(later))
    refused(later, "its WAL is older than its index: it was replaced")


def test_a_missing_wal_its_index_knew_is_refused_and_the_remedy_works(game):
    path = game.crash("found")
    wal(path).unlink()
    message = refused(path, "its WAL is missing, but its index says the WAL held entries")
    assert message.endswith(
        f"put {wal(path)} back; if it is lost, move {index(path)} into another folder to go "
        "on with what the game file holds."
    )
    index(path).unlink()  # as the message says: the game file alone opens, as it is
    with Table(path) as table:
        assert table.games() == []  # every entry of this game was in the WAL


def test_a_game_file_shorter_than_its_pages_is_refused(game):
    game.checkpoint("TRUNCATE")  # everything in the game file, the WAL emptied
    path = game.crash("found")
    pages = path.stat().st_size // PAGE
    with open(path, "r+b") as main:
        main.truncate((pages - 1) * PAGE)
    refused(path, f"it is cut short: it holds {pages - 1} of its {pages} pages")


def test_an_empty_game_file_beside_its_wal_is_refused_and_the_wal_kept(game):
    path = game.crash("found")
    path.write_bytes(b"")  # SQLite would delete the WAL and start empty
    refused(path, "it is empty [(]0 bytes[)], yet pegboard never leaves a game file empty")


def test_a_wal_and_index_without_their_game_file_are_refused(game):
    path = game.crash("found")
    path.unlink()
    message = refused(path, "it is missing, but its WAL or its index is still there: its games")
    assert f"move {wal(path)}, {index(path)} into another folder" in message
    assert not path.exists()
