"""Statistics of stored games, as a player reads them: averages, skunks, Muggins, counts
missed, match history, the score race; and `pegboard stats --games`."""

import json
import random
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest
from game_bot import TABLES, Bot, open_table, peg_play

from pegboard.cli import main
from pegboard.game import Settings, Table
from pegboard.paths import default_data_dir, games_path
from pegboard.statistics import (
    Skunks,
    games_of,
    report,
    score_race,
    summarise,
)

NAMES = ("Ann", "Bob", "Cat", "Dan")


def deal_one_to_three(table):
    """Ann deals first.  She counts 12 and 8 in her hands and 6 in her crib, mugs Bob's
    short hand, is mugged falsely by Bob, challenges Bob's over-count and gets 2 for it,
    pegs his heels,
    and pegs out while Bob has 14: a double skunk."""
    settings = Settings(players=("Ann", "Bob"), muggins=True, over_count="penalise")
    table.new_game(settings, dealer="Ann")
    table.turn_starter("5D")
    table.claim("Bob", 2)  # the play, pegged by hand
    table.claim("Ann", 3)
    table.advance()
    table.claim("Bob", 8, cards="10H 10C 4S AS")  # shows 10: 2 missed
    table.muggins("Ann", 2)
    table.claim("Ann", 12, cards="2C 4C 5C 3D")  # exact
    table.muggins("Bob", 2)  # a false call: Ann pegs the 2
    table.claim("Ann", 6, cards="3C 3H 9H QC")  # her crib, exact
    table.advance()
    table.turn_starter("KC")  # Bob deals
    table.claim("Ann", 2)
    table.advance()
    table.claim("Ann", 8, cards="2C 3C 4C AH")
    table.claim("Bob", 6, cards="AC 4D QH 2S")  # shows 4: pegged as claimed, kept
    table.challenge("Ann")  # over: 2 taken back, Ann pegs 2 (no Muggins call)
    table.claim("Bob", 0)  # his crib: nineteen
    table.advance()
    table.turn_starter("JH")  # Ann deals: two for his heels
    return peg_play(table, "Ann", 121 - table.state.scores[0])


@pytest.fixture
def games(tmp_path):
    """A game file holding the scripted game above; its path."""
    path = tmp_path / "games.db"
    with Table(path) as table:
        deal_one_to_three(table)
    return path


def statistics_of(path):
    with Table(path) as table:
        return summarise(table)


def test_a_players_averages_skunks_muggins_and_counts_missed(games):
    stats = statistics_of(games)
    ann, bob = stats.players["Ann"], stats.players["Bob"]
    assert (ann.hands, ann.hand_points, ann.hand_average) == (2, 20, 10.0)
    assert (ann.cribs, ann.crib_average) == (1, 6.0)
    assert (bob.hands, bob.hand_average, bob.cribs, bob.crib_average) == (2, 6.0, 1, 0.0)
    assert ann.deals == bob.deals == 3
    assert ann.play_points == 3 + 2 + (121 - 39) and bob.play_average == 2 / 3
    assert (ann.heels_points, ann.penalty_points, ann.muggins_points) == (2, 2, 4)
    # Muggins: Ann's call won 2; Bob's was false and gave her 2.
    assert (ann.muggins_calls, ann.muggins_won, ann.false_muggins) == (1, 2, 0)
    assert (bob.muggins_calls, bob.muggins_won, bob.false_muggins) == (1, 0, 1)
    assert bob.false_muggins_points == 2
    assert (bob.missed, bob.missed_points, bob.over, bob.over_points) == (1, 2, 1, 2)
    assert (ann.missed, ann.over) == (0, 0)
    # The result: a double skunk, and every point accounted for.
    assert (ann.games, ann.wins, ann.losses, ann.skunks_given) == (1, 1, 0, Skunks(double=1))
    assert (bob.games, bob.wins, bob.losses, bob.skunks_taken) == (1, 0, 1, Skunks(double=1))
    assert (ann.pegged, bob.pegged) == (121, 14)
    (match,) = stats.matches
    (game,) = match.games
    assert (game.scores, game.winner, game.skunk, game.deals) == ((121, 14), 0, 2, 3)
    assert match.winner == 0 and game.players == stats.players


