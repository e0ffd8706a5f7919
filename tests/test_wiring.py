"""The wiring and the Pi's set-up as the maker's guide gives them: fuse and wire sizes, the
diagram on its page, install.sh (shellcheck, its order, the guide's copy of its commands)
and the systemd unit (systemd-analyze verify)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from browsing import browser_fixture  # noqa: F401 (a fixture)
from needs import missing
from pegboard._firmware import pegproto

from pegboard.board.layout import layout_names, load_layout
from pegboard.maker import hardware_docs

HARDWARE = Path(__file__).parents[1] / "hardware"
INSTALL = HARDWARE / "install.sh"
UNIT = HARDWARE / "systemd" / "pegboard.service"
GUIDE = (HARDWARE / "README.md").read_text(encoding="utf-8")


def tool(name: str) -> str:
    """A Debian tool the test needs (scripts/test installs it): skip without, fail in CI."""
    path = shutil.which(name)
    if path is None:
        missing(f"{name} is not installed (apt-get install {name})")
    return path


# --- power: supply, fuse, wire -----------------------------------------------------------


@pytest.mark.parametrize("name", layout_names("strip"))
def test_the_fuse_carries_the_supply_and_the_wire_carries_the_fuse(name):
    full = hardware_docs.budget(load_layout(name), 1.0)
    supply = hardware_docs.supply_amps(full.worst_ma)
    fuse = hardware_docs.fuse_amps(supply)
    assert supply <= fuse < 1.5 * supply, "the fuse holds the supply's rating, no more"
    assert fuse * 1000 < full.white_ma, "a strip stuck at white blows the fuse"
    wire = hardware_docs.wire_for(fuse)
    most = next(most for most, mm2, _ in hardware_docs.WIRES if wire.startswith(f"{mm2:g} mm²"))
    assert most >= fuse
    row = next(line for line in GUIDE.splitlines() if line.startswith(f"| {name} |"))
    assert f"| T{fuse:g} A | {wire} |" in row


def test_the_guide_no_longer_calls_a_larger_supply_harmless():
    assert "does no harm" not in GUIDE
    assert "A larger supply" in GUIDE and "slow-blow" in GUIDE


def test_the_parts_list_has_the_fuse_pull_downs_and_decoupling():
    parts = GUIDE.split("## What you need", 1)[1].split("## How it is wired", 1)[0]
    for part in ("fuse", "10 kΩ resistor", "100 nF"):
        assert part in parts


# --- the wiring diagram ------------------------------------------------------------------


def test_the_diagram_shows_the_fuse_pull_downs_and_decoupling():
    svg = (HARDWARE / "wiring.svg").read_text(encoding="utf-8")
    texts = re.findall(r">([^<>]+)</text>", svg)
    assert "fuse (slow-blow)" in texts and "100 nF (pin 14 to pin 7)" in texts
    assert texts.count("10 kΩ") == 3  # one for each data line


WIDER = 1.2  # Verdana, the widest common sans-serif, is about a fifth wider than Arial


def test_every_text_of_the_diagram_lies_on_its_page_apart_from_the_others(browser):
    """Rendered by chromium: each text inside the viewBox even in a font a fifth wider
    (grown from its anchor), and no two texts overlapping."""
    page = browser.new_page()
    try:
        page.goto((HARDWARE / "wiring.svg").as_uri())
        drawn = page.evaluate(
            """() => {
                const svg = document.documentElement, view = svg.viewBox.baseVal;
                const boxes = [...svg.querySelectorAll('text')].map(t => {
                    const b = t.getBBox();
                    const anchor = getComputedStyle(t).textAnchor;
                    return [t.textContent, anchor, b.x, b.y, b.x + b.width, b.y + b.height];
                });
                return {view: [view.width, view.height], boxes};
            }"""
        )
    finally:
        page.close()
    width, height = drawn["view"]
    boxes = [(text, box) for text, _, *box in drawn["boxes"]]
    for text, anchor, left, top, right, bottom in drawn["boxes"]:
        grow = (right - left) * (WIDER - 1)
        if anchor == "start":
            right += grow
        elif anchor == "end":
            left -= grow
        else:
            left, right = left - grow / 2, right + grow / 2
        assert left >= 0 and right <= width and top >= 0 and bottom <= height, text
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1 :]:
            apart = (
                box_a[2] <= box_b[0]
                or box_b[2] <= box_a[0]
                or box_a[3] <= box_b[1] + 1
                or box_b[3] <= box_a[1] + 1
            )
            assert apart, f"{a!r} overlaps {b!r}"


# --- the Pi: install.sh, the unit, the guide ---------------------------------------------


@pytest.mark.subprocess
def test_install_sh_passes_shellcheck():
    done = subprocess.run(
        [tool("shellcheck"), str(INSTALL)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout


def test_the_service_is_enabled_only_after_the_firmware_and_the_doctor():
    lines = [line.strip() for line in INSTALL.read_text(encoding="utf-8").splitlines()]
    assert "set -euo pipefail" in lines  # a failing step stops the script
    firmware = lines.index("sudo -u pegboard /opt/pegboard/venv/bin/pegboard firmware install")
    doctor = next(i for i, line in enumerate(lines) if "bin/pegboard doctor " in line)
    starts = [i for i, line in enumerate(lines) if re.search(r"systemctl (enable|start)", line)]
    assert starts == [lines.index("sudo systemctl enable --now pegboard")]
    assert firmware < doctor < starts[0]


def test_the_guide_shows_the_commands_install_sh_runs():
    block = hardware_docs.install_part()
    assert block in GUIDE
    assert "doctor --config /etc/pegboard/config.toml" in block


def test_the_commands_run_where_the_service_runs():
    """lgpio makes its pipes in the working directory: the unit's, also for the commands."""
    unit = UNIT.read_text(encoding="utf-8")
    workdir = re.search(r"^WorkingDirectory=(.+)$", unit, re.MULTILINE).group(1)
    assert re.search(r"^StateDirectory=pegboard$", unit, re.MULTILINE)
    assert workdir == "/var/lib/pegboard"
    assert f"cd {workdir}\n" in hardware_docs.install_part() + "\n"
    assert f"install -d -m 0755 -o pegboard -g pegboard {workdir}" in INSTALL.read_text()


