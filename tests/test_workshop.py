"""The workshop's files read back with ezdxf: the CNC's bottom is the top turned over on
the dowels, its pockets the layout's with the bit's corners and a depth in every cutting
layer's name; the laser's sheets add up to the plank; the back panel's wire exits sit
under the strips' ends."""

from __future__ import annotations

import io
import math
import re

import ezdxf
import pytest

from pegboard.board.build import (
    EXIT_MM,
    JOINT_MM,
    frame_screws,
    notches,
    outlines,
    pieces,
    pockets,
    wire_exits,
)
from pegboard.board.layout import layout_names, load_layout
from tools import workshop
from tools.pcb import board, designs

HARDWARE = workshop.__file__.rsplit("/tools/", 1)[0] + "/hardware/templates"


def read(name: str, end: str):
    return ezdxf.readfile(f"{HARDWARE}/{name}-{end}").modelspace()


def circles(msp, layer: str) -> set[tuple[float, float, float]]:
    return {
        (round(c.dxf.center.x, 2), round(c.dxf.center.y, 2), round(2 * c.dxf.radius, 2))
        for c in msp.query(f'CIRCLE[layer=="{layer}"]')
    }


def layer_named(msp, pattern: str) -> str:
    names = {e.dxf.layer for e in msp}
    (found,) = [n for n in names if re.fullmatch(pattern, n)]
    return found


@pytest.mark.parametrize("name", layout_names())
def test_the_bottom_is_the_top_turned_over_left_to_right_on_the_dowels(name):
    layout = load_layout(name)
    w, h = layout.width_mm, layout.height_mm
    top, bottom = read(name, "cnc-top.dxf"), read(name, "cnc-bottom.dxf")
    depth = f"{layout.skin_mm + 1:g}"
    bores = circles(top, layer_named(top, rf"BORE_{layout.hole_mm:g}MM_DEPTH_{depth}MM"))
    assert bores == {(round(x.x, 2), round(h - x.y, 2), layout.hole_mm) for x in layout.holes()}
    mirrored = {(round(w - x, 2), y, d) for x, y, d in circles(bottom, "REF_BORES")}
    assert mirrored == bores  # the bottom's bores, turned back over, are the top's
    ours = {(round(w - x, 2), round(y, 2)) for x, y, _ in circles(bottom, "REF_BORES")}
    assert len(ours) == len(bores) and not any(round(x, 2) != x for x, _ in ours)
    dowel = layer_named(top, r"DOWEL_6MM_DEPTH_\d+MM")
    assert circles(top, dowel) == circles(bottom, dowel)  # the same two holes either side up
    xs = {x for x, _, _ in circles(top, dowel)}
    assert xs == {round(w / 2, 2)} and len(circles(top, dowel)) == 2  # on the turning line
    assert all(not (0 <= y <= h) for _, y, _ in circles(top, dowel))  # in the spare, off the board


@pytest.mark.parametrize("name", layout_names("strip"))
def test_the_bottoms_pockets_are_the_layouts_merged_with_the_notches_at_their_depth(name):
    layout = load_layout(name)
    w, h = layout.width_mm, layout.height_mm
    bottom = read(name, "cnc-bottom.dxf")
    pocket = layer_named(bottom, r"POCKET_DEPTH_(\d+)MM")
    assert pocket == f"POCKET_DEPTH_{layout.plank_mm - layout.skin_mm:g}MM"
    drawn = bottom.query(f'LWPOLYLINE[layer=="{pocket}"]')
    assert len(drawn) == len(outlines(layout))  # one outline each: pockets and notches merged
    boxes = [*pockets(layout), *notches(layout)]
    r = layout.bit_mm / 2
    for polyline in drawn:
        assert polyline.closed
        points = [(w - x, h - y, b) for x, y, _, _, b in polyline.get_points()]  # board mm
        arcs = [b for *_, b in points if b]
        assert arcs and all(abs(abs(b) - math.tan(math.pi / 8)) < 1e-6 for b in arcs)
        for x, y, _ in points:  # every point on the edge of a pocket or a notch
            assert any(
                bx.x0 - 1e-6 <= x <= bx.x1 + 1e-6 and bx.y0 - 1e-6 <= y <= bx.y1 + 1e-6
                for bx in boxes
            )
    # A rounded corner stays within the joint's room past a carrier's end.
    assert r <= JOINT_MM


