"""Phones reach the board out of the box: it listens on the LAN, prints every address a
phone can use with a QR code, and a phone on another host opens the panel at it."""

from __future__ import annotations

import ipaddress
import os
import pty
import re
import shutil
import subprocess
import sys
from contextlib import contextmanager

import pytest

from pegboard import lan

PHONE_NET = ("10.77.0.1", "10.77.0.2")  # the board's and the phone's end of a test network


def test_lan_addresses_are_never_loopback_or_link_local():
    for address in lan.lan_addresses():
        found = ipaddress.ip_address(address)
        assert not (found.is_loopback or found.is_link_local), address


def test_a_loopback_panel_warns_that_phones_cannot_reach_it():
    urls, warning = lan.panel_urls("127.0.0.1", 8080)
    assert urls == ["http://localhost:8080/"] and "--host 0.0.0.0" in str(warning)


def test_the_boards_own_names_include_its_mdns_name():
    assert f"{lan.names()[0]}.local" in lan.own_hosts("0.0.0.0")


def serve(data, *args, **popen):
    command = [sys.executable, "-m", "pegboard.cli", "serve", "--sim", "--port", "0"]
    return subprocess.Popen([*command, "--data", str(data), *args], **popen)


def read_until(fd: int, marker: str, limit: int = 200) -> str:
    """What the board printed on its terminal, up to the line holding ``marker``."""
    text = ""
    while marker not in text and text.count("\n") < limit:
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        text += chunk.decode("utf-8", "replace")
    return text


@pytest.mark.slow
@pytest.mark.skipif(not lan.lan_addresses(), reason="this machine has no network at all")
@pytest.mark.subprocess
def test_the_board_prints_a_lan_address_and_a_qr_code_on_its_terminal(tmp_path):
    terminal, board_side = pty.openpty()
    process = serve(tmp_path, stdout=board_side, stderr=subprocess.DEVNULL)
    os.close(board_side)
    try:
        text = read_until(terminal, "board PIN")
    finally:
        process.terminate()
        process.wait(timeout=30)
        os.close(terminal)
    url = re.search(r"panel at (http://\S+/)", text).group(1)
    host = url[7:].rsplit(":", 1)[0]
    assert host in lan.lan_addresses(), text
    assert re.search(rf"also at http://{re.escape(lan.names()[0])}\.local:\d+/", text)
    qr = [row for row in text.splitlines() if row.strip() and set(row.strip()) <= set("█▀▄ ")]
    assert len(qr) > 10, text


@contextmanager
def phone_network():
    """Another host on a network of its own with the board: a network namespace joined
    to this one by a virtual cable."""
    name, cable = f"pgphone{os.getpid()}", f"pgb{os.getpid() % 100000}"
    board, phone = PHONE_NET
    steps = [
        ["ip", "netns", "add", name],
        ["ip", "link", "add", cable, "type", "veth", "peer", "name", f"{cable}p"],
        ["ip", "link", "set", f"{cable}p", "netns", name],
        ["ip", "addr", "add", f"{board}/24", "dev", cable],
        ["ip", "link", "set", cable, "up"],
        ["ip", "netns", "exec", name, "ip", "addr", "add", f"{phone}/24", "dev", f"{cable}p"],
        ["ip", "netns", "exec", name, "ip", "link", "set", f"{cable}p", "up"],
    ]
    try:
        for step in steps:
            subprocess.run(step, check=True, capture_output=True, timeout=30)
        yield name
    finally:
        subprocess.run(["ip", "link", "del", cable], capture_output=True, timeout=30)
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=30)


def can_make_networks() -> bool:
    if os.geteuid() != 0 or not shutil.which("ip"):
        return False
    probe = subprocess.run(["ip", "netns", "list"], capture_output=True, timeout=30)
    return probe.returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(not can_make_networks(), reason="needs root and iproute2 to make a network")
@pytest.mark.subprocess
def test_a_phone_on_the_same_network_opens_the_panel_with_nothing_else_to_do(tmp_path):
    with phone_network() as phone:
        process = serve(tmp_path, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            printed = []
            for line in process.stdout:  # until the PIN, the last line it prints
                printed.append(line)
                if "board PIN" in line:
                    break
            port = re.search(r"panel at http://[^/]+:(\d+)/", printed[0]).group(1)
            url = f"http://{PHONE_NET[0]}:{port}/api/state"
            fetch = (
                "import json, sys, urllib.request\n"
                "print(json.load(urllib.request.urlopen(sys.argv[1]))['layout'])"
            )
            seen = subprocess.run(
                ["ip", "netns", "exec", phone, sys.executable, "-c", fetch, url],
                capture_output=True,
                text=True,
                timeout=60,
            )
        finally:
            process.terminate()
            process.wait(timeout=30)
    assert seen.returncode == 0, seen.stderr
    assert seen.stdout.strip() == "two-track-121"
    assert any(PHONE_NET[0] in line for line in printed), printed
