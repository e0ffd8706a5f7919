"""Player colours stay apart for players with a colour-vision deficiency.

The check, in short: simulate protanopia, deuteranopia and tritanopia (Machado, Oliveira &
Fernandes 2009, severity 1.0, in linear RGB), convert to CIELAB (D65) and measure CIEDE2000
between every pair of colours that must not be confused: the player palette (which is also
every layout's track colours) and the red flash of a refused claim. docs/colours.md shows
the numbers; ``python tests/test_colours.py`` rewrites it, and a test below keeps it current.

Two views of the same colour: on a screen (the panel) ``#rrggbb`` is sRGB; on the strips
the same bytes drive the LEDs' PWM, so they are *linear* light (the panel's board drawing,
``lit_holes``, shows exactly that). Both must pass.
"""

from __future__ import annotations

import itertools
import math
import sys
from pathlib import Path

import pytest

from pegboard.board.render import FIFTH, REFUSED, REFUSED_TRACK, SKUNK
from pegboard.game.settings import PALETTE

Linear = tuple[float, float, float]
Lab = tuple[float, float, float]

DOC = Path(__file__).resolve().parent.parent / "docs" / "colours.md"

# Smallest CIEDE2000 difference two colours that name different players may have.
# ΔE00 ≈ 1 is a just-noticeable difference for large patches seen side by side; pegs are
# small lights (a 5 mm LED or a hole on a phone is 0.3-0.6° at arm's length), seen apart
# and named ("which one is mine?") rather than compared, where thresholds are several times
# larger (Stone, Szafir & Setlur 2014); and the simulation and the LEDs' own primaries add
# their error. 15 leaves a margin of about 6 JNDs over the 2.3 of Sharma's worked example.
THRESHOLD = 15.0

# Machado et al. (2009), Table 1 (supplement), severity 1.0; rows map linear RGB to RGB.
MACHADO = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
VISIONS = ("normal", *MACHADO)
VIEWS = ("screen", "LED")

# The palette this check recommends: Okabe-Ito blue and orange (the two-player default is
# unchanged), an ivory white and a deep blue; every pair passes in both views.


# --- colour science ------------------------------------------------------------------------


def rgb_of(colour: str | tuple[int, int, int]) -> tuple[int, int, int]:
    if isinstance(colour, str):
        return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))
    return colour


def hex_of(colour: str | tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb_of(colour))


def linear(colour: str | tuple[int, int, int], view: str) -> Linear:
    """Linear RGB 0..1: sRGB decoded on a screen; the bytes as they are on an LED."""
    values = [c / 255 for c in rgb_of(colour)]
    if view == "LED":
        return (values[0], values[1], values[2])
    r, g, b = (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in values)
    return (r, g, b)


def simulate(rgb: Linear, vision: str) -> Linear:
    """How ``rgb`` looks with ``vision`` (Machado 2009), clipped to the gamut.

    >>> [round(v, 3) for v in simulate(linear("#e0302a", "LED"), "deuteranopia")]
    [0.447, 0.38, 0.157]
    """
    if vision == "normal":
        return rgb
    r, g, b = (
        min(1.0, max(0.0, sum(m * v for m, v in zip(row, rgb, strict=True))))
        for row in MACHADO[vision]
    )
    return (r, g, b)


_D65 = (0.95047, 1.0, 1.08883)


def lab(rgb: Linear) -> Lab:
    """CIELAB (D65) of linear sRGB.

    >>> [round(v, 2) for v in lab(linear("#ff0000", "screen"))]
    [53.24, 80.09, 67.2]
    """
    r, g, b = rgb
    xyz = (
        0.4124564 * r + 0.3575761 * g + 0.1804375 * b,
        0.2126729 * r + 0.7151522 * g + 0.0721750 * b,
        0.0193339 * r + 0.1191920 * g + 0.9503041 * b,
    )

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = (f(v / w) for v, w in zip(xyz, _D65, strict=True))
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e(one: Lab, other: Lab) -> float:
    """CIEDE2000 (Sharma, Wu & Dalal 2005), kL = kC = kH = 1."""
    (l1, a1, b1), (l2, a2, b2) = one, other
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1, a2 = (1 + g) * a1, (1 + g) * a2
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dh = 0.0
    if c1 * c2:
        dh = h2 - h1
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    big_dh = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    l_mean, c_mean = (l1 + l2) / 2, (c1 + c2) / 2
    if not c1 * c2:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + (360 if h1 + h2 < 360 else -360)) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_mean, 1 + 0.015 * c_mean * t
    rotation = (
        -math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2))))
        * 2
        * math.sqrt(c_mean**7 / (c_mean**7 + 25**7))
    )
    terms = ((l2 - l1) / s_l, (c2 - c1) / s_c, big_dh / s_h)
    return math.sqrt(sum(x * x for x in terms) + rotation * terms[1] * terms[2])


