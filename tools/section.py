"""The section drawing of the guide (hardware/section.svg): the board cut along a strip
through three holes, with its depths, drawn from a layout's own numbers (the ones its
templates use): the clear tape closing the bores from below, the epoxy on it, the LED
against it, and the steepest ray from the LED's die that still shows, with and without
the fill.
"""

from __future__ import annotations

import math

from pegboard.board.build import DIE_MM, viewing_angle
from pegboard.board.geometry import Layout

LED = (5.0, 1.6)  # a WS2812B 5050 package: width, height (mm)
PCB_MM = 0.3  # the strip's flexible board and its tape
CARRIER_MM = 3.0  # a strip of plywood the pieces are stuck on
PANEL_MM = 3.0  # the back panel
TAPE_MM = 0.15  # clear tape across the bores' bottom
SCALE = 18  # screen pixels a millimetre
WOOD, FILL, AIR = "#d9b382", "#bfe3f5", "#ffffff"
RAY = 10.0  # mm of ray drawn in the air


def section_svg(layout: Layout) -> str:
    """The section as SVG, in mm (shown at ``SCALE`` pixels a mm)."""
    p, t, plank, r = (
        layout.strip_kind.pitch_mm,
        layout.skin_mm,
        layout.plank_mm,
        layout.hole_mm / 2,
    )
    die = DIE_MM[0]  # the shallowest: the widest angle the LED shows
    bent = viewing_angle(layout.hole_mm, t, layout.fill_index, die)
    open_ = viewing_angle(layout.hole_mm, t, 1.0, die)
    left, right = -2.6 * p, 3.4 * p  # the drawing's ends; the pocket ends at wall
    wall = -1.7 * p
    top, bottom = -RAY - 2, plank + PANEL_MM + 6
    under = t + LED[1] + PCB_MM  # the carrier's top
    body = [
        _rect(left, 0, right - left, plank, WOOD),  # the plank, cut
        _rect(wall, t, right - wall, plank - t, AIR),  # the pocket
        _rect(wall, under, right - wall, CARRIER_MM, "#c9a06a"),
        _rect(wall, under + CARRIER_MM, right - wall, plank - under - CARRIER_MM, "#e8e0f0"),
        _rect(left, plank, right - left, PANEL_MM, "#a98355"),  # the back panel
        _rect(wall, t + LED[1], right - wall, PCB_MM, "#2e7d32"),  # the strip
    ]
    for k in (-1, 0, 1):
        x = k * p
        body += [_rect(x - r, 0, 2 * r, t, FILL), _rect(x - LED[0] / 2, t, LED[0], LED[1], "#eee")]
        body.append(_rect(x - 0.6, t + die - 0.25, 1.2, 0.25, "#ffd54f"))  # the die, inside
    body.append(_rect(wall, t, right - wall, TAPE_MM, "#3b8fd0"))  # the tape under the bores
    body += rays(r, t + die, bent, open_)
    body += [
        _text(2.2 * r + 3.0, -RAY * 0.55, f"±{bent:.0f}° with the epoxy"),
        _text(-2.2 * r - 1.0, -RAY * 0.8, f"±{open_:.0f}° open", "end"),
        *_dimension((left + 0.8, 0), (left + 0.8, plank), f"plank {plank:g}"),
        *_dimension((wall + 1.0, 0), (wall + 1.0, t), f"skin {t:g}", 0.4),
        *_dimension((wall + 1.0, t), (wall + 1.0, plank), f"pocket {plank - t:g}", 0.4),
        *_dimension((-r, -0.9), (r, -0.9), f"bore {layout.hole_mm:g}"),
        *_dimension((0, plank + PANEL_MM + 2), (p, plank + PANEL_MM + 2), f"pitch {p:.2f}"),
        _text(p + LED[0] / 2 + 0.4, t + 1.2, "LED on clear tape", "start", 0.9),
        _text(right - 0.3, under + CARRIER_MM / 2 + 0.4, "strip on a ply carrier", "end", 0.9),
        _text(right - 0.3, plank - 1.2, "foam presses it up", "end", 0.9),
        _text(right - 0.3, plank + PANEL_MM - 0.8, "back panel", "end", 0.9),
        _text(p + r + 0.5, t / 2 + 0.35, "bores filled with clear epoxy", "start", 0.9),
        _text(0.9, t + die + 0.9, f"die {die:g} deep", "start", 0.7),
    ]
    title = f"Section through three holes of {layout.name} (mm)"
    return drawing((left, top, right - left, bottom - top), title, body)


def drawing(box: tuple[float, float, float, float], title: str, body: list[str]) -> str:
    """A section drawing as SVG: ``box`` (left, top, width, height) in mm, shown at
    ``SCALE`` pixels a mm on white."""
    left, top, width, height = box
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * SCALE:.0f}" '
            f'height="{height * SCALE:.0f}" viewBox="{left:.2f} {top:.2f} {width:.2f} '
            f'{height:.2f}" font-family="sans-serif" font-size="1.1">',
            f"<title>{title}</title>",
            _rect(left, top, width, height, "#ffffff"),
            *body,
            "</svg>",
            "",
        ]
    )


def _rect(x: float, y: float, w: float, h: float, fill: str) -> str:
    return (
        f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" fill="{fill}" '
        'stroke="#555" stroke-width="0.05"/>'
    )


def rays(r: float, depth: float, bent: float, open_: float) -> list[str]:
    """The light from a die ``depth`` under the face past a bore's rim (``r`` from its
    middle): to the rim, then out at the angle with the fill (``bent``) and without."""
    lines = []
    for sign in (-1, 1):
        rim = (sign * r, 0.0)
        lines.append(_line((0, depth), rim, "#e65100", 0.12))
        for angle, dash in ((bent, ""), (open_, "0.6 0.4")):
            a = math.radians(angle)
            end = (rim[0] + sign * RAY * math.sin(a), -RAY * math.cos(a))
            lines.append(_line(rim, end, "#e65100", 0.12, dash))
    return lines


def _line(a, b, colour: str, width: float, dash: str = "") -> str:
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<line x1="{a[0]:.2f}" y1="{a[1]:.2f}" x2="{b[0]:.2f}" y2="{b[1]:.2f}" '
        f'stroke="{colour}" stroke-width="{width:g}"{dashed}/>'
    )


def _text(x: float, y: float, text: str, anchor: str = "start", size: float = 1.1) -> str:
    return (
        f'<text x="{x:.2f}" y="{y:.2f}" text-anchor="{anchor}" font-size="{size:g}">{text}</text>'
    )


def _dimension(a, b, label: str, offset: float = 0.0) -> list[str]:
    """A dimension line from a to b with end ticks and its label beside its middle."""
    vertical = abs(a[0] - b[0]) < 1e-9
    tick = (0.4, 0) if vertical else (0, 0.4)
    parts = [_line(a, b, "#000", 0.06)]
    for x, y in (a, b):
        parts.append(_line((x - tick[0], y - tick[1]), (x + tick[0], y + tick[1]), "#000", 0.06))
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    if vertical:
        parts.append(_text(mx + 0.6 + offset, my + 0.4, label, "start", 0.9))
    else:
        parts.append(_text(mx, my - 0.4, label, "middle", 0.9))
    return parts
