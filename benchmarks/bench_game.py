"""The game log: how long one entry takes (check, fold, one SQLite transaction with
``synchronous=FULL``), how fast a stored game replays, and what checking every stored
event again on load (as a live entry is checked) costs on a 2,000-entry game.

Run: ``python -m benchmarks game``.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.timing import percentiles, race
from pegboard.game import Phase, Settings, Store, Table, replay
from pegboard.rules.cards import DECK

SEED = 2026
LONG = 2_000  # entries in the long game


def play_deals(table: Table, rng: random.Random, deals: int) -> list[float]:
    """Play ``deals`` deals card by card (hands counted as 0); return each entry's seconds."""
    times = []

    def timed(entry, *args) -> None:
        start = time.perf_counter()
        entry(*args)
        times.append(time.perf_counter() - start)

    for _ in range(deals):
        if table.state.over:
            table.new_game(table.state.settings)
        deck = rng.sample(DECK, 52)
        timed(table.turn_starter, deck.pop())
        while (state := table.state).phase is Phase.PLAY:
            fits = [c for c in deck if c.value + state.play.count <= 31]
            if fits:
                deck.remove(fits[0])
            timed(table.lay, fits[0]) if fits else timed(table.go)
        while table.state.due is not None:
            timed(table.claim, table.state.due.seat, 0)
        if not table.state.over:
            timed(table.advance)
    return times


def main() -> None:
    rng = random.Random(SEED)
    folder = tempfile.TemporaryDirectory(dir=Path.cwd())  # on disk, not in memory
    with folder, Table(Path(folder.name) / "games.db") as table:
        table.new_game(Settings(players=("Ann", "Bob", "Cat", "Dan")))
        times = play_deals(table, rng, 40)
        median, p99 = statistics.median(times), percentiles(times, 99)[0]
        print(
            f"entry (check + fold + commit, on disk): median {median * 1e3:.2f} ms, "
            f"p99 {p99 * 1e3:.2f} ms over {len(times)} entries"
        )
        first = table.games()[0].id
        events, state = table.events(first), table.state_of(first)

        def open_file() -> object:
            with Table(table.path) as again:
                return again.load(first)

        medians = race({"replay": lambda: replay(events), "open + replay": open_file}, rounds=7)
        assert replay(events) == state
        fold = medians["replay"] / len(events)
        print(
            f"replay of a {len(events)}-event game: {medians['replay'] * 1e3:.1f} ms "
            f"({1 / fold:,.0f} events/s); open the file and replay: "
            f"{medians['open + replay'] * 1e3:.1f} ms"
        )
        print(
            f"ratio: one entry = {median / fold:,.0f}x the fold of one event "
            "(the commit's fsync is the price of never losing a point)"
        )
        load_long_game(Path(folder.name) / "long.db", rng)


def load_long_game(path: Path, rng: random.Random) -> None:
    """Open a 2,000-entry game: every event checked again by the rules, against the fold
    that trusts them."""
    with Table(path) as table:
        table.new_game(Settings(players=("Ann", "Bob", "Cat", "Dan"), target=LONG))
        while table.version < LONG:  # a game to 2,000 points lasts
            play_deals(table, rng, 1)
        game, versions = table.game_id, table.version

    def trusting() -> object:
        with Store(path) as store:
            return replay(store.events(game))

    def checked() -> object:
        with Table(path) as again:
            return again.state

    assert trusting() == checked()
    medians = race({"read + fold": trusting, "read + check + fold": checked}, rounds=7)
    plain, full = medians["read + fold"], medians["read + check + fold"]
    print(
        f"open a {versions}-event game: read + fold {plain * 1e3:.0f} ms; "
        f"read + check every event + fold (what Table does) {full * 1e3:.0f} ms "
        f"({full / plain:.2f}x)"
    )


if __name__ == "__main__":
    main()
