"""The format of a club night, as the director announces it before play: how many
games, to what target, Muggins or not, what a win, a skunk and a bye are worth, how
ties are broken, which hands are special, and the club's table of season points.

The defaults are the ACC Grass Roots night's (README, "Club night", says where each
was found): 9 games to 121, no Muggins, a win 2 game points, a skunk (a win by more than
30) 3, a loss 0; ties broken by games won, then by spread. What we did not find stated
by the ACC (what a bye is worth, the Grass Roots points of each place) is a setting.

>>> Format().card(16, 7), Format.from_dict({"games": 7, "tie_breaks": ["points", "spread"]}).games
('16/7', 7)
>>> Format.from_dict({"game": 7})
Traceback (most recent call last):
...
pegboard.errors.ClubError: the night's format: unknown key 'game' (did you mean 'games'?)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from pegboard.errors import ClubError
from pegboard.i18n import N_, Phrase
from pegboard.rules.scoring import possible_totals
from pegboard.shape import Source, at_least, between, one_of

TIE_BREAKS = ("points", "wins", "spread", "skunks")  # what standings are sorted by, in order
FOUR_OF_A_KIND = "four-of-a-kind"  # a special hand by its cards: four of one rank with the starter
FORMAT = Phrase(N_("the night's format"))  # where a format is read, to people
TARGETS = (31, 61, 121)  # a night's games: to 121, or shorter ones for a short night


@dataclass(frozen=True, slots=True)
class Format:
    """A night's format (see the module's words for the defaults)."""

    games: int = 9  # rounds of the night: one game each against another player
    target: int = 121
    muggins: bool = False
    tie_breaks: tuple[str, ...] = ("points", "wins", "spread")
    win: int = 2  # game points of a win
    skunk: int = 3  # of a win by more than 30 (the loser short of the skunk line)
    bye_points: int = 2  # a player without an opponent in a round gets these game points,
    bye_won: bool = True  # counts the bye as a game won (or not),
    bye_spread: int = 0  # and this spread
    special_hands: tuple[str, ...] = ("29", "28")  # totals, or "four-of-a-kind"
    grass_roots: tuple[int, ...] = ()  # the club's season points for 1st, 2nd, ... place
    grass_roots_least: int = 12  # game points a player needs for any season points

    def __post_init__(self) -> None:
        if len(set(self.tie_breaks)) != len(self.tie_breaks) or not self.tie_breaks:
            raise ClubError(Phrase(N_("give each tie-break once, in the order they count")))
        for hand in self.special_hands:
            if hand != FOUR_OF_A_KIND and not (hand.isdigit() and int(hand) in possible_totals(4)):
                message = N_("{hand} is no special hand: give a total a hand can score, or {four}")
                raise ClubError(Phrase.of(message, hand=repr(hand), four=FOUR_OF_A_KIND))

    def card(self, points: int, wins: int) -> str:
        """A scorecard's line: game points / wins."""
        return f"{points}/{wins}"

    def game_points(self, won: bool, skunk: bool) -> int:
        return (self.skunk if skunk else self.win) if won else 0

    def as_dict(self) -> dict[str, Any]:
        """The format as JSON and TOML write it (lists, not tuples)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Format:
        """A format as JSON or TOML gives it; a key or value that is wrong is refused,
        named."""
        read = Source(FORMAT, ClubError)
        read.only(data, (f.name for f in fields(cls)))
        base = cls()

        def number(name: str, least: int, most: int = 10_000) -> int:
            value: int = read.value(
                data, name, int, default=getattr(base, name), check=between(least, most)
            )
            return value

        tie_breaks = read.value(data, "tie_breaks", list, default=list(base.tie_breaks))
        for key in tie_breaks:
            read.value({"tie_breaks": key}, "tie_breaks", str, check=one_of(*TIE_BREAKS))
        hands = read.value(data, "special_hands", list, default=list(base.special_hands))
        points = read.value(data, "grass_roots", list, default=list(base.grass_roots))
        for place in points:
            read.value({"grass_roots": place}, "grass_roots", int, check=at_least(0))
        return cls(
            games=number("games", 1, 30),
            target=read.value(
                data, "target", int, default=base.target, check=one_of_numbers(TARGETS)
            ),
            muggins=read.value(data, "muggins", bool, default=base.muggins),
            tie_breaks=tuple(tie_breaks),
            win=number("win", 0, 10),
            skunk=number("skunk", 0, 10),
            bye_points=number("bye_points", 0, 10),
            bye_won=read.value(data, "bye_won", bool, default=base.bye_won),
            bye_spread=number("bye_spread", 0, 121),
            special_hands=tuple(str(hand) for hand in hands),
            grass_roots=tuple(points),
            grass_roots_least=number("grass_roots_least", 0, 100),
        )


def one_of_numbers(choices: tuple[int, ...]) -> Any:
    """A check: one of the numbers ``choices``."""
    words = one_of(*map(str, choices))
    return lambda value: words(str(value))
