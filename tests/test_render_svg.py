"""The board drawn from its layout: the panel's SVG and the 1:1 drilling template."""

import xml.etree.ElementTree as ET

import pytest

from pegboard.board.build import pieces, pockets
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
    assert len(holes) == sum(len(t.holes) + len(t.lap_marks) for t in layout.tracks)
    for hole in layout.holes():
        c = holes[hole.id]
        assert (float(c.get("cx")), float(c.get("cy"))) == (hole.x, hole.y)
        assert c.get("data-hole") == str(hole.number)
    assert root.get("viewBox") == f"0 0 {layout.width_mm:g} {layout.height_mm:g}"
    assert (root.get("data-game"), root.get("data-laps")) == (str(layout.game), str(layout.laps))


def test_board_svg_ids_are_stable_for_the_panel():
    _, holes = circles(board_svg(load_layout("three-track-121"), skunk_lines=(91, 61)))
    assert {"t0h0", "t1h57", "t2h121"} <= holes.keys()
    assert holes["t2h121"].get("class") == "hole game"
    assert holes["t0h0"].get("class") == "hole start"
    assert holes["t1h91"].get("class") == "hole skunk"


def test_board_svg_of_the_english_board_has_labelled_lap_marks():
    root, holes = circles(board_svg(load_layout("two-track-61")))
    assert holes["t1l3"].get("class") == "hole lap" and holes["t1l3"].get("data-hole") == "3"
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "lap-label"]
    assert labels == ["2", "3", "2", "3"]


def test_board_svg_with_a_frame_fills_the_lit_holes():
    layout = load_layout("two-track-61")
    frame = Renderer(layout, Power(brightness=1.0)).render(BoardView((TrackView(front=31),)))
    _, holes = circles(board_svg(layout, frame))
    unlit = holes["t0h1"].get("fill")
    assert holes["t0h31"].get("fill") not in (None, unlit)
    assert holes["t1h2"].get("fill") == unlit


def skunk_lines(svg_text):
    root = ET.fromstring(svg_text)
    return [e for e in root.iter(f"{SVG}line") if e.get("class") == "skunk-line"]


def test_board_svg_draws_the_skunk_lines_it_is_given():
    board = load_layout("two-track-121")
    assert skunk_lines(board_svg(board)) == []
    lines = skunk_lines(board_svg(board, skunk_lines=(91, 61)))
    assert len(lines) == 4  # 61 and 91, two tracks
    middle = (board.hole(0, 90).x + board.hole(0, 91).x) / 2
    assert float(lines[0].get("x1")) == float(lines[0].get("x2")) == pytest.approx(middle)
    assert len(skunk_lines(board_svg(board, skunk_lines=(31,)))) == 2


def test_skunk_lines_on_the_english_board_fall_where_the_second_lap_passes():
    board = load_layout("two-track-61")
    [first, _, second, _] = skunk_lines(board_svg(board, skunk_lines=(91, 61)))

    def middle(line):
        return (
            (float(line.get("x1")) + float(line.get("x2"))) / 2,
            (float(line.get("y1")) + float(line.get("y2"))) / 2,
        )

    def between(a, b):
        return ((a.x + b.x) / 2, (a.y + b.y) / 2)

    # 91 is hole 31 on the second lap: the line lies across the turn from hole 30.
    assert middle(first) == pytest.approx(between(board.hole(0, 30), board.hole(0, 31)), abs=0.01)
    assert float(first.get("y1")) == pytest.approx(float(first.get("y2")))  # across the turn
    # 61 is hole 1 on the second lap: between the start hole and hole 1.
    assert middle(second) == pytest.approx(between(board.hole(0, 0), board.hole(0, 1)), abs=0.01)


@pytest.mark.parametrize("name", layout_names())
def test_drilling_template_is_one_to_one_in_millimetres(name):
    layout = load_layout(name)
    root, holes = circles(drilling_template(layout))
    holes.pop(None, None)  # a PCB's mounting holes: tests/test_pcb.py
    width, height = (float(root.get(k).removesuffix("mm")) for k in ("width", "height"))
    assert root.get("viewBox") == f"0 0 {width:g} {height:g}"  # one unit is one mm
    assert width > layout.width_mm and height > layout.height_mm
    assert len(holes) == len(list(layout.holes()))
    for hole in layout.holes():
        assert float(holes[hole.id].get("r")) * 2 == layout.hole_mm
        assert float(holes[hole.id].get("cx")) == hole.x
    text = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "100 mm" in text and f"drill {layout.hole_mm:g} mm" in text


def layer(root, name):
    """The lines of one layer of the template."""
    [group] = [g for g in root.iter(f"{SVG}g") if g.get("id") == name]
    return [e for e in group if e.get("points")]


def points(element):
    return [tuple(map(float, p.split(","))) for p in element.get("points").split()]


@pytest.mark.parametrize("name", layout_names("strip"))
def test_drilling_template_marks_where_to_cut_each_piece_and_its_data_direction(name):
    layout = load_layout(name)
    root = ET.fromstring(drilling_template(layout))
    cuts = [points(c) for c in layer(root, "cuts")]
    every = pieces(layout)
    assert len(cuts) == 2 * len(every)
    pitch = layout.strip_kind.pitch_mm
    for piece, start, end in zip(every, cuts[::2], cuts[1::2], strict=True):
        # A cut across the strip half an LED before the first hole's LED and after the last.
        for cut, hole, sign in ((start, piece.holes[0], -1), (end, piece.holes[-1], 1)):
            (x0, y0), (x1, y1) = cut
            assert x0 == x1 and y0 < hole.y < y1
            assert x0 == pytest.approx(hole.x + sign * piece.along[0] * pitch / 2, abs=0.01)
    arrows = [points(a) for a in layer(root, "arrows")]
    shafts = [a for a in arrows if len(a) == 2]
    assert len(shafts) == len(every)
    for piece, (start, end) in zip(every, shafts, strict=True):
        assert start[0] == pytest.approx(piece.holes[0].x, abs=0.01)  # from the data input
        assert end[0] == pytest.approx(piece.holes[-1].x, abs=0.01)


@pytest.mark.parametrize("name", layout_names("strip"))
def test_drilling_template_pockets_hold_every_hole_and_the_strips_width(name):
    layout = load_layout(name)
    root = ET.fromstring(drilling_template(layout))
    boxes = [points(p) for p in layer(root, "channels")]
    assert len(boxes) >= len(pockets(layout))
    half = layout.strip_kind.width_mm / 2
    for hole in layout.holes():
        assert any(
            b[0][0] < hole.x < b[1][0] and b[0][1] <= hole.y - half and hole.y + half <= b[2][1]
            for b in boxes
        ), hole.id


def test_svg_command_writes_the_template(capsys):
    main(["two-track-61", "--template"])
    assert capsys.readouterr().out.startswith("<svg")