@pytest.mark.parametrize("name", layout_names("pcb"))
def test_a_pcbs_window_is_routed_deeper_than_its_ledge_by_the_soldered_led_and_clearance(name):
    """The CNC bottom's two depths: the pocket to the ledge the PCB's face bears on, the
    window over the LEDs to the skin; the window's depth above the ledge is the soldered
    LED's height and the clearance, 0.2-0.3 mm, so no LED touches the skin."""
    layout = load_layout(name)
    bottom = read(name, "cnc-bottom.dxf")
    depths = sorted(
        float(m.group(1))
        for n in {e.dxf.layer for e in bottom}
        if (m := re.fullmatch(r"POCKET_DEPTH_([\d.]+)MM", n))
    )
    assert len(depths) == 2
    ledge, skin = (layout.plank_mm - d for d in depths)
    assert skin == pytest.approx(layout.skin_mm)
    window = ledge - skin
    above = window - designs.soldered_mm(layout)  # the air over each LED's face
    assert above == pytest.approx(designs.CLEARANCE_MM, abs=0.01)
    assert 0.2 - 1e-9 <= above - designs.TOLERANCE_MM < above + designs.TOLERANCE_MM <= 0.3 + 1e-9
    assert designs.soldered_mm(layout) > layout.pcb.led_mm  # the solder lifts it
    x0, y0, x1, y1 = layout.pcb.outline
    w, h = layout.width_mm, layout.height_mm
    for depth, (bx0, by0, bx1, by1) in zip(
        depths,
        ((x0 - 0.5, y0 - 0.5, x1 + 0.5, y1 + 0.5), (x0 + 9, y0 + 9, x1 - 9, y1 - 9)),
        strict=True,
    ):
        [outline] = bottom.query(f'LWPOLYLINE[layer=="POCKET_DEPTH_{depth:g}MM"]')
        xs = [w - x for x, *_ in outline.get_points()]  # turned back over
        ys = [h - y for _, y, *_ in outline.get_points()]
        assert (min(xs), min(ys), max(xs), max(ys)) == pytest.approx((bx0, by0, bx1, by1))
    top = read(name, "cnc-top.dxf")
    screws = circles(top, layer_named(top, r"DRILL_3\.2MM_DEPTH_18MM"))
    assert {(x, round(h - y, 2)) for x, y, _ in screws} == {
        (round(x, 2), round(y, 2)) for x, y in layout.pcb.mounting
    }


@pytest.mark.parametrize("name", layout_names("pcb"))
def test_a_pcbs_back_panel_lets_out_the_picos_cable_and_the_supplys_wires_in_its_pocket(name):
    layout = load_layout(name)
    h = layout.height_mm
    found = circles(read(name, "back.dxf"), "CUT_THROUGH_3MM")
    exits = {(round(x, 2), round(h - y, 2), d) for x, y, d in workshop.exits(layout)}
    screws = {(round(x, 2), round(h - y, 2), workshop.SCREW_MM) for x, y in frame_screws(layout)}
    assert found == exits | screws and len(exits) == 2
    pocket = pockets(layout)[0]
    for x, y, d in workshop.exits(layout):
        assert pocket.x0 + d / 2 <= x <= pocket.x1 - d / 2
        assert pocket.y0 + d / 2 <= y <= pocket.y1 - d / 2
    usb = max(workshop.exits(layout), key=lambda e: e[2])
    assert usb[2] >= 12  # a micro-USB plug passes
    pico = board.build(layout).part("U2")
    assert usb[0] > pico.x + 25 and abs(usb[1] - pico.y) < 1  # past the Pico's socket end
    sheets = workshop.sheets(layout)
    assert sum(mm for _, mm in sheets[:-1]) == pytest.approx(layout.plank_mm, abs=0.5)
    assert sheets[1][1] == pytest.approx(designs.window_mm(layout))


