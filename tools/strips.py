"""Drawings of the strip for the guide, from the layout: 48 LEDs of a reel with the cut
lines and the length a maker measures, and the pieces as they are cut from the reels."""

from __future__ import annotations

from pegboard.board.build import reels
from pegboard.board.geometry import Layout
from tools.layouts import MEASURED

SCALE = 3.0  # pixels a mm
PCB, LED, CUT, INK = "#f4f1e8", "#ffffff", "#c0392b", "#222"


def _svg(
    width: float, height: float, title: str, body: list[str], scale: float = SCALE, font: float = 4
) -> str:
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * scale:.0f}" '
            f'height="{height * scale:.0f}" viewBox="0 0 {width:.2f} {height:.2f}" '
            f'font-family="sans-serif" font-size="{font:g}">',
            f"<title>{title}</title>",
            f'<rect width="{width:.2f}" height="{height:.2f}" fill="#fff"/>',
            *body,
            "</svg>",
            "",
        ]
    )


def _leds(x: float, y: float, count: int, pitch: float, width: float) -> list[str]:
    """A length of strip from (x, y), its LEDs and the cut line at each pad."""
    out = [
        f'<rect x="{x:.2f}" y="{y:.2f}" width="{count * pitch:.2f}" height="{width:g}" '
        f'fill="{PCB}" stroke="#999" stroke-width="0.2"/>'
    ]
    for k in range(count):
        cx = x + (k + 0.5) * pitch
        out.append(
            f'<rect x="{cx - 2.5:.2f}" y="{y + width / 2 - 2.5:.2f}" width="5" height="5" '
            f'fill="{LED}" stroke="#888" stroke-width="0.2"/>'
        )
    for k in range(count + 1):
        cx = x + k * pitch
        out.append(
            f'<line x1="{cx:.2f}" y1="{y - 1:.2f}" x2="{cx:.2f}" y2="{y + width + 1:.2f}" '
            f'stroke="{CUT}" stroke-width="0.3"/>'
        )
    return out


def measured_svg(layout: Layout) -> str:
    """48 LEDs end to end, cut line to cut line, with the length they measure."""
    kind = layout.strip_kind
    pitch, width, count = kind.pitch_mm, kind.width_mm, MEASURED
    length = count * pitch
    left, top = 6.0, 14.0
    body = _leds(left, top, count, pitch, width)
    y = top + width + 6
    body += [
        f'<line x1="{left:.2f}" y1="{y:.2f}" x2="{left + length:.2f}" y2="{y:.2f}" '
        f'stroke="{INK}" stroke-width="0.3"/>',
        *(
            f'<line x1="{x:.2f}" y1="{y - 2:.2f}" x2="{x:.2f}" y2="{y + 2:.2f}" '
            f'stroke="{INK}" stroke-width="0.3"/>'
            for x in (left, left + length)
        ),
        f'<text x="{left + length / 2:.2f}" y="{y + 7:.2f}" text-anchor="middle">'
        f"{count} LEDs, cut line to cut line: {length:.1f} mm at {kind.leds_per_m} a metre"
        "</text>",
        f'<text x="{left:.2f}" y="{top - 4:.2f}">cut across the middle of the copper pads, '
        "on the red lines</text>",
    ]
    return _svg(length + 2 * left, y + 12, f"{count} LEDs of the strip", body)


def pieces_svg(layout: Layout) -> str:
    """The pieces as they are cut from the reels: a row a reel, each piece named with its
    LEDs and its cut length."""
    kind = layout.strip_kind
    pitch, width = kind.pitch_mm, kind.width_mm
    left, row_mm = 70.0, width + 34
    body = []
    bought = reels(layout)
    for row, reel in enumerate(bought):
        y = 8 + row * row_mm
        body.append(f'<text x="2" y="{y + width / 2 + 5:.2f}">reel {row + 1}</text>')
        x = left
        for piece in reel:
            body += _leds(x, y, piece.leds, pitch, width)
            body.append(
                f'<text x="{x + piece.leds * pitch / 2:.2f}" y="{y + width + 17:.2f}" '
                f'text-anchor="middle">{piece.name}: {piece.leds} LEDs, '
                f"{piece.leds * pitch:.0f} mm</text>"
            )
            x += piece.leds * pitch + 8
    widest = max(sum(p.leds * pitch + 8 for p in reel) for reel in bought)
    title = f"The pieces of {layout.name} as cut from the reels"
    return _svg(left + widest, 8 + len(bought) * row_mm, title, body, SCALE / 3, 14)