def test_the_report_shows_the_numbers_in_tables(games):
    text = report(statistics_of(games))
    ann = next(line for line in text.splitlines() if line.startswith("Ann ") and "/" in line)
    assert ann.split() == ["Ann", "1", "1", "0", "0/1/0", "0/0/0", "3", "10.00", "6.00", "29.00"]
    bob = [line.split() for line in text.splitlines() if line.startswith("Bob ")][1]
    assert bob == ["Bob", "0", "0", "0", "0", "1", "2", "1", "2", "1", "0", "1"]
    assert "1 match, 1 game" in text
    assert "game 1  Ann 121  Bob 14  Ann won, double  3 deals" in text


def test_a_match_keeps_every_game_and_leaves_out_what_was_undone(tmp_path):
    path = tmp_path / "games.db"
    with Table(path) as table:
        table.new_game(Settings(players=("Ann", "Bob"), match_games=3), dealer="Bob")
        peg_play(table, "Bob", 95)
        peg_play(table, "Ann", 121)  # 121-95: one game
        table.next_game()
        peg_play(table, "Ann", 100)
        table.claim("Ann", 7)
        table.undo()  # the 7 taken back
        peg_play(table, "Bob", 121)
        table.next_game(cuts="KH 3C")  # the third game is cut for
        table.undo()  # the third game taken back, and started again
        table.redo()
        peg_play(table, "Bob", 80)
        state = peg_play(table, "Ann", 121)  # a skunk: two games at home
    assert [g.game for g in games_of(state)] == [1, 2, 3]
    (match,) = statistics_of(path).matches
    assert [(g.scores, g.winner, g.skunk) for g in match.games] == [
        ((121, 95), 0, 0),
        ((100, 121), 1, 0),
        ((121, 80), 0, 1),
    ]
    assert (match.points, match.needed, match.winner) == ((3, 1), 2, 0)
    assert match.games[1].players["Ann"].play_points == 100
    ann = statistics_of(path).players["Ann"]
    assert (ann.games, ann.wins, ann.losses, ann.skunks_given) == (3, 2, 1, Skunks(skunk=1))
    text = report(statistics_of(path))
    assert "best of 3 (home)" in text and "match: Ann 3, Bob 1: Ann won it" in text


def test_an_unfinished_game_counts_its_points_but_no_result(tmp_path):
    path = tmp_path / "games.db"
    with Table(path) as table:
        table.new_game(Settings(players=("Ann", "Bob", "Cat")), dealer="Cat")
        peg_play(table, "Bob", 20)
        table.advance()
        table.claim("Ann", 4)
    (match,) = statistics_of(path).matches
    (game,) = match.games
    assert (game.winner, game.deals, match.winner) == (None, 1, None)
    bob = game.players["Bob"]
    assert (bob.games, bob.wins, bob.losses, bob.play_points) == (0, 0, 0, 20)
    assert game.players["Ann"].hand_average == 4.0 and game.players["Cat"].hands == 0
    assert "game 1  Ann 4  Bob 20  Cat 0  goes on  1 deal" in report(statistics_of(path))


@pytest.mark.slow
def test_every_point_of_random_games_is_accounted_for():
    """Bots play a match at every table; each side's points add up to its score, one way
    or the other, and the race ends where the scores stand."""
    with open_table() as table:
        for players, variant in TABLES:
            rules = Settings(
                players=NAMES[:players], variant=variant, muggins=True, over_count="penalise"
            )
            bot = Bot(table, random.Random(f"{players}{variant}"), settings=rules)
            table.new_game(rules, dealer=0)
            while bot.play_game().match.winner is None:
                table.next_game()
        stats = summarise(table)
        finals = [table.state_of(record.id) for record in table.games()]
    assert len(stats.matches) == len(TABLES)
    wins = 0
    for match, final in zip(stats.matches, finals, strict=True):
        ends = games_of(final)
        assert [r.scores for r in final.results] == [g.scores for g in match.games]
        for game, end in zip(match.games, ends, strict=True):
            wins += len(end.players) // end.sides
            for side in range(end.sides):
                partners = [game.players[name] for name in end.players[side :: end.sides]]
                penalty = partners[0].penalty_points * (len(partners) - 1)
                assert sum(t.pegged for t in partners) - penalty == game.scores[side]
                race = [score for _, who, score in score_race(end) if who == side]
                assert race[-1:] == [game.scores[side]][: len(race)]
            assert all(t.games == 1 and t.wins + t.losses == 1 for t in game.players.values())
    players = stats.players
    assert sum(t.wins for t in players.values()) == wins
    for counted in ("muggins_calls", "false_muggins", "missed", "over", "penalty_points"):
        assert sum(getattr(t, counted) for t in players.values()) > 0, counted
    assert players["Ann"].games == stats.games


