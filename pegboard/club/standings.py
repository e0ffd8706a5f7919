"""The standings of a night (and of a season of nights): per player the game points,
wins, losses, spread, skunks, byes and special hands, in the order of the night's
tie-breaks, each player's place, and who is on a Grand Slam (every game of the night
won so far, and all of them once the night ends).

A bye is no game played, as the ACC counts it: it is never in ``played`` and never
makes a Grand Slam (a player with a bye has not played all the night's games). What the
format gives for it (``bye_points``, ``bye_won``, ``bye_spread``) is added to the totals
the standings are ranked by, and kept apart (``bye_points``, ``bye_spread``) so the
sheet and the phones show it as the bye's.

>>> from pegboard.club.night import fold, FormatSet, PlayerAdded, TableAdded, RoundDrawn
>>> from pegboard.club.night import GameCounted, HOSTED
>>> night = fold([PlayerAdded(1, "Ann", "", "a"), PlayerAdded(2, "Bob", "", "b"),
...               PlayerAdded(3, "Cat", "", "c"), TableAdded(1, HOSTED, ""),
...               RoundDrawn(1, ((1, 1, 2),), (3,)),
...               GameCounted(1, 1, 1, winner=2, loser=1, margin=35, skunk=True,
...                           scores=(121, 86))])
>>> [(s.name, s.card, s.spread, s.place) for s in standings(night)]
[('Bob', '3/1', 35, 1), ('Cat', '2/1', 0, 2), ('Ann', '0/0', -35, 3)]
>>> [(s.name, s.played, s.slam, s.bye_points) for s in standings(night)]
[('Bob', 1, True, 0), ('Cat', 0, False, 2), ('Ann', 1, False, 0)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pegboard.club.format import Format
from pegboard.club.night import Night


@dataclass
class Standing:
    """One player's night (or season) so far."""

    player: int
    name: str
    acc: str
    points: int = 0  # game points
    wins: int = 0
    losses: int = 0
    spread: int = 0
    skunks: int = 0  # games won by a skunk
    skunked: int = 0  # games lost by one
    byes: int = 0
    bye_points: int = 0  # of the points and the spread: the byes' (as the format gives them)
    bye_wins: int = 0
    bye_spread: int = 0
    hands: list[tuple[int, str, int, int]] = field(
        default_factory=list
    )  # total, cards, round, table
    place: int = 0
    slam: bool = False  # every game won so far (a Grand Slam once all are played)
    card: str = ""
    grass_roots: int = 0  # the club's season points for this night's place
    nights: int = 1
    eligible: bool = False  # the night's game points qualify for season points (Grass Roots)

    @property
    def played(self) -> int:
        """Games played at a table (a bye is none)."""
        return self.wins - self.bye_wins + self.losses

    def key(self, tie_breaks: Iterable[str]) -> tuple[int, ...]:
        values = {"points": self.points, "wins": self.wins, "spread": self.spread}
        values["skunks"] = self.skunks
        return tuple(-values[name] for name in tie_breaks)

    def as_dict(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "player": self.player,
            "name": self.name,
            "acc": self.acc or None,
            "card": self.card,
            "points": self.points,
            "wins": self.wins,
            "losses": self.losses,
            "spread": self.spread,
            "skunks": self.skunks,
            "skunked": self.skunked,
            "byes": self.byes,
            "bye_points": self.bye_points,
            "bye_spread": self.bye_spread,
            "played": self.played,
            "grand_slam": self.slam,
            "grass_roots": self.grass_roots,
            "grass_roots_eligible": self.eligible,
            "hands": [
                {"total": total, "cards": cards, "round": round, "table": table}
                for total, cards, round, table in self.hands
            ],
        }


SUMMED: tuple[str, ...] = ("points", "wins", "losses", "spread", "skunks", "skunked")
SUMMED += ("byes", "bye_points", "bye_wins", "bye_spread")  # what a season adds up


def standings(night: Night) -> list[Standing]:
    """Every player of ``night``, best first (equal on every tie-break: the same place)."""
    rules = night.format
    table = {n: Standing(n, p.name, p.acc) for n, p in night.players.items()}
    for result in night.results.values():
        winner, loser = table[result.winner], table[result.loser]
        winner.points += rules.game_points(True, result.skunk)
        winner.wins, loser.losses = winner.wins + 1, loser.losses + 1
        winner.spread, loser.spread = winner.spread + result.margin, loser.spread - result.margin
        winner.skunks += result.skunk
        loser.skunked += result.skunk
        for player, total, cards in result.hands:
            table[player].hands.append((total, cards, result.seat.round, result.seat.table))
    for drawn in night.rounds:
        for player in drawn.byes:
            bye = table[player]
            bye.byes += 1
            bye.points += rules.bye_points
            bye.bye_points += rules.bye_points
            bye.wins += rules.bye_won
            bye.bye_wins += rules.bye_won
            bye.spread += rules.bye_spread
            bye.bye_spread += rules.bye_spread
    done = night.over
    for standing in table.values():
        standing.slam = (
            standing.losses == 0
            and standing.byes == 0
            and standing.played > 0
            and (not done or standing.played == rules.games)
        )
    return ranked(list(table.values()), rules)


def ranked(players: list[Standing], rules: Format) -> list[Standing]:
    """``players`` in order, placed, with their scorecard line and season points."""
    players.sort(key=lambda s: (s.key(rules.tie_breaks), s.name.casefold()))
    for index, standing in enumerate(players):
        before = players[index - 1] if index else None
        same = before is not None and before.key(rules.tie_breaks) == standing.key(rules.tie_breaks)
        standing.place = before.place if same and before else index + 1
        standing.card = rules.card(standing.points, standing.wins)
        standing.eligible = standing.points >= rules.grass_roots_least
        earned = standing.eligible and standing.place <= len(rules.grass_roots)
        standing.grass_roots = rules.grass_roots[standing.place - 1] if earned else 0
    return players


def season(nights: Iterable[tuple[Night, list[Standing]]], rules: Format) -> list[Standing]:
    """The season's standings: each player's nights added up (a player is the same
    across nights by ACC number, else by name), ranked by season points first."""
    total: dict[str, Standing] = {}
    for _, night in nights:
        for standing in night:
            who = standing.acc or standing.name.casefold()
            kept = total.get(who)
            if kept is None:
                kept = total[who] = Standing(len(total) + 1, standing.name, standing.acc, nights=0)
            kept.nights += 1
            for name in SUMMED:
                setattr(kept, name, getattr(kept, name) + getattr(standing, name))
            kept.grass_roots += standing.grass_roots
            kept.hands.extend(standing.hands)
    players = list(total.values())
    players.sort(key=lambda s: (-s.grass_roots, s.key(rules.tie_breaks), s.name.casefold()))
    for index, standing in enumerate(players, start=1):
        standing.place, standing.card = index, rules.card(standing.points, standing.wins)
    return players
