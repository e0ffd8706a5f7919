"""Three club nights in a row, with hosted tables (which number their games from 1 each
night) and LED boards (paired once, by PIN, on the first night): every game of every
night is counted under its night, and the next round is drawn each time; a result that
conflicts with one stored is refused where the director sees it, never swallowed."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pegboard.club import night as nights
from pegboard.club.director import STREAM
from pegboard.club.store import ClubStore
from pegboard.errors import StoreError
from tests.club_players import BOARD_PIN
from tests.trust_boards import LedBoard, director_of, follow, play_out

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
pytestmark = pytest.mark.slow


def test_three_nights_of_hosted_tables_and_boards_are_all_counted(tmp_path: Path) -> None:
    boards = [LedBoard(tmp_path / f"board{n}") for n in (1, 2)]
    director = director_of(tmp_path / "club", STREAM)  # as a club follows its boards
    rng = random.Random(31)
    try:
        for night in (1, 2, 3):
            if night > 1:
                director.new_night("Dana")
            assert director.night_id == night
            director.set_format({"games": 2, "target": 31}, "Dana")
            for name in NAMES:
                director.add_player(name, "", "Dana")
            hosted = [director.add_hosted("Dana") for _ in range(2)]
            pin = BOARD_PIN if night == 1 else None  # paired once: known from then on
            paired = [director.pair(board.address, pin, "Dana") for board in boards]
            doors = {table: director.links[table].keeper for table in hosted}
            doors.update({t: b.keeper for t, b in zip(paired, boards, strict=True)})
            for round in (1, 2):
                director.draw("Dana")
                seats = director.night.seats()
                follow(
                    director,
                    lambda r=round, seats=seats: all(
                        (r, s.table) in director.night.started for s in seats
                    ),
                    f"night {night} round {round}'s games to start",
                )
                for seat in seats:
                    play_out(doors[seat.table], director.night.started[seat.round, seat.table], rng)
                follow(
                    director,
                    lambda: not director.night.open_seats(),
                    f"night {night} round {round}'s results ({director.refused}, {director.seen})",
                )
                assert not director.refused
            counted = director.night.counted
            assert len(director.night.results) == 8 == len(counted), f"night {night}"
            hosted_games = sorted(game for table, game in counted if table in hosted)
            assert hosted_games == [1, 1, 2, 2]  # each night's hosted games number from 1
        store = director.store
        assert [len(fold_counted(store, n)) for n in (1, 2, 3)] == [8, 8, 8]
    finally:
        director.close()
        for board in boards:
            board.close()


def fold_counted(store: ClubStore, night: int) -> list[nights.GameCounted]:
    return [e for e, _, _ in store.events(night) if isinstance(e, nights.GameCounted)]


def test_a_result_stored_again_is_done_and_another_for_the_same_game_is_refused(
    tmp_path: Path,
) -> None:
    store = ClubStore(tmp_path / "club.db")
    result = nights.GameCounted(1, 1, 1, 1, 2, 12, False, (31, 19))
    assert store.append(1, 1, result, "club") is True
    assert store.append(1, 2, result, "club") is False  # the same result again: done
    other = nights.GameCounted(1, 1, 1, 2, 1, 5, False, (31, 26))
    with pytest.raises(StoreError, match="table 1's game 1 has another result"):
        store.append(1, 2, other, "club")
    assert store.append(2, 1, result, "club") is True  # the next night's game 1: its own
    with pytest.raises(StoreError, match="cannot be used"):  # another conflict: said too
        store.append(2, 1, nights.FormatSet({}), "Dana")
    store.close()
