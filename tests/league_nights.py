"""Club nights made up for the league's tests and benchmark, in the shape a real night
has: the format, the players (most with ACC numbers), tables, each round drawn by the
club's own seating (the round robin), every game counted with a log head, a special
hand now and then, a correction by the director now and then; each event made by the
club's own commands, as the director's program makes them."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any

from pegboard.club import night as nights
from pegboard.club import seating
from pegboard.club.night import BOARD, HOSTED, Event, GameCounted, Night
from pegboard.club.nightfile import Logged, body_of, sign
from pegboard.club.store import ClubStore
from pegboard.identity import Identity

DIRECTOR = "Dana"


def night_events(
    rng: random.Random,
    names: list[tuple[str, str]],
    rounds: int = 9,
    corrections: int = 1,
    date: str = "2026-12-03",
) -> list[Logged]:
    """A whole night of ``names`` ((name, ACC number)), ``rounds`` rounds."""
    night, logged = Night(), []

    def made(event: Event | None, by: str = "club") -> None:
        assert event is not None
        night.apply(event)
        at = f"{date} {19 + len(logged) // 400:02d}:{len(logged) // 7 % 60:02d}:00"
        logged.append((event, by, at))

    made(nights.set_format(night, {"games": rounds, "grass_roots": [5, 3, 2, 1]}), DIRECTOR)
    for name, acc in names:
        made(nights.add_player(night, name, acc, "code"), DIRECTOR)
    for table in range((len(names) + 1) // 2):
        made(nights.add_table(night, BOARD if table % 3 else HOSTED, f"http://10.0.0.{table}"))
    for number in range(rounds):
        pairs, bye, order = seating.draw(
            sorted(night.players), night.met(), night.byes(), rng, night.order, number
        )
        made(nights.draw(night, pairs, bye, order), DIRECTOR)
        for seat in night.seats():
            winner, loser = rng.sample(seat.players, 2)
            margin = rng.choice((1, 3, 7, 12, 18, 25, 31, 40, 55))
            hands = ((winner, 29, "5♥ 5♣ 5♠ J♦ 5♦"),) if rng.random() < 0.01 else ()
            head = hashlib.sha256(f"{date} {seat}".encode()).hexdigest()
            made(
                nights.count(
                    night,
                    GameCounted(
                        seat.round, seat.table, number + 1, winner, loser, margin,
                        margin > 30, (121, 121 - margin), hands, head,
                    ),
                )
            )  # fmt: skip
    for _ in range(corrections):
        seat = rng.choice(night.seats(rng.randint(1, rounds)))
        made(
            nights.correct(
                night, seat.round, seat.table, seat.players[0], 9, "scorecard", DIRECTOR
            ),
            DIRECTOR,
        )
    return logged


def players(rng: random.Random, count: int, club: int = 0) -> list[tuple[str, str]]:
    """``count`` players: most with ACC numbers (those of ``club``'s own range)."""
    return [
        (f"Player {club}-{n}", f"{club * 1000 + n}" if n % 5 else "") for n in range(1, count + 1)
    ]


def night_file(
    director: Identity, logged: list[Logged], club: str, night: str, date: str = "2026-12-03"
) -> dict[str, Any]:
    """The signed night file of ``logged``, as ``pegboard club export`` writes it."""
    body = body_of(
        logged, [None] * len(logged), night=night, revision=len(logged), club=club, date=date
    )
    return sign(body, director)


def club_folder(folder: Path, logged: list[Logged]) -> ClubStore:
    """A club's folder whose file holds the night ``logged`` (the club's own store)."""
    folder.mkdir(parents=True, exist_ok=True)
    store = ClubStore(folder / "club.db")
    number = store.night()
    for seq, (event, by, _) in enumerate(logged, start=1):
        assert store.append(number, seq, event, by)
    return store
