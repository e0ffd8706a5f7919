"""`pegboard firmware`: the files that go to the Pico, the mpremote call, the version handshake.

The Pico here is the real firmware logic behind a pty (EmulatedPico); an older or
foreign firmware is made by rewriting what it says on the wire. mpremote is the
real one: against a port that does not exist, and against genuine MicroPython (the
WebAssembly port under Node, ``tests/mpy/repl.mjs``) behind a pty, where the copied
files are read back.
"""

from __future__ import annotations

import ast
import base64
import binascii
import json
import os
import subprocess
import threading
import tty
from importlib import resources
from pathlib import Path

import pytest
from node import micropython_node
from pegboard._firmware import pegproto
from test_i18n_calls import english_left

from pegboard.cli import main
from pegboard.errors import LinkError
from pegboard.leds.emulator import EmulatedPico
from pegboard.maker import firmware_tool

NO_PORT = "/nonexistent/pegboard-pico"
MPY = Path(__file__).parent / "mpy"
VERSION = ".".join(map(str, pegproto.FIRMWARE_VERSION))


class MicroPythonOnPty:
    """Genuine MicroPython's REPL at the far end of a pty, as a Pico in its REPL is.
    ``machine.reset()`` ends it, as a reset takes a Pico off USB."""

    def __init__(self, node: str) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        self.node = subprocess.Popen(
            [node, str(MPY / "repl.mjs")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._dump = b""
        self._ended = threading.Event()
        self._closing = threading.Lock()
        for pump in (self._to_micropython, self._to_host, self._read_dump):
            threading.Thread(target=pump, daemon=True).start()

    def _to_micropython(self) -> None:
        while True:
            try:
                data = os.read(self._master, 4096)
                self.node.stdin.write(data)
                self.node.stdin.flush()
            except (OSError, ValueError):  # the pty or the pipe has closed
                return

    def _to_host(self) -> None:
        while data := self.node.stdout.read1(4096):
            os.write(self._master, data)

    def _read_dump(self) -> None:
        self._dump = self.node.stderr.read()  # written as it ends
        with self._closing:  # off USB, as a reset takes a Pico: the host's end hangs up
            if self._master >= 0:
                os.close(self._master)
                self._master = -1
        self._ended.set()

    def files(self, timeout: float = 30) -> dict[str, bytes]:
        """The files at the root of its file system, once reset (``machine.reset()``)."""
        assert self._ended.wait(timeout), "MicroPython was never reset"
        return {name: base64.b64decode(data) for name, data in json.loads(self._dump).items()}

    def close(self) -> None:
        if self.node.poll() is None:
            self.node.kill()
            self.node.wait()
        os.close(self._slave)
        with self._closing:
            if self._master >= 0:
                os.close(self._master)
                self._master = -1


@pytest.fixture
def micropython():
    node = micropython_node()
    repl = MicroPythonOnPty(node)
    yield repl
    repl.close()


@pytest.fixture
def pico():
    with EmulatedPico() as emulated:
        yield emulated


@pytest.fixture
def unplugged():
    with EmulatedPico(plugged=False) as emulated:
        yield emulated


def rewrite_hellos(change):
    """A cable that passes the Pico's HELLOs through ``change(body) -> body``."""
    deframer = pegproto.Deframer()

    def tamper(data: bytes) -> bytes:
        out = bytearray()
        for frame in deframer.feed(data):
            body = pegproto.cobs_decode(frame)[:-4]  # version, type, seq, payload (no CRC)
            if body[1] == pegproto.HELLO:
                body = change(body)
            crc = binascii.crc32(body)
            out += b"\x00" + pegproto.cobs_encode(body + crc.to_bytes(4, "little")) + b"\x00"
        return bytes(out)

    return tamper


def test_the_pico_gets_the_firmware_files_and_nothing_of_the_hosts():
    names = [name for name, _ in firmware_tool.firmware_files()]
    assert names == ["main.py", "pegfirm.py", "pegproto.py", "pico.py"]
    shipped = {p.name for p in resources.files("pegboard._firmware").iterdir()}
    assert {"__init__.py", "fakehw.py"} <= shipped - set(names)


def test_every_firmware_module_the_pico_imports_is_copied():
    copied = {name[:-3] for name, _ in firmware_tool.firmware_files()}
    ours = {p.name[:-3] for p in resources.files("pegboard._firmware").iterdir()}
    for name, item in firmware_tool.firmware_files():
        for node in ast.walk(ast.parse(item.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                wanted = {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level:
                wanted = {node.module}
            else:
                continue
            missing = (wanted & ours) - copied
            assert not missing, f"{name} imports {missing}, which stays on the host"


def test_mpremote_copies_every_file_to_the_root_then_resets():
    command = firmware_tool.mpremote_command("/dev/ttyACM0", ["/a/main.py", "/a/pico.py"])
    assert command[1:5] == ["-m", "mpremote", "connect", "/dev/ttyACM0"]
    assert command[5:] == ["cp", "/a/main.py", "/a/pico.py", ":", "+", "reset"]


@pytest.mark.slow
@pytest.mark.subprocess
def test_mpremote_copies_the_firmware_into_genuine_micropython_and_resets_it(micropython):
    firmware_tool.copy_to_pico(micropython.path, timeout=300)
    copied = micropython.files()  # the reset ended it
    assert copied == {name: item.read_bytes() for name, item in firmware_tool.firmware_files()}


@pytest.mark.slow
@pytest.mark.subprocess
def test_install_takes_a_running_pico_through_its_repl_to_the_new_firmware(
    pico, micropython, monkeypatch
):
    """The whole install on one port: the firmware answers, reboots into the REPL, mpremote
    copies the files into genuine MicroPython and resets it, the firmware boots and answers."""
    acked_repl = threading.Event()
    # A busy machine runs the emulated Pico slowly: the deadlines for a real one, widened
    # (each wait ends as soon as the Pico answers): its ack of the reboot, its boot.
    monkeypatch.setattr(firmware_tool, "ACK_SECONDS", 60.0)
    monkeypatch.setattr(firmware_tool, "BOOT_SECONDS", 90.0)
    monkeypatch.setattr(firmware_tool, "MPREMOTE_SECONDS", 300.0)

    def watch(data: bytes) -> bytes:
        if pegproto.REPL_MAGIC in data and not acked_repl.is_set():
            # The REPL takes the port's name before the firmware acks (the install holds
            # the port open, and hears the ack on it): whatever opens the name next, as
            # mpremote does, finds the REPL, however late this thread runs.
            link = pico.path + ".repl"
            os.symlink(micropython.path, link)
            os.replace(link, pico.path)
            acked_repl.set()  # passes on its way to the firmware, which acks and leaves
        return data

    pico.tamper_in = watch

    def pico_side() -> None:
        assert acked_repl.wait(300)
        pico.hang()  # the firmware has left for the REPL
        copied.update(micropython.files(timeout=300))  # until mpremote resets it
        pico.unplug()
        pico.plug()  # the Pico boots into the new firmware, back on the same name

    copied: dict[str, bytes] = {}
    steps: list = []
    side = threading.Thread(target=pico_side, daemon=True)
    side.start()
    assert firmware_tool.install(pico.path, say=steps.append) == pegproto.FIRMWARE_VERSION
    side.join(5)
    assert sorted(copied) == ["main.py", "pegfirm.py", "pegproto.py", "pico.py"]
    said = [str(step) for step in steps]
    assert said[0].startswith(f"firmware {VERSION} runs on ")
    assert said[-1].endswith("answers on " + pico.path + ": it matches this pegboard")
    in_german = steps[-1].say("de")  # each step is said in the maker's language
    assert pico.path in in_german and not english_left(in_german, "de"), in_german


@pytest.mark.subprocess
def test_mpremote_against_a_missing_port_is_one_clear_error():
    with pytest.raises(LinkError) as refused:
        firmware_tool.copy_to_pico(NO_PORT, timeout=60)
    message = str(refused.value)
    assert message.startswith(f"mpremote could not copy the firmware to {NO_PORT}: ")
    assert "failed to access" in message and "\n" not in message


def test_install_on_a_missing_port_exits_2_with_one_line(capsys):
    assert main(["firmware", "install", "--port", NO_PORT]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and NO_PORT in err


def test_the_handshake_gives_the_firmware_version(pico, capsys):
    assert firmware_tool.check(pico.path) == pegproto.FIRMWARE_VERSION
    assert main(["firmware", "check", "--port", pico.path]) == 0
    assert f"firmware {VERSION} answers: it matches this pegboard" in capsys.readouterr().out


def test_an_older_firmware_is_named_with_the_cure(unplugged, capsys):
    def older(body: bytes) -> bytes:
        return body[:4] + bytes((0, 9, 0)) + body[7:]

    pico = unplugged
    pico.tamper_out = rewrite_hellos(older)  # from boot on
    pico.plug()
    needs = rf"runs firmware 0\.9\.0 but this pegboard needs {VERSION}"
    with pytest.raises(LinkError, match=needs):
        firmware_tool.check(pico.path)
    assert main(["firmware", "check", "--port", pico.path]) == 2
    assert "run pegboard firmware install" in capsys.readouterr().err


def test_a_micropython_older_than_the_minimum_is_refused_by_name(unplugged, capsys):
    pico = unplugged
    pico.tamper_out = rewrite_hellos(lambda body: body[:-3] + bytes((1, 19, 1)))
    pico.plug()
    with pytest.raises(LinkError, match=r"runs MicroPython 1\.19\.1; the firmware needs 1\.20\.0"):
        firmware_tool.check(pico.path)
    assert main(["firmware", "check", "--port", pico.path]) == 2
    assert "flash a newer MicroPython" in capsys.readouterr().err


def test_a_firmware_of_another_protocol_is_refused(unplugged):
    pico = unplugged
    pico.tamper_out = rewrite_hellos(lambda body: bytes((pegproto.VERSION + 1,)) + body[1:])
    pico.plug()
    with pytest.raises(LinkError, match="speaks another protocol"):
        firmware_tool.check(pico.path)


def test_a_silent_pico_fails_the_handshake(pico):
    pico.hang()
    with pytest.raises(LinkError, match="no HELLO from pegboard's firmware"):
        firmware_tool.check(pico.path, timeout=0.5)


def test_listening_for_a_running_firmware_sends_it_nothing(pico):
    heard = bytearray()
    pico.tamper_in = lambda data: heard.extend(data) or data
    said = firmware_tool.hello(pico.path, ask=False)
    assert said == (pegproto.FIRMWARE_VERSION, pegproto.MICROPYTHON_MIN)
    assert heard == b""


def test_repl_sends_the_firmware_to_the_repl(pico, capsys):
    assert main(["firmware", "repl", "--port", pico.path]) == 0
    assert "rebooting into the REPL" in capsys.readouterr().out
    assert pico.hw.in_repl and not pico.firmware.running


@pytest.mark.slow
def test_repl_without_an_answer_says_so(pico, capsys):
    pico.hang()
    assert main(["firmware", "repl", "--port", pico.path]) == 2
    assert "no answer from the firmware" in capsys.readouterr().err
