"""The pegboard command: a contract other tools rely on."""

import json
import subprocess
import sys

import pytest

from pegboard.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_prints_breakdown_and_call(capsys):
    code, out, _ = run(capsys, "score", "5H", "5C", "5S", "JD", "--starter", "5D")
    assert code == 0
    assert "29" in out
    assert "one for his nobs is twenty-nine" in out
    assert out.count("fifteen ") >= 8


def test_score_json_has_the_contract_fields(capsys):
    code, out, _ = run(capsys, "score", "4h", "5c", "5s", "6d", "-s", "2c", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["total"] == 12
    assert (data["fifteens"], data["pairs"], data["runs"], data["flush"], data["nobs"]) == (
        4,
        2,
        6,
        0,
        0,
    )
    assert sum(item["points"] for item in data["items"]) == 12
    assert {"kind": "pair", "cards": ["5♣", "5♠"], "points": 2} in data["items"]


def test_crib_flag_changes_the_flush(capsys):
    _, hand, _ = run(capsys, "score", "2H", "4H", "6H", "8H", "-s", "QC", "--json")
    _, crib, _ = run(capsys, "score", "2H", "4H", "6H", "8H", "-s", "QC", "--crib", "--json")
    assert json.loads(hand)["flush"] == 4
    assert json.loads(crib)["flush"] == 0


def test_play_scores_each_card(capsys):
    code, out, _ = run(capsys, "play", "--json", "4H", "2C", "3D", "5S", "5H")
    pegs = json.loads(out)
    assert code == 0
    assert [p["count"] for p in pegs] == [4, 6, 9, 14, 19]
    assert [p["points"] for p in pegs] == [0, 0, 3, 4, 2]


def test_stats_json_matches_published_facts(capsys):
    code, out, _ = run(capsys, "stats", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["deals"] == 12_994_800
    assert data["hand"]["29"] == 4 and data["hand"]["0"] == 1_009_008
    assert data["never"] == [19, 25, 26, 27]
    assert round(data["mean"]["hand"], 4) == 4.7692


@pytest.mark.subprocess
@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["score", "5H", "5X", "5S", "JD", "-s", "5D"], "'X' is not a suit"),
        (["score", "5H", "5H", "5S", "JD", "-s", "5D"], "5♥ is given twice"),
        (["score", "5H", "5C", "5S", "JD", "-s", "JD"], "J♦ is given twice"),
        (["play", "KH", "QH", "JH", "5C"], "may not pass 31"),
        (["score", "5H", "-s", "5D"], "not 1"),
    ],
)
def test_errors_are_one_line_and_exit_2(argv, says):
    result = subprocess.run(
        [sys.executable, "-m", "pegboard.cli", *argv], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert result.stdout == ""
    assert says in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
