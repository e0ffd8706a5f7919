"""Tallies of stored games: wins and skunks, what hands, cribs and the play bring in,
counts missed and Muggins called, the match history, and the score race of any game.
Pure functions of game states; nothing here prints (:mod:`.report` writes the tables).

A stored game (one id in the game file) is a match of one or more games; each game is
summed up from its state at its end (:func:`games_of`).

>>> import tempfile, pathlib
>>> from pegboard.game import Settings, Table
>>> table = Table(pathlib.Path(tempfile.mkdtemp()) / "games.db")
>>> _ = table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
>>> _ = table.turn_starter("5D"), table.advance(), table.claim("Bob", 8), table.claim("Ann", 12)
>>> state = table.claim("Ann", 6)             # her crib
>>> ann = tally(state)["Ann"]
>>> ann.hand_average, ann.crib_average, ann.pegged, score_race(state)
(12.0, 6.0, 18, [(0, 1, 8), (1, 0, 12), (2, 0, 18)])
>>> table.close()
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, fields
from typing import Any

from pegboard.game import Claim, GameRecord, Pegged, Phase, Settings, State, Table

KINDS = tuple(Pegged)  # what history lines peg for


@dataclass(frozen=True, slots=True)
class Skunks:
    """Games won or lost by a skunk, a double skunk and a triple skunk.

    >>> Skunks.at(2) + Skunks.at(1) + Skunks.at(0)
    Skunks(skunk=1, double=1, triple=0)
    """

    skunk: int = 0
    double: int = 0
    triple: int = 0

    @classmethod
    def at(cls, level: int) -> Skunks:
        """One game at skunk ``level`` (0 none .. 3 triple)."""
        return cls(*(int(level == n) for n in range(1, len(fields(cls)) + 1)))

    def __add__(self, other: Skunks) -> Skunks:
        return Skunks(*(a + b for a, b in zip(self.counts, other.counts, strict=True)))

    @property
    def counts(self) -> tuple[int, ...]:
        """By level, a skunk first."""
        return tuple(getattr(self, f.name) for f in fields(self))


@dataclass(frozen=True, slots=True)
class Tally:
    """What one player did in some games.  ``<kind>_points`` are the points the player
    pegged for each kind of entry (a partnership's penalty points count for both
    partners); ``hands`` and ``cribs`` are the counts they made, zero counts included."""

    games: int = 0  # finished games played
    wins: int = 0
    losses: int = 0
    skunks_given: Skunks = Skunks()  # games won by a skunk
    skunks_taken: Skunks = Skunks()
    deals: int = 0  # deals begun (the starter turned)
    hands: int = 0
    cribs: int = 0
    play_points: int = 0
    hand_points: int = 0
    crib_points: int = 0
    heels_points: int = 0
    last_points: int = 0  # three for last
    muggins_points: int = 0  # by true calls, and from the opponents' false calls
    penalty_points: int = 0  # from the opponents' over-counts (when they are penalised)
    missed: int = 0  # own counts pegged short
    missed_points: int = 0
    over: int = 0  # own counts pegged long
    over_points: int = 0
    muggins_calls: int = 0
    muggins_won: int = 0  # points pegged by true calls
    false_muggins: int = 0
    false_muggins_points: int = 0  # given to the mugged side

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def pegged(self) -> int:
        """All the points pegged."""
        return sum(getattr(self, f"{kind}_points") for kind in KINDS)

    @property
    def hand_average(self) -> float | None:
        """Points pegged per hand counted."""
        return _average(self.hand_points, self.hands)

    @property
    def crib_average(self) -> float | None:
        """Points pegged per crib counted."""
        return _average(self.crib_points, self.cribs)

    @property
    def play_average(self) -> float | None:
        """Points pegged in the play per deal."""
        return _average(self.play_points, self.deals)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: every count, the skunks by name, the averages and the total."""
        return {
            **asdict(self),
            "pegged": self.pegged,
            "hand_average": self.hand_average,
            "crib_average": self.crib_average,
            "play_average": self.play_average,
        }


def _average(points: int, times: int) -> float | None:
    return points / times if times else None


# --- one game ----------------------------------------------------------------------------


def games_of(state: State) -> list[State]:
    """The state at the end of each game of ``state``'s match (the last one as it
    stands), first game first.  Undone entries are left out."""
    ends: dict[int, State] = {}
    walk: State | None = state
    while walk is not None:  # backwards through the entries in force
        ends.setdefault(walk.game, walk)
        walk = walk.before
    return [ends[number] for number in sorted(ends)]


def deals_of(game: State) -> int:
    """How many deals of ``game`` began (had their starter turned)."""
    started = game.over or game.stage is not Phase.DISCARD
    return game.deal if started else game.deal - 1


def missed(claim: Claim) -> int:
    """Points a count missed: what its cards show, or what a Muggins call took when
    the cards were never given."""
    if claim.verdict == "under":
        return -claim.difference
    call = claim.muggins
    if claim.verdict == "unchecked" and call is not None and call.right:
        return call.points
    return 0


