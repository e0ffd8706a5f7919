"""The PCB boards played as any board: `pegboard serve --sim` with a PCB layout plays a
whole game through the panel's API, the renderer and the real firmware lighting the game
hole of its chain, and the doctor lights each chain's first, middle and last LED."""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys
import time

import pytest
from test_doctor import (
    test_each_strip_shows_its_first_middle_and_last_led_to_the_person_watching as doctor_sees,
)
from test_serve import Phone

from pegboard.board.layout import layout_names, load_layout

PCB = layout_names("pcb")


@pytest.mark.parametrize("layout", PCB)
def test_the_doctor_lights_each_chains_first_middle_and_last_led(layout):
    doctor_sees(layout)


def serve(tmp_path, layout: str):
    config = tmp_path / "config.toml"
    config.write_text(
        f'[board]\nlayout = "{layout}"\npin = "1357"\n[pins.settings]\nbounce_time = 0.002\n'
        '[voice]\nout = "silent"\n'
    )
    command = [sys.executable, "-m", "pegboard.cli", "serve", "--sim", "--port", "0"]
    command += ["--data", str(tmp_path / "data"), "--config", str(config)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    match = re.search(r"panel at http://[^/]+:(\d+)/", line)
    assert match, line + process.stderr.read()
    return process, int(match.group(1))


def frames(port: int, until, seconds: float = 20) -> dict:
    """Read the live stream's LED frames until ``until(holes)``; the last frame."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=seconds)
    connection.request("GET", "/api/events")
    response = connection.getresponse()
    event, holes, end = None, {}, time.monotonic() + seconds
    while time.monotonic() < end:
        line = response.fp.readline().decode()
        if line.startswith("event: "):
            event = line[7:].strip()
        elif line.startswith("data: ") and event == "frame":
            holes = json.loads(line[6:])["holes"]
            if until(holes):
                break
    connection.close()
    return holes


def play_to_the_end(phone: Phone) -> dict:
    """Deal after deal with no cards named: the starter, the play ended, each count due
    claimed (the dealer's side more), until a side wins."""
    for _ in range(200):
        game = phone.call("GET", "/api/state")["game"]
        if game["phase"] == "over":
            return game
        if game["phase"] == "discard":
            phone.call("POST", "/api/act/starter", {"card": None})
        elif game["phase"] == "play" or game["count"] is None:
            phone.call("POST", "/api/act/advance", {})
        else:
            count = game["count"]
            points = 12 if count["seat"] == 1 else 4
            phone.call(
                "POST",
                "/api/act/claim",
                {"seat": count["seat"], "points": points, "kind": count["kind"]},
            )
    raise AssertionError("no winner after 200 entries")


@pytest.mark.slow
@pytest.mark.parametrize("layout", PCB)
@pytest.mark.subprocess
def test_serve_sim_plays_a_whole_game_on_the_pcb_and_lights_the_winners_game_hole(tmp_path, layout):
    board = load_layout(layout)
    process, port = serve(tmp_path, layout)
    try:
        phone = Phone(port)
        phone.call("POST", "/api/login", {"pin": "1357"})
        phone.csrf = phone.call("GET", "/api/session")["csrf"]
        phone.call("POST", "/api/act/new_game", {"players": ["Ann", "Bob"], "dealer": 0})
        game = play_to_the_end(phone)
        assert game["winner"] == 1 and game["sides"][1]["front"] >= 121
        game_hole = f"t1h{board.game}"
        marks = [f"t1l{lap}" for lap in range(2, board.place(121, 121).lap + 1)]  # round twice
        holes = frames(port, lambda lit: game_hole in lit and all(m in lit for m in marks))
        assert game_hole in holes and all(m in holes for m in marks)
        assert f"t0h{game['sides'][0]['front']}" in holes  # the loser's front peg where it stands
    finally:
        process.kill()
        process.wait()
