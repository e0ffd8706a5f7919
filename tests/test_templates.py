"""What a workshop uses: the strip pieces and the reels they are cut from, the viewing angle
the construction gives, and the drilling templates as DXF and as PDF tiled on paper, read
back with their own readers (ezdxf, pdfminer) and checked for every hole and the scale."""

from __future__ import annotations

import math
import re
from pathlib import Path

import ezdxf
import pytest
from pdfminer.high_level import extract_pages
from pdfminer.layout import LTCurve, LTLine, LTTextContainer

from pegboard.board.build import DIE_MM, loose_leds, pieces, reels, viewing_angle
from pegboard.board.layout import layout_names, load_layout
from pegboard.board.template import HEAD_MM, PAPER_EDGE_MM, PAPERS, SIDE_MM

TEMPLATES = Path(__file__).resolve().parents[1] / "hardware" / "templates"
PT = 72 / 25.4  # PDF points a millimetre


# --- strips and reels -----------------------------------------------------------------


@pytest.mark.parametrize("name", layout_names("strip"))
def test_every_led_is_on_a_piece_a_maker_can_cut_and_solder(name):
    layout = load_layout(name)
    every = pieces(layout)
    assert loose_leds(layout) == []
    assert sum(p.leds for p in every) == sum(layout.strip_lengths)
    # No single cut-off LED at a start or a game hole: every piece is a street long.
    assert min(p.leds for p in every) >= 30
    starts = [p for p in every if any(h.number == 0 and not h.lap_mark for h in p.holes)]
    assert len(starts) == len(layout.tracks) and all(p.index == 0 for p in starts)


@pytest.mark.parametrize("name", layout_names("strip"))
def test_the_reels_hold_every_piece_whole_in_as_few_reels_as_the_leds_need(name):
    layout = load_layout(name)
    reel = layout.strip_kind.reel_leds
    plan = reels(layout)
    assert sorted(p.name for r in plan for p in r) == sorted(p.name for p in pieces(layout))
    assert all(sum(p.leds for p in r) <= reel for r in plan)
    assert len(plan) == math.ceil(sum(layout.strip_lengths) / reel)


def test_a_121_track_is_one_reel_cut_in_three():
    plan = reels(load_layout("three-track-121"))
    names = [[p.name for p in r] for r in plan]
    assert names == [[f"{strip}{piece}" for piece in "abc"] for strip in range(3)]


# --- seen from the seats --------------------------------------------------------------


@pytest.mark.parametrize("name", layout_names("strip"))  # a PCB's LED: tests/test_pcb.py
def test_each_led_shows_within_45_degrees_of_vertical_from_its_die(name):
    layout = load_layout(name)
    h, t, n = layout.hole_mm, layout.skin_mm, layout.fill_index
    assert min(viewing_angle(h, t, n, die) for die in DIE_MM) >= 45
    # Without the epoxy the same bores would not do.
    assert max(viewing_angle(h, t, 1.0, die) for die in DIE_MM) < 35


def test_the_viewing_angle_follows_snells_law_at_the_top_face():
    # An LED under 3 mm of wood at the bottom of a 4.5 mm bore: the rim at 2.25 mm.
    inside = math.atan(2.25 / 3)
    assert viewing_angle(4.5, 3.0) == pytest.approx(math.degrees(inside))
    assert math.sin(math.radians(viewing_angle(4.5, 3.0, 1.5))) == pytest.approx(
        1.5 * math.sin(inside)
    )
    assert viewing_angle(4.5, 1.0, 1.5) == 90  # every ray out: the whole sky
    assert viewing_angle(3.2, 15) < 7  # the first design: 15 mm of wood over the LED
    assert viewing_angle(4.5, 3.5, 1.5) < viewing_angle(4.5, 3.0, 1.5)


