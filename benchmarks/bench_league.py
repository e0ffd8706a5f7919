"""A league's season at the ACC's Grass Roots size, on a PostgreSQL cluster of its own:
``--clubs`` clubs (200 in the ACC's program) × ``--nights`` nights (36) × ``--players``
players (40), each night a whole club night (9 rounds, every game counted with its log
head, a correction now and then) made by the club's own commands and signed by its
director's key, in the shape `pegboard club export` writes (tests/league_nights.py); a
few players of each club also play at the next club (the same ACC number).

The files are made by two other processes while this one imports them, one at a time, as
the league does (each checked: signature, replayed through the club's rules, standings
recomputed; then stored in one transaction). Measured: each import (p50, p99, max), the
same night sent again, then the whole season's standings worked out again (every player
across the clubs, and each club's own ranking), and the database's size.

Run: ``python -m benchmarks league`` (the whole season: 8 minutes on this 2-core machine at a
load of 11, 15 at a load of 16); ``--clubs 100`` for half of it, ``--clubs 20`` for a short
look.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

if not __package__:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.timing import percentiles
from pegboard.club.nightfile import canonical
from pegboard.identity import Identity
from pegboard.league import season
from pegboard.league.cluster import Cluster, free_port
from pegboard.league.store import LeagueStore, Points
from tests.league_nights import night_events, night_file, players

SHARED = 4  # players of each club who also play at the next one


def keys(clubs: int) -> list[Identity]:
    """Each club's director's key (the same for a club every run: its number's seed)."""
    return [Identity.from_hex(f"{club + 1:064x}") for club in range(clubs)]


def made(job: tuple[int, int, int, int]) -> bytes:
    """The signed file of club ``club``'s night ``night``."""
    club, night, size, rounds = job
    rng = random.Random(club * 1000 + night)
    names = players(rng, size, club)
    names[:SHARED] = players(rng, size, club - 1)[-SHARED:] if club else names[:SHARED]
    date = f"2026-{9 + night // 5 % 4:02d}-{1 + night % 28:02d}"
    logged = night_events(rng, names, rounds=rounds, corrections=rng.randint(0, 2), date=date)
    key = keys(club + 1)[club]
    return canonical(night_file(key, logged, f"Club {club}", f"{club}-{night}", date))


def files(clubs: int, nights: int, size: int, rounds: int) -> Iterator[bytes]:
    jobs = [(club, night, size, rounds) for night in range(nights) for club in range(clubs)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        yield from pool.imap(made, jobs, chunksize=8)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks league")
    parser.add_argument("--clubs", type=int, default=200)
    parser.add_argument("--nights", type=int, default=36)
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    print(f"machine load (1 min) at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    folder = Path(tempfile.mkdtemp(prefix="pegboard-league-"))
    cluster = Cluster(folder, free_port())
    try:
        store = LeagueStore(cluster.start())
        for club, key in enumerate(keys(args.clubs)):
            store.add_club(f"Club {club}", key.public.hex())
        store.set_points(Points((10, 8, 6, 5, 4, 3, 2, 1), least=12))
        took, sizes, last = [], [], b""
        began = time.perf_counter()
        for count, raw in enumerate(files(args.clubs, args.nights, args.players, args.rounds)):
            start = time.perf_counter()
            assert store.import_night(raw).stored
            took.append(time.perf_counter() - start)
            sizes.append(len(raw))
            last = raw
            if count % 500 == 499:
                print(f"  {count + 1} nights imported", flush=True)
        whole = time.perf_counter() - began
        again = []
        for _ in range(20):
            start = time.perf_counter()
            assert not store.import_night(last).stored
            again.append(time.perf_counter() - start)
        start = time.perf_counter()
        rows = season.standings(store)
        every = time.perf_counter() - start
        start = time.perf_counter()
        rankings = season.every_club(store)
        clubs = time.perf_counter() - start
        p50, p99, top = percentiles(took, 50, 99, 100)
        print(f"nights imported: {len(took)} ({args.clubs} clubs × {args.nights} nights × "
              f"{args.players} players, {args.rounds} rounds) in {whole:.0f} s")  # fmt: skip
        print(f"night file: {sum(sizes) / len(sizes) / 1024:.0f} KB on average")
        print(f"import a night: p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
              f"max {top * 1000:.0f} ms")  # fmt: skip
        print(f"the same night again: p50 {percentiles(again, 50)[0] * 1000:.0f} ms")
        print(f"season standings, every player ({len(rows)}): {every:.2f} s")
        print(f"each club's own ranking ({len(rankings)} clubs): {clubs:.2f} s")
        print(f"the whole season recomputed: {every + clubs:.2f} s")
        print(f"database size: {store.size() / 1024 / 1024:.0f} MB")
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
