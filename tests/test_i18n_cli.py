"""The command line in every language: its help, its tables, the statistics of stored games
and its error lines, with no English left but the terms the seeds keep; English as it was."""

import functools
import re
import subprocess
import sys

import pytest
from game_bot import peg_play
from test_i18n_calls import TRANSLATED, english_left
from test_statistics import deal_one_to_three

from pegboard.cli import build_parser, main
from pegboard.game import Settings, Table
from pegboard.maker.report import FAIL, PASS, SKIP
from pegboard.maker.voice_check import AUDIO_SECTION

MARKERS = (PASS, FAIL, SKIP)

# What argparse says itself (its usage line and headings) and the command line's own syntax:
# the sub-commands and the firmware's actions are typed as they stand in every language.
ARGPARSE = re.compile(
    r"usage:|positional arguments:|options:|show this help message and exit"
    r"|\b(?:score|play|stats|advise|serve|doctor|firmware|install|check|repl|club|cards)\b"
    r"|\b(?:export|send|league|import|clubs|merge|points|standings)\b"  # the club's, the league's
)
COMMANDS = ("score", "play", "stats", "advise", "serve", "doctor", "firmware", "club", "league")
COMMANDS += ("cards",)


@pytest.fixture(autouse=True)
def english_machine(monkeypatch):
    """A machine whose own locale says nothing, and a fixed width for the help."""
    for name in ("PEGBOARD_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("COLUMNS", "100")


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as stop:  # --help
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """A game file: a double skunk, and a best-of-3 match going on in five-card cribbage."""
    path = tmp_path_factory.mktemp("games") / "games.db"
    with Table(path) as table:
        deal_one_to_three(table)
        rules = Settings(players=("Ann", "Bob"), variant="five-card", match_games=3)
        table.new_game(rules, dealer="Bob")
        peg_play(table, "Ann", 20)
    return path


def said(lang, capsys, *argv):
    """What ``pegboard --lang lang argv`` prints, out and error together; it exits as meant."""
    code, out, err = run(capsys, "--lang", lang, *argv)
    assert code in (0, 2), (code, err)
    return out + err


def english_in(text, lang):
    """English words in ``text``, but its paths and the names typed as they stand (a
    setting's key such as colour_order: a name with an underscore is no prose)."""
    typed = re.sub(r"/\S+|\b[a-z]+(?:_[a-z]+)+\b", " ", text)
    return english_left(ARGPARSE.sub(" ", typed), lang)


def english_in_doctor(line, lang):
    """English in a line of the doctor's, but the names it says as they stand: a heading of
    the maker's guide, a dial's pin-map keys (``swap a and b``)."""
    return english_in(re.sub(rf"{AUDIO_SECTION}|\b[ab]\b", " ", line), lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_tables_and_reports_say_no_english(capsys, games, lang):
    for argv in (
        ["stats", "--hand-size", "3"],
        ["stats", "--games", "--data", str(games)],
        ["advise", "5H", "5C", "JD", "QS", "2C", "9H", "--dealer"],
        ["advise", "5H", "5C", "JD", "QS", "2C", "--pone"],
    ):
        text = said(lang, capsys, *argv)
        assert not english_in(text, lang), f"{lang} {argv}: {english_in(text, lang)}\n{text}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_help_of_every_command_says_no_english(capsys, lang):
    for argv in (["--help"], *([command, "--help"] for command in COMMANDS)):
        text = said(lang, capsys, *argv)
        assert not english_in(text, lang), f"{lang} {argv}: {english_in(text, lang)}\n{text}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_error_lines_are_said_in_the_language(capsys, tmp_path, lang):
    empty = tmp_path / "games.db"
    empty.touch()
    for argv in (
        ["score", "5X", "-s", "5D"],  # a card error, raised with its phrase
        ["stats", "--data", str(tmp_path)],  # the command line's own refusals
        ["stats", "--games", "--data", str(tmp_path / "nowhere")],
        ["stats", "--games", "--data", str(empty)],
    ):
        code, out, err = run(capsys, "--lang", lang, *argv)
        assert (code, out) == (2, "")
        assert err.startswith("pegboard: ") and len(err.splitlines()) == 1
        assert not english_in(err.removeprefix("pegboard: "), lang), f"{lang}: {err}"
        assert err != run(capsys, "--lang", "en", *argv)[2]


@pytest.mark.slow
@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.subprocess
def test_the_board_says_where_it_is_and_its_pin_in_the_language(tmp_path, lang):
    """What ``pegboard serve`` prints at start: where phones find the panel, its PIN, where
    the voice goes; a config key (``[panel] host``) stays as it is typed."""
    argv = [sys.executable, "-m", "pegboard.cli", "--lang", lang, "serve", "--sim"]
    argv += ["--host", "127.0.0.1", "--port", "0", "--data", str(tmp_path / "data")]
    argv += ["--wav", str(tmp_path / "said")]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [process.stdout.readline() for _ in range(4)]
    finally:
        process.terminate()
        process.wait(timeout=60)
    assert re.fullmatch(r"pegboard: .*http://localhost:\d+/\n", lines[0]), lines
    assert re.search(r"\b\d{6}\b", lines[2]), lines  # the new PIN
    for line in lines:
        said = re.sub(r"\[\w+\] \w+", " ", line.removeprefix("pegboard: "))
        assert not english_in(said, lang), f"{lang}: {line}"


@pytest.fixture(scope="module")
def doctor_says(tmp_path_factory):
    """The lines ``pegboard --lang LANG doctor --sim`` prints, but its QR code; it passes."""
    folder = tmp_path_factory.mktemp("doctor")

    @functools.cache
    def says(lang):
        argv = [sys.executable, "-m", "pegboard.cli", "--lang", lang, "doctor", "--sim"]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=folder)
        assert done.returncode == 0, done.stdout + done.stderr
        return [line for line in done.stdout.splitlines() if not set(line) <= set("█▀▄ ")]

    return says


@pytest.mark.slow
@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.subprocess
def test_the_doctor_says_every_line_in_the_language(doctor_says, lang):
    english, said = doctor_says("en"), doctor_says(lang)
    assert len(said) == len(english) > 10
    for line, source in zip(said, english, strict=True):
        assert line.split()[0] == source.split()[0] or source.split()[0] not in MARKERS, line
        assert line != source, line  # every line: numbers, names and paths are never all
        left = english_in_doctor(line, lang)
        assert not left, f"{lang}: {left} in {line!r} ({source!r})"


def test_the_language_comes_from_the_environment_before_the_help_is_built(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "sv_SE.UTF-8")
    _, out, _ = run(capsys, "advise", "--help")
    assert "krubban är inte din" in out
    _, out, _ = run(capsys, "--lang", "en", "advise", "--help")  # --lang wins
    assert "the crib is not yours" in out


def test_the_german_statistics_line_up(capsys, games):
    _, out, _ = run(capsys, "--lang", "de", "stats", "--hand-size", "3")
    lines = out.splitlines()
    assert lines[0] == "1,082,900 Verteilungen einer Hand aus 3 Karten und einer Startkarte"
    assert lines[1].split() == ["Summe", "Hand", "Krippe"]
    assert len({len(line) for line in lines[1:-1]}) == 1  # the heading over its columns
    assert lines[-1].split() == ["Mittel", "2.5924", "2.4687"]
    _, out, _ = run(capsys, "--lang", "de", "stats", "--games", "--data", str(games))
    assert "2 Serien, 2 Partien" in out
    assert "Partie 1  Ann 121  Bob 14  Ann gewinnt mit doppeltem Schneider  3 Runden" in out
    assert "fünf Karten, beste aus 3 (Zuhause)" in out
    assert "Serie: Ann 0, Bob 0 (2 zum Sieg)" in out


def test_the_advice_table_lines_up_in_finnish(capsys):
    _, out, _ = run(capsys, "--lang", "fi", "advise", "5H", "5C", "JD", "QS", "2C", "9H", "--pone")
    heading, header, *rows = out.splitlines()
    assert heading.endswith("netto = käsi - kribi")
    assert header.split() == ["pidä", "sivuun", "käsi", "kribi", "netto"]
    assert len(rows) == 15 and len({len(row) for row in [header, *rows]}) == 1


def test_english_stays_as_it_was(capsys, games):
    _, out, _ = run(capsys, "stats", "--hand-size", "3")
    assert out.splitlines()[1] == "total         hand         crib"
    assert out.splitlines()[-1] == "mean         2.5924       2.4687"
    _, out, _ = run(capsys, "advise", "5H", "5C", "JD", "QS", "2C", "9H", "--dealer")
    assert out.splitlines()[:2] == [
        "expected points, exact over every starter and crib; net = hand + crib",
        "keep         discard    hand   crib    net",
    ]
    _, out, _ = run(capsys, "stats", "--games", "--data", str(games))
    assert "2 matches, 2 games" in out
    assert "game 1  Ann 121  Bob 14  Ann won, double  3 deals" in out
    assert "five-card, best of 3 (home)" in out
    _, _, err = run(capsys, "stats", "--data", str(games.parent))
    assert err == "pegboard: --data goes with --games (the statistics of the stored games)\n"
    assert build_parser().format_help() == build_parser("en").format_help()
    assert "(default: $PEGBOARD_LANG, then the locale, e.g. LANG=de_DE.UTF-8, else en)" in (
        " ".join(build_parser().format_help().split())
    )
