"""Drawings of a layout: the board for the phone panel, and a 1:1 drilling template.

Both come from the same layout file as the LED map, so the holes a maker drills
are the holes the code lights.

>>> from pegboard.board.layout import load_layout
>>> svg = board_svg(load_layout("two-track-61"), skunk_lines=(91, 61))
>>> '<circle id="t1h57"' in svg, '<circle id="t1l2"' in svg, svg.count('class="skunk-line"')
(True, True, 4)

Run ``python -m pegboard.board.svg two-track-121 --template > drill.svg`` to write one.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

from pegboard.board.geometry import Hole, Layout
from pegboard.board.render import Frame, lit_holes
from pegboard.board.template import LAYERS, Circle, Line, Shape, drawing

WOOD = "#b98a57"
EMPTY = "#1e1208"  # an unlit hole
LINE = "#f2e6d0"
MARGIN = 15.0  # mm of paper around the board on the template
SCALE_BAR = 100.0  # mm
# How each layer of the template is drawn.
INK = {
    "outline": 'fill="none" stroke="black" stroke-width="0.3"',
    "holes": 'fill="none" stroke="black" stroke-width="0.2"',
    "centres": 'fill="none" stroke="black" stroke-width="0.1"',
    "channels": 'fill="none" stroke="#2a7ab0" stroke-width="0.3" stroke-dasharray="3 1.5"',
    "cuts": 'fill="none" stroke="#c0392b" stroke-width="0.35"',
    "arrows": 'fill="none" stroke="#2a7ab0" stroke-width="0.25"',
    "labels": 'fill="black" text-anchor="middle"',
    "mounting": 'fill="none" stroke="#c0392b" stroke-width="0.3"',
}


def _svg(width: float, height: float, body: Iterable[str], size: str = "", **data: str) -> str:
    attrs = "".join(f" data-{k}={quoteattr(v)}" for k, v in data.items())
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg"{size} '
            f'viewBox="0 0 {width:g} {height:g}"{attrs}>',
            *body,
            "</svg>",
            "",
        ]
    )


def _kind(hole: Hole, layout: Layout, skunk: set[int]) -> str:
    if hole.lap_mark:
        return "hole lap"
    if hole.number == 0:
        return "hole start"
    if hole.number == layout.game:
        return "hole game"
    if hole.number in skunk:
        return "hole skunk"
    return "hole fifth" if hole.number % 5 == 0 else "hole"


def _skunk_lines(layout: Layout, lines: Sequence[int]) -> Iterable[str]:
    """A short line across each track just before the first hole past each skunk line."""
    for line in lines:
        number = layout.place(line).hole
        for track in layout.tracks:
            a, b = track.holes[number - 1], track.holes[number]
            x, y = (a.x + b.x) / 2, (a.y + b.y) / 2
            length = math.dist((a.x, a.y), (b.x, b.y))
            dx, dy = 3 * (b.y - a.y) / length, 3 * (a.x - b.x) / length  # across the track
            yield (
                f'<line class="skunk-line" x1="{x - dx:.2f}" y1="{y - dy:.2f}" '
                f'x2="{x + dx:.2f}" y2="{y + dy:.2f}" stroke="{LINE}" stroke-width="0.6"/>'
            )


def board_svg(layout: Layout, frame: Frame | None = None, skunk_lines: Sequence[int] = ()) -> str:
    """The board as SVG in mm units, one ``<circle id="t0h57">`` per hole and one
    ``<circle id="t0l2">`` per lap mark, labelled with its lap.

    With a ``frame``, lit holes are filled with their LED colour; the panel can
    instead set ``fill`` on the ids (CSS or JS) as frames arrive. ``skunk_lines`` are
    the game's (scores); the root's ``data-game``, ``data-laps`` tell a script how
    scores map to holes (see :meth:`~pegboard.board.geometry.Layout.place`).
    """
    lit = lit_holes(layout, frame) if frame is not None else {}
    r = layout.hole_mm / 2
    skunk = {layout.place(line).hole for line in skunk_lines}
    body = [
        f"<title>{escape(layout.title or layout.name)}</title>",
        f'<rect class="board" width="{layout.width_mm:g}" height="{layout.height_mm:g}" '
        f'rx="4" fill="{WOOD}"/>',
        *_skunk_lines(layout, skunk_lines),
    ]
    for track in layout.tracks:
        colour = "#{:02x}{:02x}{:02x}".format(*track.colour)
        body.append(
            f'<g id="t{track.index}" class="track" data-name={quoteattr(track.name)} '
            f'data-colour="{colour}">'
        )
        body += [
            f'<circle id="{h.id}" class="{_kind(h, layout, skunk)}" data-hole="{h.number}" '
            f'cx="{h.x:g}" cy="{h.y:g}" r="{r:g}" fill="{lit.get(h.id, EMPTY)}"/>'
            for h in (*track.holes, *track.lap_marks)
        ]
        body += [
            f'<text class="lap-label" x="{h.x:g}" y="{h.y + r + 2.6:g}" font-size="2.6" '
            f'text-anchor="middle" fill="{LINE}">{h.number}</text>'
            for h in track.lap_marks
        ]
        body.append("</g>")
    data = {"layout": layout.name, "game": str(layout.game), "laps": str(layout.laps)}
    return _svg(layout.width_mm, layout.height_mm, body, **data)


def drilling_template(layout: Layout) -> str:
    """A printable 1:1 template in millimetres: each layer of :func:`~pegboard.board.
    template.drawing` as a group, a title, and a 100 mm bar to check the print."""
    w, h = layout.width_mm + 2 * MARGIN, layout.height_mm + 2 * MARGIN + 10
    body = [
        f'<g transform="translate({MARGIN:g} {MARGIN:g})" font-family="sans-serif">',
        f'<text x="0" y="-6" font-size="4">{escape(layout.title or layout.name)} '
        f"({layout.width_mm:g} x {layout.height_mm:g} mm, drill {layout.hole_mm:g} mm)</text>",
    ]
    for name, shapes in drawing(layout).items():
        body.append(f'<g id="{name}" class="layer" {INK[name]}>')
        body.append(f"<title>{escape(LAYERS[name])}</title>")
        body += map(_shape, shapes)
        body.append("</g>")
    bar_y = layout.height_mm + 8
    body += [
        f'<path d="M0 {bar_y:g}h{SCALE_BAR:g}M0 {bar_y - 2:g}v4M{SCALE_BAR:g} {bar_y - 2:g}v4" '
        'stroke="black" stroke-width="0.3"/>',
        f'<text x="{SCALE_BAR + 4:g}" y="{bar_y + 1.5:g}" font-size="4">this bar is 100 mm: '
        "print at 100 %, no fitting to the page</text>",
        "</g>",
    ]
    return _svg(w, h, body, size=f' width="{w:g}mm" height="{h:g}mm"', layout=layout.name)


def _shape(shape: Shape) -> str:
    if isinstance(shape, Circle):
        ident = f' id="{shape.name}"' if shape.name else ""
        return f'<circle{ident} cx="{shape.x:g}" cy="{shape.y:g}" r="{shape.r:g}"/>'
    if isinstance(shape, Line):
        points = " ".join(f"{x:.2f},{y:.2f}" for x, y in shape.points)
        return f'<{"polygon" if shape.closed else "polyline"} points="{points}"/>'
    return (
        f'<text x="{shape.x:.2f}" y="{shape.y:.2f}" font-size="{shape.size:g}">'
        f"{escape(shape.text)}</text>"
    )


def main(argv: list[str] | None = None) -> None:
    from pegboard.board.layout import load_layout

    parser = argparse.ArgumentParser(description="Draw a board layout as SVG.")
    parser.add_argument("layout", help="layout name or .toml path")
    parser.add_argument("--template", action="store_true", help="1:1 drilling template")
    args = parser.parse_args(argv)
    layout = load_layout(args.layout)
    sys.stdout.write(drilling_template(layout) if args.template else board_svg(layout))


if __name__ == "__main__":
    main()
