"""A club night as a log of events, and the night they add up to.

Every change the director, a table or the club makes is one event (who made it is
stored with it: :mod:`pegboard.club.store`), checked first here by a pure command that
refuses, with one phrase, what cannot be (a player twice, a table paired twice, a round
drawn before the last one ended, a result for a table not in the night) and changes
nothing. A game's result is keyed by its table and the table's game number, so one
counted again is no new event (at-least-once with idempotent apply).

>>> night = fold([FormatSet(Format(games=3).as_dict()), PlayerAdded(1, "Ann", "", "k1"),
...               PlayerAdded(2, "Bob", "", "k2"), TableAdded(1, HOSTED, "")])
>>> add_player(night, "ann", "")
Traceback (most recent call last):
...
pegboard.errors.ClubError: Ann is registered already
>>> night.apply(RoundDrawn(1, ((1, 1, 2),), ()))
>>> night.round, night.open_seats()
(1, [Seat(round=1, table=1, players=(1, 2))])
>>> draw(night, [(1, 2)], None)
Traceback (most recent call last):
...
pegboard.errors.ClubError: round 1 is still being played: 1 game left
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from pegboard.club.format import Format
from pegboard.errors import ClubError
from pegboard.i18n import N_, Phrase

HOSTED, BOARD = "hosted", "board"  # a table the club serves, or an LED board it follows
SKUNK_MARGIN = 30  # a win by more than this is a skunk (the loser short of the skunk line)


@dataclass(frozen=True, slots=True)
class FormatSet:
    format: dict[str, Any]


@dataclass(frozen=True, slots=True)
class PlayerAdded:
    player: int
    name: str
    acc: str  # the ACC number, if given
    code: str  # the player's own code: their phone view, and the way into their table


@dataclass(frozen=True, slots=True)
class TableAdded:
    table: int
    kind: str  # HOSTED or BOARD
    address: str  # a board's panel ("http://10.0.0.7"); a hosted table's is the club's


@dataclass(frozen=True, slots=True)
class RoundDrawn:
    round: int
    seats: tuple[tuple[int, int, int], ...]  # (table, player, player)
    byes: tuple[int, ...]
    order: tuple[int, ...] = ()  # the round robin followed (pegboard.club.seating)


@dataclass(frozen=True, slots=True)
class GameStarted:
    round: int
    table: int
    game: int  # the table's own number of the game


@dataclass(frozen=True, slots=True)
class GameCounted:
    """A game's result, worked out from the table's log (:mod:`pegboard.club.results`);
    for a board's game, what the board signed at its end (:func:`pegboard.game.chain.end_of`
    of ``game``, ``versions``, ``head`` and ``asked``) and the key it signed with, so that
    a league can check the board's signature without the club's word. A result stored
    before the club kept them (or a hosted table's) has none: "" and 0."""

    round: int
    table: int
    game: int
    winner: int  # players
    loser: int
    margin: int  # from the target: the spread
    skunk: bool
    scores: tuple[int, int]  # the winner's, the loser's
    hands: tuple[tuple[int, int, str], ...] = ()  # special hands: (player, total, cards)
    head: str = ""  # the log's head, hex: the log the result was worked out from
    key: str = ""  # the board's public key, pinned at pairing (hex)
    signature: str = ""  # the board's Ed25519 signature of the game's end (hex)
    versions: int = 0  # the log's entries when the board signed it
    asked: str = ""  # what the club asked at the game's start, as the board signed it


@dataclass(frozen=True, slots=True)
class Corrected:
    """The director's result for a seat, over what a table reported (or in its place)."""

    round: int
    table: int
    winner: int
    margin: int
    skunk: bool
    why: str
    by: str  # the director who made it


Event = FormatSet | PlayerAdded | TableAdded | RoundDrawn | GameStarted | GameCounted | Corrected
EVENTS: dict[str, type] = {
    cls.__name__: cls
    for cls in (FormatSet, PlayerAdded, TableAdded, RoundDrawn, GameStarted, GameCounted, Corrected)
}


def to_dict(event: Event) -> dict[str, Any]:
    return {"type": type(event).__name__, **asdict(event)}


def from_dict(data: dict[str, Any]) -> Event:
    """An event as :func:`to_dict` wrote it (stored by the club: trusted as written)."""
    cls = EVENTS[data["type"]]
    values = {f.name: data[f.name] for f in fields(cls) if f.name in data}
    for name in ("seats", "byes", "order", "scores", "hands"):
        if name in values:
            values[name] = _tuples(values[name])
    event: Event = cls(**values)
    return event


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list | tuple) else value


