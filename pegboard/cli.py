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
from pegboard.i18n import phrase_of
from pegboard.rules.deals import PLAYERS

EXIT_ERROR = 2


def _print_json(value: object) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2))


def _cards_text(cards: Sequence[object]) -> str:
    return " ".join(str(card) for card in cards)


def cmd_score(args: argparse.Namespace) -> int:
    from pegboard.i18n import translations
    from pegboard.rules.cards import Card, parse_cards
    from pegboard.rules.scoring import score_show
    from pegboard.rules.speech import kind_name, show_call

    starter = Card.parse(args.starter)
    show = score_show(parse_cards(args.cards), starter, crib=args.crib)
    if args.wav is not None:
        _say_to(args.wav, [show_call(show, args.lang)], args.lang)
    if args.json:  # keys and kinds stay English; the call is said in the chosen language
        _print_json({**show.as_dict(), "call": show_call(show, args.lang)})
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
    print(show_call(show, args.lang))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from pegboard.i18n import translations
    from pegboard.rules.cards import parse_cards
    from pegboard.rules.play import score_play
    from pegboard.rules.speech import item_name, play_call

    cards = parse_cards(args.cards)
    pegs = [score_play(cards[:i], card) for i, card in enumerate(cards)]
    if args.wav is not None:
        _say_to(args.wav, [play_call(peg, args.lang) for peg in pegs], args.lang)
    if args.json:
        _print_json([{**peg.as_dict(), "call": play_call(peg, args.lang)} for peg in pegs])
        return 0
    count = translations(args.lang).pgettext("play", "count")
    for peg in pegs:
        scored = ", ".join(f"{item_name(item, args.lang)} {item.points}" for item in peg.items)
        print(f"{peg.card!s:>3}  {count} {peg.count:>2}  {peg.points:>2}  {scored}")
    return 0


def _say_to(path: Path, calls: list[str], lang: str) -> None:
    """Speak ``calls`` one after another into the WAV file ``path`` (espeak-ng)."""
    from pegboard.voice import Espeak, save

    engine = Espeak().check()
    save((engine.speak(call, lang) for call in calls), path)


def cmd_stats(args: argparse.Namespace) -> int:
    from pegboard.errors import ConfigError
    from pegboard.i18n import N_, Phrase, translations
    from pegboard.rules.scoring import distribution

    if args.games:
        return _stats_of_games(args)
    if args.data is not None:
        raise ConfigError(
            Phrase(N_("--data goes with --games (the statistics of the stored games)"))
        )
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
    t = translations(args.lang)
    heading = t.gettext("{deals} deals of a {size}-card hand and a starter")
    print(heading.format(deals=f"{deals:,}", size=args.hand_size))
    label = {word: t.gettext(word) for word in (N_("total"), N_("hand"), N_("crib"), N_("mean"))}
    first = max(5, len(label["total"]), len(label["mean"]) - 1)  # English keeps its 5
    print(f"{label['total']:>{first}} {label['hand']:>12} {label['crib']:>12}")
    for total in totals:
        print(f"{total:>{first}} {hand[total]:>12,} {crib[total]:>12,}")
    print(f"{label['mean']:<{first + 1}} {mean['hand']:>12.4f} {mean['crib']:>12.4f}")
    return 0


def _stats_of_games(args: argparse.Namespace) -> int:
    from pegboard.errors import StoreError
    from pegboard.game import Table
    from pegboard.i18n import N_, Phrase, translations
    from pegboard.paths import games_path
    from pegboard.statistics import report, summarise

    data = args.data
    path = data if data is not None and data.is_file() else games_path(data)
    if not path.is_file():  # looked for first: opening would create the file
        raise StoreError(
            Phrase.of(N_("no game file at {path}: give --data, the board's data folder"), path=path)
        )
    with Table(path) as table:
        stats = summarise(table)
    if args.json:
        _print_json({"file": str(path), **stats.as_dict()})
        return 0
    print(translations(args.lang).gettext("games in {path}").format(path=path))
    print(report(stats, args.lang))
    return 0


def cmd_advise(args: argparse.Namespace) -> int:
    from pegboard.i18n import N_, translations
    from pegboard.rules.advice import advise

    advice = advise(args.cards, args.dealer, args.players)
    if args.json:
        _print_json([discard.as_dict() for discard in advice])
        return 0
    t = translations(args.lang)
    if args.dealer:
        print(t.gettext("expected points, exact over every starter and crib; net = hand + crib"))
    else:
        print(t.gettext("expected points, exact over every starter and crib; net = hand - crib"))
    kept, thrown = t.gettext("keep"), t.gettext("discard")
    keep = max(len(kept), *(len(_cards_text(d.keep)) for d in advice))
    away = max(len(thrown), *(len(_cards_text(d.discard)) for d in advice))
    points = [
        (word, max(6, len(word))) for word in map(t.gettext, (N_("hand"), N_("crib"), N_("net")))
    ]
    print(f"{kept:<{keep}}  {thrown:<{away}}  " + " ".join(f"{w:>{n}}" for w, n in points))
    for d in advice:
        print(
            f"{_cards_text(d.keep):<{keep}}  {_cards_text(d.discard):<{away}}  "
            + " ".join(
                f"{float(value):>{width}.2f}"
                for value, (_, width) in zip((d.hand, d.crib, d.net), points, strict=True)
            )
        )
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from pegboard.config import load_config, with_panel
    from pegboard.paths import default_data_dir
    from pegboard.service import serve

    config = with_panel(load_config(args.config), host=args.host, port=args.port)
    if args.wav is not None:  # the voice into WAV files, whatever the config says
        voice = {"enabled": True, "out": "files", "folder": str(args.wav.absolute())}
        config = replace(config, voice={**config.voice, **voice})
    return serve(config, args.data or default_data_dir(), sim=args.sim, lang=args.lang)


