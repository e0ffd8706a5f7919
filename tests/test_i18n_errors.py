"""A broken config, pin map or house rule is explained in the command's language: one line
with no English left but what the maker typed (keys, values, tables, paths); English as it was."""

from __future__ import annotations

import re
import tomllib

import pytest
from test_config import WRONG
from test_i18n_calls import TRANSLATED
from test_i18n_cli import english_in, run
from test_layout import REFUSED as LAYOUTS_REFUSED
from test_layout import TINY
from test_pins import REFUSED

from pegboard.board import Power, Renderer
from pegboard.board.layout import load_layout, parse_layout
from pegboard.config import FREE_SECTIONS, SCHEMA, load_config
from pegboard.errors import ConfigError, LayoutError
from pegboard.game.settings import MATCH_SCORING, OVER_COUNT_RULES, SKUNK_RULES, VARIANTS, Settings
from pegboard.i18n import LANGUAGES, phrase_of
from pegboard.inputs.pins import AUDIO, ButtonPins, DialPins, parse_pins
from pegboard.keeper.aloud import EVENTS
from pegboard.leds import KINDS as DRIVERS
from pegboard.voice.out import KINDS as VOICE_OUTS

# What a maker types, said as typed in every language: the config's sections and keys,
# the pin map's keys, the values a setting may take, TOML's true and false.
PIN_KEYS = {"seat", "advance", "settings", "audio", "dial", "buttons", "bounce_time", "hold_time"}
PIN_KEYS |= {f for wiring in (DialPins, ButtonPins) for f in wiring.__dataclass_fields__}
TYPED = {*SCHEMA, *FREE_SECTIONS, *(key for keys in SCHEMA.values() for key in keys), *PIN_KEYS}
TYPED |= {*Settings.__dataclass_fields__, *VARIANTS, *OVER_COUNT_RULES, *SKUNK_RULES}
TYPED |= {*MATCH_SCORING, *AUDIO, *DRIVERS, *VOICE_OUTS, *EVENTS, *LANGUAGES, "true", "false"}
# Quoted values, [tables] and [[arrays]], dotted keys (board.brightness), key = value.
AS_TYPED = re.compile(
    r"'[^']*'|\"[^\"]*\"|\[\[?[\w.]+\]\]?|\b\w+(?:\.\w+)+\b|\w+ = \S+"
    rf"|\b(?:{'|'.join(sorted(map(re.escape, TYPED), key=len, reverse=True))})\b"
)


def english_left(line: str, lang: str) -> set[str]:
    return english_in(AS_TYPED.sub(" ", line), lang)


def pins(text: str) -> str:
    """A config whose [pins] change the shipped pin map."""
    return "[pins]\n" + text


BROKEN = {
    "pin used twice": pins("advance = 17\n"),  # seat 1's dial.a
    "unknown config key": "[board]\nbrightnes = 0.5\n",
    "no GPIO": pins("advance = 28\n"),
    "GPIO 0": pins("advance = 0\n"),
    "PIN not digits": '[board]\npin = "12a4"\n',
    "unknown layout": '[board]\nlayout = "four-track-999"\n',
    "voice out unknown": '[voice]\nout = "speaker"\n',
    "unknown pin map key": pins("seats = 1\n"),
    "switch missing": pins("[[pins.seat]]\ndial = {a = 5, b = 6}\n"),
    "dial and buttons": pins("[[pins.seat]]\ndial = {a=5, b=6, switch=13}\nbuttons = {}\n"),
    "pin as text": pins('advance = "GPIO26"\n'),
    "hold too short": pins("settings = {bounce_time = 0.2, hold_time = 0.1}\n"),
    "i2s pins": pins('audio = "i2s"\nadvance = 18\n'),
    "port as text": '[panel]\nport = "80"\n',
    "unknown section": "[leds]\n",
    "volume out of range": "[voice]\nvolume = 2\n",
    "unknown event": '[voice]\nevents = ["count"]\n',
    "house rule": '[game]\nvariant = "five-card"\nplayers = ["Ann", "Bob", "Cat"]\n',
    "supply too weak": "[board]\nsupply_ma = 100\n",
    "an RGBW strip": '[board]\ncolour_order = "RGBW"\n',
}


@pytest.fixture(scope="module")
def configs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("configs")
    for name, text in BROKEN.items():
        (folder / f"{name.replace(' ', '-')}.toml").write_text(text)
    return folder


def refused(capsys, configs, lang, name, command="serve"):
    """What ``pegboard --lang LANG COMMAND --sim --config BROKEN`` says: one line, exit 2."""
    config = configs / f"{name.replace(' ', '-')}.toml"
    argv = ["--lang", lang, command, "--sim", "--config", str(config)]
    if command == "serve":
        argv += ["--port", "0", "--data", str(configs / "data")]
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, ""), (name, code, out, err)
    assert err.startswith("pegboard: ") and len(err.splitlines()) == 1, err
    return err.removeprefix("pegboard: ").rstrip("\n")