def tally(game: State) -> dict[str, Tally]:
    """What each player (by name, in seat order) did in ``game``: one game's state,
    say from :func:`games_of`."""
    names = game.players
    counts: dict[str, Counter[str]] = {name: Counter() for name in names}
    for entry in game.history:
        seats = [entry.seat] if entry.seat is not None else _seats(game, entry.side)
        for seat in seats:
            counts[names[seat]][f"{entry.kind}_points"] += entry.points
    for claim in game.claims:
        mine = counts[names[claim.seat]]
        if claim.kind != "play":
            mine[f"{claim.kind}s"] += 1
        points = missed(claim)
        mine.update(missed=int(points > 0), missed_points=points)
        if claim.verdict == "over":
            mine.update(over=1, over_points=claim.difference)
        call = claim.muggins
        if call is not None and call.called:  # a Muggins call (a challenge calls no points)
            caller = counts[names[call.seat]]
            caller["muggins_calls"] += 1
            if not call.right:
                caller.update(false_muggins=1, false_muggins_points=call.points)
            else:
                caller["muggins_won"] += call.points
    result = game.results[-1] if game.over else None
    tallies = {}
    for seat, name in enumerate(names):
        given = taken = Skunks()
        if result is not None:
            won = game.side_of(seat) == result.winner
            counts[name].update(games=1, wins=int(won), losses=int(not won))
            if won:
                given = Skunks.at(result.skunk)
            else:
                taken = Skunks.at(result.skunk)
        tallies[name] = Tally(
            skunks_given=given, skunks_taken=taken, deals=deals_of(game), **counts[name]
        )
    return tallies


def _seats(game: State, side: int) -> list[int]:
    return [seat for seat in range(len(game.players)) if game.side_of(seat) == side]


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One game of a match: the final (or present) score and what each player did."""

    number: int  # in its match
    sides: tuple[str, ...]
    scores: tuple[int, ...]
    winner: int | None  # a side; None while the game goes on
    skunk: int  # 0 none .. 3 triple
    deals: int
    players: dict[str, Tally]

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "scores": list(self.scores),
            "winner": None if self.winner is None else self.sides[self.winner],
            "skunk": self.skunk,
            "deals": self.deals,
            "players": {name: t.as_dict() for name, t in self.players.items()},
        }


def summarise_game(game: State) -> GameSummary:
    return GameSummary(
        game.game,
        game.settings.side_names,
        game.scores,
        game.winner,
        game.skunk,
        deals_of(game),
        tally(game),
    )


# --- matches and the whole file -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """A stored game: a match of one or more games, with its standing."""

    id: int  # in the game file
    created: str
    settings: Settings
    games: tuple[GameSummary, ...]
    points: tuple[int, ...]  # match points per side
    needed: int
    winner: int | None  # a side, once the match is won

    @property
    def sides(self) -> tuple[str, ...]:
        return self.settings.side_names

    def as_dict(self) -> dict[str, Any]:
        rules = self.settings
        return {
            "id": self.id,
            "created": self.created,
            "players": list(rules.players),
            "sides": list(self.sides),
            "variant": rules.variant,
            "best_of": rules.match_games,
            "scoring": rules.match_scoring,
            "games": [game.as_dict() for game in self.games],
            "points": list(self.points),
            "needed": self.needed,
            "winner": None if self.winner is None else self.sides[self.winner],
        }


def summarise_match(record: GameRecord, state: State) -> MatchSummary:
    """Sum up the stored game ``record`` from its state (``Table.state_of(record.id)``)."""
    match = state.match
    return MatchSummary(
        record.id,
        record.created,
        state.settings,
        tuple(summarise_game(game) for game in games_of(state)),
        match.points,
        match.needed,
        match.winner,
    )


@dataclass(frozen=True, slots=True)
class Statistics:
    """Every stored match, and each player's tally over all their games."""

    matches: tuple[MatchSummary, ...]

    @property
    def players(self) -> dict[str, Tally]:
        """Each player by name, in the order first seen."""
        totals: dict[str, Tally] = {}
        for match in self.matches:
            for game in match.games:
                for name, tallied in game.players.items():
                    totals[name] = totals.get(name, Tally()) + tallied
        return totals

    @property
    def games(self) -> int:
        return sum(len(match.games) for match in self.matches)

    def as_dict(self) -> dict[str, Any]:
        return {
            "players": {name: t.as_dict() for name, t in self.players.items()},
            "matches": [match.as_dict() for match in self.matches],
        }


def summarise(table: Table) -> Statistics:
    """The statistics of every game stored in ``table``'s game file."""
    return Statistics(
        tuple(summarise_match(record, table.state_of(record.id)) for record in table.games())
    )


# --- the score race ----------------------------------------------------------------------


def score_race(state: State) -> list[tuple[int, int, int]]:
    """The race of ``state``'s game: (index in its history, side, that side's score
    after the entry) for every entry."""
    return [(index, entry.side, entry.score) for index, entry in enumerate(state.history)]
