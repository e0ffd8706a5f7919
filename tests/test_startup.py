"""`pegboard serve` stops on every config or environment problem with one line that names
it and exit status 2, before anything is written: no data folder, no PIN, no key, no
game file, and the files it found left as they were."""

from __future__ import annotations

import json
import socket
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from rewritten import rewrite

from pegboard.config import load_config
from pegboard.errors import ConfigError, StoreError
from pegboard.game import Settings, Table
from pegboard.game.settings import check_name, shown
from pegboard.service import house_settings

SERVE = [sys.executable, "-m", "pegboard.cli", "serve", "--sim"]


def serve(tmp_path: Path, *args: str, config: bytes | None = None) -> str:
    """Run `pegboard serve` with ``args``; it must stop at once: exit 2, one line on stderr
    and nothing on stdout. Returns the line."""
    if config is not None:
        (tmp_path / "board.toml").write_bytes(config)
        args = (*args, "--config", str(tmp_path / "board.toml"))
    home = tmp_path / "home"
    done = subprocess.run(
        [*SERVE, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_DATA_HOME": str(home)},
    )
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.startswith("pegboard: ") and done.stderr.count("\n") == 1, done.stderr
    assert not home.exists()
    return done.stderr.removeprefix("pegboard: ").rstrip("\n")


@pytest.mark.subprocess
def test_a_config_file_that_is_not_utf8(tmp_path):
    data = tmp_path / "data"
    said = serve(tmp_path, "--data", str(data), config=b'[board]\nlanguage = "\xe9n"\n')
    assert said == f"{tmp_path / 'board.toml'}: not UTF-8 text (0xe9 at 20); save it as UTF-8"
    assert not data.exists()


@pytest.mark.parametrize("how", ["config", "option"])
@pytest.mark.subprocess
def test_a_host_that_is_no_address(tmp_path, how):
    data = tmp_path / "data"
    if how == "config":
        said = serve(tmp_path, "--data", str(data), config=b'[panel]\nhost = "999.1.1.1"\n')
        assert said.startswith(
            f"{tmp_path / 'board.toml'}: panel.host must be one of this machine's IP"
        )
    else:
        said = serve(tmp_path, "--data", str(data), "--host", "999.1.1.1")
        assert said.startswith("--host: panel.host must be one of this machine's IP addresses or")
    assert said.endswith("not '999.1.1.1'") and not data.exists()


@pytest.mark.slow
@pytest.mark.subprocess
def test_a_host_of_another_machine(tmp_path):
    data = tmp_path / "data"
    said = serve(tmp_path, "--data", str(data), "--host", "192.0.2.1", "--port", "0")
    assert said.startswith("the panel cannot listen on 192.0.2.1: it is not one of this machine's")
    assert not data.exists()


@pytest.mark.slow
@pytest.mark.subprocess
def test_a_port_another_program_holds_is_found_before_anything_is_written(tmp_path):
    data = tmp_path / "data"
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        said = serve(tmp_path, "--data", str(data), "--host", "127.0.0.1", "--port", str(port))
    assert said == (
        f"the panel cannot listen on 127.0.0.1 port {port}: another program uses it; stop that "
        "program, or choose another port with --port or [panel] port"
    )
    assert not data.exists()


@pytest.mark.subprocess
def test_a_port_out_of_range_on_the_command_line(tmp_path):
    said = serve(tmp_path, "--data", str(tmp_path / "data"), "--port", "70000")
    assert said == "--port: panel.port must be between 0 and 65535, not 70000"


@pytest.mark.subprocess
def test_a_data_folder_that_cannot_be_made(tmp_path):
    (tmp_path / "file").write_text("in the way\n")
    data = tmp_path / "file" / "data"
    said = serve(tmp_path, "--data", str(data), "--port", "0")
    assert said == (
        f"the data folder {data} cannot be made: {tmp_path / 'file'} is a file; give another "
        "folder with --data"
    )


@pytest.mark.slow
@pytest.mark.subprocess
def test_a_game_file_refused_writes_no_pin_and_changes_no_file(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "games.db").write_bytes(b"")
    said = serve(tmp_path, "--data", str(data), "--port", "0")
    assert said.startswith(f"the game file {data / 'games.db'} cannot be used: it is empty")
    assert [p.name for p in data.iterdir()] == ["games.db"]
    assert (data / "games.db").read_bytes() == b""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("pin", "why"), [("٤٥٦٧", "Arabic-Indic digits"), ("１２３４", "fullwidth"), ("12²4", "super")]
)
@pytest.mark.subprocess
def test_pin_digits_are_ascii(tmp_path, pin, why):
    config = f'[board]\npin = "{pin}"\n'.encode()
    said = serve(tmp_path, "--data", str(tmp_path / "data"), config=config)
    assert said.endswith(
        "board.pin must be 4 to 8 digits 0-9 (or empty for a random PIN printed at start)"
    ), why


