"""The firmware under genuine MicroPython (WebAssembly port under Node 20).

Every file in firmware/ must compile there, and the shared checks must pass
there too, so a CPython-only construct cannot slip into the Pico's code. Frames
the host encodes are decoded by MicroPython and the other way round.

Needs ``npm ci --prefix tests/mpy`` (the lead's .ci/run does it). On a developer
machine without it the tests skip; in CI (CI=true) they fail instead.
"""

import subprocess
from pathlib import Path

import pytest
from node import micropython_node
from pegboard._firmware import pegproto

from pegboard.board.layout import load_layout
from pegboard.board.render import BoardView, Renderer, TrackView

HERE = Path(__file__).parent
MPY = HERE / "mpy"
FIRMWARE = HERE.parent / "firmware"
FIRMWARE_FILES = sorted(p for p in FIRMWARE.glob("*.py") if p.name != "__init__.py")
CHECK_NAMES = [
    line.split("(")[0][4:]
    for line in (MPY / "firmware_checks.py").read_text().splitlines()
    if line.startswith("def check_")
]
BOOT_ID = 0x0DDBA11


def board_frame():
    layout = load_layout("two-track-61")
    view = BoardView((TrackView(front=31, back=25), TrackView(front=12, back=4, pending=3)))
    return layout, Renderer(layout).render(view)


@pytest.fixture(scope="module")
def micropython(tmp_path_factory):
    """Run the checks once under MicroPython; ``{name: error or None}`` plus its output."""
    node = micropython_node()
    layout, frame = board_frame()
    bgr = pegproto.ORDERS.index("BGR")  # each LED's three bytes backwards on the wire
    strips = [(s.pin, s.leds) for s in layout.strips]
    wire = pegproto.pack(pegproto.SETUP, 1, pegproto.pack_setup(strips, bgr)) + pegproto.pack(
        pegproto.STATE, 2, pegproto.pack_state(frame.strips)
    )
    backwards = [
        b"".join(rgb[i : i + 3][::-1] for i in range(0, len(rgb), 3)) for rgb in frame.strips
    ]
    hostdata = tmp_path_factory.mktemp("mpy") / "hostdata.py"
    hostdata.write_text(
        f"BOOT_ID = {BOOT_ID}\nVERSION = {pegproto.VERSION}\nWIRE = {wire.hex()!r}\n"
        f"LEDS = {[rgb.hex() for rgb in frame.strips]!r}\n"
        f"ON_THE_WIRE = {[rgb.hex() for rgb in backwards]!r}\n"
    )
    files = [*FIRMWARE_FILES, MPY / "firmware_checks.py", hostdata]
    done = subprocess.run(
        [node, str(MPY / "run.mjs"), *map(str, files)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    results, sent = {}, b""
    for line in done.stdout.splitlines():
        verdict, _, rest = line.partition(" ")
        if verdict in ("PASS", "FAIL"):
            name, _, error = rest.partition(" ")
            results[name] = error if verdict == "FAIL" else None
        elif verdict == "SENT":
            sent = bytes.fromhex(rest)
    assert results, f"MicroPython ran nothing:\n{done.stdout}\n{done.stderr}"
    return results, sent, done.stdout


@pytest.mark.slow
@pytest.mark.subprocess
def test_it_is_genuine_micropython(micropython):
    assert "MICROPYTHON micropython 1." in micropython[2]


@pytest.mark.parametrize("name", [f"compile_{p.stem}" for p in FIRMWARE_FILES])
@pytest.mark.subprocess
def test_firmware_file_compiles_under_micropython(micropython, name):
    assert micropython[0].get(name, "not run") is None


@pytest.mark.parametrize("name", CHECK_NAMES)
@pytest.mark.subprocess
def test_firmware_check_under_micropython(micropython, name):
    assert micropython[0].get(name, "not run") is None


@pytest.mark.subprocess
def test_micropython_answers_host_frames_in_kind(micropython):
    """HELLO with its boot id, then an ACK per message, readable by the host."""
    frames = pegproto.Deframer().feed(micropython[1])
    messages = [pegproto.unpack(f) for f in frames]
    assert [kind for kind, _, _ in messages] == [pegproto.HELLO, pegproto.ACK, pegproto.ACK]
    assert pegproto.unpack_hello(messages[0][2])[1] == BOOT_ID
    assert [pegproto.unpack_ack(p) for _, _, p in messages[1:]] == [(1, 0), (2, 0)]
