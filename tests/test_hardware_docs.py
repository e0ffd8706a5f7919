"""The makers' guide: its generated parts, the section drawing and the drilling templates
are current, the power budget holds for every frame the board draws, the viewing angle
it states is the one its numbers give, and every file the guide links to exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.board.build import DIE_MM, viewing_angle
from pegboard.board.layout import layout_names, load_layout
from pegboard.board.render import BoardView, Power, Renderer, TrackView
from pegboard.maker import hardware_docs
from tools import hardware

HARDWARE = Path(__file__).resolve().parents[1] / "hardware"
README = HARDWARE / "README.md"


@pytest.mark.slow
def test_the_guide_the_section_and_the_svg_templates_are_current():
    """Text files compare whole; the DXF and PDF files are read back in test_templates."""
    text = {p: c for p, c in hardware.drawings(HARDWARE.parent).items() if isinstance(c, str)}
    assert {README, HARDWARE / "section.svg"} <= text.keys()
    stale = hardware.stale(text)
    assert not stale, f"out of date: {stale}; run python -m tools.hardware --write"


def test_an_edited_generated_part_is_put_back():
    text = README.read_text(encoding="utf-8")
    edited = text.replace("| Seat 1 dial A | 17 | 11 | |", "| Seat 1 dial A | 4 | 7 | |")
    assert edited != text
    assert hardware_docs.readme(edited) == text


def test_a_guide_without_a_part_is_refused():
    with pytest.raises(ValueError, match="no generated part called 'bom'"):
        hardware_docs.readme("<!-- generated: strips -->\n<!-- end: strips -->\n")


def test_every_link_in_the_guide_exists():
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)\)", text)
    assert {"wiring.svg", "PINS.md", "section.svg"} <= set(links)
    for link in links:
        assert (HARDWARE / link).is_file(), link
    for name in layout_names():
        for form in (".svg", ".dxf", "-a4.pdf", "-letter.pdf"):
            assert f"templates/{name}{form}" in links


@pytest.mark.parametrize("name", layout_names())
def test_a_template_has_every_hole_at_full_size(name):
    layout = load_layout(name)
    svg = (HARDWARE / "templates" / f"{name}.svg").read_text(encoding="utf-8")
    assert svg.count('<circle id="t') == sum(1 for _ in layout.holes())
    assert re.search(r'width="([\d.]+)mm"', svg)
    assert f'r="{layout.hole_mm / 2:g}"' in svg


@pytest.mark.parametrize("name", layout_names("strip"))
def test_the_guide_says_how_far_each_board_is_seen_from_the_leds_die(name):
    """The light leaves the die inside the package, not its face: ±47-54°, not ±64°."""
    layout = load_layout(name)
    row = re.search(
        rf"^\| {name} \| {layout.plank_mm:g} mm \| {layout.skin_mm:g} mm \| .*$",
        README.read_text(encoding="utf-8"),
        re.M,
    )
    assert row, name
    low, high = map(int, re.search(r"±(\d+)–(\d+)°", row.group()).groups())
    angles = [viewing_angle(layout.hole_mm, layout.skin_mm, layout.fill_index, d) for d in DIE_MM]
    assert (low, high) == (round(min(angles)), round(max(angles))) == (47, 54)
    assert round(viewing_angle(layout.hole_mm, layout.skin_mm, layout.fill_index)) == 64
    assert "±64°" not in README.read_text(encoding="utf-8")


def test_the_section_drawing_shows_the_depths_and_the_angle():
    svg = (HARDWARE / "section.svg").read_text(encoding="utf-8")
    layout = load_layout(hardware.SECTION_LAYOUT)
    angle = viewing_angle(layout.hole_mm, layout.skin_mm, layout.fill_index, DIE_MM[0])
    for label in (
        f"plank {layout.plank_mm:g}",
        f"skin {layout.skin_mm:g}",
        f"pocket {layout.plank_mm - layout.skin_mm:g}",
        f"bore {layout.hole_mm:g}",
        f"±{angle:.0f}°",
        "LED on clear tape",
    ):
        assert f">{label}" in svg, label


def test_the_pico_and_shifter_pins_are_the_real_ones():
    # Pico: pin 1 GP0, pin 3 ground, pin 29 GP22, pin 30 RUN, pin 34 GP28.
    pins = hardware_docs.PICO_PINS
    assert (pins[0], pins[2], pins[3], pins[4], pins[22], pins[26], pins[28]) == (
        1,
        4,
        5,
        6,
        29,
        31,
        34,
    )
    assert not {3, 8, 13, 18, 23, 28, 30, 33} & set(pins.values())
    # 74AHCT125: 1A/1Y on 2/3, 2A/2Y on 5/6, 3A/3Y on 9/8, 4A/4Y on 12/11.
    assert hardware_docs.SHIFTER == ((2, 3), (5, 6), (9, 8), (12, 11))


@pytest.mark.parametrize("name", layout_names())
def test_the_supply_carries_the_brightest_frame_with_headroom(name):
    full = hardware_docs.budget(load_layout(name), 1.0)
    amps = hardware_docs.supply_amps(full.worst_ma)
    assert amps * 1000 >= full.worst_ma * hardware_docs.HEADROOM
    assert hardware_docs.supply_amps(full.worst_ma * 0.5) <= amps
    # With supply_ma at the guide's figure, the brightest frame is drawn undimmed.
    assert round(amps * 1000 / hardware_docs.HEADROOM) >= full.worst_ma
    low = hardware_docs.budget(load_layout(name))
    dark = low.leds * Power().dark_ma
    assert dark < low.play_ma < low.worst_ma < full.worst_ma < full.white_ma


LAYOUT = load_layout("three-track-121")
WORST = hardware_docs.budget(LAYOUT, 1.0).worst_ma

tracks = st.builds(
    TrackView,
    front=st.integers(0, LAYOUT.game + 5),
    back=st.integers(0, LAYOUT.game),
    pending=st.none() | st.integers(0, 29),
    refused=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(
    views=st.lists(tracks, min_size=3, max_size=3),
    t=st.floats(0, 10),
    winner=st.none() | st.integers(0, 2),
)
def test_no_frame_the_board_draws_passes_the_worst_in_the_guide(views, t, winner):
    power = Power(brightness=1.0, supply_ma=float("inf"))
    frame = Renderer(LAYOUT, power).render(
        BoardView(tuple(views), t=t, winner=winner, won_at=max(0.0, t - 1))
    )
    assert power.milliamps(frame) <= WORST + 1e-6
