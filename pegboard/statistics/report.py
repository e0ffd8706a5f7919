"""The statistics of stored games as plain-text tables, in any language the board speaks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from gettext import NullTranslations
from operator import attrgetter

from pegboard.game.settings import shown
from pegboard.i18n import N_, SOURCE, translations
from pegboard.statistics.tally import GameSummary, MatchSummary, Skunks, Statistics, Tally


def report(stats: Statistics, lang: str = SOURCE) -> str:
    """The statistics as plain-text tables in ``lang``: players, their counts, the match
    history."""
    t = translations(lang)
    if not stats.matches:
        return t.gettext("no games stored yet")
    matches = t.ngettext("{n} match", "{n} matches", len(stats.matches))
    games = t.ngettext("{n} game", "{n} games", stats.games)
    lines = [f"{matches.format(n=len(stats.matches))}, {games.format(n=stats.games)}", ""]
    lines += _player_table(stats.players, RESULT_COLUMNS, t)
    lines += [
        t.gettext(
            "(skunks: single/double/triple; hand, crib: points a count; play: points a deal)"
        ),
        "",
    ]
    lines += _player_table(stats.players, COUNT_COLUMNS, t)
    lines += [t.gettext("(missed, over: own counts pegged short or long; calls: Muggins called)")]
    for match in stats.matches:
        lines += ["", _match_heading(match, t)]
        lines += ["  " + line for line in _table([_game_row(g, t) for g in match.games])]
        if match.settings.match_games > 1:
            lines.append("  " + _standing(match, t))
    return "\n".join(map(shown, lines))  # a name never reaches a terminal as a command


Column = tuple[str, Callable[[Tally], object]]
RESULT_COLUMNS: tuple[Column, ...] = (
    (N_("games"), attrgetter("games")),
    (N_("won"), attrgetter("wins")),
    (N_("lost"), attrgetter("losses")),
    (N_("skunks given"), lambda t: _levels(t.skunks_given)),
    (N_("taken"), lambda t: _levels(t.skunks_taken)),
    (N_("deals"), attrgetter("deals")),
    (N_("hand"), lambda t: _mean(t.hand_average)),
    (N_("crib"), lambda t: _mean(t.crib_average)),
    (N_("play"), lambda t: _mean(t.play_average)),
)
COUNT_COLUMNS: tuple[Column, ...] = (
    (N_("heels"), attrgetter("heels_points")),
    (N_("last"), attrgetter("last_points")),
    (N_("muggins"), attrgetter("muggins_points")),
    (N_("penalty"), attrgetter("penalty_points")),
    (N_("missed"), attrgetter("missed")),
    (N_("points"), attrgetter("missed_points")),
    (N_("over"), attrgetter("over")),
    (N_("points"), attrgetter("over_points")),
    (N_("calls"), attrgetter("muggins_calls")),
    (N_("won"), attrgetter("muggins_won")),
    (N_("false"), attrgetter("false_muggins")),
)
# A game's outcome by skunk level (0: none), the winner named.
WON = (
    N_("{winner} won"),
    N_("{winner} won, skunk"),
    N_("{winner} won, double"),
    N_("{winner} won, triple"),
)
# The variants and match scorings as the report names them (the standard game unnamed).
NAMED = {
    "five-card": N_("five-card"),
    "seven-card": N_("seven-card"),
    "shotgun": N_("shotgun"),
    "lowball": N_("lowball"),
    "home": N_("home"),
    "acc": N_("acc"),
}


def _player_table(
    players: dict[str, Tally], columns: tuple[Column, ...], t: NullTranslations
) -> list[str]:
    header = [t.gettext("player"), *(t.gettext(name) for name, _ in columns)]
    rows = ([name, *(f(tally) for _, f in columns)] for name, tally in players.items())
    return _table([header, *rows])


def _levels(skunks: Skunks) -> str:
    return "/".join(map(str, skunks.counts))


def _mean(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _table(rows: Sequence[Sequence[object]]) -> list[str]:
    """Columns padded to fit: the first to the left, the others to the right."""
    cells = [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
    return [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in cells
    ]


def _match_heading(match: MatchSummary, t: NullTranslations) -> str:
    rules = match.settings
    kind = ""
    if rules.match_games > 1:
        kind = t.gettext("best of {games} ({scoring})").format(
            games=rules.match_games, scoring=t.gettext(NAMED[rules.match_scoring])
        )
    variant = "" if rules.variant == "standard" else t.gettext(NAMED[rules.variant])
    extras = ", ".join(filter(None, [variant, kind]))
    heading = t.gettext("match {id}, {created}: {sides}").format(
        id=match.id, created=match.created, sides=t.gettext(" v ").join(match.sides)
    )
    return heading + (f", {extras}" if extras else "")


def _game_row(game: GameSummary, t: NullTranslations) -> list[object]:
    scores = "  ".join(
        f"{name} {score}" for name, score in zip(game.sides, game.scores, strict=True)
    )
    if game.winner is None:
        outcome = t.gettext("goes on")
    else:
        outcome = t.gettext(WON[game.skunk]).format(winner=game.sides[game.winner])
    deals = t.ngettext("{n} deal", "{n} deals", game.deals).format(n=game.deals)
    return [t.gettext("game {n}").format(n=game.number), scores, outcome, deals]


def _standing(match: MatchSummary, t: NullTranslations) -> str:
    points = ", ".join(f"{name} {p}" for name, p in zip(match.sides, match.points, strict=True))
    if match.winner is None:
        said = t.gettext("match: {points} ({needed} to win)")
    else:
        said = t.gettext("match: {points}: {winner} won it")
    winner = None if match.winner is None else match.sides[match.winner]
    return said.format(points=points, needed=match.needed, winner=winner)
