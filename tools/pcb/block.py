"""The electronics under the PCB, left of the holes: the Pico, the level shifter and the
power input, placed in mm from the PCB's top left corner and wired.

- The Pico (soldered flat by its castellated edge, its USB socket toward the holes, where
  the cavity under the PCB leaves room for the plug) sends each chain's data from its pin
  to a 74AHCT125 channel; a 10 kohm pull-down holds each input low while the Pico is off
  or booting. Each output comes up through a via and runs on the top to its chain's
  390 ohm resistor. The 74AHCT125's enables and unused inputs are grounded, a 100 nF
  capacitor sits across its supply.
- The 5 V input: the screw terminal, the resettable fuse, the P-channel MOSFET that
  blocks a supply wired the wrong way round (its gate grounded: on only when the input is
  positive), the 1000 uF capacitor, a clamp (an SMBJ5.0A across the LEDs' supply: a
  supply above 6.4 V drives it into conduction until the fuse trips) and a field of vias
  up into the top's 5 V pour.
- The Pico's own 5 V stays its USB's: the LED supply never reaches it.
"""

from __future__ import annotations

from pegboard.board.layout import Layout
from pegboard.maker.hardware_docs import PICO_PINS
from tools.pcb import parts
from tools.pcb.model import POWER_MM, VIA, Board, Point, Via, Zone

GND_PINS = (3, 8, 13, 18, 23, 28, 38)  # the Pico's ground pins (33 is its ADC's ground)
PICO_AT = (36.0, 13.5)  # its centre, from the PCB's top left corner
PICO_HALF_MM = 25.5  # from its centre to its USB socket's end, toward the holes
SHIFTER_DY = 18.15  # the 74AHCT125 below the Pico's pin row
POWER_Y = 42.0  # the input terminal, fuse and MOSFET in a row
TERMINAL_X, FUSE_X, FET_X, BULK_AT = 17.0, 25.0, 31.0, (41.0, 46.9)
CLAMP_AT = (30.35, 50.9)  # the clamp, below the MOSFET and left of the capacitor
LINK_MM = 0.7  # from a pad's end to the via beside it
SCREW_MM = 5.0  # the board's name on the line of the bottom screws, between two


def electronics(pcb: Board, layout: Layout, inputs: list[Point]) -> None:
    """Place and wire the block; ``inputs`` are the chains' series resistors."""
    assert len(layout.strips) == 2, "the block wires two chains, one a track"
    x0, y0, x1, y1 = pcb.outline

    def at(dx: float, dy: float) -> Point:
        return (x0 + dx, y0 + dy)

    pins = [PICO_PINS[s.pin] for s in layout.strips]
    nets = {f"p{n}": "GND" for n in GND_PINS}
    nets |= {f"p{pin}": f"GP{s.pin}" for pin, s in zip(pins, layout.strips, strict=True)}
    pico = pcb.add("U2", parts.PICO, at(*PICO_AT), 270, True, **nets)
    cx, cy = pico.x, pico.y
    # The shifter: chain 0 on channel 2, chain 1 on channel 1, so no two wires cross.
    channel = (1, 0)
    gp = [f"GP{s.pin}" for s in layout.strips]
    shifter_nets = {f"p{n}": "GND" for n in (*parts.SHIFTER_OE, 7, 9, 12)}
    shifter_nets["p14"] = "+5V"
    for c in range(2):
        shifter_nets[f"p{parts.SHIFTER_IN[channel[c]]}"] = gp[c]
        shifter_nets[f"p{parts.SHIFTER_OUT[channel[c]]}"] = f"DATA{c}"
    five = pico.at(str(pins[0]))  # chain 0's pin: its input straight below it
    u1 = pcb.add(
        "U1", parts.SHIFTER_PART, (five[0] - 1.27, cy + SHIFTER_DY), 90, True, **shifter_nets
    )
    for c in range(2):
        source, sink = pico.at(str(pins[c])), u1.at(str(parts.SHIFTER_IN[channel[c]]))
        top, bottom = source[1] + 1.6, sink[1] - 0.975
        if abs(source[0] - sink[0]) < 0.01:
            route = [(source[0], top), (sink[0], bottom)]
        else:
            jog = abs(source[0] - sink[0])
            route = [
                (source[0], top),
                (source[0], top + 0.7),
                (sink[0], top + 0.7 + jog),
                (sink[0], bottom),
            ]
        pcb.path(gp[c], "B.Cu", route)
        pull_down(pcb, c, gp[c], source, route)
    outputs = []
    for c in range(2):
        x, y = u1.at(str(parts.SHIFTER_OUT[channel[c]]))
        via = (x, y - 0.975 - LINK_MM)
        pcb.path(f"DATA{c}", "B.Cu", [(x, y - 0.975), via])
        pcb.vias.append(Via(via, f"DATA{c}"))
        outputs.append(via)
    data_up(pcb, outputs, inputs)
    decouple(pcb, u1)
    power(pcb, at)
    one = pico.at("1")
    pcb.texts += [
        (f"pegboard {layout.name}", ((2 * x0 + x1) / 3, y1 - SCREW_MM), "B.SilkS", 1.5),
        ("1", (one[0], one[1] + 2.6), "B.SilkS", 1.0),
        ("Pico", (cx, cy), "B.SilkS", 2.0),
    ]