def cmd_doctor(args: argparse.Namespace) -> int:
    from pegboard.config import load_config
    from pegboard.maker import controls_check, doctor
    from pegboard.paths import default_data_dir

    timeout = args.timeout or controls_check.CONTROL_SECONDS
    data = args.data or default_data_dir()
    config = load_config(args.config)
    return doctor.run(config, sim=args.sim, lang=args.lang, timeout=timeout, data=data)


def cmd_firmware(args: argparse.Namespace) -> int:
    from pegboard.i18n import translations
    from pegboard.maker import firmware_tool

    t = translations(args.lang)
    if args.action == "install":
        firmware_tool.install(args.port, say=lambda step: print(step.say(args.lang), flush=True))
    elif args.action == "check":
        version = ".".join(map(str, firmware_tool.check(args.port)))
        print(
            t.gettext("firmware {version} answers: it matches this pegboard").format(
                version=version
            )
        )
    else:
        port = firmware_tool.back_to_repl(args.port)
        rebooting = t.gettext(
            "the Pico on {port} is rebooting into the REPL (until its next reset)"
        )
        print(rebooting.format(port=port))
    return 0


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The command line, its help said in ``lang`` (argparse's own words stay English)."""
    from pegboard.club.command import add_club
    from pegboard.i18n import LANGUAGES, translations
    from pegboard.league.command import add_league
    from pegboard.maker.report import answers
    from pegboard.reader.command import add_cards

    _ = translations(lang).gettext
    parser = argparse.ArgumentParser(
        prog="pegboard",
        description=_(
            "Cribbage with real cards on a board of LEDs: score a hand or a play, run the "
            "board and its phone panel, check the board."
        ),
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        help=_(
            "the language of the calls and labels (default: {variable}, then the "
            "locale, e.g. {example}, else {source})"
        ).format(variable="$PEGBOARD_LANG", example="LANG=de_DE.UTF-8", source="en"),
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar=_("command"))

    score = sub.add_parser("score", help=_("score a hand or crib with its starter"))
    score.add_argument(
        "cards", nargs="+", metavar=_("cards"), help=_("the hand: 3 to 6 cards, e.g. 5H 5C 5S JD")
    )
    score.add_argument("--starter", "-s", required=True, help=_("the starter card, e.g. 5D"))
    score.add_argument(
        "--crib", action="store_true", help=_("score as the crib (5-card flush only)")
    )
    score.add_argument("--json", action="store_true", help=_("print JSON"))
    score.add_argument(
        "--wav", type=Path, metavar="FILE", help=_("also speak the call into this WAV file")
    )
    score.set_defaults(run=cmd_score)

    play = sub.add_parser("play", help=_("score each card laid in one count of the play"))
    play.add_argument(
        "cards", nargs="+", metavar=_("cards"), help=_("the cards in the order laid, e.g. 4H 2C 3D")
    )
    play.add_argument("--json", action="store_true", help=_("print JSON"))
    play.add_argument(
        "--wav", type=Path, metavar="FILE", help=_("also speak each call into this WAV file")
    )
    play.set_defaults(run=cmd_play)

    stats = sub.add_parser(
        "stats",
        help=_("the exact distribution of hand and crib totals, or (--games) the stored games"),
    )
    mode = stats.add_mutually_exclusive_group()
    mode.add_argument("--hand-size", type=int, default=4, choices=(3, 4, 5, 6))
    mode.add_argument(
        "--games",
        action="store_true",
        help=_("sum up the stored games: wins, skunks, points a deal, counts missed, matches"),
    )
    stats.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help=_(
            "with --games: the board's data folder (default: the user's data folder "
            "for pegboard), or the game file itself"
        ),
    )
    stats.add_argument("--json", action="store_true", help=_("print JSON"))
    stats.set_defaults(run=cmd_stats)

    advise = sub.add_parser(
        "advise",
        help=_("the exact expected points of every way to discard to the crib"),
        description=_(
            "Players: 2 (deal 6, keep 4; five-card game: deal 5, keep 3; seven-card game: "
            "deal 7, keep 5) or 3-4 (deal 5, keep 4). The other crib cards are any of the unseen "
            "cards, equally likely; the starter any unseen card left."
        ),
    )
    advise.add_argument(
        "cards",
        nargs="+",
        metavar=_("cards"),
        help=_("the cards dealt to you, e.g. 5H 5C JD QS 2C 9H"),
    )
    seat = advise.add_mutually_exclusive_group(required=True)
    seat.add_argument(
        "--dealer", action="store_true", help=_("the crib is yours (or your partner's)")
    )
    seat.add_argument(
        "--pone", dest="dealer", action="store_false", help=_("the crib is not yours")
    )
    advise.add_argument("--players", type=int, default=2, choices=PLAYERS, help=_("default 2"))
    advise.add_argument("--json", action="store_true", help=_("print JSON"))
    advise.set_defaults(run=cmd_advise)
    serve = sub.add_parser("serve", help=_("run the board: game, LEDs, dials and the phone panel"))
    serve.add_argument(
        "--sim", action="store_true", help=_("simulated dials and Pico (no hardware)")
    )
    serve.add_argument("--config", type=Path, help=_("a TOML file overriding the defaults"))
    serve.add_argument("--data", type=Path, help=_("where the game file lives"))
    serve.add_argument(
        "--host",
        help=_(
            "the address the panel listens on (default 0.0.0.0: every network; "
            "127.0.0.1 keeps it on this machine)"
        ),
    )
    serve.add_argument("--port", type=int, help=_("the panel's port (default 8080; 0: any free)"))
    serve.add_argument(
        "--wav",
        type=Path,
        metavar="DIR",
        help=_("write what the board says into WAV files in this folder, not to the speaker"),
    )
    serve.set_defaults(run=cmd_serve)

    add_club(sub, _)
    add_league(sub, _)

    yes, no = (word[0] for word in answers(lang))
    doctor = sub.add_parser(
        "doctor",
        help=_(
            "check the board: the Pico link; each strip's first, middle and last LED, lit "
            "one at a time for you to confirm, and its colours; every dial and button; the "
            "voice; show the panel URL and a QR code"
        ),
        description=_(
            "Each strip's first, middle and last LED lights alone, white, and the doctor "
            "asks whether you see it: answer {yes} or {no}. A dark one is narrowed down to "
            "the two LEDs the fault lies between. Then each strip's first LED lights red, "
            "green and blue and you say which colour you see (1, 2, 3, or 0 for another): a "
            "strip that takes its colours in another order is told the {setting} to set. "
            "Then it asks you to work each dial and button, and says a test phrase. Stop the "
            "pegboard service first: the Pico's port and the GPIO pins serve one program at "
            "a time. Exit status 0 if every check passed, 1 if not."
        ).format(yes=yes, no=no, setting="colour_order"),
    )
    doctor.add_argument("--sim", action="store_true", help=_("check the simulated board"))
    doctor.add_argument("--config", type=Path, help=_("the board's TOML config"))
    doctor.add_argument("--timeout", type=float, help=_("seconds to wait for each control (20)"))
    doctor.add_argument("--data", type=Path, help=_("the board's data folder (its identity)"))
    doctor.set_defaults(run=cmd_doctor)

    firmware = sub.add_parser("firmware", help=_("put the LED firmware on the Pico, or check it"))
    firmware.add_argument(
        "action",
        choices=("install", "check", "repl"),
        help=_(
            "{install}: copy it with mpremote and check the handshake; {check}: the "
            "handshake only; {repl}: reboot the Pico into its REPL once (for mpremote)"
        ).format(install="install", check="check", repl="repl"),
    )
    firmware.add_argument(
        "--port",
        help=_("the Pico's serial port (default {port}, else found by USB id)").format(
            port="/dev/pegboard-pico"
        ),
    )
    firmware.set_defaults(run=cmd_firmware)
    add_cards(sub, _)
    return parser


def chosen_language(argv: Sequence[str]) -> str:
    """The language of ``argv``'s ``--lang``, else of the environment: known before the
    parser is built, so that its help is said in it too.

    >>> chosen_language(["--lang", "fi", "stats"]), chosen_language(["--lang=sv", "-h"])
    ('fi', 'sv')
    """
    from pegboard.i18n import LANGUAGES, SOURCE, from_environment

    early = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    early.add_argument("--lang")
    try:
        lang = early.parse_known_args(argv)[0].lang
    except argparse.ArgumentError:  # `--lang` with no value: the parser says so
        return SOURCE
    if lang is None:
        return from_environment(os.environ)
    return lang if lang in LANGUAGES else SOURCE  # the parser refuses it, in English


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    lang = "en"
    try:
        lang = chosen_language(argv)
        args = build_parser(lang).parse_args(argv)
        args.lang = lang
        code: int = args.run(args)
        return code
    except PegboardError as error:
        said = " ".join(phrase_of(error).say(lang).split())  # one line, whatever it quotes
        print(f"pegboard: {said}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:  # e.g. `pegboard stats | head`: the reader has gone
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
