"""`pegboard doctor`'s colour check: each strip's first LED lit red, green and blue, the
colour a person saw, and the colour order a wrong answer names; the setting itself, through
the config, the drivers and the firmware to the bytes on the data line."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from pegboard._firmware import pegproto
from test_doctor import FAST, config, lines, run

from pegboard.board.layout import load_layout
from pegboard.board.render import Frame
from pegboard.config import load_config
from pegboard.errors import ConfigError
from pegboard.leds import open_driver
from pegboard.leds.emulator import EmulatedPico
from pegboard.maker import colours
from pegboard.maker.colours import OTHER, scripted


def first_lit(strips) -> tuple[int, int, bytes] | None:
    """(strip, LED, RGB) of the one LED lit, if exactly one is."""
    on = [
        (s, i // 3, bytes(rgb[i : i + 3]))
        for s, rgb in enumerate(strips)
        for i in range(0, len(rgb), 3)
        if any(rgb[i : i + 3])
    ]
    return on[0] if len(on) == 1 else None


def test_each_strip_lights_red_green_and_blue_on_its_start_hole_and_is_asked_which():
    board = load_layout("two-track-61")
    asked = []
    with EmulatedPico() as pico:
        seen = colours.sim_colours(pico, io.StringIO())

        def eye(look):
            asked.append((look.strip.id, look.led, look.sent, first_lit(pico.seen)))
            return seen(look)

        code, text = run(config(layout="two-track-61"), pico=pico, colour_eye=eye)
    assert code == 0, text
    start = {s.id: board.hole(s.id, 0).led for s in board.strips}
    assert [(s, led, sent) for s, led, sent, _ in asked] == [
        (s, start[s], sent) for s in (0, 1) for sent in "RGB"
    ]
    full = {"R": 0, "G": 1, "B": 2}
    for strip, led, sent, lit in asked:  # what a person sees on a GRB strip: that colour alone
        assert lit is not None and lit[:2] == (strip, led)
        assert [i for i, level in enumerate(lit[2]) if level] == [full[sent]]
    for strip in board.strips:
        assert (
            f"PASS  colours of strip {strip.id} (Pico GP{strip.pin}): red looked red, green "
            f'green, blue blue: colour_order = "GRB" is right'
        ) in text


def test_red_seen_as_green_names_the_rgb_order_to_set():
    code, text = run(config(), colour_eye=scripted({"R": "G", "G": "R", "B": "B"}))
    assert code == 1
    failed = lines(text, "FAIL")
    assert len(failed) == 2
    assert failed[0].startswith(
        "FAIL  colours of strip 0 (Pico GP2): red looked green, green red, blue blue: the strip "
        'takes its colours in the order RGB, not GRB: set colour_order = "RGB" under [board]'
    )
    assert "doctor: 2 failed: colours of strip 0 (Pico GP2), colours of strip 1" in text


def test_an_rgbw_strip_showing_white_is_named_for_what_it_is():
    code, text = run(config(), colour_eye=scripted({"R": OTHER, "G": "G", "B": OTHER}))
    assert code == 1
    (first, _) = lines(text, "FAIL")
    assert "red looked another colour, green green, blue another colour" in first
    assert "not a 3-colour WS2812B strip (an RGBW strip shows white or a mix)" in first
    assert "colour_order stays GRB" in first


def test_a_colour_nobody_answers_fails_the_strip_and_says_which():
    code, text = run(config(), colour_eye=scripted({"R": "R", "G": None, "B": "B"}))
    assert code == 1
    assert lines(text, "FAIL  colours of strip 0 (Pico GP2): no answer for green")


def test_a_dark_strip_is_not_asked_its_colours():
    asked = []
    with EmulatedPico() as pico:
        code, text = run(
            config(),
            pico=pico,
            eye=lambda look: look.strip.id == 0,
            colour_eye=lambda look: asked.append(look.strip.id) or look.sent,
        )
    assert code == 1 and asked == [0, 0, 0]
    assert "colours of strip 1" not in text


def test_the_colour_order_set_reaches_the_bytes_on_the_data_line():
    strips = load_layout("two-track-61").strips
    red = Frame(tuple(b"\xff\x00\x00" + bytes(3 * (s.leds - 1)) for s in strips))
    for order, wire in (
        ("GRB", b"\x00\xff\x00"),
        ("RGB", b"\xff\x00\x00"),
        ("BRG", b"\x00\xff\x00"),
    ):
        with open_driver("sim", strips, colour_order=order) as leds:
            leds.show(red)
            assert leds.wait_synced(5)
            assert leds.pico.hw.order == pegproto.ORDERS.index(order)
            assert bytes(leds.pico.hw.wire[0][:3]) == wire, order
            assert leds.pico.leds[0][:3] == b"\xff\x00\x00"  # the board itself stays RGB


def test_a_wrong_order_on_the_simulated_grb_strips_is_seen_wrong():
    strips = load_layout("two-track-61").strips
    red = Frame(tuple(b"\xff\x00\x00" + bytes(3 * (s.leds - 1)) for s in strips))
    with open_driver("sim", strips, colour_order="RGB") as leds:
        leds.show(red)
        assert leds.wait_synced(5)
        assert leds.pico.seen[0][:3] == b"\x00\xff\x00"  # red sent RGB, a WS2812B lights green


@pytest.mark.parametrize(
    ("typed", "refused"),
    [
        ("RGBW", "a fourth, white LED (RGBW, such as SK6812 RGBW), which takes 32 bits a LED"),
        ("GRBW", "pegboard drives 3-colour strips (WS2812B), whose order is one of GRB, RGB"),
        ("grb", "board.colour_order must be one of GRB, RGB, BRG, BGR, RBG, GBR, not 'grb'"),
    ],
)
def test_an_rgbw_or_unknown_colour_order_is_refused_by_the_config(typed, refused):
    with pytest.raises(ConfigError) as error:
        load_config(text=f'[board]\ncolour_order = "{typed}"\n')
    assert refused in str(error.value)


@pytest.mark.slow
@pytest.mark.subprocess
def test_pegboard_doctor_sim_asks_the_colours_and_a_wrong_order_names_the_setting(tmp_path):
    board = tmp_path / "board.toml"
    board.write_text(f'[board]\ncolour_order = "RGB"\n[voice]\nenabled = false\n{FAST}')
    done = subprocess.run(
        [sys.executable, "-m", "pegboard.cli", "doctor", "--sim", "--config", str(board)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    question = "strip 0 (Pico GP2) LED 0: which colour is the start hole of track 1? [1 red,"
    asked = [line.strip() for line in done.stdout.splitlines() if question in line]
    assert [line[-1] for line in asked] == ["2", "1", "3"]  # the simulated strips are GRB
    assert 'set colour_order = "GRB" under [board] in the config' in done.stdout