@dataclass(frozen=True, slots=True)
class Player:
    number: int
    name: str
    acc: str
    code: str


@dataclass(frozen=True, slots=True)
class Seat:
    round: int
    table: int
    players: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Result:
    """A seat's result as it counts: from the table's log, or corrected (``by`` then
    names the director and ``why`` says why)."""

    seat: Seat
    winner: int
    margin: int
    skunk: bool
    game: int | None = None
    scores: tuple[int, int] | None = None
    hands: tuple[tuple[int, int, str], ...] = ()
    by: str = ""
    why: str = ""

    @property
    def loser(self) -> int:
        a, b = self.seat.players
        return b if self.winner == a else a


@dataclass
class Night:
    """The night so far: made by applying its events in order (:meth:`apply`), by the
    one writer that stores them (:class:`~pegboard.club.director.Director`)."""

    format: Format = field(default_factory=Format)
    players: dict[int, Player] = field(default_factory=dict)
    tables: dict[int, TableAdded] = field(default_factory=dict)
    rounds: list[RoundDrawn] = field(default_factory=list)
    started: dict[tuple[int, int], int] = field(default_factory=dict)  # (round, table) -> game
    counted: dict[tuple[int, int], GameCounted] = field(default_factory=dict)  # (table, game)
    results: dict[tuple[int, int], Result] = field(default_factory=dict)  # (round, table)
    corrections: list[Corrected] = field(default_factory=list)
    version: int = 0  # events applied

    @property
    def round(self) -> int:
        return len(self.rounds)

    def seats(self, round: int | None = None) -> list[Seat]:
        """The seats of ``round`` (the current one by default)."""
        number = self.round if round is None else round
        if not 1 <= number <= self.round:
            return []
        return [Seat(number, t, (a, b)) for t, a, b in self.rounds[number - 1].seats]

    def seat(self, round: int, table: int) -> Seat | None:
        if not 1 <= round <= self.round:
            return None
        found = (Seat(round, t, (a, b)) for t, a, b in self.rounds[round - 1].seats if t == table)
        return next(found, None)  # each result looks its seat up: no Seat made for the others

    def open_seats(self) -> list[Seat]:
        """The current round's seats whose game has no result yet."""
        return [seat for seat in self.seats() if (seat.round, seat.table) not in self.results]

    @property
    def over(self) -> bool:
        """Every round of the night drawn and every game of it in: the standings are final."""
        return self.round == self.format.games and not self.open_seats()

    def seat_of(self, player: int, round: int | None = None) -> Seat | None:
        return next((s for s in self.seats(round) if player in s.players), None)

    @property
    def order(self) -> tuple[int, ...]:
        """The round robin the night follows (() if none)."""
        return self.rounds[-1].order if self.rounds else ()

    def met(self) -> dict[frozenset[int], int]:
        """How often each two players have been seated together."""
        met: dict[frozenset[int], int] = {}
        for drawn in self.rounds:
            for _, a, b in drawn.seats:
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
        return met

    def byes(self) -> dict[int, int]:
        had: dict[int, int] = {}
        for drawn in self.rounds:
            for player in drawn.byes:
                had[player] = had.get(player, 0) + 1
        return had

    def apply(self, event: Event) -> None:
        """One more event (checked by its command when it was made)."""
        self.version += 1
        match event:
            case FormatSet(format=data):
                self.format = Format.from_dict(data)
            case PlayerAdded(player=number, name=name, acc=acc, code=code):
                self.players[number] = Player(number, name, acc, code)
            case TableAdded(table=number):
                self.tables[number] = event
            case RoundDrawn():
                self.rounds.append(event)
            case GameStarted(round=round, table=table, game=game):
                self.started[round, table] = game
            case GameCounted(round=round, table=table, game=game):
                self.counted[table, game] = event
                seat, was = self.seat(round, table), self.results.get((round, table))
                if seat is not None and (was is None or not was.by):  # a correction stands
                    self.results[round, table] = Result(
                        seat,
                        event.winner,
                        event.margin,
                        event.skunk,
                        game,
                        event.scores,
                        event.hands,
                    )
            case Corrected(round=round, table=table):
                self.corrections.append(event)
                seat, was = self.seat(round, table), self.results.get((round, table))
                if seat is not None:
                    self.results[round, table] = Result(
                        seat,
                        event.winner,
                        event.margin,
                        event.skunk,
                        was.game if was else None,
                        None,
                        was.hands if was else (),
                        by=event.by,
                        why=event.why,
                    )


def fold(events: Iterable[Event]) -> Night:
    """The night after ``events``."""
    night = Night()
    for event in events:
        night.apply(event)
    return night


