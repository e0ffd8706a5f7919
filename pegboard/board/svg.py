"""Drawings of a layout: the board for the phone panel, and a 1:1 drilling template.

Both come from the same layout file as the LED map, so the holes a maker drills
are the holes the code lights.

>>> from pegboard.board.layout import load_layout
>>> svg = board_svg(load_layout("two-track-61"))
>>> '<circle id="t1h57"' in svg
True

Run ``python -m pegboard.board.svg two-track-121 --template > drill.svg`` to write one.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr

from pegboard.board.layout import Hole, Layout
from pegboard.board.render import Frame, lit_holes

WOOD = "#b98a57"
EMPTY = "#1e1208"  # an unlit hole
LINE = "#f2e6d0"
MARGIN = 15.0  # mm of paper around the board on the template
SCALE_BAR = 100.0  # mm


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


def _kind(hole: Hole, layout: Layout) -> str:
    if hole.number == 0:
        return "hole start"
    if hole.number == layout.game:
        return "hole game"
    if hole.number in layout.skunk_lines:
        return "hole skunk"
    return "hole fifth" if hole.number % 5 == 0 else "hole"


def _skunk_lines(layout: Layout, stroke: str, width: float) -> Iterable[str]:
    """A short line across each track between hole n-1 and hole n of each skunk line."""
    for line in layout.skunk_lines:
        for track in layout.tracks:
            a, b = track.holes[line - 1], track.holes[line]
            if abs(a.y - b.y) < 0.01:  # on one street
                x = (a.x + b.x) / 2
                yield (
                    f'<line class="skunk-line" x1="{x:g}" y1="{a.y - 3:g}" x2="{x:g}" '
                    f'y2="{a.y + 3:g}" stroke="{stroke}" stroke-width="{width:g}"/>'
                )


def board_svg(layout: Layout, frame: Frame | None = None) -> str:
    """The board as SVG in mm units, one ``<circle id="t0h57">`` per hole.

    With a ``frame``, lit holes are filled with their LED colour; the panel can
    instead set ``fill`` on the ids (CSS or JS) as frames arrive.
    """
    lit = lit_holes(layout, frame) if frame is not None else {}
    r = layout.hole_mm / 2
    body = [
        f"<title>{escape(layout.title or layout.name)}</title>",
        f'<rect class="board" width="{layout.width_mm:g}" height="{layout.height_mm:g}" '
        f'rx="4" fill="{WOOD}"/>',
        *_skunk_lines(layout, LINE, 0.6),
    ]
    for track in layout.tracks:
        colour = "#{:02x}{:02x}{:02x}".format(*track.colour)
        body.append(
            f'<g id="t{track.index}" class="track" data-name={quoteattr(track.name)} '
            f'data-colour="{colour}">'
        )
        body += [
            f'<circle id="{h.id}" class="{_kind(h, layout)}" data-hole="{h.number}" '
            f'cx="{h.x:g}" cy="{h.y:g}" r="{r:g}" fill="{lit.get(h.id, EMPTY)}"/>'
            for h in track.holes
        ]
        body.append("</g>")
    return _svg(layout.width_mm, layout.height_mm, body, layout=layout.name)


def drilling_template(layout: Layout) -> str:
    """A printable 1:1 template in millimetres: outline, hole circles, crosshairs,
    hole numbers, the LED order of each strip, and a 100 mm bar to check the print."""
    w, h = layout.width_mm + 2 * MARGIN, layout.height_mm + 2 * MARGIN + 10
    r = layout.hole_mm / 2
    body = [
        f'<g transform="translate({MARGIN:g} {MARGIN:g})" font-family="sans-serif">',
        f'<rect width="{layout.width_mm:g}" height="{layout.height_mm:g}" fill="none" '
        'stroke="black" stroke-width="0.3"/>',
        f'<text x="0" y="-6" font-size="4">{escape(layout.title or layout.name)} '
        f"({layout.width_mm:g} x {layout.height_mm:g} mm, drill {layout.hole_mm:g} mm)</text>",
        *_skunk_lines(layout, "black", 0.3),
    ]
    for strip in layout.strips:  # wiring guide: the strip's path through its holes
        holes = sorted((h for h in layout.holes() if h.strip == strip.id), key=lambda h: h.led)
        points = " ".join(f"{h.x:g},{h.y:g}" for h in holes)
        body.append(
            f'<polyline class="strip" points="{points}" fill="none" stroke="#8cf" '
            f'stroke-width="0.4" stroke-dasharray="1.5 1"><title>strip {strip.id}, '
            f"Pico GP{strip.pin}, {strip.leds} LEDs</title></polyline>"
        )
    for hole in layout.holes():
        x, y = hole.x, hole.y
        body.append(
            f'<circle id="{hole.id}" cx="{x:g}" cy="{y:g}" r="{r:g}" fill="none" '
            'stroke="black" stroke-width="0.2"/>'
            f'<path d="M{x - 1.2:g} {y:g}h2.4M{x:g} {y - 1.2:g}v2.4" stroke="black" '
            'stroke-width="0.1"/>'
        )
        label = {0: "S", layout.game: "G"}.get(hole.number)
        if label or hole.number % 5 == 0:
            body.append(
                f'<text x="{x:g}" y="{y - r - 0.6:g}" font-size="1.8" '
                f'text-anchor="middle">{label or hole.number}</text>'
            )
    bar_y = layout.height_mm + 8
    body += [
        f'<path d="M0 {bar_y:g}h{SCALE_BAR:g}M0 {bar_y - 2:g}v4M{SCALE_BAR:g} {bar_y - 2:g}v4" '
        'stroke="black" stroke-width="0.3"/>',
        f'<text x="{SCALE_BAR + 4:g}" y="{bar_y + 1.5:g}" font-size="4">this bar is 100 mm: '
        "print at 100 %, no fitting to the page</text>",
        "</g>",
    ]
    return _svg(w, h, body, size=f' width="{w:g}mm" height="{h:g}mm"', layout=layout.name)


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
