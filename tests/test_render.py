"""Frame rendering: what the players see lit, from a board view."""

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.board.layout import load_layout
from pegboard.board.render import (
    WIN_SECONDS,
    BoardView,
    Frame,
    Power,
    Renderer,
    TrackView,
    lit_holes,
)
from pegboard.errors import ConfigError, LayoutError

LAYOUT = load_layout("two-track-121")
FULL = Power(brightness=1.0)
RED, BLUE = LAYOUT.tracks[0].colour, LAYOUT.tracks[1].colour
ON, OFF = 0.1, 0.35  # a time in the first and in the second half of a 2 Hz blink


def render(*tracks, power=FULL, layout=LAYOUT, **view):
    renderer = Renderer(layout, power)
    return renderer.render(BoardView(tuple(tracks), **view))


def colour_at(frame, track, hole, layout=LAYOUT):
    return frame.hole(layout, track, hole)


def lit(frame, track, layout=LAYOUT):
    """Holes of ``track`` brighter than a faint mark or a back peg."""
    return {h.number for h in layout.tracks[track].holes if max(frame.pixel(h.strip, h.led)) > 40}


def test_front_peg_bright_and_back_peg_dim_in_the_track_colour():
    frame = render(TrackView(front=57, back=49), TrackView(front=12, back=4))
    assert colour_at(frame, 0, 57) == RED
    back = colour_at(frame, 0, 49)
    assert 0 < max(back) < max(RED) / 4
    assert back.index(max(back)) == RED.index(max(RED))  # the same hue, dimmer
    assert colour_at(frame, 1, 12) == BLUE
    assert lit(frame, 0) == {57} and lit(frame, 1) == {12}


def test_a_track_not_started_lights_its_start_hole():
    frame = render(TrackView(), TrackView())
    assert colour_at(frame, 0, 0) == RED and colour_at(frame, 1, 0) == BLUE


def test_score_past_the_game_sits_in_the_game_hole():
    frame = render(TrackView(front=127, back=119))
    assert colour_at(frame, 0, 121) == RED


def test_colour_given_in_the_view_wins_over_the_layout():
    frame = render(TrackView(front=3, colour=(0, 255, 0)))
    assert colour_at(frame, 0, 3) == (0, 255, 0)


def test_every_fifth_hole_and_skunk_lines_faintly_marked():
    frame = render(TrackView(), TrackView())
    fifth, skunk, plain = (colour_at(frame, 0, n) for n in (35, 91, 36))
    assert plain == (0, 0, 0)
    assert 0 < max(fifth) <= 10 and 0 < max(skunk) <= 20
    assert fifth != skunk
    assert colour_at(frame, 1, 61) == skunk and colour_at(frame, 1, 120) == fifth


def test_pending_entry_blinks_a_preview_peg_ahead_of_the_front_peg():
    on = render(TrackView(front=20, back=14, pending=6), t=ON)
    off = render(TrackView(front=20, back=14, pending=6), t=OFF)
    assert 0 < max(colour_at(on, 0, 26)) < max(RED)
    assert colour_at(off, 0, 26) == colour_at(render(TrackView(front=20, back=14)), 0, 26)
    assert colour_at(on, 0, 20) == colour_at(off, 0, 20) == RED  # the front peg stays


def test_pending_entry_past_the_game_previews_the_game_hole():
    frame = render(TrackView(front=118, pending=12), t=ON)
    assert max(colour_at(frame, 0, 121)) > 20


def test_pending_zero_blinks_the_front_peg_itself():
    assert colour_at(render(TrackView(front=20, pending=0), t=ON), 0, 20) != (0, 0, 0)
    assert colour_at(render(TrackView(front=20, pending=0), t=OFF), 0, 20) == (0, 0, 0)


def test_refused_claim_flashes_that_track_red():
    view = (TrackView(front=40, back=30, refused=True), TrackView(front=33, back=20))
    flash, pause = render(*view, t=0.05), render(*view, t=0.2)
    assert colour_at(flash, 0, 40) == (255, 0, 0)
    assert all(colour_at(flash, 0, n)[0] > 0 == colour_at(flash, 0, n)[1] for n in (1, 77, 121))
    assert colour_at(pause, 0, 40) == RED
    untouched = render(TrackView(front=40, back=30), TrackView(front=33, back=20), t=0.05)
    for n in range(122):
        assert colour_at(flash, 1, n) == colour_at(untouched, 1, n)