def difference(one, other, vision: str, view: str) -> float:
    """ΔE00 between two colours as a player with ``vision`` sees them in ``view``."""
    return delta_e(*(lab(simulate(linear(c, view), vision)) for c in (one, other)))


# --- what must stay apart -------------------------------------------------------------------


def colour_sets() -> dict[str, dict[str, str | tuple[int, int, int]]]:
    """The colours that name players: the game's palette, their one home (the layouts' track
    colours are written from it; tests/test_layout.py checks that they agree)."""
    title = "PALETTE (pegboard/game/settings.py, and every layout's tracks)"
    return {title: {f"player {i + 1}": c for i, c in enumerate(PALETTE)}}


FLASH = {"refused (front peg)": REFUSED, "refused (track)": REFUSED_TRACK}


def checks(colours: dict) -> list[tuple[str, str, str, str, float]]:
    """(first, second, vision, view, ΔE00) for every pair that must stay apart: the players
    among themselves in both views, and each against the red flash on the LEDs."""
    rows = []
    pairs = [(a, b, VIEWS) for a, b in itertools.combinations(colours, 2)]
    pairs += [(a, flash, ("LED",)) for a in colours for flash in FLASH]
    everything = colours | FLASH
    for a, b, views in pairs:
        for view in views:
            for vision in VISIONS:
                rows.append(
                    (a, b, vision, view, difference(everything[a], everything[b], vision, view))
                )
    return rows


def failures(colours: dict) -> list[str]:
    return [
        f"{a} / {b}: {de:.1f} ({vision}, {view})"
        for a, b, vision, view, de in checks(colours)
        if de <= THRESHOLD
    ]


# --- the document ---------------------------------------------------------------------------


def render_doc() -> str:
    """docs/colours.md, from the colours in the code and the layouts."""
    out = [
        "# Colours that everyone can tell apart",
        "",
        "<!-- Generated by `python tests/test_colours.py`, which checks it is current. -->",
        "",
        "Players find their pegs by colour, on the LED strips and on the phone. About one",
        "man in twelve has a red-green deficiency (protanopia, deuteranopia, or their milder",
        "forms); tritanopia (blue-yellow) is rare. The check below simulates each at full",
        "severity and measures how far apart every two colours that must not be confused",
        "still are.",
        "",
        "## Method",
        "",
        "- **Simulation**: Machado, Oliveira & Fernandes (2009), the severity-1.0 matrices,",
        "  applied in linear RGB and clipped to the gamut. (Machado's tritanopia is the least",
        "  well founded of the three; Brettel et al. 1997 is the reference for tritans.)",
        "- **Difference**: CIEDE2000 in CIELAB (D65), checked against the test data of",
        "  Sharma, Wu & Dalal (2005).",
        "- **Two views**: on a *screen* (the panel) `#rrggbb` is sRGB. On the *LEDs* the same",
        "  bytes set the PWM duty, which is linear light, so a colour looks lighter and less",
        "  saturated there; the panel's board drawing (`lit_holes`) shows the LED view. The",
        "  LEDs' primaries are taken to be sRGB's.",
        f"- **Threshold**: ΔE00 > {THRESHOLD:g}. ΔE00 ≈ 1 is a just-noticeable difference",
        "  for large patches side by side; pegs are small lights (0.3–0.6° at arm's length)",
        '  seen apart and *named* ("which one is mine?"), where thresholds are several times',
        "  larger (Stone, Szafir & Setlur 2014), and the simulation and the LEDs add their",
        "  own error.",
        "- **What must stay apart**: every pair of player colours in both views, and on the",
        "  LEDs each player colour against the red flash of a refused claim (`REFUSED`,",
        "  `REFUSED_TRACK` in pegboard/board/render.py).",
        "",
        "Cells at or below the threshold are marked **✗**.",
        "",
    ]
    for title, colours in colour_sets().items():
        found = failures(colours)
        listed = ", ".join(f"{name} `{hex_of(c)}`" for name, c in colours.items())
        verdict = f"**{len(found)} failing**" if found else "all pass"
        out += [f"## {title}: {verdict}", "", listed, "", _table(checks(colours)), ""]
    out += [
        "## Marks and back pegs (for information)",
        "",
        "The faint marks (every fifth hole `FIFTH`, the skunk holes `SKUNK`) against a back peg",
        "(12 % of the track colour), LED view. A mark sits at a known hole, so position tells",
        "them apart where colour does not; these are not held to the threshold.",
        "",
    ]
    marks = {"fifth mark": FIFTH, "skunk mark": SKUNK}
    rows = []
    for name, colour in {f"player {i + 1}": c for i, c in enumerate(PALETTE)}.items():
        back = tuple(round(0.12 * v) for v in rgb_of(colour))
        for mark, value in marks.items():
            for vision in VISIONS:
                rows.append(
                    (
                        f"{name} back peg",
                        mark,
                        vision,
                        "LED",
                        difference(back, value, vision, "LED"),
                    )
                )
    out += [_table(rows, mark=False), ""]
    return "\n".join(out)


