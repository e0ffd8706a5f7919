"""The firmware's protocol and message handling under CPython, with the fake chip.

The checks themselves live in tests/mpy/firmware_checks.py so that genuine
MicroPython runs the very same ones (tests/test_firmware_mpy.py).
"""

import binascii
import doctest
import importlib.util
import struct
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pegboard._firmware import fakehw, pegfirm, pegproto

CHECKS_FILE = Path(__file__).parent / "mpy" / "firmware_checks.py"


def load_checks():
    spec = importlib.util.spec_from_file_location("firmware_checks", CHECKS_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECK_MODULE = load_checks()
CHECKS = CHECK_MODULE.CHECKS
FIRMWARE = SimpleNamespace(
    pegproto=pegproto, pegfirm=pegfirm, fakehw=fakehw, binascii=binascii, struct=struct
)


@pytest.mark.parametrize("check", CHECKS, ids=[c.__name__ for c in CHECKS])
def test_firmware_check_under_cpython(check):
    check(FIRMWARE)


def test_protocol_examples_hold():
    assert doctest.testmod(pegproto).failed == 0


def test_host_imports_the_firmware_file_itself():
    firmware = Path(__file__).parents[1] / "firmware" / "pegproto.py"
    assert Path(pegproto.__file__).resolve() == firmware.resolve()


def test_garbage_stream_never_reaches_the_leds():
    """Random noise, no matter how much, shows nothing and acks nothing."""
    hw = fakehw.FakeHardware()
    fw = pegfirm.Firmware(hw)
    fw.boot()
    hw.receive(pegproto.pack(pegproto.SETUP, 1, pegproto.pack_strips([(2, 3)])))
    fw.step()
    shows, sent = hw.shows, len(hw.sent)
    noise = bytes((i * 97 + 13) % 256 for i in range(20_000))
    hw.receive(noise)
    fw.step()
    assert hw.shows == shows
    assert len(hw.sent) == sent
    assert fw.bad_frames > 0


@given(kind=st.integers(0, 255), payload=st.binary(max_size=400))
def test_any_well_framed_message_gets_one_answer_and_never_crashes_the_firmware(kind, payload):
    hw, fw = CHECK_MODULE.booted(FIRMWARE)
    before = [bytes(b) for b in hw.leds]
    replies = CHECK_MODULE.send(FIRMWARE, hw, fw, kind, 9, payload)
    expected = pegproto.HELLO if kind == pegproto.HELLO else pegproto.ACK
    assert [k for k, _, _ in replies] == [expected]
    if expected == pegproto.ACK:
        seq, status = pegproto.unpack_ack(replies[0][2])
        assert seq == 9
        if status != pegproto.OK:  # refused: nothing changes
            assert [bytes(b) for b in hw.leds] == before


@given(strips=st.lists(st.binary(max_size=600).map(lambda b: b[: len(b) // 3 * 3]), max_size=8))
def test_board_state_round_trips(strips):
    assert pegproto.unpack_state(pegproto.pack_state(strips)) == strips


def test_the_firmware_keeps_to_the_micropython_subset_it_promises():
    """pegproto's docstring promises no f-strings and no dataclasses: hold every file to it."""
    import ast

    firmware = Path(__file__).parents[1] / "firmware"
    for path in sorted(firmware.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = [
            (type(node).__name__, node.lineno)
            for node in ast.walk(tree)
            if isinstance(node, ast.JoinedStr)
            or (isinstance(node, ast.ImportFrom) and node.module in ("dataclasses", "typing"))
        ]
        assert not found, f"{path.name}: {found}"
