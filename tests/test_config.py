"""The config file: every wrong key, type, range and section is refused by name, and
`pegboard serve --config bad.toml` stops at once: one line, exit 2, nothing written."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pegboard.config import SCHEMA, load_config
from pegboard.errors import ConfigError


def refusal(text: str) -> str:
    with pytest.raises(ConfigError) as refused:
        load_config(text=text)
    return str(refused.value)


def test_no_file_gives_the_embedded_defaults():
    config = load_config()
    for section, keys in SCHEMA.items():
        made = {
            key: default() if callable(default) else default for key, (default, *_) in keys.items()
        }
        assert getattr(config, section) == made
    assert config.pins == {} and config.game == {}


def test_a_file_overrides_only_what_it_names(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text('[board]\nbrightness = 0.8\nlayout = "two-track-61"\n[panel]\nport = 80\n')
    config = load_config(path)
    assert config.board["brightness"] == 0.8 and config.board["layout"] == "two-track-61"
    assert config.board["driver"] == "sim" and config.panel == {**load_config().panel, "port": 80}
    assert config.source == str(path)


# Every kind of wrong entry, with what its refusal names.
WRONG = [
    ("[board]\nbrightnes = 0.5", "unknown key 'board.brightnes' (did you mean 'board.bright"),
    ("[panel]\npotr = 80", "unknown key 'panel.potr' (did you mean 'panel.port'?)"),
    ('[board]\nbrightness = "high"', "board.brightness must be a number, not 'high'"),
    ("[board]\nbrightness = true", "board.brightness must be a number, not True"),
    ("[panel]\nport = 80.5", "panel.port must be a whole number, not 80.5"),
    ("[board]\nlayout = 2", "board.layout must be text, not 2"),
    ("[board]\nbrightness = 1.5", "board.brightness must be between 0.0 and 1.0, not 1.5"),
    ("[panel]\nport = 70000", "panel.port must be between 0 and 65535, not 70000"),
    ("[panel]\nthreads = 1", "panel.threads must be between 4 and 256, not 1"),
    ("[board]\nsupply_ma = 50", "board.supply_ma must be between 100 and 100000, not 50"),
    ('[board]\ndriver = "usb"', "board.driver must be one of serial, spi, sim, not 'usb'"),
    ('[board]\npin = "12a4"', "board.pin must be 4 to 8 digits"),
    ('[board]\ncolour_order = "RGBW"', "board.colour_order = 'RGBW': that is a strip with a"),
    ('[board]\ncolour_order = "rgb"', "board.colour_order must be one of GRB, RGB, BRG, BGR,"),
    (
        "[bord]\nlayout = 'x'",
        "unknown section [bord] (known: board, camera, game, panel, pins, voice)",
    ),
    ("board = 3", "board must be a table [board]"),
    ("[board]\nbrightness = ", "not valid TOML: "),
    ("[board\n", "not valid TOML: "),
    ('[voice]\nout = "speaker"', "voice.out must be one of auto, audio, files, silent"),
    ("[voice]\nenabled = 1", "voice.enabled must be true or false, not 1"),
    ("[voice]\nrate = 20", "voice.rate must be between 80 and 450, not 20"),
    ("[voice]\nvolume = 2", "voice.volume must be between 0.0 and 1.0, not 2"),
    ('[voice]\nevents = ["counts", "count"]', "voice.events must name some of counts, "),
    ('[voice]\nevents = "counts"', "voice.events must be a list, not 'counts'"),
]


@pytest.mark.parametrize(("text", "named"), WRONG)
def test_each_wrong_entry_is_refused_with_its_name(text, named):
    message = refusal(text)
    assert message.startswith("config: ")
    assert named in message


def test_a_missing_file_is_named(tmp_path):
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(ConfigError, match=r"nowhere\.toml: cannot read"):
        load_config(missing)


def test_the_file_is_named_in_every_refusal(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text("[board]\nbrightness = 9\n")
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    assert str(refused.value).startswith(f"{path}: board.brightness ")


SERVE = [sys.executable, "-m", "pegboard.cli", "serve", "--sim", "--port", "0"]
BAD = {
    "key": "[board]\nbrightnes = 0.5\n",
    "type": '[panel]\nport = "80"\n',
    "range": "[board]\nbrightness = 3\n",
    "toml": "[board\n",
    "section": "[leds]\n",
    "layout": '[board]\nlayout = "four-track-999"\n',
    "pins": "[pins]\nadvance = 1\n",
}


@pytest.mark.slow
@pytest.mark.parametrize("kind", BAD)
@pytest.mark.subprocess
def test_serve_with_a_bad_config_exits_2_with_one_line_and_writes_nothing(tmp_path, kind):
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD[kind])
    data, home = tmp_path / "data", tmp_path / "home"
    done = subprocess.run(
        [*SERVE, "--config", str(bad), "--data", str(data)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(home), "XDG_DATA_HOME": str(home)},
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("pegboard: ") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr
    assert not data.exists() and not home.exists()
