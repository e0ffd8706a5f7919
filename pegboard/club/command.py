"""``pegboard club``'s command line (kept light: the club is imported when it runs)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any


def add_club(sub: Any, _: Callable[[str], str]) -> None:
    """The ``club`` sub-command, its help said with ``_``."""
    club = sub.add_parser(
        "club",
        help=_(
            "run a club night: tables on the players' phones and LED boards, seating, "
            "results from each table's log, live standings"
        ),
    )
    club.add_argument("--data", type=Path, help=_("the club's folder (its nights, its tables)"))
    club.add_argument("--host", default="0.0.0.0", help=_("the address the club listens on"))
    club.add_argument("--port", type=int, default=8000, help=_("the club's port (0: any free)"))
    club.add_argument("--pin", help=_("the director's PIN (default: one made and kept)"))
    club.add_argument(
        "--tables", type=int, default=0, help=_("hosted tables to open, at least (phones only)")
    )
    club.add_argument(
        "--follow",
        choices=("stream", "poll"),
        default="stream",
        help=_(
            "how the LED boards are followed: their live streams (each tells the club at once), "
            "or asked every --poll seconds"
        ),
    )
    club.add_argument(
        "--poll",
        type=float,
        default=2.0,
        help=_("seconds between two looks at the LED boards (with {option})").format(
            option="--follow poll"
        ),
    )
    club.add_argument(
        "--discover", action="store_true", help=_("list the LED boards announced on the network")
    )
    club.set_defaults(run=cmd_club)
    add_night_file(club.add_subparsers(dest="club_command", metavar=_("command")), _)


def add_night_file(sub: Any, _: Callable[[str], str]) -> None:
    """``pegboard club export``, ``check FILE`` and ``send URL``: the night as a signed
    file, for a league (:mod:`pegboard.club.export`)."""
    data = {"type": Path, "default": argparse.SUPPRESS, "help": _("the club's folder")}
    export = sub.add_parser("export", help=_("write a night as a file signed by the director"))
    send = sub.add_parser("send", help=_("write a night's file and send it to a league"))
    send.add_argument("url", help=_("the league's address, e.g. https://league.example.org"))
    send.add_argument("--tries", type=int, default=8, help=_("tries at most (default 8)"))
    send.add_argument("--wait", type=float, default=1.0, help=_("seconds before the 2nd try"))
    for command in (export, send):
        command.add_argument("--data", **data)
        command.add_argument("--night", type=int, help=_("the night's number (the latest)"))
        command.add_argument("--club", help=_("the club's name (given once, then kept)"))
        command.add_argument("--date", help=_("the night's date, YYYY-MM-DD (the day opened)"))
        command.add_argument("--out", type=Path, help=_("the file to write"))
    export.set_defaults(run=cmd_export)
    send.set_defaults(run=cmd_send)
    check = sub.add_parser(
        "check", help=_("recompute a night file's standings from the file alone, or refuse it")
    )
    check.add_argument("file", type=Path, help=_("the night file"))
    check.add_argument("--data", **data)
    check.add_argument("--key", help=_("the director's public key it must be signed with"))
    check.set_defaults(run=cmd_check)


def cmd_club(args: argparse.Namespace) -> int:
    from pegboard.club.serve import run
    from pegboard.paths import default_data_dir

    folder = args.data or default_data_dir() / "club"
    return run(
        folder,
        args.host,
        args.port,
        pin=args.pin,
        tables=args.tables,
        poll=args.poll,
        follow=args.follow,
        discover=args.discover,
        lang=args.lang,
    )


def _folder(args: argparse.Namespace) -> Path:
    from pegboard.paths import default_data_dir

    return Path(getattr(args, "data", None) or default_data_dir() / "club")


def _exported(args: argparse.Namespace) -> dict[str, Any]:
    from pegboard.club.export import export
    from pegboard.i18n import N_, Phrase
    from pegboard.identity import fingerprint

    path, data = export(_folder(args), args.night, args.out, args.club, args.date)
    said = N_("night {night} written to {path}, signed by the director's key {key} ({print})")
    key = data["director"]["key"]
    _say(
        Phrase.of(
            said,
            night=data["night"],
            path=str(path),
            key=key,
            print=fingerprint(bytes.fromhex(key)),
        ),
        args.lang,
    )
    return data


def cmd_export(args: argparse.Namespace) -> int:
    _exported(args)
    return 0


def cmd_send(args: argparse.Namespace) -> int:
    from pegboard.club.export import send
    from pegboard.i18n import N_, Phrase

    data = _exported(args)
    answer = send(args.url, data, args.tries, args.wait, lambda said: _say(said, args.lang))
    said = N_("the league has the night: {state}")
    _say(Phrase.of(said, state=Phrase.as_is(str(answer.get("said", "")))), args.lang)
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from pegboard.club.export import check
    from pegboard.i18n import N_, Phrase
    from pegboard.identity import fingerprint

    checked = check(args.file, _folder(args), args.key)
    said = N_("{file}: the night of {club} on {date}, signed by {key}: {players} players")
    players = len(checked.standings)
    _say(Phrase.of(said, file=args.file.name, club=checked.club, date=checked.date,
                   key=fingerprint(checked.key), players=players), args.lang)  # fmt: skip
    for s in checked.standings:
        print(f"{s.place:>4}  {s.name:<30} {s.card:>7} {s.spread:>+6} {s.grass_roots:>5}")
    return 0


def _say(said: Any, lang: str) -> None:
    print(f"pegboard: {said.say(lang)}", flush=True)
