"""The PCB build's section drawing (hardware/pcb/section.svg): the plank cut through the
PCB's edge and its first three holes, to scale, from a PCB layout's own numbers.

From the edge in: the plank's frame at full thickness, the ledge the PCB's face and its
countersunk screw bear on (the skin and the window: :func:`tools.pcb.designs.ledge_mm`),
then the window over the LEDs (``skin_mm`` of wood left), bored over each LED and the
bores filled with clear epoxy. The window is as deep as a soldered LED and a clearance
(:func:`tools.pcb.designs.window_mm`), so the LEDs' faces stand that clearance under the
skin and the screws never press them. Each LED's die sits ``die_mm`` under its face: the
steepest ray from the die that clears the bore's rim is what a seat sees, bent at the
epoxy's flat top (:func:`viewing_angle`) and crossing the clearance's air first
(:func:`with_gap`, :func:`seen`).
"""

from __future__ import annotations

import math

from pegboard.board.build import LEDGE_MM, PCB_FIT_MM, viewing_angle
from pegboard.board.geometry import Layout
from tools.pcb.designs import CLEARANCE_MM, EDGE_MM, SCREW_INSET_MM, ledge_mm, window_mm
from tools.section import FILL, PANEL_MM, RAY, WOOD, _dimension, _rect, _text, drawing, rays

PCB_MM = 1.6
LED_MM = 2.0  # the WS2812B-2020 is 2 mm square
HEAD = (5.6, 1.7)  # an M3 countersunk head: diameter, depth


def angles(layout: Layout) -> tuple[float, float]:
    """(with the fill, open) in degrees from vertical, from the die's true depth."""
    assert layout.pcb is not None
    depth = layout.skin_mm + layout.pcb.die_mm
    return viewing_angle(layout.hole_mm, depth, layout.fill_index), viewing_angle(
        layout.hole_mm, depth
    )


def with_gap(layout: Layout, gap_mm: float) -> float:
    """The angle (with the fill) when an air gap of ``gap_mm`` parts the LED's face from
    the epoxy: the ray crosses it at the angle it would leave into air, and goes on in
    the plug as in the package, so it reaches the rim at a smaller slope.

    >>> from pegboard.board.layout import load_layout
    >>> board = load_layout("pcb-two-track-121")
    >>> round(with_gap(board, 0.0), 1) == round(angles(board)[0], 1), round(with_gap(board, 0.1))
    (True, 56)
    """
    assert layout.pcb is not None
    n, r = layout.fill_index, layout.hole_mm / 2
    depth = layout.skin_mm + layout.pcb.die_mm

    def reach(inside: float) -> float:  # how far across the ray gets by the top face
        out = math.asin(min(1.0, n * math.sin(inside)))
        return depth * math.tan(inside) + gap_mm * math.tan(out)

    low, high = 0.0, math.asin(1 / n) - 1e-9
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if reach(mid) < r else (low, mid)
    return math.degrees(math.asin(min(1.0, n * math.sin(low))))


def seen(layout: Layout, gap_mm: float = CLEARANCE_MM) -> float:
    """How far from vertical an LED shows (with the fill) across the clearance's air.

    >>> from pegboard.board.layout import load_layout
    >>> round(seen(load_layout("pcb-two-track-121")))
    51
    """
    return with_gap(layout, gap_mm)


