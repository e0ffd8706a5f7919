"""A :class:`~tools.pcb.model.Board` as a KiCad 6 project: the board file (s-expressions,
format 20211014, the same text for the same layout) and the project file holding the
fab's design rules, which KiCad's own check reads.

The zones are written unfilled: KiCad fills them (``pcbnew.ZONE_FILLER``) before its
check and its plots, and so does its editor on opening (press B).
"""

from __future__ import annotations

import json

from tools.pcb import parts
from tools.pcb.model import RULES, VIA, Board, Placed, Zone
from tools.pcb.parts import Land

LAYERS = """  (layers
    (0 "F.Cu" signal)
    (31 "B.Cu" signal)
    (32 "B.Adhes" user "B.Adhesive")
    (33 "F.Adhes" user "F.Adhesive")
    (34 "B.Paste" user)
    (35 "F.Paste" user)
    (36 "B.SilkS" user "B.Silkscreen")
    (37 "F.SilkS" user "F.Silkscreen")
    (38 "B.Mask" user)
    (39 "F.Mask" user)
    (40 "Dwgs.User" user "User.Drawings")
    (41 "Cmts.User" user "User.Comments")
    (44 "Edge.Cuts" user)
    (45 "Margin" user)
    (46 "B.CrtYd" user "B.Courtyard")
    (47 "F.CrtYd" user "F.Courtyard")
    (48 "B.Fab" user)
    (49 "F.Fab" user)
  )"""
ZONE_CLEARANCE = 0.25  # pour to copper of another net
ZONE_MIN = 0.25  # the narrowest neck a pour keeps
THERMAL = (0.4, 0.5)  # a through-hole pad's relief in a pour: gap, spoke
SILK = (0.8, 0.15)  # the references' height and stroke: the fab's least legible
VCUT_LAYER = "Cmts.User"  # the V-score lines between the board and its rails
MADE = "Generated from hardware/layouts/{name}.toml by python -m tools.hardware --write"
NETCLASS = {"clearance": 0.2, "track_width": 0.25, "via_diameter": VIA[0], "via_drill": VIA[1]}


def n(value: float) -> str:
    """A number as KiCad writes it: up to 4 decimals, no trailing zeros.

    >>> n(1.0), n(-0.91500001), n(12.3456789)
    ('1', '-0.915', '12.3457')
    """
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def q(text: str) -> str:
    return json.dumps(text)


def board_file(pcb: Board, title: str) -> str:
    """The .kicad_pcb text."""
    nets = ["", *pcb.nets]
    number = {name: i for i, name in enumerate(nets)}
    out = [
        "(kicad_pcb (version 20211014) (generator pegboard)",
        "  (general (thickness 1.6))",
        '  (paper "A3")',
        f"  (title_block (title {q(title)}) (comment 1 {q(MADE.format(name=pcb.name))}))",
        LAYERS,
        "  (setup (pad_to_mask_clearance 0) (aux_axis_origin 0 0) (grid_origin 0 0))",
        *(f"  (net {i} {q(name)})" for i, name in enumerate(nets)),
    ]
    out += [footprint(p, number) for p in pcb.parts]
    x0, y0, x1, y1 = pcb.outline
    edge = '(layer "Edge.Cuts") (width 0.1) (fill none)'
    r = pcb.rails
    out.append(f"  (gr_rect (start {n(x0)} {n(y0 - r)}) (end {n(x1)} {n(y1 + r)}) {edge})")
    if r:  # the V-score lines along the board's long edges, and the fab's note
        for y in (y0, y1):
            out.append(
                f"  (gr_line (start {n(x0)} {n(y)}) (end {n(x1)} {n(y)})"
                f" (layer {q(VCUT_LAYER)}) (width 0.1))"
            )
        out.append(
            f'  (gr_text "V-CUT" (at {n((x0 + x1) / 2)} {n(y0 - r / 2)}) (layer {q(VCUT_LAYER)})'
            " (effects (font (size 1.5 1.5) (thickness 0.2))))"
        )
    for text, (x, y), layer, size in pcb.texts:
        mirror = " (justify mirror)" if layer.startswith("B.") else ""
        out.append(
            f"  (gr_text {q(text)} (at {n(x)} {n(y)}) (layer {q(layer)}) "
            f"(effects (font (size {n(size)} {n(size)}) (thickness {n(size * 0.15)})){mirror}))"
        )
    for t in pcb.tracks:
        out.append(
            f"  (segment (start {n(t.a[0])} {n(t.a[1])}) (end {n(t.b[0])} {n(t.b[1])}) "
            f"(width {n(t.width)}) (layer {q(t.layer)}) (net {number[t.net]}))"
        )
    for v in pcb.vias:
        out.append(
            f"  (via (at {n(v.at[0])} {n(v.at[1])}) (size {n(VIA[0])}) (drill {n(VIA[1])}) "
            f'(layers "F.Cu" "B.Cu") (net {number[v.net]}))'
        )
    out += [zone(z, number) for z in pcb.zones]
    out.append(")")
    return "\n".join(out) + "\n"