# --- names: printable text, one rule wherever a name comes in ------------------------------


@pytest.mark.subprocess
def test_players_given_as_one_name_says_so(tmp_path):
    said = serve(tmp_path, "--data", str(tmp_path / "data"), config=b'[game]\nplayers = "Ann"\n')
    assert said.endswith(
        '[game] players is a list of 2 to 4 names, like ["Ann", "Bob"], not \'Ann\''
    )


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("Ann\x1b[2J", "U+001B"),  # an escape sequence: clears a terminal
        ("Ann\u202eboB", "U+202E"),  # a right-to-left override
        ("Ann\u2066x", "U+2066"),  # a direction isolate
        ("Ann\u2028Bob", "U+2028"),  # a line separator
        ("\x00", "U+0000"),
    ],
)
def test_a_name_that_is_not_printable_text_is_refused_in_the_config(name, code):
    config = load_config(text=f"[game]\nplayers = [{json.dumps(name)}, 'Bob']\n")
    with pytest.raises(ConfigError) as refused:
        house_settings(config)
    message = str(refused.value)
    assert f"holds {code}, which is not printable text" in message
    assert message.isprintable() and shown(name) in message


def test_half_a_character_is_no_name():
    """A lone surrogate (what a broken UTF-16 client sends) cannot be stored or shown."""
    with pytest.raises(ConfigError, match=r"holds U\+D800, which is not printable text"):
        Settings(players=("Ann\ud800", "Bob"))


@pytest.mark.parametrize("name", ["Zoë", "Åsa-Britt", "李雷", "محمد", "O'Brien", "Ann 🃏", "Zoë‍👩"])
def test_names_of_every_script_are_printable_text(name):
    """Accents, scripts written right to left, emoji and their joiners are names."""
    check_name(name)
    assert Settings(players=(name, "Bob")).players[0] == name


def stored_with_a_name(path: Path, name: str) -> None:
    """A game file written before names were checked: the name as it was stored."""
    with Table(path) as table:
        table.new_game(Settings(players=("Ann", "Bob")), dealer=0)
    with closing(sqlite3.connect(path)) as db:
        data = json.loads(db.execute("SELECT data FROM events WHERE version = 1").fetchone()[0])
    data["settings"]["players"][0] = name
    rewrite(path, 1, data=json.dumps(data))


def test_a_stored_name_that_is_not_printable_text_is_refused(tmp_path):
    path = tmp_path / "games.db"
    stored_with_a_name(path, "\x1b]0;pwned\x07Ann")
    with pytest.raises(StoreError) as refused:
        Table(path)
    message = str(refused.value)
    assert "event 1 of game 1 cannot be read" in message
    assert "the name \\x1b]0;pwned\\x07Ann holds U+001B, which is not printable" in message
    assert message.isprintable()


@pytest.mark.subprocess
def test_stats_never_prints_a_stored_escape_sequence(tmp_path):
    path = tmp_path / "games.db"
    stored_with_a_name(path, "Ann\x1b[2J\x1b[H")
    done = subprocess.run(
        [sys.executable, "-m", "pegboard.cli", "stats", "--games", "--data", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert "\x1b" not in done.stderr and "Ann\\x1b[2J\\x1b[H" in done.stderr


def test_the_report_writes_out_what_a_terminal_would_obey(tmp_path, monkeypatch, capsys):
    """Were a name to slip past the rule (here the rule is switched off, as for a pegboard
    that had none), ``stats --games`` still prints it escaped, never as a command."""
    from pegboard.cli import main
    from pegboard.game import settings

    monkeypatch.setattr(settings, "check_name", lambda name: None)
    path = tmp_path / "games.db"
    stored_with_a_name(path, "Ann\x1b[2J\u202e")
    assert main(["stats", "--games", "--data", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Ann\\x1b[2J\\u202e" in out and "\x1b" not in out and "\u202e" not in out
