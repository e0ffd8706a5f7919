"""Board layouts: the shipped boards, and the refusal of inconsistent ones."""

import math
from importlib import resources

import pytest

from pegboard.board.layout import layout_names, load_layout, parse_layout
from pegboard.errors import ConfigError, LayoutError

SHIPPED = {
    "two-track-121": (2, 121, (61, 91)),
    "three-track-121": (3, 121, (61, 91)),
    "two-track-61": (2, 61, (31,)),
}

# A tiny board: one track of holes 0..6 on one strip, two in a row 7 mm apart.
TINY = """
name = "tiny"
game = 6
[board]
width_mm = 60
height_mm = 20
hole_mm = 3
[[strips]]
id = 0
pin = 2
leds = 8
[[tracks]]
name = "Red"
colour = "#ff0000"
holes = [
  { hole = 0, x = 5, y = 10, strip = 0, led = 0 },
  { hole = 1, x = 12, y = 10, strip = 0, led = 1 },
  { hole = 2, x = 19, y = 10, strip = 0, led = 2 },
  { hole = 3, x = 26, y = 10, strip = 0, led = 3 },
  { hole = 4, x = 33, y = 10, strip = 0, led = 4 },
  { hole = 5, x = 40, y = 10, strip = 0, led = 5 },
  { hole = 6, x = 47, y = 10, strip = 0, led = 7 },
]
"""


def test_shipped_layouts_are_listed():
    assert set(layout_names()) == set(SHIPPED)


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_layout_has_every_hole_on_its_own_led(name):
    layout = load_layout(name)
    tracks, game, skunk = SHIPPED[name]
    assert (len(layout.tracks), layout.game, layout.skunk_lines) == (tracks, game, skunk)
    for track in layout.tracks:
        assert [h.number for h in track.holes] == list(range(game + 1))
    leds = [(h.strip, h.led) for h in layout.holes()]
    assert len(set(leds)) == len(leds)
    assert all(0 <= led < layout.strips[strip].leds for strip, led in leds)


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_holes_in_a_group_of_five_sit_one_led_apart(name):
    """What is drilled matches the strip: next holes in a group are next LEDs, 6.94 mm apart."""
    layout = load_layout(name)
    for track in layout.tracks:
        for n in range(1, layout.game - 1):
            if n % 5 == 0:
                continue  # the gap after each group of five
            a, b = track.holes[n], track.holes[n + 1]
            if a.y != b.y:
                continue  # the turn to the next street
            assert a.strip == b.strip and abs(a.led - b.led) == 1, (a.id, b.id)
            assert math.isclose(abs(a.x - b.x), 1000 / 144, abs_tol=0.02), (a.id, b.id)


def test_121_board_has_three_streets_of_forty():
    layout = load_layout("two-track-121")
    rows = {}
    for hole in layout.tracks[0].holes[1:121]:
        rows.setdefault(hole.y, []).append(hole.number)
    assert sorted(len(r) for r in rows.values()) == [40, 40, 40]


def test_121_boards_put_each_track_on_its_own_pin():
    for name in ("two-track-121", "three-track-121"):
        layout = load_layout(name)
        assert [s.pin for s in layout.strips] == list(range(2, 2 + len(layout.tracks)))
        for track in layout.tracks:
            assert {h.strip for h in track.holes} == {track.index}


def test_61_board_strip_snakes_against_play_on_every_other_row():
    """The serpentine strip: along play on track 0's first street, against it on track 1's."""
    layout = load_layout("two-track-61")
    first = [layout.hole(0, n).led for n in range(1, 6)]
    second = [layout.hole(1, n).led for n in range(1, 6)]
    assert first == sorted(first) and second == sorted(second, reverse=True)
    assert {layout.hole(t, n).strip for t in (0, 1) for n in (0, 61)} == {1}


def test_layout_loads_from_a_path(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    layout = load_layout(path)
    assert layout.name == "tiny"
    assert layout.hole(0, 6).led == 7
    assert layout.tracks[0].colour == (255, 0, 0)


def test_unknown_layout_name_lists_the_known_ones():
    with pytest.raises(LayoutError, match="two-track-121") as error:
        load_layout("four-track-121")
    assert isinstance(error.value, ConfigError)


def test_missing_layout_file_is_a_layout_error(tmp_path):
    with pytest.raises(LayoutError, match="cannot read"):
        load_layout(tmp_path / "none.toml")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("{ hole = 3, x = 26, y = 10, strip = 0, led = 3 }", "{ hole = 3, x = 26, y = 10 }"),
            r"track 0 hole 3 \(t0h3\) has no LED",
        ),
        (
            ("strip = 0, led = 4 }", "strip = 0, led = 3 }"),
            r"holes t0h3 and t0h4 are both on LED 3 of strip 0",
        ),
        (
            ("strip = 0, led = 7 }", "strip = 0, led = 8 }"),
            r"track 0 hole 6 \(t0h6\): LED 8 is past the end of strip 0 \(8 LEDs",
        ),
        (
            ("{ hole = 2, x = 19, y = 10, strip = 0, led = 2 },", ""),
            r"track 0 has no hole 2 \(t0h2\)",
        ),
        (("hole = 5, x = 40, y = 10, strip = 0", "hole = 5, x = 40, y = 10, strip = 1"), "t0h5"),
        (("x = 47, y = 10", "x = 59, y = 10"), r"hole t0h6 at \(59.0, 10.0\) mm is off"),
        (("x = 47, y = 10", "x = 41, y = 10"), r"holes t0h5 and t0h6 overlap"),
        (("hole = 6,", "hole = 7,"), r"track 0 hole 7 \(t0h7\) is outside 0..6"),
        (("hole = 6,", "hole = 5,"), r"track 0 hole 5 \(t0h5\) is listed twice"),
        (('colour = "#ff0000"', 'colour = "red"'), r"colour 'red' is not #rrggbb"),
        (("pin = 2", "pin = 40"), "pin 40 is not a Pico GPIO"),
        (
            ("leds = 8\n", "leds = 8\n[[strips]]\nid = 1\npin = 2\nleds = 3\n"),
            "two strips are on pin 2",
        ),
        (("led = 1 }", 'led = "one" }'), r"t0h1\): led = 'one' is not a whole number"),
        (("game = 6", "game = [6"), "not valid TOML"),
    ],
)
def test_inconsistent_layout_is_refused_naming_the_fault(change, message):
    text = TINY.replace(*change)
    assert text != TINY
    with pytest.raises(LayoutError, match=message):
        parse_layout(text, "tiny")


def test_error_names_the_layout_and_the_hole_in_a_shipped_board(tmp_path):
    """Move hole 57 onto hole 58's LED in a copy of the shipped two-track board."""
    h, after = load_layout("two-track-121").hole(0, 57), load_layout("two-track-121").hole(0, 58)
    line = f"{{ hole = 57, x = {h.x}, y = {h.y}, strip = {h.strip}, led = {h.led} }}"
    text = (resources.files("pegboard._layouts") / "two-track-121.toml").read_text()
    assert text.count(line) == 1
    path = tmp_path / "board.toml"
    path.write_text(text.replace(line, line.replace(f"led = {h.led}", f"led = {after.led}")))
    with pytest.raises(LayoutError, match=rf"{path}: holes t0h57 and t0h58 are both on LED"):
        load_layout(path)