def footprint(p: Placed, number: dict[str, int]) -> str:
    side = "B" if p.bottom else "F"
    land = p.part.land
    mirror = -1 if p.bottom else 1
    r = n(p.rotation)
    flags = "through_hole" if land.through_hole else "smd"
    if not p.part.fab:
        flags += " exclude_from_pos_files"
    if not p.part.mpn:
        flags += " exclude_from_bom"
    justify = " (justify mirror)" if p.bottom else ""
    x0, y0, x1, y1 = land.courtyard
    cx0, cx1 = sorted((x0 * mirror, x1 * mirror))
    lx, ly = p.label if p.label is not None else (0.0, y0 - 0.8)
    angle = n(p.rotation if p.label_angle is None else p.label_angle)
    size, stroke = SILK
    lines = [
        f"  (footprint {q(land.name)} (layer {q(side + '.Cu')})",
        f"    (at {n(p.x)} {n(p.y)} {r})",
        f"    (attr {flags})",
        f"    (fp_text reference {q(p.ref)} (at {n(lx * mirror)} {n(ly)} {angle})"
        f' (layer "{side}.SilkS")'
        f" (effects (font (size {n(size)} {n(size)}) (thickness {n(stroke)})){justify}))",
        f'    (fp_text value {q(p.part.value)} (at 0 {n(y1 + 0.8)} {r}) (layer "{side}.Fab")'
        f" (effects (font (size 0.8 0.8) (thickness 0.12)){justify}))",
        f"    (fp_rect (start {n(cx0)} {n(y0)}) (end {n(cx1)} {n(y1)})"
        f' (layer "{side}.CrtYd") (width 0.05) (fill none))',
        *marks(land, side, mirror),
    ]
    for pad in land.pads:
        x, y = pad.x * mirror, pad.y
        net = p.nets.get(pad.number)
        net_text = f" (net {number[net]} {q(net)})" if net else ""
        size = f"(size {n(pad.width)} {n(pad.height)})"
        where = f"(at {n(x)} {n(y)} {r})"
        if not pad.drill:
            extra = " (roundrect_rratio 0.25)" if pad.shape == "roundrect" else ""
            paste = f' "{side}.Paste"' if land.paste else ""
            layers = f'(layers "{side}.Cu"{paste} "{side}.Mask")'
            if land is parts.FIDUCIAL_LAND:
                extra += f" (solder_mask_margin {n((parts.FIDUCIAL_MASK_MM - pad.width) / 2)})"
            lines.append(
                f"    (pad {q(pad.number)} smd {pad.shape} {where} {size} {layers}"
                f"{extra}{net_text})"
            )
        elif pad.plated:
            lines.append(
                f"    (pad {q(pad.number)} thru_hole {pad.shape} {where} {size}"
                f' (drill {n(pad.drill)}) (layers "*.Cu" "*.Mask"){net_text})'
            )
        else:
            lines.append(
                f"    (pad {q(pad.number)} np_thru_hole {pad.shape} {where} {size}"
                f' (drill {n(pad.drill)}) (layers "*.Cu" "*.Mask") (clearance 1))'
            )
    lines.append("  )")
    return "\n".join(lines)


def marks(land: Land, side: str, mirror: int) -> list[str]:
    """The footprint's silk marks: a dot by pin 1, a "+" by the positive pad, a bar on
    the cathode's side (x mirrored for the bottom, as the pads are)."""
    layer = f'(layer "{side}.SilkS") (width {n(SILK[1])})'
    out = []
    if land.pin1 is not None:
        x, y = land.pin1[0] * mirror, land.pin1[1]
        out.append(
            f"    (fp_circle (center {n(x)} {n(y)}) (end {n(x + 0.1)} {n(y)}) {layer} (fill solid))"
        )
    if land.plus is not None:
        x, y = land.plus[0] * mirror, land.plus[1]
        for dx, dy in ((0.6, 0), (0, 0.6)):
            out.append(
                f"    (fp_line (start {n(x - dx)} {n(y - dy)}) (end {n(x + dx)} {n(y + dy)})"
                f" {layer})"
            )
    if land.bar is not None:
        bx0, by0, bx1, by1 = land.bar
        out.append(
            f"    (fp_line (start {n(bx0 * mirror)} {n(by0)}) (end {n(bx1 * mirror)} {n(by1)})"
            f" {layer})"
        )
    return out


def zone(z: Zone, number: dict[str, int]) -> str:
    x0, y0, x1, y1 = z.box
    corners = " ".join(f"(xy {n(x)} {n(y)})" for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))
    gap, spoke = THERMAL
    return (
        f"  (zone (net {number[z.net]}) (net_name {q(z.net)}) (layer {q(z.layer)})"
        " (hatch edge 0.508)\n"
        f"    (priority {z.priority})\n"
        f"    (connect_pads thru_hole_only (clearance {n(ZONE_CLEARANCE)}))\n"
        f"    (min_thickness {n(ZONE_MIN)}) (filled_areas_thickness no)\n"
        f"    (fill (thermal_gap {n(gap)}) (thermal_bridge_width {n(spoke)}))\n"
        f"    (polygon (pts {corners}))\n"
        "  )"
    )


def project_file(name: str) -> str:
    """The .kicad_pro: the fab's rules and the default net class, for KiCad's check."""
    project = {
        "board": {
            "design_settings": {
                "defaults": {"board_outline_line_width": 0.1, "copper_line_width": 0.2},
                "rules": {**RULES, "allow_blind_buried_vias": False, "allow_microvias": False},
                "rule_severities": {"silk_over_copper": "warning", "silk_overlap": "warning"},
            }
        },
        "meta": {"filename": f"{name}.kicad_pro", "version": 1},
        "net_settings": {
            "classes": [{"name": "Default", **NETCLASS}],
            "meta": {"version": 2},
        },
    }
    return json.dumps(project, indent=2, sort_keys=True) + "\n"