# --- DXF ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", layout_names())
def test_the_dxf_has_one_circle_a_hole_at_full_size_in_millimetres(name):
    layout = load_layout(name)
    doc = ezdxf.readfile(TEMPLATES / f"{name}.dxf")
    assert doc.header["$INSUNITS"] == 4  # millimetres
    assert {"HOLES", "OUTLINE", "CHANNELS", "CUTS", "ARROWS"} <= {
        layer.dxf.name for layer in doc.layers
    }
    msp = doc.modelspace()
    circles = msp.query('CIRCLE[layer=="HOLES"]')
    assert len(circles) == len(list(layout.holes()))
    found = {(round(c.dxf.center.x, 2), round(c.dxf.center.y, 2)) for c in circles}
    top = layout.height_mm  # DXF y runs up
    assert found == {(round(h.x, 2), round(top - h.y, 2)) for h in layout.holes()}
    assert {round(c.dxf.radius, 3) for c in circles} == {layout.hole_mm / 2}
    [outline] = msp.query('LWPOLYLINE[layer=="OUTLINE"]')
    xs, ys = zip(*((x, y) for x, y, *_ in outline.get_points()), strict=True)
    assert outline.closed and (max(xs) - min(xs), max(ys) - min(ys)) == (
        pytest.approx(layout.width_mm),
        pytest.approx(layout.height_mm),
    )
    cuts = msp.query('LWPOLYLINE[layer=="CUTS"]')
    assert len(cuts) == 2 * len(pieces(layout))


# --- PDF ------------------------------------------------------------------------------


def sheets_of(path: Path):
    """Per page: its size in mm, its text, its hole circles' centres and sizes in mm on
    the page, and its horizontal lines' lengths in mm."""
    for page in extract_pages(path):
        text = " ".join(e.get_text() for e in page if isinstance(e, LTTextContainer))
        height = page.bbox[3]
        circles = [
            ((e.x0 + e.x1) / 2 / PT, (height - (e.y0 + e.y1) / 2) / PT, e.width / PT, e.height / PT)
            for e in page
            if isinstance(e, LTCurve) and not isinstance(e, LTLine)
        ]
        lines = [e.width / PT for e in page if isinstance(e, LTLine) and e.height < 0.01]
        lines += [-e.height / PT for e in page if isinstance(e, LTLine) and e.width < 0.01]
        yield (page.bbox[2] / PT, page.bbox[3] / PT), " ".join(text.split()), circles, lines


@pytest.mark.slow
@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("name", layout_names())
def test_the_pdf_tiles_every_hole_at_full_size_with_a_100_mm_bar_on_each_sheet(name, paper):
    layout = load_layout(name)
    size = layout.hole_mm
    holes = {(h.x, h.y): h.id for h in layout.holes()}
    found: dict[str, int] = {}
    pages = list(sheets_of(TEMPLATES / f"{name}-{paper.lower()}.pdf"))
    assert len(pages) > 1  # no board fits one sheet at 1:1
    for page, text, circles, lines in pages:
        assert sorted(page) == pytest.approx(sorted(PAPERS[paper]), abs=0.1)
        assert any(abs(length - 100) < 0.1 for length in lines), "no 100 mm bar across"
        assert any(abs(length + 100) < 0.1 for length in lines), "no 100 mm bar down"
        window = re.search(
            r"board x (-?[\d.]+) to (-?[\d.]+) mm, y (-?[\d.]+) to (-?[\d.]+) mm", text
        )
        assert window, text
        x0, x1, y0, y1 = map(float, window.groups())
        for x, y, w, h in circles:
            if abs(w - size) > 0.02 or abs(h - size) > 0.02:
                continue  # not a hole (an arrowhead, a mark)
            bx, by = x - PAPER_EDGE_MM - SIDE_MM + x0, y - PAPER_EDGE_MM - HEAD_MM + y0  # board
            if x0 + size / 2 <= bx <= x1 - size / 2 and y0 + size / 2 <= by <= y1 - size / 2:
                [hole] = [
                    i for (hx, hy), i in holes.items() if math.dist((hx, hy), (bx, by)) < 0.05
                ]
                found[hole] = found.get(hole, 0) + 1
    assert set(found) == set(holes.values())  # every hole, where the layout puts it
    assert any(count > 1 for count in found.values())  # the overlaps repeat some holes
