"""The board drawn from its layout: the panel's SVG and the 1:1 drilling template."""

import xml.etree.ElementTree as ET

import pytest

from pegboard.board.layout import layout_names, load_layout
from pegboard.board.render import BoardView, Power, Renderer, TrackView
from pegboard.board.svg import board_svg, drilling_template, main

SVG = "{http://www.w3.org/2000/svg}"


def circles(svg_text):
    root = ET.fromstring(svg_text)
    return root, {c.get("id"): c for c in root.iter(f"{SVG}circle")}


@pytest.mark.parametrize("name", layout_names())
def test_board_svg_has_one_circle_per_hole_where_the_layout_puts_it(name):
    layout = load_layout(name)
    root, holes = circles(board_svg(layout))
    assert len(holes) == sum(len(t.holes) for t in layout.tracks)
    for hole in layout.holes():
        c = holes[hole.id]
        assert (float(c.get("cx")), float(c.get("cy"))) == (hole.x, hole.y)
        assert c.get("data-hole") == str(hole.number)
    assert root.get("viewBox") == f"0 0 {layout.width_mm:g} {layout.height_mm:g}"


def test_board_svg_ids_are_stable_for_the_panel():
    _, holes = circles(board_svg(load_layout("three-track-121")))
    assert {"t0h0", "t1h57", "t2h121"} <= holes.keys()
    assert holes["t2h121"].get("class") == "hole game"
    assert holes["t0h0"].get("class") == "hole start"
    assert holes["t1h91"].get("class") == "hole skunk"


def test_board_svg_with_a_frame_fills_the_lit_holes():
    layout = load_layout("two-track-61")
    frame = Renderer(layout, Power(brightness=1.0)).render(BoardView((TrackView(front=31),)))
    _, holes = circles(board_svg(layout, frame))
    unlit = holes["t0h1"].get("fill")
    assert holes["t0h31"].get("fill") not in (None, unlit)
    assert holes["t1h2"].get("fill") == unlit


def test_board_svg_draws_skunk_lines():
    root = ET.fromstring(board_svg(load_layout("two-track-121")))
    lines = [e for e in root.iter(f"{SVG}line") if e.get("class") == "skunk-line"]
    assert len(lines) == 4  # 61 and 91, two tracks


@pytest.mark.parametrize("name", layout_names())
def test_drilling_template_is_one_to_one_in_millimetres(name):
    layout = load_layout(name)
    root, holes = circles(drilling_template(layout))
    width, height = (float(root.get(k).removesuffix("mm")) for k in ("width", "height"))
    assert root.get("viewBox") == f"0 0 {width:g} {height:g}"  # one unit is one mm
    assert width > layout.width_mm and height > layout.height_mm
    for hole in layout.holes():
        assert float(holes[hole.id].get("r")) * 2 == layout.hole_mm
        assert float(holes[hole.id].get("cx")) == hole.x
    text = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "100 mm" in text and f"drill {layout.hole_mm:g} mm" in text


def test_drilling_template_shows_each_strip_path_in_led_order():
    layout = load_layout("two-track-61")
    root = ET.fromstring(drilling_template(layout))
    paths = [p for p in root.iter(f"{SVG}polyline") if p.get("class") == "strip"]
    assert len(paths) == len(layout.strips)
    first = paths[1].get("points").split()
    start = layout.hole(0, 0)
    assert first[0] == f"{start.x:g},{start.y:g}"  # strip 1 begins at track 0's start hole


def test_svg_command_writes_the_template(capsys):
    main(["two-track-61", "--template"])
    assert capsys.readouterr().out.startswith("<svg")