@pytest.mark.slow
@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_broken_config_is_explained_in_the_language(capsys, configs, lang):
    for name in BROKEN:
        said, english = refused(capsys, configs, lang, name), refused(capsys, configs, "en", name)
        assert said != english, f"{lang} {name}: {said}"
        assert not english_left(said, lang), f"{lang} {name}: {english_left(said, lang)}\n{said}"
    assert not (configs / "data").exists()  # refused before anything is written


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_doctor_explains_a_broken_pin_map_in_the_language(capsys, configs, lang):
    for name in ("pin used twice", "PIN not digits", "unknown layout"):
        said = refused(capsys, configs, lang, name, command="doctor")
        assert said != refused(capsys, configs, "en", name, command="doctor")
        assert not english_left(said, lang), f"{lang} {name}: {said}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_pin_map_and_config_refusal_is_translated(lang):
    for data, _ in REFUSED.values():
        with pytest.raises(ConfigError) as error:
            parse_pins(data)
        said = phrase_of(error.value).say(lang).removeprefix("pin map: ")  # no file: for tests
        assert said != str(error.value), said
        assert not english_left(said, lang), f"{lang}: {english_left(said, lang)} in {said}"
    for text, _ in WRONG:
        with pytest.raises(ConfigError) as error:
            load_config(text=text)
        said = phrase_of(error.value).say(lang).removeprefix("config: ")  # no file: for tests
        if "not valid TOML" in str(error.value):  # the TOML reader's own words follow
            said = said.split(": ")[0]
        assert said != str(error.value), said
        assert not english_left(said, lang), f"{lang}: {english_left(said, lang)} in {said}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_an_led_supply_too_weak_for_the_board_is_said_in_the_language(lang):
    with pytest.raises(ConfigError) as error:
        Renderer(load_layout("two-track-121"), Power(supply_ma=100))
    said = phrase_of(error.value).say(lang)
    assert said != str(error.value) and re.search(r"\b100\b.*\b288\b", said), said
    assert not english_left(said, lang), f"{lang}: {english_left(said, lang)} in {said}"


def layout_keys(table) -> set[str]:
    """Every key of a layout file, at any depth."""
    keys = set()
    for key, value in table.items():
        keys.add(key)
        for inner in value if isinstance(value, list) else [value]:
            keys |= layout_keys(inner) if isinstance(inner, dict) else set()
    return keys


# What a maker types in a layout file, said as typed: its keys.
LAYOUT_TYPED = re.compile(
    rf"\b(?:{'|'.join(layout_keys(tomllib.loads(TINY)) | {'lap_marks', 'laps'})})\b"
)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_layout_refusal_is_said_in_the_language(lang):
    for change, _ in LAYOUTS_REFUSED:
        with pytest.raises(LayoutError) as error:
            parse_layout(TINY.replace(*change), "tiny.toml")
        said = phrase_of(error.value).say(lang)
        if "not valid TOML" in str(error.value):  # the TOML reader's own words follow
            said = said.split(": ")[0]
        assert said != str(error.value), said
        left = english_left(LAYOUT_TYPED.sub(" ", said), lang)
        assert not left, f"{lang}: {left} in {said}"


HOUSE_RULES = [
    {"match_games": 2},
    {"muggins": 1},
    {"first_go_ends": "yes"},
    {"colours": ("red", "blue")},
    {"skunk": "quadruple"},
    {"target": -1},
    {"players": ("Ann", "Bob", "Cat"), "variant": "five-card"},
]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_wrong_house_rules_are_refused_in_the_language(lang):
    for rules in HOUSE_RULES:
        with pytest.raises(ConfigError) as error:
            Settings(**rules)
        said = phrase_of(error.value).say(lang)
        assert said != str(error.value), said
        assert not english_left(said, lang), f"{lang}: {english_left(said, lang)} in {said}"
    with pytest.raises(ConfigError) as error:
        Settings.from_dict({"mugins": True})
    assert not english_left(phrase_of(error.value).say(lang), lang)


def test_english_stays_as_it_was(capsys, configs):
    assert refused(capsys, configs, "en", "pin used twice").endswith(
        "pins.toml + [pins]: GPIO 17 is used twice: seat 1 dial.a and advance"
    )
    assert refused(capsys, configs, "en", "unknown layout") == (
        "no layout called 'four-track-999'; known layouts: pcb-two-track-121, pcb-two-track-61, "
        "three-track-121, three-track-61, two-track-121, two-track-61"
    )
    assert refused(capsys, configs, "en", "voice out unknown").endswith(
        ": voice.out must be one of auto, audio, files, silent, not 'speaker'"
    )
    assert refused(capsys, configs, "en", "pin as text").endswith(
        ": advance must be a BCM GPIO number (2-27), not 'GPIO26' (text)"
    )
    with pytest.raises(LayoutError) as error:
        parse_layout(TINY.replace(", strip = 0, led = 3 }", " }"), "tiny.toml")
    assert str(error.value) == (
        "layout tiny.toml: track 0 hole 3 (t0h3) has no LED (give it a strip and a led)"
    )
    with pytest.raises(ConfigError, match=r"^the game's rules: muggins must be true or false"):
        Settings(muggins=1)
    with pytest.raises(ConfigError, match=r"^the five-card game is for 2 players, not 3$"):
        Settings(players=("Ann", "Bob", "Cat"), variant="five-card")