def _table(rows, mark: bool = True) -> str:
    head = "| pair | view | " + " | ".join(VISIONS) + " |"
    lines = [head, "|" + "---|" * (2 + len(VISIONS))]
    grouped: dict[tuple[str, str, str], dict[str, float]] = {}
    for a, b, vision, view, de in rows:
        grouped.setdefault((a, b, view), {})[vision] = de
    for (a, b, view), by_vision in grouped.items():
        cells = [
            f"**{by_vision[v]:.1f} ✗**"
            if mark and by_vision[v] <= THRESHOLD
            else f"{by_vision[v]:.1f}"
            for v in VISIONS
        ]
        lines.append(f"| {a} / {b} | {view} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# --- tests -----------------------------------------------------------------------------------

# Sharma, Wu & Dalal (2005), Table 1: pairs chosen to exercise every branch of the formula.
SHARMA = [
    ((50.0000, 2.6772, -79.7751), (50.0000, 0.0000, -82.7485), 2.0425),
    ((50.0000, 3.1571, -77.2803), (50.0000, 0.0000, -82.7485), 2.8615),
    ((50.0000, -1.3802, -84.2814), (50.0000, 0.0000, -82.7485), 1.0000),
    ((50.0000, 0.0000, 0.0000), (50.0000, -1.0000, 2.0000), 2.3669),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0009), 7.1792),
    ((50.0000, 2.4900, -0.0010), (50.0000, -2.4900, 0.0011), 7.2195),
    ((50.0000, -0.0010, 2.4900), (50.0000, 0.0009, -2.4900), 4.8045),
    ((50.0000, 2.5000, 0.0000), (73.0000, 25.0000, -18.0000), 27.1492),
    ((50.0000, 2.5000, 0.0000), (61.0000, -5.0000, 29.0000), 22.8977),
    ((50.0000, 2.5000, 0.0000), (56.0000, -27.0000, -3.0000), 31.9030),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize(("one", "other", "expected"), SHARMA)
def test_ciede2000_matches_the_published_test_data(one, other, expected):
    assert delta_e(one, other) == pytest.approx(expected, abs=1e-4)
    assert delta_e(other, one) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("vision", list(MACHADO))
def test_simulation_keeps_greys_and_merges_the_confusion_colours(vision):
    for grey in (0.0, 0.2, 0.5, 1.0):
        assert simulate((grey,) * 3, vision) == pytest.approx((grey,) * 3, abs=1e-5)
    # A red and a green of equal lightness, plain to normal vision, nearly merge for a
    # red-green dichromat; a blue and a green do for a tritan.
    red_green = difference("#c04040", "#608000", vision, "screen")
    blue_green = difference("#3a7fb0", "#3a9a70", vision, "screen")
    normal = difference("#c04040", "#608000", "normal", "screen")
    if vision == "tritanopia":
        assert blue_green < difference("#3a7fb0", "#3a9a70", "normal", "screen") / 2
    else:
        assert red_green < normal / 3


@pytest.mark.parametrize("title", list(colour_sets()))
def test_player_colours_stay_apart_with_every_deficiency(title):
    assert failures(colour_sets()[title]) == []


def test_the_document_shows_the_current_check():
    expected = render_doc()
    assert DOC.is_file() and DOC.read_text(encoding="utf-8") == expected, (
        "docs/colours.md is out of date: run `python tests/test_colours.py`"
    )


if __name__ == "__main__":
    DOC.write_text(render_doc(), encoding="utf-8")
    print(f"wrote {DOC}", file=sys.stderr)