@pytest.mark.subprocess
def test_systemd_analyze_verify_finds_nothing_in_the_unit(tmp_path):
    analyze = shutil.which("systemd-analyze")
    units = Path("/usr/lib/systemd/system")
    if analyze is None or not units.is_dir():
        pytest.skip("no systemd on this machine")
    unit = UNIT.read_text(encoding="utf-8")
    # A root with the unit, the program it starts, and the system's targets and slices.
    program = tmp_path / re.search(r"^ExecStart=/(\S+)", unit, re.MULTILINE).group(1)
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    (tmp_path / "etc/systemd/system").mkdir(parents=True)
    (tmp_path / "etc/systemd/system/pegboard.service").write_text(unit)
    (tmp_path / "usr/lib/systemd/system").mkdir(parents=True)
    for source in [*units.glob("*.target"), *units.glob("*.slice")]:
        if source.exists():
            shutil.copyfile(source, tmp_path / "usr/lib/systemd/system" / source.name)
    done = subprocess.run(
        [analyze, "verify", f"--root={tmp_path}", "pegboard.service"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and not (done.stdout + done.stderr).strip(), done.stderr


def test_the_guide_states_the_minimum_micropython_and_the_spi_settings():
    minimum = ".".join(map(str, pegproto.MICROPYTHON_MIN[:2]))
    assert f"MicroPython ({minimum} or newer)" in GUIDE
    assert f"on MicroPython {minimum} or newer" in GUIDE
    for setting in ("dtparam=spi=on", "core_freq=250", "core_freq_min=500", "spidev.bufsiz=32768"):
        assert setting in GUIDE