def test_win_runs_a_comet_then_the_winning_peg_stays_lit():
    view = (TrackView(front=121, back=115), TrackView(front=88, back=80))
    during = [render(*view, winner=0, won_at=10.0, t=10.0 + k * 0.1) for k in range(8)]
    assert len({frozenset(lit(f, 0)) for f in during}) > 4  # it moves
    assert all(colour_at(f, 0, 121) == RED for f in during)
    after = [render(*view, winner=0, won_at=10.0, t=10.0 + WIN_SECONDS + k) for k in range(3)]
    assert all(f == after[0] for f in after)  # still
    assert colour_at(after[0], 0, 121) == RED and lit(after[0], 0) == {121}


def test_brightness_cap_scales_every_colour():
    frame = render(TrackView(front=57), power=Power(brightness=0.25))
    assert colour_at(frame, 0, 57) == tuple(-(-c // 4) for c in RED)


def test_faint_marks_survive_a_low_cap():
    frame = render(TrackView(), power=Power(brightness=0.05))
    assert colour_at(frame, 0, 35) != (0, 0, 0)


def test_frame_over_the_supply_budget_is_scaled_down_to_fit():
    power = Power(brightness=1.0, supply_ma=500)
    white = (255, 255, 255)
    layout = load_layout("three-track-121")
    view = [TrackView(front=n, colour=white, refused=True) for n in (50, 60, 70)]
    frame = render(*view, power=power, layout=layout, t=0.05)
    unlimited = render(*view, power=Power(brightness=1.0, supply_ma=1e9), layout=layout, t=0.05)
    assert power.milliamps(unlimited) > 500 >= power.milliamps(frame)
    assert 0 < max(colour_at(frame, 0, 50, layout)) < 255


def test_frame_within_budget_is_left_alone():
    power = Power(brightness=1.0, supply_ma=100_000)
    assert colour_at(render(TrackView(front=9), power=power), 0, 9) == RED


@settings(max_examples=60, deadline=None)
@given(
    pegs=st.lists(st.tuples(st.integers(0, 130), st.integers(0, 130)), min_size=3, max_size=3),
    pending=st.none() | st.integers(0, 30),
    refused=st.booleans(),
    supply=st.floats(600, 5000),
    brightness=st.floats(0, 1),
    t=st.floats(0, 100),
)
def test_no_frame_ever_draws_more_than_the_supply(pegs, pending, refused, supply, brightness, t):
    layout = load_layout("three-track-121")
    power = Power(brightness=brightness, supply_ma=supply)
    view = [TrackView(f, b, (255, 255, 255), pending, refused) for f, b in pegs]
    frame = render(*view, power=power, layout=layout, t=t, winner=1, won_at=t - 1)
    assert power.milliamps(frame) <= supply + 1e-6


def test_power_settings_that_cannot_work_are_refused():
    with pytest.raises(ConfigError, match="cannot even feed 286 dark LEDs"):
        Renderer(LAYOUT, Power(supply_ma=200))
    with pytest.raises(ConfigError, match="brightness"):
        Renderer(LAYOUT, Power(brightness=1.5))


def test_views_that_do_not_fit_the_board_are_refused():
    renderer = Renderer(LAYOUT)
    with pytest.raises(LayoutError, match="has 2 tracks, not 3"):
        renderer.render(BoardView((TrackView(),) * 3))
    with pytest.raises(LayoutError, match="front peg cannot be at -1"):
        renderer.render(BoardView((TrackView(front=-1),)))
    with pytest.raises(LayoutError, match="pending entry of -2"):
        renderer.render(BoardView((TrackView(pending=-2),), t=ON))


def test_frame_has_one_buffer_per_strip_of_the_layout():
    frame = render(TrackView())
    assert [len(s) for s in frame.strips] == [3 * s.leds for s in LAYOUT.strips]
    assert isinstance(frame.strips[0], bytes)
    assert Frame.dark((2,)).pixel(0, 1) == (0, 0, 0)


def test_lit_holes_name_the_svg_ids_of_lit_holes():
    frame = render(TrackView(front=57, back=49))
    holes = lit_holes(LAYOUT, frame)
    assert holes["t0h57"] == "#{:02x}{:02x}{:02x}".format(
        *(round(255 * (c / 255) ** (1 / 2.2)) for c in RED)
    )
    assert "t0h49" in holes and "t0h35" in holes and "t0h36" not in holes


def test_rendering_knows_nothing_of_the_game():
    code = (
        "import sys, pegboard.board.render, pegboard.board.svg, pegboard.leds.pico;"
        "bad = [m for m in sys.modules if m.startswith(('pegboard.game', 'pegboard.panel'))];"
        "sys.exit(str(bad) if bad else 0)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
