"""What a board can show: a game needs a track for each side, and holes (and laps) to
reach its target. The door refuses a game that does not fit; the panel's new-game form
offers only the numbers of players that do.

>>> from pegboard.board.layout import load_layout
>>> players_allowed(load_layout("two-track-121")), players_allowed(load_layout("three-track-61"))
((2, 4), (2, 3, 4))
>>> variants_allowed(load_layout("two-track-121"))["seven-card"]
()
>>> check_board(load_layout("two-track-121"), Settings(players=("Ann", "Bob", "Cat")))
Traceback (most recent call last):
...
pegboard.errors.RuleError: this board (two-track-121) has 2 tracks: 3 players need 3
"""

from __future__ import annotations

from pegboard.board.layout import Layout
from pegboard.errors import RuleError
from pegboard.game import VARIANTS, Settings
from pegboard.i18n import N_, Phrase
from pegboard.rules.deals import PLAYERS

SEATS = 4  # the most seats a board has dials for


def check_seat(seat: int) -> None:
    """Refuse a seat this board has no dials for (seats count from 0)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise RuleError(Phrase.of(N_("there is no seat {seat} on this board"), seat=seat))


def players_allowed(layout: Layout) -> tuple[int, ...]:
    """The numbers of players whose sides (four play as two teams) have a track each."""
    tracks = len(layout.tracks)
    return tuple(n for n in PLAYERS if Settings(players=_names(n)).sides <= tracks)


def variants_allowed(layout: Layout) -> dict[str, tuple[int, ...]]:
    """Each variant with the numbers of players this board can show it for (none when
    its game goes further than the board)."""
    allowed = players_allowed(layout)
    return {
        name: tuple(n for n in variant.players if n in allowed)
        if layout.can_show(variant.target)
        else ()
        for name, variant in VARIANTS.items()
    }


def check_board(layout: Layout, settings: Settings) -> None:
    """Refuse (RuleError, naming the board) a game ``layout`` cannot show."""
    tracks = len(layout.tracks)
    if settings.sides > tracks:
        message = N_("this board ({layout}) has {tracks} tracks: {players} players need {sides}")
        raise RuleError(
            Phrase.of(
                message,
                layout=layout.name,
                tracks=tracks,
                players=len(settings.players),
                sides=settings.sides,
            )
        )
    if not layout.can_show(settings.target):
        message = N_(
            "this board ({layout}) shows games up to {most}: a game to {target} needs "
            "a board that goes round more than once"
        )
        raise RuleError(
            Phrase.of(message, layout=layout.name, most=layout.capacity, target=settings.target)
        )


def _names(n: int) -> tuple[str, ...]:
    return tuple(f"Player {seat + 1}" for seat in range(n))