# --- the commands: each checks, then gives the event to store (or refuses) ---------------


def set_format(night: Night, data: dict[str, Any]) -> FormatSet:
    if night.round:
        raise ClubError(Phrase(N_("the format is set before the first round is drawn")))
    return FormatSet(Format.from_dict(data).as_dict())


def add_player(night: Night, name: str, acc: str, code: str = "") -> PlayerAdded:
    name, acc = " ".join(name.split()), acc.strip()
    if not name or len(name) > 40 or not name.isprintable():
        raise ClubError(Phrase(N_("a player's name is 1 to 40 printable characters")))
    if len(acc) > 12 or (not acc.isalnum() and acc):
        raise ClubError(Phrase(N_("an ACC number is up to 12 letters and digits")))
    for player in night.players.values():
        if player.name.casefold() == name.casefold():
            raise ClubError(Phrase.of(N_("{name} is registered already"), name=player.name))
        if acc and player.acc == acc:
            message = N_("the ACC number {acc} is {name}'s already")
            raise ClubError(Phrase.of(message, acc=acc, name=player.name))
    return PlayerAdded(max(night.players, default=0) + 1, name, acc, code)


def add_table(night: Night, kind: str, address: str) -> TableAdded:
    for table in night.tables.values():
        if kind == BOARD and table.address == address:
            message = N_("the board at {address} is table {table} already")
            raise ClubError(Phrase.of(message, address=address, table=table.table))
    return TableAdded(max(night.tables, default=0) + 1, kind, address)


def draw(
    night: Night, pairs: Sequence[tuple[int, int]], bye: int | None, order: tuple[int, ...] = ()
) -> RoundDrawn:
    """The next round with ``pairs`` (drawn by :mod:`pegboard.club.seating`, following
    ``order``) at the night's tables in their order."""
    left = night.open_seats()
    if left:
        message = N_("round {round} is still being played: {left} game left")
        many = N_("round {round} is still being played: {left} games left")
        raise ClubError(
            Phrase.of(message if len(left) == 1 else many, round=night.round, left=len(left))
        )
    if night.round >= night.format.games:
        message = N_("all {games} rounds of the night are drawn")
        raise ClubError(Phrase.of(message, games=night.format.games))
    if len(night.players) < 2:
        raise ClubError(Phrase(N_("register two players or more first")))
    if len(pairs) > len(night.tables):
        message = N_("{pairs} games need {pairs} tables: the night has {tables}")
        raise ClubError(Phrase.of(message, pairs=len(pairs), tables=len(night.tables)))
    seats = tuple((t, a, b) for t, (a, b) in zip(sorted(night.tables), pairs, strict=False))
    return RoundDrawn(night.round + 1, seats, () if bye is None else (bye,), order)


def started(night: Night, seat: Seat, game: int) -> GameStarted:
    return GameStarted(seat.round, seat.table, game)


def count(night: Night, result: GameCounted) -> GameCounted | None:
    """``result`` to store, or None when that table's game is counted already."""
    if result.table not in night.tables:
        message = N_("tonight has no table {table}")
        raise ClubError(Phrase.of(message, table=result.table))
    if (result.table, result.game) in night.counted:
        return None
    seat = night.seat(result.round, result.table)
    if seat is None or set(seat.players) != {result.winner, result.loser}:
        message = N_("table {table} has no game of round {round} between these players")
        raise ClubError(Phrase.of(message, table=result.table, round=result.round))
    return result


def correct(
    night: Night, round: int, table: int, winner: int, margin: int, why: str, by: str
) -> Corrected:
    """The director's result for ``table`` in ``round``."""
    if table not in night.tables:
        message = N_("tonight has no table {table}")
        raise ClubError(Phrase.of(message, table=table))
    seat = night.seat(round, table)
    if seat is None:
        message = N_("table {table} has no game in round {round}")
        raise ClubError(Phrase.of(message, table=table, round=round))
    if winner not in seat.players:
        message = N_("the winner at table {table} is one of its two players")
        raise ClubError(Phrase.of(message, table=table))
    target = night.format.target
    if not 1 <= margin <= target:
        message = N_("a game is won by 1 to {target} points")
        raise ClubError(Phrase.of(message, target=target))
    why = " ".join(why.split())[:200]
    if not why:
        raise ClubError(Phrase(N_("say why the result is corrected")))
    skunk = margin > SKUNK_MARGIN and target > SKUNK_MARGIN + 1  # no skunk line in a game to 31
    return Corrected(round, table, winner, margin, skunk, why, by)
