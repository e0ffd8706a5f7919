"""The pin map: the default file, every refusal with its message, overrides, PINS.md."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from pegboard.errors import ConfigError
from pegboard.inputs.pins import (
    DEFAULT_DOC,
    HEADER,
    I2S_PINS,
    ButtonPins,
    DialPins,
    SwitchTiming,
    load_pins,
    main,
    parse_pins,
    pin_table,
    pins_md,
)

DROP = object()


def two_seats() -> dict:
    return {
        "advance": 26,
        "settings": {"bounce_time": 0.02, "hold_time": 1.0},
        "seat": [
            {"dial": {"a": 17, "b": 27, "switch": 22}},
            {"buttons": {"minus": 5, "plus": 6, "peg": 13}},
        ],
    }


def changed(path: tuple, value: object) -> dict:
    """``two_seats()`` with the value at ``path`` replaced (or dropped)."""
    data = two_seats()
    *parents, last = path
    table = data
    for key in parents:
        table = table[key]
    if value is DROP:
        del table[last]
    else:
        table[last] = value
    return data


def test_the_default_map_is_four_dials_and_an_advance_button():
    pin_map = load_pins()
    assert pin_map.seats == (
        DialPins(17, 27, 22),
        DialPins(5, 6, 13),
        DialPins(23, 24, 25),
        DialPins(12, 16, 4),
    )
    assert pin_map.advance == 26
    assert pin_map.settings == SwitchTiming(bounce_time=0.02, hold_time=1.0)
    assert pin_map.audio == "i2s"  # a MAX98357A can be added later without rewiring a control


def test_a_map_with_both_wirings_reads_in_seat_order():
    pin_map = parse_pins(two_seats())
    assert pin_map.seats == (DialPins(17, 27, 22), ButtonPins(minus=5, plus=6, peg=13))
    assert [key for _, key, _ in pin_map.uses()][-4:] == [
        "seat 2 buttons.minus",
        "seat 2 buttons.plus",
        "seat 2 buttons.peg",
        "advance",
    ]


# Every way a pin map is refused (by name), with the start of what it says.
REFUSED = {
    "used-twice": (
        changed(("seat", 1), {"dial": {"a": 17, "b": 4, "switch": 18}}),
        "GPIO 17 is used twice: seat 1 dial.a and seat 2 dial.a",
    ),
    "advance-twice": (
        changed(("advance",), 13),
        "GPIO 13 is used twice: seat 2 buttons.peg and advance",
    ),
    "hat-eeprom": (
        changed(("seat", 0, "dial", "a"), 0),
        "seat 1 dial.a = 0: GPIO 0 and 1 are kept for a HAT's ID EEPROM; use GPIO 2-27",
    ),
    "not-a-gpio": (
        changed(("seat", 1, "buttons", "peg"), 28),
        "seat 2 buttons.peg = 28 is not a GPIO on the 40-pin header; use BCM numbers 2-27",
    ),
    "header-number": (
        changed(("advance",), 40),
        "advance = 40 is not a GPIO on the 40-pin header; use BCM numbers 2-27 "
        "(header pin 40 is GPIO 21)",
    ),
    "text-pin": (
        changed(("seat", 0, "dial", "b"), "GPIO27"),
        "seat 1 dial.b must be a BCM GPIO number (2-27), not 'GPIO27' (text)",
    ),
    "bool-pin": (
        changed(("seat", 0, "dial", "b"), True),
        "seat 1 dial.b must be a BCM GPIO number (2-27), not True (true/false)",
    ),
    "float-pin": (
        changed(("advance",), 26.0),
        "advance must be a BCM GPIO number (2-27), not 26.0 (a decimal number)",
    ),
    "unknown-top-key": (
        changed(("seats",), []),
        "unknown key 'seats' in the pin map (did you mean 'seat'?)",
    ),
    "unknown-pin-key": (
        changed(("seat", 0, "dial", "c"), 4),
        "unknown key 'c' in seat 1 dial (known: 'a', 'b', 'switch')",
    ),
    "unknown-setting": (
        changed(("settings", "hold"), 1.0),
        "unknown key 'hold' in settings (did you mean 'hold_time'?)",
    ),
    "unknown-wiring": (
        changed(("seat", 0, "knob"), {}),
        "unknown key 'knob' in seat 1 (known: 'dial', 'buttons')",
    ),
    "missing-pin": (
        changed(("seat", 0, "dial", "switch"), DROP),
        "seat 1 dial is missing 'switch'",
    ),
    "missing-pins": (
        changed(("seat", 1, "buttons"), {"peg": 13}),
        "seat 2 buttons is missing 'minus', 'plus'",
    ),
    "dial-and-buttons": (
        changed(("seat", 0, "buttons"), {"minus": 4, "plus": 18, "peg": 19}),
        "seat 1 has dial and buttons: give either a dial or buttons",
    ),
    "empty-seat": (changed(("seat", 0), {}), "seat 1 has nothing: give either a dial or buttons"),
    "dial-not-table": (
        changed(("seat", 0, "dial"), 17),
        "seat 1 dial must be a table, not 17",
    ),
    "no-seats": (changed(("seat",), DROP), "no seats: add a [[seat]] table per player"),
    "zero-seats": (changed(("seat",), []), "0 seats given; a board has 1 to 4"),
    "five-seats": (
        changed(("seat",), two_seats()["seat"] * 2 + [{"dial": {"a": 2, "b": 3, "switch": 4}}]),
        "5 seats given; a board has 1 to 4",
    ),
    "seat-table": (
        changed(("seat",), {"dial": {"a": 17, "b": 27, "switch": 22}}),
        "seat must be a list of tables ([[seat]]), not {'dial':",
    ),
    "no-advance": (
        changed(("advance",), DROP),
        "the advance button is missing: add advance = <GPIO>",
    ),
    "settings-not-table": (
        changed(("settings",), 3),
        "settings must be a table, not 3",
    ),
    "setting-text": (
        changed(("settings", "hold_time"), "1s"),
        "settings.hold_time must be a number, not '1s'",
    ),
    "bounce-too-long": (
        changed(("settings", "bounce_time"), 2),
        "settings.bounce_time = 2 is not 0.0 to 0.5 seconds",
    ),
    "hold-shorter-than-bounce": (
        changed(("settings",), {"bounce_time": 0.2, "hold_time": 0.1}),
        "settings.hold_time (0.1 s) must be longer than bounce_time (0.2 s)",
    ),
}


@pytest.mark.parametrize(("data", "message"), list(REFUSED.values()), ids=list(REFUSED))
def test_a_wrong_map_is_refused_with_a_message_naming_the_problem(data, message):
    with pytest.raises(ConfigError) as refused:
        parse_pins(data)
    assert str(refused.value).startswith(f"pin map: {message}")


def test_a_pin_the_service_has_taken_is_refused():
    data = changed(("seat", 0, "dial", "a"), 10)
    with pytest.raises(
        ConfigError, match=r"GPIO 10 is used twice: SPI LED data and seat 1 dial\.a"
    ):
        parse_pins(data, taken={10: "SPI LED data"})


def test_the_config_overrides_keys_and_replaces_the_seat_list():
    override = {
        "settings": {"hold_time": 0.8},
        "advance": 21,
        "seat": [{"buttons": {"minus": 4, "plus": 18, "peg": 19}}],
        "audio": "jack",  # frees the I2S pins
    }
    before = copy.deepcopy(override)
    pin_map = load_pins(override=override)
    assert pin_map.settings == SwitchTiming(bounce_time=0.02, hold_time=0.8)
    assert pin_map.advance == 21
    assert pin_map.seats == (ButtonPins(4, 18, 19),)
    assert pin_map.audio == "jack"
    assert override == before


@pytest.mark.parametrize("gpio", sorted(I2S_PINS))
def test_with_an_i2s_amplifier_its_pins_are_refused_to_the_controls(gpio):
    data = {**two_seats(), "audio": "i2s", "advance": gpio}
    with pytest.raises(ConfigError) as refused:
        parse_pins(data)
    assert str(refused.value) == (
        f"pin map: GPIO {gpio} is used twice: advance and audio i2s.{I2S_PINS[gpio][0]}; "
        'audio = "i2s" keeps GPIO 18-21 for the amplifier: move the control, or set '
        'audio = "jack", "usb" or "none"'
    )
    for audio in ("jack", "usb", "none"):
        assert parse_pins({**data, "audio": audio}).advance == gpio


def test_the_audio_is_one_of_the_known_ways_and_i2s_shows_in_the_wiring():
    with pytest.raises(ConfigError, match="audio must be one of i2s, jack, usb, none, not 'hdmi'"):
        parse_pins({**two_seats(), "audio": "hdmi"})
    table = pin_table(parse_pins({**two_seats(), "audio": "i2s"}))
    assert "| Audio amplifier BCLK (I2S) | 18 | 12 | PCM CLK |" in table
    assert "| Audio amplifier DIN (I2S) | 21 | 40 | PCM DOUT |" in table
    assert "I2S" not in pin_table(parse_pins({**two_seats(), "audio": "usb"}))


def test_an_override_error_names_the_config():
    with pytest.raises(ConfigError, match=r"pins.toml \+ \[pins\]: GPIO 17 is used twice"):
        load_pins(override={"advance": 17})
    with pytest.raises(ConfigError, match=r"pins.toml: \[pins\] must be a table"):
        load_pins(override=[("advance", 21)])


def test_an_unreadable_or_broken_file_is_refused(tmp_path: Path):
    with pytest.raises(ConfigError, match=r"cannot read the pin map .*nothing\.toml"):
        load_pins(tmp_path / "nothing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("advance = \n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"broken\.toml: not valid TOML"):
        load_pins(broken)


def test_the_header_pins_agree_with_gpiozero():
    board = MockFactory().board_info
    for gpio, (header, _) in HEADER.items():
        [(_, info)] = board.find_pin(f"GPIO{gpio}")
        assert info.number == header, gpio


def test_pins_md_is_generated_from_the_default_map():
    expected = pins_md(load_pins())
    assert DEFAULT_DOC.read_text(encoding="utf-8") == expected, (
        "hardware/PINS.md is stale: run python -m tools.hardware --write"
    )


def test_pins_md_shows_bcm_and_header_pin_for_every_use():
    text = pins_md(parse_pins(two_seats()))
    assert "| Seat 1 dial A | 17 | 11 | |" in text
    assert "| Seat 2 peg button | 13 | 33 | PWM1 |" in text
    assert "| Advance button (shared) | 26 | 37 | |" in text
    assert "| Seat 1 dial push switch | GPIO 22 | 15 | 16 | GPIO 23 | |" in text
    assert "holding for 1 s (`hold_time`) is a" in text


def test_the_command_prints_the_table_or_names_the_problem(tmp_path: Path, capsys):
    good = tmp_path / "pins.toml"
    good.write_text("advance = 21\n[[seat]]\nbuttons = {minus = 4, plus = 18, peg = 19}\n")
    assert main([str(good)]) == 0
    assert "| Seat 1 plus button | 18 | 12 | PCM CLK |" in capsys.readouterr().out
    good.write_text("advance = 4\n[[seat]]\nbuttons = {minus = 4, plus = 18, peg = 19}\n")
    assert main([str(good)]) == 2
    assert "GPIO 4 is used twice" in capsys.readouterr().err
