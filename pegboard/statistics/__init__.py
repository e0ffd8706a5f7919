"""Statistics of stored games: the tallies (:mod:`.tally`) and the text report
(:mod:`.report`) of ``pegboard stats --games``."""

from pegboard.statistics.report import report
from pegboard.statistics.tally import (
    GameSummary,
    MatchSummary,
    Skunks,
    Statistics,
    Tally,
    games_of,
    score_race,
    summarise,
    summarise_game,
    summarise_match,
    tally,
)

__all__ = [
    "GameSummary",
    "MatchSummary",
    "Skunks",
    "Statistics",
    "Tally",
    "games_of",
    "report",
    "score_race",
    "summarise",
    "summarise_game",
    "summarise_match",
    "tally",
]
