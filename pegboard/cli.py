"""The ``pegboard`` command.

Each sub-command is a function ``cmd_<name>(args) -> int``; errors from the
PegboardError family print one line to stderr and exit 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from pegboard.errors import PegboardError

EXIT_ERROR = 2


def _print_json(value: object) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2))


def _cards_text(cards: Sequence[object]) -> str:
    return " ".join(str(card) for card in cards)


def cmd_score(args: argparse.Namespace) -> int:
    from pegboard.cards import Card, parse_cards
    from pegboard.i18n import translations
    from pegboard.scoring import score_show
    from pegboard.speech import kind_name

    starter = Card.parse(args.starter)
    show = score_show(parse_cards(args.cards), starter, crib=args.crib)
    if args.json:  # keys and kinds stay English; the call is said in the chosen language
        _print_json({**show.as_dict(), "call": show.call(args.lang)})
        return 0
    t = translations(args.lang)
    if args.crib:
        heading = t.gettext("crib {cards}  starter {starter}")
    else:
        heading = t.gettext("hand {cards}  starter {starter}")
    print(heading.format(cards=_cards_text(show.hand), starter=show.starter))
    kinds = {item.kind: kind_name(item.kind, args.lang) for item in show.items}
    width = max([8, *map(len, kinds.values())])  # English keeps its 8
    for item in show.items:
        print(f"  {kinds[item.kind]:<{width}} {_cards_text(item.cards):<22} {item.points:>2}")
    total = t.gettext("total")
    print(f"  {total:<{width + 23}} {show.total:>2}")
    print(show.call(args.lang))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from pegboard.cards import parse_cards
    from pegboard.i18n import translations
    from pegboard.play import score_play
    from pegboard.speech import kind_name

    cards = parse_cards(args.cards)
    pegs = [score_play(cards[:i], card) for i, card in enumerate(cards)]
    if args.json:
        _print_json([{**peg.as_dict(), "call": peg.call(args.lang)} for peg in pegs])
        return 0
    count = translations(args.lang).pgettext("play", "count")
    for peg in pegs:
        scored = ", ".join(f"{kind_name(item.kind, args.lang)} {item.points}" for item in peg.items)
        print(f"{peg.card!s:>3}  {count} {peg.count:>2}  {peg.points:>2}  {scored}")
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from pegboard.errors import ConfigError
    from pegboard.scoring import distribution

    if args.games:
        return _stats_of_games(args)
    if args.data is not None:
        raise ConfigError("--data goes with --games (the statistics of the stored games)")
    hand, crib = distribution(args.hand_size), distribution(args.hand_size, crib=True)
    deals = sum(hand.values())
    mean = {
        name: sum(t * n for t, n in d.items()) / deals
        for name, d in (("hand", hand), ("crib", crib))
    }
    totals = range(max(hand) + 1)
    if args.json:
        _print_json(
            {
                "deals": deals,
                "hand_size": args.hand_size,
                "mean": mean,
                "hand": {str(t): hand[t] for t in totals},
                "crib": {str(t): crib[t] for t in totals},
                "never": [t for t in totals if not hand[t]],
            }
        )
        return 0
    print(f"{deals:,} deals of a {args.hand_size}-card hand and a starter")
    print(f"{'total':>5} {'hand':>12} {'crib':>12}")
    for total in totals:
        print(f"{total:>5} {hand[total]:>12,} {crib[total]:>12,}")
    print(f"mean   {mean['hand']:>12.4f} {mean['crib']:>12.4f}")
    return 0


def _stats_of_games(args: argparse.Namespace) -> int:
    from pegboard.errors import StoreError
    from pegboard.game import Table
    from pegboard.paths import games_path
    from pegboard.statistics import report, summarise

    data = args.data
    path = data if data is not None and data.is_file() else games_path(data)
    if not path.is_file():  # looked for first: opening would create the file
        raise StoreError(f"no game file at {path}: give --data, the board's data folder")
    if not path.stat().st_size:
        raise StoreError(f"the game file {path} is empty: no games stored")
    with Table(path) as table:
        stats = summarise(table)
    if args.json:
        _print_json({"file": str(path), **stats.as_dict()})
        return 0
    print(f"games in {path}")
    print(report(stats))
    return 0


def cmd_advise(args: argparse.Namespace) -> int:
    from pegboard.advice import advise

    advice = advise(args.cards, args.dealer, args.players)
    if args.json:
        _print_json([discard.as_dict() for discard in advice])
        return 0
    keep = max(len("keep"), *(len(_cards_text(d.keep)) for d in advice))
    away = max(len("discard"), *(len(_cards_text(d.discard)) for d in advice))
    print(
        f"expected points, exact over every starter and crib; "
        f"net = hand {'+' if args.dealer else '-'} crib"
    )
    print(f"{'keep':<{keep}}  {'discard':<{away}}  {'hand':>6} {'crib':>6} {'net':>6}")
    for d in advice:
        print(
            f"{_cards_text(d.keep):<{keep}}  {_cards_text(d.discard):<{away}}  "
            f"{float(d.hand):>6.2f} {float(d.crib):>6.2f} {float(d.net):>6.2f}"
        )
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from pegboard.config import load_config
    from pegboard.paths import default_data_dir
    from pegboard.service import serve

    config = load_config(args.config)
    panel = dict(config.panel)
    panel.update({k: v for k, v in (("host", args.host), ("port", args.port)) if v is not None})
    config = replace(config, panel=panel)
    return serve(config, args.data or default_data_dir(), sim=args.sim)


def cmd_doctor(args: argparse.Namespace) -> int:
    from pegboard import doctor
    from pegboard.config import load_config

    timeout = args.timeout or doctor.CONTROL_SECONDS
    return doctor.run(load_config(args.config), sim=args.sim, timeout=timeout)


def cmd_firmware(args: argparse.Namespace) -> int:
    from pegboard import firmware_tool

    if args.action == "install":
        firmware_tool.install(args.port)
    elif args.action == "check":
        version = firmware_tool.check(args.port)
        print(f"firmware {'.'.join(map(str, version))} answers: it matches this pegboard")
    else:
        port = firmware_tool.back_to_repl(args.port)
        print(f"the Pico on {port} is rebooting into the REPL (until its next reset)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from pegboard.i18n import LANGUAGES

    parser = argparse.ArgumentParser(prog="pegboard", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="the language of the calls and labels (default: $PEGBOARD_LANG, then the "
        "locale, e.g. LANG=de_DE.UTF-8, else en)",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="command")

    score = sub.add_parser("score", help="score a hand or crib with its starter")
    score.add_argument("cards", nargs="+", help="the hand: 3 to 6 cards, e.g. 5H 5C 5S JD")
    score.add_argument("--starter", "-s", required=True, help="the starter card, e.g. 5D")
    score.add_argument("--crib", action="store_true", help="score as the crib (5-card flush only)")
    score.add_argument("--json", action="store_true", help="print JSON")
    score.set_defaults(run=cmd_score)

    play = sub.add_parser("play", help="score each card laid in one count of the play")
    play.add_argument("cards", nargs="+", help="the cards in the order laid, e.g. 4H 2C 3D")
    play.add_argument("--json", action="store_true", help="print JSON")
    play.set_defaults(run=cmd_play)

    stats = sub.add_parser(
        "stats",
        help="the exact distribution of hand and crib totals, or (--games) the stored games",
    )
    mode = stats.add_mutually_exclusive_group()
    mode.add_argument("--hand-size", type=int, default=4, choices=(3, 4, 5, 6))
    mode.add_argument(
        "--games",
        action="store_true",
        help="sum up the stored games: wins, skunks, points a deal, counts missed, matches",
    )
    stats.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help="with --games: the board's data folder (default: the user's data folder "
        "for pegboard), or the game file itself",
    )
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.set_defaults(run=cmd_stats)

    advise = sub.add_parser(
        "advise",
        help="the exact expected points of every way to discard to the crib",
        description="Players: 2 (deal 6, keep 4; five-card game: deal 5, keep 3; seven-card game: "
        "deal 7, keep 5) or 3-4 (deal 5, keep 4). The other crib cards are any of the unseen "
        "cards, equally likely; the starter any unseen card left.",
    )
    advise.add_argument("cards", nargs="+", help="the cards dealt to you, e.g. 5H 5C JD QS 2C 9H")
    seat = advise.add_mutually_exclusive_group(required=True)
    seat.add_argument("--dealer", action="store_true", help="the crib is yours (or your partner's)")
    seat.add_argument("--pone", dest="dealer", action="store_false", help="the crib is not yours")
    advise.add_argument("--players", type=int, default=2, choices=(2, 3, 4), help="default 2")
    advise.add_argument("--json", action="store_true", help="print JSON")
    advise.set_defaults(run=cmd_advise)
    serve = sub.add_parser("serve", help="run the board: game, LEDs, dials and the phone panel")
    serve.add_argument("--sim", action="store_true", help="simulated dials and Pico (no hardware)")
    serve.add_argument("--config", type=Path, help="a TOML file overriding the defaults")
    serve.add_argument("--data", type=Path, help="where the game file lives")
    serve.add_argument("--host", help="the panel's address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="the panel's port (default 8080; 0: any free)")
    serve.set_defaults(run=cmd_serve)

    doctor = sub.add_parser(
        "doctor",
        help="check the board: the Pico link, every LED, every dial and button; show the "
        "panel URL and a QR code",
        description="Stop the pegboard service first: the Pico's port and the GPIO pins "
        "serve one program at a time. Exit status 0 if every check passed, 1 if not.",
    )
    doctor.add_argument("--sim", action="store_true", help="check the simulated board")
    doctor.add_argument("--config", type=Path, help="the board's TOML config")
    doctor.add_argument("--timeout", type=float, help="seconds to wait for each control (20)")
    doctor.set_defaults(run=cmd_doctor)

    firmware = sub.add_parser("firmware", help="put the LED firmware on the Pico, or check it")
    firmware.add_argument(
        "action",
        choices=("install", "check", "repl"),
        help="install: copy it with mpremote and check the handshake; check: the handshake "
        "only; repl: reboot the Pico into its REPL once (for mpremote)",
    )
    firmware.add_argument(
        "--port", help="the Pico's serial port (default /dev/pegboard-pico, else found by USB id)"
    )
    firmware.set_defaults(run=cmd_firmware)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.lang is None:
            from pegboard.i18n import from_environment

            args.lang = from_environment(os.environ)
        return args.run(args)
    except PegboardError as error:
        print(f"pegboard: {error}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:  # e.g. `pegboard stats | head`: the reader has gone
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
