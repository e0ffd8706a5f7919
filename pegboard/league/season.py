"""The season across the league's clubs, worked out from the nights that count (the
latest revision of each): per player their nights, game points, wins, losses, spread,
skunks, byes and special hands, the nights that qualified (at least the league's
``least`` game points: 12 for Grass Roots) and the season points their places earned
by the league's table; the same for each club's own ranking; and a player's nights one
by one. Ranked by season points, then game points, wins and spread; players equal on
all four share a place.

Each night's place is the club's own (its tie-breaks, its standings code: the file's
standings are checked against its results when it is imported); the points a place is
worth are the league's, applied when the season is worked out, so a change to the
league's table shows at once.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from pegboard.league.store import LeagueStore, Points

EARNED = (
    "CASE WHEN np.points >= %(least)s AND np.place <= cardinality(%(places)s::int[]) "
    "THEN (%(places)s::int[])[np.place] ELSE 0 END"
)
TOTALS = f"""
    count(*) AS nights, sum(np.points)::int AS points, sum(np.wins)::int AS wins,
    sum(np.losses)::int AS losses, sum(np.spread)::int AS spread,
    sum(np.skunks)::int AS skunks, sum(np.byes)::int AS byes, sum(np.hands)::int AS hands,
    count(*) FILTER (WHERE np.grand_slam) AS grand_slams,
    count(*) FILTER (WHERE np.points >= %(least)s) AS qualified,
    sum({EARNED})::int AS season_points
"""
ORDER = "season_points DESC, points DESC, wins DESC, spread DESC"
SEASON = f"""
SELECT rank() OVER (PARTITION BY within ORDER BY {ORDER}) AS place, totals.* FROM (
    SELECT {{by}} AS within, p.id AS player, p.name, p.acc, {TOTALS}
    FROM night_players np JOIN nights n ON n.id = np.night AND n.current
    JOIN players p ON p.id = np.player
    {{where}}
    GROUP BY {{by}}, p.id
) AS totals ORDER BY within, place, name
"""
HISTORY = f"""
SELECT n.night, n.revision, n.date, c.id AS club, c.name AS club_name, n.players AS field,
       np.place, np.points, np.wins, np.losses, np.spread, np.skunks, np.byes,
       np.grand_slam, np.hands, np.points >= %(least)s AS qualified,
       {EARNED} AS season_points
FROM night_players np JOIN nights n ON n.id = np.night AND n.current
JOIN clubs c ON c.id = n.club
WHERE np.player = %(player)s ORDER BY n.date, c.name, n.night
"""
COLUMNS = (
    *("place", "player", "name", "acc", "nights", "qualified", "season_points"),
    *("points", "wins", "losses", "spread", "skunks", "byes", "hands", "grand_slams"),
)


def standings(store: LeagueStore, club: int | None = None) -> list[dict[str, Any]]:
    """The season's standings across every club (or ``club``'s own ranking)."""
    return [_row(r) for r in _season(store, "NULL::integer" if club is None else "n.club", club)]


def every_club(store: LeagueStore) -> dict[int, list[dict[str, Any]]]:
    """Each club's own ranking, all in one query."""
    rankings: dict[int, list[dict[str, Any]]] = {}
    for row in _season(store, "n.club", None):
        rankings.setdefault(int(row["within"]), []).append(_row(row))
    return rankings


def _season(store: LeagueStore, by: str, club: int | None) -> list[dict[str, Any]]:
    where = "" if club is None else "WHERE n.club = %(club)s"
    sql = SEASON.format(by=by, where=where)
    return store.query(sql, {**_points(store.points()), "club": club})


def _row(row: dict[str, Any]) -> dict[str, Any]:
    return {name: row[name] for name in COLUMNS}


def history(store: LeagueStore, player: int) -> list[dict[str, Any]]:
    """``player``'s nights, one by one, oldest first."""
    rows = store.query(HISTORY, {**_points(store.points()), "player": player})
    return [{**row, "date": row["date"].isoformat()} for row in rows]


def player(store: LeagueStore, number: int) -> dict[str, Any] | None:
    rows = store.query("SELECT id AS player, name, acc FROM players WHERE id = %s", (number,))
    return rows[0] if rows else None


def _points(points: Points) -> dict[str, Any]:
    return {"places": list(points.places), "least": points.least}


def as_csv(rows: list[dict[str, Any]]) -> str:
    """Standings as CSV for the association's spreadsheet: one line a player."""
    out = io.StringIO()
    write = csv.writer(out)
    write.writerow(COLUMNS)
    for row in rows:
        write.writerow(["" if row[name] is None else row[name] for name in COLUMNS])
    return out.getvalue()