def section_svg(layout: Layout) -> str:
    assert layout.pcb is not None
    p, t, plank, r = layout.pcb.pitch_mm, layout.skin_mm, layout.plank_mm, layout.hole_mm / 2
    led, die, gap = layout.pcb.led_mm, layout.pcb.die_mm, CLEARANCE_MM
    edge = -EDGE_MM  # the PCB's edge, the first bore at 0
    wall, window, screw = edge - PCB_FIT_MM, edge + LEDGE_MM, edge + SCREW_INSET_MM
    left, right = wall - 3.0, 2 * p + 15.0
    top, bottom = -RAY - 2, plank + PANEL_MM + 5
    ledge = ledge_mm(layout)  # the PCB's face
    body = [
        _rect(left, 0, right - left, plank, WOOD),
        _rect(wall, ledge, right - wall, plank - ledge, "#ffffff"),  # the pocket
        _rect(window, t, right - window, window_mm(layout), "#ffffff"),  # the window
        _rect(wall + PCB_FIT_MM, ledge, right - wall - PCB_FIT_MM, PCB_MM, "#2e7d32"),
        _rect(screw + 8, ledge + PCB_MM, right - screw - 8, plank - ledge - PCB_MM, "#e8e0f0"),
        _rect(left, plank, right - left, PANEL_MM, "#a98355"),
    ]
    # The screw: countersunk into the top, through the ledge and the PCB, a nut below.
    hd, hh = HEAD
    body.append(
        f'<polygon points="{screw - hd / 2:.2f},0 {screw + hd / 2:.2f},0 '
        f'{screw + 0.8:.2f},{hh:.2f} {screw - 0.8:.2f},{hh:.2f}" '
        'fill="#c9a227" stroke="#555" stroke-width="0.05"/>'
    )
    body += [
        _rect(screw - 0.8, hh, 1.6, ledge + PCB_MM + 2.4 - hh, "#c9a227"),
        _rect(screw - 2.75, ledge + PCB_MM, 5.5, 2.4, "#9e9e9e"),
    ]
    for k in range(3):
        x = k * p
        body += [
            _rect(x - r, 0, 2 * r, t, FILL),
            _rect(x - LED_MM / 2, t + gap, LED_MM, led, "#eeeeee"),
            _rect(x - 0.5, t + gap + die, 1.0, 0.15, "#ffd54f"),  # the die, under the face
        ]
    open_ = angles(layout)[1]
    bent = seen(layout)
    body += rays(r, t + gap + die, bent, open_)
    body += [
        _text(r + 4.0, -RAY * 0.55, f"±{bent:.0f}° with the epoxy"),
        _text(-r - 2.5, -RAY * 0.85, f"±{open_:.0f}° open", "end"),
        *_dimension((left + 0.8, 0), (left + 0.8, plank), f"plank {plank:g}"),
        *_dimension((window + 0.6, 0), (window + 0.6, t), f"skin {t:g}", 0.3),
        *_dimension((wall + 1.2, 0), (wall + 1.2, ledge), f"ledge {ledge:g}", 0.3),
        *_dimension(
            (2 * p + LED_MM / 2 + 5.5, t),
            (2 * p + LED_MM / 2 + 5.5, ledge),
            f"window {window_mm(layout):g}",
        ),
        _text(LED_MM / 2 + 0.3, t + 0.9, f"air {gap:g}", "start", 0.8),
        *_dimension((-r, -0.9), (r, -0.9), f"bore {layout.hole_mm:g}"),
        *_dimension((0, plank + PANEL_MM + 2), (p, plank + PANEL_MM + 2), f"pitch {p:g}"),
        *_dimension(
            (2 * p + LED_MM / 2 + 0.5, t + gap),
            (2 * p + LED_MM / 2 + 0.5, t + gap + die),
            f"die {die:g}",
            0.2,
        ),
        _text(p + r + 0.4, t / 2 + 0.35, "bores filled with clear epoxy", "start", 0.9),
        _text(
            right - 0.3,
            ledge + PCB_MM + 1.1,
            f"PCB on the ledge, LEDs {gap:g} under the skin",
            "end",
            0.9,
        ),
        _text(right - 0.3, plank - 1.2, "foam presses its middle up", "end", 0.9),
        _text(right - 0.3, plank + PANEL_MM - 0.8, "back panel", "end", 0.9),
        _text(screw + 3.2, ledge + PCB_MM + 3.6, "M3 countersunk, nut", "start", 0.9),
    ]
    title = f"Section through the PCB's edge and three holes of {layout.name} (mm)"
    return drawing((left, top, right - left, bottom - top), title, body)
