"""The maker's guide as a first-time builder follows it: an order that tests before it
commits, a picture, a time, a skill and a check for every step, a parts list whose totals
are its lines', and none of the old guide's wrong figures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pegboard.board.layout import load_layout
from pegboard.leds.spi import frame_bytes
from pegboard.maker import bom
from tools import hardware

HARDWARE = Path(__file__).resolve().parents[1] / "hardware"
GUIDE = (HARDWARE / "README.md").read_text(encoding="utf-8")
STEPS = re.findall(r"^### Step (\d+): ([^\n]+)\n(.*?)(?=^### |^## )", GUIDE, re.M | re.S)


def step(*words: str) -> int:
    """The number of the one step whose title has all of ``words`` (any case)."""
    (found,) = [int(n) for n, title, _ in STEPS if all(w in title.lower() for w in words)]
    return found


def test_the_steps_are_numbered_in_order():
    assert [int(n) for n, _, _ in STEPS] == list(range(1, len(STEPS) + 1))
    assert len(STEPS) >= 10


def test_nothing_is_poured_before_the_whole_board_has_been_through_the_doctor():
    doctor, epoxy = step("whole board", "doctor"), step("epoxy")
    assert doctor < epoxy
    for n, title, body in STEPS[: doctor - 1]:  # before it, epoxy is only a word for later
        assert "epoxy" not in title.lower()
        assert not re.search(r"\b(pour|fill each bore|glue)\b", body, re.I), (n, title)


def test_each_reel_is_lit_before_it_is_cut_and_each_strip_before_it_goes_in():
    assert step("every reel", "before") < step("cut, solder")
    assert step("cut, solder") < step("lay the strips in")
    cut = STEPS[step("cut, solder") - 1][2]
    assert "doctor" in cut  # each soldered strip, through the doctor, before it goes in


def test_the_power_wires_are_soldered_before_the_back_is_closed():
    assert step("solder the power") < step("close up")
    assert step("whole board", "doctor") < step("close up")
    assert "before the back panel is screwed on" in STEPS[step("solder the power") - 1][2]


@pytest.mark.parametrize(("number", "title", "body"), STEPS, ids=[t for _, t, _ in STEPS])
def test_every_step_has_its_time_skill_picture_and_check(number, title, body):
    assert re.search(r"^\*Time: [^*]+\. Skill: [^*]+\.\*$", body, re.M), title
    pictures = re.findall(r"!\[[^\]]+\]\(([^)]+)\)", body)
    assert pictures, title
    assert all((HARDWARE / p).is_file() for p in pictures), pictures
    assert "**Check**:" in body, title


@pytest.mark.slow
def test_every_picture_of_the_guide_is_shown_and_drawn_from_the_current_models():
    shown = set(re.findall(r"\]\((pictures/[^)]+)\)", GUIDE))
    made = {str(p.relative_to(HARDWARE)) for p in (HARDWARE / "pictures").iterdir()}
    assert shown == made
    drawn = hardware.drawings(HARDWARE.parent)
    assert not hardware.stale({p: c for p, c in drawn.items() if "pictures" in p.parts})


def bom_rows() -> list[list[str]]:
    part = GUIDE.split("<!-- generated: bom -->", 1)[1].split("<!-- end: bom -->", 1)[0]
    return [
        [cell.strip() for cell in line.strip("|").split("|")] for line in part.strip().splitlines()
    ][2:]


def euros(cell: str) -> tuple[float, float]:
    found = [float(v) for v in re.findall(r"[\d.]+", cell.replace("*", ""))]
    return (found[0], found[-1])


@pytest.mark.parametrize("pi", bom.PIS)
def test_the_parts_lists_totals_are_its_lines_added_up(pi):
    rows = bom_rows()
    lines = [r for r in rows if not r[0].startswith("**") and r[1] in ("both", f"Pi {pi}")]
    (total,) = [r for r in rows if r[0].startswith("**") and r[1] == f"Pi {pi}"]
    low = sum(euros(r[4])[0] for r in lines)
    high = sum(euros(r[4])[1] for r in lines)
    assert euros(total[4]) == (pytest.approx(low), pytest.approx(high))
    for r in lines:  # and each line is its count times its price
        count, each, line = int(r[2]), euros(r[3]), euros(r[4])
        assert line == (pytest.approx(count * each[0]), pytest.approx(count * each[1])), r
    assert (low, high) == pytest.approx(bom.total(load_layout(bom.PRICED), pi))


def test_the_old_guides_wrong_figures_are_gone():
    for wrong in (
        "±64°",
        "It\n  opens on such a fault",
        "opens on such a fault",
        "with the 1000 µF capacitor across its\n  terminals",
        "429 LEDs",
        "step 6 of the assembly",
        "EC11, 20 detents)",
        "14 mm wide",
        "comes to about €150",
    ):
        assert wrong not in GUIDE, wrong
    assert f"{frame_bytes(432)} bytes for the 432 LEDs of three-track-121" in GUIDE
    assert "GP22 (the Pico's pin 29)" in GUIDE
    assert "20 pulses a turn and has\n20 detents" in GUIDE
    assert "strip 0's last `DOUT` to strip 1's first `DIN`" in GUIDE
    assert "640 ns" in GUIDE and "650 ns" in GUIDE  # the SPI route's 1, said as it is
    assert GUIDE.count("1000 µF") >= 2 and "sits in one place" in GUIDE


def test_the_first_power_up_and_its_safety_are_in_the_steps_where_they_matter():
    safety = GUIDE.split("### Connecting it safely", 1)[1].split("\n## ", 1)[0]
    for said in ("multimeter", "5.5 × 2.1 mm", "Ground first", "Static", "current-limited"):
        assert said in safety, said
    doctor = STEPS[step("whole board", "doctor") - 1][2]
    assert "current-limited" in doctor and "Before you power it" in doctor
    assert "## Before you power it" in GUIDE and "## Troubleshooting" in GUIDE
    trouble = GUIDE.split("## Troubleshooting", 1)[1].split("\n## ", 1)[0]
    for symptom in ("One strip dark", "Flicker", "Wrong colours", "A dial that skips", "No sound"):
        assert symptom in trouble, symptom
    assert "colour_order" in trouble