def test_the_notches_no_longer_overlap_the_pockets_in_the_routers_file():
    """The template draws a notch's rectangle over two pockets; the router's file has one
    outline for the three pockets and two notches of two-track-121."""
    layout = load_layout("two-track-121")
    assert len(pockets(layout)) == 3 and len(notches(layout)) == 2
    assert len(outlines(layout)) == 1


@pytest.mark.parametrize("name", layout_names())
def test_every_cutting_layer_says_its_depth(name):
    for end in ("cnc-top.dxf", "cnc-bottom.dxf"):
        layers = {e.dxf.layer for e in read(name, end)}
        for layer in layers - {"REF_BLANK", "REF_OUTLINE", "REF_BORES"}:
            assert re.search(r"_DEPTH_[\d.]+MM$", layer), layer


@pytest.mark.parametrize("name", layout_names("strip"))
def test_the_laser_sheets_stack_to_the_plank_and_the_back_panel(name):
    layout = load_layout(name)
    msp = read(name, "laser.dxf")
    outlines_ = [
        p
        for p in msp.query('LWPOLYLINE[layer=="CUT"]')
        if len(p) == 4 and abs(_width(p) - layout.width_mm) < 1e-6
    ]
    sheets = workshop.spacers(layout) + 2
    assert len(outlines_) == sheets and workshop.spacers(layout) * 3 == 15
    holes = [c for c in msp.query('CIRCLE[layer=="CUT"]') if abs(2 * c.dxf.radius - 4.5) < 1e-6]
    assert len(holes) == len(list(layout.holes()))  # the bores are in the top sheet alone
    openings = [p for p in msp.query('LWPOLYLINE[layer=="CUT"]') if p not in outlines_]
    assert len(openings) == workshop.spacers(layout) * len(outlines(layout))


def _width(polyline) -> float:
    xs = [x for x, *_ in polyline.get_points()]
    return max(xs) - min(xs)


@pytest.mark.parametrize("name", layout_names("strip"))
def test_the_back_panels_wire_exits_are_under_each_strips_ends_in_its_pocket(name):
    layout = load_layout(name)
    h = layout.height_mm
    back = read(name, "back.dxf")
    found = circles(back, "CUT_THROUGH_3MM")
    exits = {(round(e.x, 2), round(h - e.y, 2), EXIT_MM) for e in wire_exits(layout)}
    screws = {(round(x, 2), round(h - y, 2), workshop.SCREW_MM) for x, y in frame_screws(layout)}
    assert found == exits | screws
    assert len(exits) == 2 * len(layout.strips)
    for e in wire_exits(layout):  # within a pocket, clear of its walls
        assert any(
            b.x0 + EXIT_MM / 2 <= e.x <= b.x1 - EXIT_MM / 2
            and b.y0 + EXIT_MM / 2 - 1 <= e.y <= b.y1 - EXIT_MM / 2 + 1
            for b in pockets(layout)
        )
        mine = [p for p in pieces(layout) if p.strip == e.strip]
        end = mine[0].start if e.start else mine[-1].end
        assert math.dist(end, (e.x, e.y)) < layout.strip_kind.pitch_mm / 2 + JOINT_MM


def test_the_files_are_the_ones_the_guide_links():
    layout = load_layout("two-track-61")
    for end, text in workshop.files(layout).items():
        doc = ezdxf.read(io.StringIO(text))
        assert doc.header["$INSUNITS"] == 4, end
        with open(f"{HARDWARE}/two-track-61-{end}", encoding="utf-8") as f:
            assert f.read() == text, end