# --- the command ---------------------------------------------------------------------------


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def snapshot(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def test_stats_games_prints_tables_and_writes_nothing(capsys, games):
    before = snapshot(games.parent)
    for data in (games.parent, games):  # the data folder, or the file itself
        code, out, err = run(capsys, "stats", "--games", "--data", str(data))
        assert (code, err) == (0, "")
        assert out.startswith(f"games in {games}\n")
        assert "0/1/0" in out and "10.00" in out and "Ann won, double" in out
    assert snapshot(games.parent) == before


def test_stats_games_json(capsys, games):
    code, out, _ = run(capsys, "stats", "--games", "--data", str(games.parent), "--json")
    data = json.loads(out)
    assert code == 0 and data["file"] == str(games)
    ann = data["players"]["Ann"]
    assert (ann["hand_average"], ann["crib_average"], ann["muggins_won"]) == (10.0, 6.0, 2)
    assert ann["skunks_given"] == {"skunk": 0, "double": 1, "triple": 0}
    assert data["players"]["Bob"]["missed_points"] == 2
    (match,) = data["matches"]
    assert (match["sides"], match["winner"], match["best_of"]) == (["Ann", "Bob"], "Ann", 1)
    (game,) = match["games"]
    assert (game["scores"], game["winner"], game["skunk"]) == ([121, 14], "Ann", 2)
    assert game["players"]["Bob"]["over_points"] == 2


def test_stats_games_on_an_empty_game_file(capsys, tmp_path):
    Table(tmp_path / "games.db").close()
    code, out, _ = run(capsys, "stats", "--games", "--data", str(tmp_path))
    assert code == 0 and "no games stored yet" in out
    _, out, _ = run(capsys, "stats", "--games", "--data", str(tmp_path), "--json")
    assert json.loads(out)["matches"] == []


def stats_command(*argv):
    return subprocess.run(
        [sys.executable, "-m", "pegboard.cli", "stats", *argv],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.slow
@pytest.mark.subprocess
def test_a_missing_game_file_is_one_line_exit_2_and_is_not_created(tmp_path):
    nowhere = tmp_path / "nowhere"
    result = stats_command("--games", "--data", str(nowhere))
    assert result.returncode == 2 and result.stdout == ""
    message = f"pegboard: no game file at {nowhere / 'games.db'}: give --data, the board's data"
    assert result.stderr == message + " folder\n"
    assert not nowhere.exists()
    (tmp_path / "games.db").touch()  # an empty file is not a game file either
    result = stats_command("--games", "--data", str(tmp_path))
    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert "is empty" in result.stderr
    assert (tmp_path / "games.db").stat().st_size == 0


def test_the_default_game_file_is_in_the_users_data_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_data_dir() == tmp_path / "pegboard"
    assert games_path() == tmp_path / "pegboard" / "games.db" == games_path(default_data_dir())
    assert default_data_dir() == Path(platformdirs.user_data_dir("pegboard"))
    code, _, err = run(capsys, "stats", "--games")
    assert code == 2 and str(tmp_path / "pegboard" / "games.db") in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.subprocess
def test_the_exhaustive_mode_is_unchanged(capsys):
    code, out, _ = run(capsys, "stats", "--hand-size", "3")
    assert code == 0 and out.startswith("1,082,900 deals of a 3-card hand and a starter\n")
    code, out, _ = run(capsys, "stats", "--hand-size", "3", "--json")
    assert json.loads(out)["deals"] == 1_082_900
    code, _, err = run(capsys, "stats", "--data", "/srv/pegboard")
    assert (
        code == 2
        and err == "pegboard: --data goes with --games (the statistics of the stored games)\n"
    )
    result = stats_command("--games", "--hand-size", "5")
    assert result.returncode == 2 and "not allowed with argument" in result.stderr
