"""The night as JSON: what the club's pages show and what scripts read (the README's
"The club's API"): the standings, the tables, the rounds, the season, a player's own
view. Names and numbers only: every word is the page's (or the script's) own.
"""

from __future__ import annotations

import csv
import io
from datetime import datetime
from typing import Any

from pegboard.club.director import Director
from pegboard.club.night import Night, Player, Result
from pegboard.club.standings import season, standings
from pegboard.club.store import ClubStore
from pegboard.i18n import Phrase


def night_view(director: Director) -> dict[str, Any]:
    night = director.night
    return {
        "night": director.night_id,
        "version": night.version,
        "round": night.round,
        "rounds": night.format.games,
        "left": len(night.open_seats()),
        "final": night.over,  # every game of the last round in: the standings are final
        "format": night.format.as_dict(),
        "players": len(night.players),
        "tables": len(night.tables),
    }


def standings_view(director: Director) -> dict[str, Any]:
    return {
        "night": director.night_id,
        "version": director.version,
        "round": director.night.round,
        "players": [standing.as_dict() for standing in director.standings()],
    }


def tables_view(director: Director, lang: str, secrets: bool = False) -> dict[str, Any]:
    """Every table: where it is, whether it answers (and since when), its game of the
    round; with ``secrets`` (the director's), the hosted tables' PINs."""
    night, rows = director.night, []
    for number, table in sorted(night.tables.items()):
        link = director.links.get(number)
        seen = director.seen.get(number)
        seat = night.seat(night.round, number)
        row: dict[str, Any] = {
            "table": number,
            "kind": table.kind,
            "address": getattr(link, "address", table.address) or None,
            "reachable": seen is not None and seen.error is None and link is not None,
            "since": _when(seen.since) if seen else None,
            "error": _said(seen.error if seen else None, lang),
            "round": night.round if seat else None,
            "players": [night.players[p].name for p in seat.players] if seat else [],
            "game": night.started.get((seat.round, number)) if seat else None,
            "done": bool(seat and (seat.round, number) in night.results),
            "refused": _said(director.refused.get((night.round, number)), lang),
            "witnessed": director.witness.seen(number, night.started.get((night.round, number))),
            "key": getattr(link, "fingerprint", None),  # a board's, pinned at pairing
        }
        if secrets:
            row["pin"] = getattr(link, "pin", None)
        rows.append(row)
    return {"version": night.version, "tables": rows}


def found_view(director: Director, found: list[Any]) -> list[dict[str, Any]]:
    """The boards announced on the network, each with its table if it is paired."""
    tables = {t.address: n for n, t in director.night.tables.items() if t.address}
    return [
        {"name": board.name, "address": board.address, "table": tables.get(board.address)}
        for board in found
    ]


def rounds_view(director: Director) -> dict[str, Any]:
    night, rounds = director.night, []
    for drawn in night.rounds:
        seats = []
        for seat in night.seats(drawn.round):
            result = night.results.get((seat.round, seat.table))
            seats.append(
                {
                    "table": seat.table,
                    "players": [_player(night.players[p]) for p in seat.players],
                    "game": night.started.get((seat.round, seat.table)),
                    "result": None if result is None else _result(night, result),
                }
            )
        byes = [_player(night.players[p]) for p in drawn.byes]
        rounds.append({"round": drawn.round, "seats": seats, "byes": byes})
    return {"version": night.version, "rounds": rounds}


def me_view(director: Director, player: Player) -> dict[str, Any]:
    """A player's own view: their next (or current) table and opponent, their card."""
    night = director.night
    seat = night.seat_of(player.number)
    mine = next(s for s in director.standings() if s.player == player.number)
    view: dict[str, Any] = {"player": _player(player), "round": night.round, "standing": None}
    view["standing"] = mine.as_dict()
    view["table"] = None
    if seat is not None:
        other = next(p for p in seat.players if p != player.number)
        view["table"] = {
            "table": seat.table,
            "opponent": _player(night.players[other]),
            "done": (seat.round, seat.table) in night.results,
        }
    view["bye"] = bool(night.rounds) and player.number in night.rounds[-1].byes
    view["final"] = night.over  # the night is over: ``standing`` is the player's final one
    view["players"] = len(night.players)
    return view


def season_view(store: ClubStore, director: Director) -> dict[str, Any]:
    nights = []
    for number, _ in store.nights():
        night = director.night if number == director.night_id else _night(store, number)
        nights.append((night, standings(night)))
    players = season(nights, director.night.format)
    return {
        "nights": len(nights),
        "players": [{**s.as_dict(), "nights": s.nights} for s in players],
    }


def results_csv(director: Director) -> str:
    """The night's standings as CSV, one line a player."""
    out = io.StringIO()
    write = csv.writer(out)
    names = ["place", "name", "acc", "card", "points", "wins", "losses", "spread"]
    names += ["skunks", "skunked", "byes", "bye_points", "bye_spread", "played"]
    names += ["grand_slam", "grass_roots", "hands"]
    write.writerow(names)
    for s in director.standings():
        hands = "; ".join(f"{total} ({cards})" for total, cards, _, _ in s.hands)
        numbers = (s.points, s.wins, s.losses, s.spread, s.skunks, s.skunked, s.byes)
        more = (s.bye_points, s.bye_spread, s.played)
        write.writerow(
            [s.place, s.name, s.acc, s.card, *numbers, *more, int(s.slam), s.grass_roots, hands]
        )
    return out.getvalue()


def _night(store: ClubStore, number: int) -> Night:
    night = Night()
    for event, _, _ in store.events(number):
        night.apply(event)
    return night


def _player(player: Player) -> dict[str, Any]:
    return {"player": player.number, "name": player.name}


def _result(night: Night, result: Result) -> dict[str, Any]:
    return {
        "winner": _player(night.players[result.winner]),
        "margin": result.margin,
        "skunk": result.skunk,
        "scores": list(result.scores) if result.scores else None,
        "hands": [
            {"player": p, "total": total, "cards": cards} for p, total, cards in result.hands
        ],
        "corrected_by": result.by or None,
        "why": result.why or None,
    }


def _said(phrase: Phrase | None, lang: str) -> str | None:
    return None if phrase is None else phrase.say(lang)


def _when(seconds: float) -> str:
    return datetime.fromtimestamp(seconds).strftime("%H:%M:%S")
