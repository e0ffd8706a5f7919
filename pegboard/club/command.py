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