def pull_down(pcb: Board, c: int, net: str, source: Point, route: list[Point]) -> None:
    """The 10 kohm from a shifter input to ground, beside its wire."""
    if c == 0:  # right of the straight wire
        x, y = route[0][0] + 1.27 + 0.825, source[1] + 2.9
        r = pcb.add("R3", parts.PULL_DOWN, (x, y), 0, True, p2=net, p1="GND")
        r.label = (0.0, 1.55)  # below it: the Pico's pads are above
    else:  # left of the wire's lower leg
        x, y = route[-1][0] - 0.975 - 0.825, route[-1][1] - 1.05
        r = pcb.add("R4", parts.PULL_DOWN, (x, y), 0, True, p1=net, p2="GND")
    end = r.at("2" if c == 0 else "1")
    wire_x = route[0][0] if c == 0 else route[-1][0]
    pcb.path(net, "B.Cu", [(wire_x, end[1]), end])


def data_up(pcb: Board, outputs: list[Point], inputs: list[Point]) -> None:
    """Each shifter output's via to its series resistor, on the top: up (or down) to the
    resistor's row, then along it. Chain 0's output is the right one; when both rows are
    above, chain 1's wire passes under chain 0's via first so the two never cross."""
    right, left = outputs
    pcb.path("DATA0", "F.Cu", [right, (right[0], inputs[0][1]), inputs[0]])
    target = inputs[1]
    if target[1] < left[1]:
        below = left[1] + 2.0
        aside = right[0] + 2.5
        route = [left, (left[0], below), (aside, below), (aside, target[1]), target]
    else:
        route = [left, (left[0], target[1]), target]
    pcb.path("DATA1", "F.Cu", route)


def decouple(pcb: Board, u1) -> None:
    """100 nF from the 74AHCT125's VCC (pin 14) to ground, and a via up to the 5 V pour."""
    vx, vy = u1.at("14")
    c2 = pcb.add("C2", parts.DECOUPLING, (vx - 2.7, vy), 0, True, p1="+5V", p2="GND")
    pcb.path("+5V", "B.Cu", [c2.at("1"), (vx, vy)])
    via = (c2.at("1")[0], vy + 1.6)
    pcb.path("+5V", "B.Cu", [c2.at("1"), via])
    pcb.vias.append(Via(via, "+5V"))


def power(pcb: Board, at) -> None:
    """Terminal, fuse, MOSFET, capacitor and the vias up into the 5 V pour."""
    j1 = pcb.add("J1", parts.INPUT, at(TERMINAL_X, POWER_Y), 0, True, p1="VIN", p2="GND")
    j1.label = (2.54, 5.9)  # below it: "+5V" and "GND" are above
    f1 = pcb.add("F1", parts.FUSE, at(FUSE_X, POWER_Y), 180, True, p1="VIN", p2="VFUSED")
    q1 = pcb.add("Q1", parts.REVERSE, at(FET_X, POWER_Y), 0, True, p1="GND", p2="+5V", p3="VFUSED")
    c1 = pcb.add("C1", parts.BULK, at(*BULK_AT), 180, True, p1="+5V", p2="GND")
    plus, minus = j1.at("1"), j1.at("2")
    pcb.texts += [
        ("+5V", (plus[0], plus[1] - 6.6), "B.SilkS", 1.2),
        ("GND", (minus[0], minus[1] - 6.6), "B.SilkS", 1.2),
    ]
    pcb.path("VIN", "B.Cu", [j1.at("1"), f1.at("1")], POWER_MM)
    pcb.path("VFUSED", "B.Cu", [f1.at("2"), q1.at("3")], POWER_MM)
    sx, sy = q1.at("2")
    bx, by = c1.at("1")
    pcb.zones.append(Zone("+5V", "B.Cu", (sx - 0.5, sy - 0.4, bx + 2.6, by + 2.2), priority=1))
    pitch = VIA[0] * 2
    pcb.vias += [
        Via((sx + 0.6 + i * pitch, sy + 1.4 + j * pitch), "+5V") for i in range(2) for j in range(3)
    ]
    pcb.path("+5V", "B.Cu", [(sx, sy), (bx, by)], POWER_MM)
    d1 = pcb.add("D1", parts.CLAMP, at(*CLAMP_AT), 0, True, p1="+5V", p2="GND")
    kx, ky = d1.at("1")  # its cathode, up into the 5 V copper round the capacitor
    pcb.path("+5V", "B.Cu", [(kx, ky), (kx, by + 1.6)], POWER_MM)
