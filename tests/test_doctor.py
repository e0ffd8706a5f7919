"""`pegboard doctor`: the simulated board checked part by part, and what it says when a part fails.

The LEDs are the real firmware behind a pty (EmulatedPico): the test reads what
its strips showed. The controls are gpiozero's mock pins, worked by a finger
that may skip a control or turn a dial the wrong way.
"""

from __future__ import annotations

import io
import ipaddress
import os
import subprocess
import sys
import threading

import pytest
from pegboard._firmware import pegproto
from test_i18n_calls import TRANSLATED, english_left
from test_i18n_cli import english_in_doctor

from pegboard.board.layout import load_layout
from pegboard.cli import build_parser, main
from pegboard.config import load_config
from pegboard.i18n import LANGUAGES
from pegboard.identity import Identity
from pegboard.inputs import Peg, Turn
from pegboard.leds.emulator import EmulatedPico
from pegboard.leds.pico import PicoDriver
from pegboard.maker import doctor, sight
from pegboard.maker.report import PASS, answers, heard

FAST = "[pins.settings]\nbounce_time = 0.002\nhold_time = 0.15\n"


def config(extra: str = "", layout: str = "two-track-121"):
    return load_config(text=f'[board]\nlayout = "{layout}"\n{extra}\n{FAST}')


def run(cfg, **options) -> tuple[int, str]:
    out = io.StringIO()
    code = doctor.run(cfg, sim=True, out=out, **options)
    return code, out.getvalue()


def lines(text: str, status: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(status)]


