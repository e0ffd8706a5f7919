"""``pegboard league``'s command line (kept light: the league is imported when it runs):
the service, and the admin's commands straight on the league's database."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def add_league(sub: Any, _: Callable[[str], str]) -> None:
    """The ``league`` sub-command and its own, their help said with ``_``."""
    league = sub.add_parser(
        "league",
        help=_(
            "a league across clubs: night files imported into PostgreSQL, the season's standings"
        ),
    )
    where: dict[str, Any] = {
        "--db": {
            "help": _(
                "the league's database, postgresql://… (default: one of its own, in its folder)"
            )
        },
        "--data": {"type": Path, "help": _("the league's folder (its PIN, its own database)")},
    }
    for name, options in where.items():
        league.add_argument(name, **options)
    league.add_argument("--host", default="0.0.0.0", help=_("the address the league listens on"))
    league.add_argument("--port", type=int, default=8100, help=_("the league's port (0: any free)"))
    league.add_argument("--pin", help=_("the admin's PIN (default: one made and kept)"))
    league.set_defaults(run=cmd_league)
    own = league.add_subparsers(dest="league_command", metavar=_("command"))

    def command(name: str, said: str, run: Callable[[argparse.Namespace], int]) -> Any:
        parser = own.add_parser(name, help=said)
        for option, options in where.items():
            parser.add_argument(option, **options, default=argparse.SUPPRESS)
        parser.set_defaults(run=run)
        return parser

    imported = command("import", _("import night files (each in one transaction)"), cmd_import)
    imported.add_argument("files", nargs="+", type=Path, help=_("night files"))
    club = command("club", _("register a club by its director's public key"), cmd_club)
    club.add_argument("name", help=_("the club's name"))
    club.add_argument("key", help=_("its director's public key, as its night files give it"))
    command("clubs", _("the clubs the league knows"), cmd_clubs)
    merge = command(
        "merge", _("two players who are one: the second's nights become the first's"), cmd_merge
    )
    merge.add_argument("keep", type=int, help=_("the player kept"))
    merge.add_argument("other", type=int, help=_("the player merged into it"))
    points = command("points", _("the season points for 1st, 2nd, … place of a night"), cmd_points)
    points.add_argument("places", type=int, nargs="*", help=_("points for each place, best first"))
    points.add_argument("--least", type=int, default=12, help=_("game points a night needs (12)"))
    standings = command("standings", _("the season's standings (JSON, or --csv)"), cmd_standings)
    standings.add_argument("--club", type=int, help=_("one club's own ranking"))
    standings.add_argument("--csv", action="store_true", help=_("CSV, for a spreadsheet"))


def _folder(args: argparse.Namespace) -> Path:
    from pegboard.paths import default_data_dir

    return Path(getattr(args, "data", None) or default_data_dir() / "league")


def cmd_league(args: argparse.Namespace) -> int:
    from pegboard.league.serve import run

    return run(args.db, _folder(args), args.host, args.port, pin=args.pin, lang=args.lang)


def _with_store(args: argparse.Namespace, work: Callable[[Any], int]) -> int:
    from pegboard import startup
    from pegboard.league.serve import database
    from pegboard.league.store import LeagueStore

    folder = _folder(args)
    if not getattr(args, "db", None):
        startup.check_data_folder(folder)
        startup.make_data_folder(folder)
    with database(getattr(args, "db", None), folder) as url:
        return work(LeagueStore(url))


def cmd_import(args: argparse.Namespace) -> int:
    from pegboard.errors import PegboardError
    from pegboard.i18n import N_, Phrase, phrase_of
    from pegboard.league.serve import say

    def work(store: Any) -> int:
        failed = 0
        for path in args.files:
            try:
                done = store.import_night(path.read_bytes(), path.name)
            except OSError as error:
                said = Phrase.of(N_("the file {path} cannot be read ({error})"), path=str(path),
                                 error=error.strerror or "")  # fmt: skip
                print(f"pegboard: {said.say(args.lang)}", flush=True)
                failed += 1
                continue
            except PegboardError as error:
                print(f"pegboard: {' '.join(phrase_of(error).say(args.lang).split())}", flush=True)
                failed += 1
                continue
            if not done.stored:
                message = N_("{file}: the league had this night already: nothing changed")
            elif done.current:
                message = N_("{file}: {club}'s night of {date} stored: it counts from now on")
            else:
                message = N_("{file}: stored and kept beside a later revision, which still counts")
            say(Phrase.of(message, file=path.name, club=done.club, date=done.date), args.lang)
        return 2 if failed else 0

    return _with_store(args, work)


def cmd_club(args: argparse.Namespace) -> int:
    return _with_store(args, lambda store: _print({"club": store.add_club(args.name, args.key)}))


def cmd_clubs(args: argparse.Namespace) -> int:
    return _with_store(args, lambda store: _print({"clubs": store.clubs()}))


def cmd_merge(args: argparse.Namespace) -> int:
    def work(store: Any) -> int:
        from pegboard.league import season

        store.merge(args.keep, args.other)
        return _print({"player": season.player(store, args.keep)})

    return _with_store(args, work)


def cmd_points(args: argparse.Namespace) -> int:
    from pegboard.league.store import Points

    def work(store: Any) -> int:
        store.set_points(Points(tuple(args.places), args.least))
        return _print({"points": store.points().as_dict()})

    return _with_store(args, work)


def cmd_standings(args: argparse.Namespace) -> int:
    from pegboard.league import season

    def work(store: Any) -> int:
        rows = season.standings(store, args.club)
        if args.csv:
            print(season.as_csv(rows), end="")
            return 0
        return _print({"club": args.club, "players": rows})

    return _with_store(args, work)


def _print(value: object) -> int:
    print(json.dumps(value, ensure_ascii=False, indent=2, default=str))
    return 0