def lit_alone(shown) -> list[tuple[int, int]]:
    """(strip, led) of each board the Pico showed with exactly one LED lit, white."""
    lit = []
    for strips in shown:
        on = [
            (s, i // 3, rgb[i : i + 3])
            for s, rgb in enumerate(strips)
            for i in range(0, len(rgb), 3)
            if any(rgb[i : i + 3])
        ]
        if len(on) == 1 and len(set(on[0][2])) == 1:
            lit.append(on[0][:2])
    return lit


def under_holes(board, strip) -> list[int]:
    return sorted(h.led for h in board.holes() if h.strip == strip)


@pytest.mark.parametrize("layout", ["two-track-61", "three-track-121"])
def test_each_strip_shows_its_first_middle_and_last_led_to_the_person_watching(layout):
    board = load_layout(layout)
    asked = []
    with EmulatedPico(history=5000) as pico:
        seen = sight.sim_eye(pico)

        def eye(look):
            asked.append((look.strip.id, look.led, look.hole))
            return seen(look)

        code, text = run(config(layout=layout), pico=pico, eye=eye)
        shown = list(pico.shown)
    assert code == 0, text
    expected = []
    for strip in board.strips:
        leds = under_holes(board, strip.id)
        expected += [(strip.id, leds[i]) for i in sorted({0, len(leds) // 2, len(leds) - 1})]
    assert [(s, led) for s, led, _ in asked] == expected
    assert lit_alone(shown) == expected  # each lit alone, in that order, when asked
    assert all((h.strip, h.led) == (s, led) for s, led, h in asked)  # the hole named is its own
    assert not any(any(rgb) for rgb in shown[-1])  # dark at the end
    for strip in board.strips:
        assert f"PASS  strip {strip.id} (Pico GP{strip.pin}): LEDs " in text


def test_a_broken_data_wire_fails_its_strip_with_the_pin_and_the_fault():
    with EmulatedPico() as pico:
        seen = sight.sim_eye(pico)
        code, text = run(config(), pico=pico, eye=lambda look: look.strip.id != 1 and seen(look))
    assert code == 1
    (line,) = lines(text, "FAIL")
    assert line.startswith("FAIL  strip 1 (Pico GP3): nothing lit at the strip's start (LED 0)")
    assert "the data wire from GP3 through the 74AHCT125" in line
    assert "PASS  strip 0 (Pico GP2)" in text
    assert "doctor: 1 failed: strip 1 (Pico GP3)" in text


def test_a_broken_joint_is_narrowed_down_to_the_two_leds_around_it():
    board = load_layout("two-track-121")
    leds = under_holes(board, 0)
    with EmulatedPico() as pico:
        seen = sight.sim_eye(pico)

        def eye(look):  # the strip's 5 V joint after LED 59 is broken
            return seen(look) and not (look.strip.id == 0 and look.led >= 60)

        code, text = run(config(), pico=pico, eye=eye)
    assert code == 1
    lit = max(led for led in leds if led < 60)
    dark = min(led for led in leds if led >= 60)
    (line,) = lines(text, "FAIL")
    assert line.startswith(f"FAIL  strip 0 (Pico GP2): lit up to LED {lit}, dark at LED {dark}")
    assert "a broken joint (DOUT to DIN, 5 V or GND) between them" in line


def test_no_answer_fails_every_strip_and_says_so():
    code, text = run(config(), eye=sight.no_eye)
    assert code == 1
    failed = lines(text, "FAIL")
    assert [line.split(":")[0] for line in failed] == [
        "FAIL  strip 0 (Pico GP2)",
        "FAIL  strip 1 (Pico GP3)",
    ]
    assert all("no answer for LED 0; if it is dark, nothing lit" in line for line in failed)


class Screen(io.StringIO):
    """A terminal's screen: says when ``question`` has been shown."""

    def __init__(self, question: str):
        super().__init__()
        self.question = question
        self.asked = threading.Event()

    def write(self, text):
        if self.question in text:
            self.asked.set()
        return super().write(text)


def answered(lang: str, *typed: str) -> tuple[list, str, sight.Look]:
    """Ask about strip 1's first LED once for each of ``typed`` (what the person types
    while asked); the answers heard, the screen, the LED asked about."""
    board = load_layout("two-track-121")
    look = sight.first_middle_last(board, board.strips[1])[0]
    read, write = os.pipe()
    screen = Screen(look.question(lang))
    keyboard = sight.Keyboard(os.fdopen(read), screen, answer_seconds=30, lang=lang)
    answers = []
    for lines in typed:
        screen.asked.clear()
        asking = threading.Thread(target=lambda: answers.append(keyboard(look)))
        asking.start()
        assert screen.asked.wait(10)
        os.write(write, lines.encode())
        asking.join(10)
    os.close(write)
    return answers, screen.getvalue(), look


def test_the_keyboard_takes_y_or_n_and_asks_again_on_anything_else():
    answers, text, look = answered("en", "maybe\nY\n", "no\n")
    assert answers == [True, False]
    question = look.question()
    assert text.count(question) == 2
    pin = load_layout("two-track-121").strips[1].pin
    assert (
        question == f"strip 1 (Pico GP{pin}) LED 0: is the start hole of track 2 lit white? [y/n]"
    )
    assert "yes or no?" in text  # after "maybe"
    quiet = sight.Keyboard(io.StringIO(""), io.StringIO(), answer_seconds=0.2)
    assert quiet(look) is None  # nothing typed in time


def test_the_keyboard_asks_in_german_and_takes_ja_nein_their_letters_and_y_n():
    answers, text, look = answered("de", "vielleicht\nj\n", "nein\n", "N\n", "yes\n", "Ja\n")
    assert answers == [True, False, False, True, True]
    question = look.question("de")
    assert text.count(question) == 5 and question.endswith("[j/n]")
    assert "ja oder nein?" in text  # after "vielleicht"
    assert not english_left(text, "de"), text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_tells_yes_from_no_by_its_first_letter_and_english_too(lang):
    yes, no = answers(lang)
    typed = [yes, no, yes[0].upper(), no[0], "y", "NO"]
    assert [heard(word, lang) for word in typed] == [True, False, True, False, True, False]
    assert heard("maybe", lang) is None


def test_a_whole_simulated_board_passes():
    code, text = run(config())
    assert code == 0, text
    assert lines(text, "FAIL") == []
    version = ".".join(map(str, pegproto.FIRMWARE_VERSION))
    assert lines(text, f"PASS  link: firmware {version} on ")
    # Each seat's dial both ways and its switch, then the advance button.
    assert len(lines(text, "PASS  seat ")) == 4 * 3
    assert "PASS  seat 2 dial push switch: GPIO 13 (header pin 33)" in text
    assert "PASS  advance button: GPIO 26 (header pin 37)" in text
    assert text.rstrip().endswith("doctor: all good")


def test_a_control_that_never_answers_is_reported_by_name_and_pin():
    def finger(controls, ask):
        if ask.expect != Peg(1):  # seat 2's switch is not wired
            doctor.sim_finger(controls, ask)

    code, text = run(config(), finger=finger, timeout=0.3)
    assert code == 1
    assert lines(text, "FAIL") == [
        "FAIL  seat 2 dial push switch: nothing in 0.3 s (GPIO 13 (header pin 33))"
    ]
    assert "doctor: 1 failed: seat 2 dial push switch" in text


@pytest.mark.slow
def test_a_dial_wired_backwards_is_told_to_swap_a_and_b():
    def backwards(controls, ask):
        if isinstance(ask.expect, Turn) and ask.expect.seat == 0:
            controls.sim_turn(0, -ask.expect.steps)
        else:
            doctor.sim_finger(controls, ask)

    code, text = run(config(), finger=backwards, timeout=0.5)
    assert code == 1
    assert [line.split(":")[0] for line in lines(text, "FAIL")] == [
        "FAIL  seat 1 dial clockwise",
        "FAIL  seat 1 dial back",
    ]
    assert "counts the wrong way: swap a and b in the pin map" in text


def test_buttons_are_asked_for_plus_minus_and_peg():
    seat = "[[pins.seat]]\nbuttons = { minus = 17, plus = 27, peg = 22 }\n"
    code, text = run(config(f"[pins]\nadvance = 26\n{seat}"))
    assert code == 0, text
    names = [line.split(":")[0] for line in lines(text, "PASS  seat")]
    assert names == [
        "PASS  seat 1 plus button",
        "PASS  seat 1 minus button",
        "PASS  seat 1 peg button",
    ]


@pytest.mark.slow
@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_fault_the_doctor_finds_is_said_in_the_language(lang):
    def finger(controls, ask):
        match ask.expect:
            case Turn(seat=0, steps=steps):  # seat 1's dial is wired backwards
                controls.sim_turn(0, -steps)
            case Peg(seat=1):  # seat 2's switch: the advance button answers instead
                controls.sim_advance()
            case Peg(seat=2):  # seat 3's switch is not wired
                pass
            case _:
                doctor.sim_finger(controls, ask)

    def faults(lang: str) -> list[str]:
        with EmulatedPico() as pico:
            seen = sight.sim_eye(pico)

            def eye(look):  # strip 0 dark from LED 60 on; nobody answers for strip 1
                return None if look.strip.id == 1 else seen(look) and look.led < 60

            text = run(config(), pico=pico, eye=eye, finger=finger, timeout=0.5, lang=lang)[1]
        with EmulatedPico() as pico:
            pico.hang()
            text += run(config(), pico=pico, link_timeout=0.3, lang=lang)[1]
        text += run(config(), eye=sight.no_eye, lang=lang)[1]
        return [line for line in text.splitlines() if not line.startswith(PASS)]

    english, said = faults("en"), faults(lang)
    assert len(said) == len(english)
    assert sum(line.startswith(doctor.FAIL) for line in said) == 9
    for line, source in zip(said, english, strict=True):
        assert line != source or set(line) <= set("█▀▄ "), line  # but the QR codes
        left = english_in_doctor(line, lang)
        assert not left, f"{lang}: {left} in {line!r}"


def test_a_pico_that_does_not_answer_fails_the_link_and_skips_the_leds():
    with EmulatedPico() as pico:
        pico.hang()
        code, text = run(config(), pico=pico, link_timeout=0.3)
    assert code == 1
    assert lines(text, "FAIL  link: the Pico on ")
    assert "SKIP  LEDs: not lit: no link" in text
    assert "PASS  advance button" in text  # the rest is still checked


def test_a_pico_on_too_old_a_micropython_fails_the_link_by_name():
    with EmulatedPico() as pico:
        pico.hw.micropython = (1, 19, 1)
        code, text = run(config(), pico=pico)
    assert code == 1
    too_old = "FAIL  link: the Pico runs MicroPython 1.19.1; the firmware needs 1.20.0 or newer"
    assert too_old in text
    assert "SKIP  LEDs: not lit: no link" in text


def test_the_panel_url_and_its_qr_code_are_printed():
    code, text = run(config('[panel]\nhost = "0.0.0.0"\nport = 8123'))
    assert code == 0, text
    url = text.split("panel: ", 1)[1].split()[0]
    assert url.startswith("http://") and url.endswith(":8123/")
    ipaddress.ip_address(url[7:].rsplit(":", 1)[0].strip("[]"))  # an address, no name lookup
    qr = text.split(url, 1)[1].splitlines()[1:]
    assert len(qr) > 10 and all(set(row) <= set("█▀▄ ") for row in qr[:10])


@pytest.mark.slow
@pytest.mark.subprocess
def test_pegboard_doctor_sim_exits_0(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "pegboard.cli", "doctor", "--sim"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "doctor: all good" in done.stdout and "FAIL" not in done.stdout


@pytest.mark.slow
@pytest.mark.subprocess
def test_a_board_with_no_pico_is_told_so_in_the_language_and_nothing_else(tmp_path):
    board = tmp_path / "board.toml"
    board.write_text(
        '[board]\ndriver = "serial"\nserial_port = "/nonexistent/pico"\n[voice]\nenabled = false\n'
    )
    argv = ["--lang", "de", "doctor", "--config", str(board), "--timeout", "0.2"]
    done = subprocess.run(
        [sys.executable, "-m", "pegboard.cli", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert (done.returncode, done.stderr) == (1, "")  # the link's own log stays off the screen
    assert "FAIL  Verbindung: /nonexistent/pico gibt es nicht: ist der Pico eingesteckt?" in (
        done.stdout.splitlines()
    )
    assert "SKIP  LEDs: nicht eingeschaltet: keine Verbindung" in done.stdout
    assert done.stdout.splitlines()[-1].startswith("doctor: ")
    assert "fehlgeschlagen: Verbindung" in done.stdout


@pytest.mark.slow
@pytest.mark.subprocess
def test_a_bad_config_is_one_line_and_exit_2(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[board]\nlayot = 'two-track-61'\n")
    done = subprocess.run(
        [sys.executable, "-m", "pegboard.cli", "doctor", "--sim", "--config", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "board.layot" in done.stderr


def test_a_port_held_by_the_service_is_named_with_the_cure():
    layout = load_layout("two-track-61")
    with EmulatedPico() as pico, PicoDriver(layout.strips, pico.path) as service:
        assert service.wait_synced(5)
        with PicoDriver(layout.strips, pico.path) as mine:
            result = doctor.check_link(mine, 0.3)
    assert result.status == doctor.FAIL
    detail = str(result.detail)
    assert pico.path in detail and "sudo systemctl stop pegboard" in detail


def test_a_missing_port_is_named():
    with PicoDriver(load_layout("two-track-61").strips, "/nonexistent/pico") as leds:
        result = doctor.check_link(leds, 0.2)
    assert result.line().startswith("FAIL  link: ") and "/nonexistent/pico" in str(result.detail)


def test_the_help_says_what_the_doctor_does_with_the_leds(capsys):
    with pytest.raises(SystemExit):
        main(["--lang", "en", "doctor", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "Each strip's first, middle and last LED lights alone" in said
    assert "answer y or n" in said and "every LED" not in said
    overview = " ".join(build_parser("en").format_help().split())
    assert "each strip's first, middle and last LED, lit one at a time" in overview
    with pytest.raises(SystemExit):
        main(["--lang", "fi", "doctor", "--help"])
    assert "vastaa k tai e" in " ".join(capsys.readouterr().out.split())  # kyllä or ei


def test_the_boards_identity_is_shown_as_the_fingerprint_a_club_pins(tmp_path):
    code, text = run(config(), data=tmp_path)
    assert "identity: none yet (the board makes one at its first start)" in text
    assert not any(tmp_path.iterdir())  # the doctor makes nothing
    me = Identity.made(tmp_path / "identity")
    code, text = run(config(), data=tmp_path)
    assert code == 0 and f"identity: {me.fingerprint} (a club's director sees the same)" in text
