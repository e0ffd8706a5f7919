"""The director finds the LED boards by mDNS: a board announced as avahi announces it
(hardware/avahi/pegboard.service: "_http._tcp", "pegboard cribbage board on HOST"),
here by python-zeroconf on loopback, is listed for the director with its address, paired
from there with its PIN, and gone from the list once it stops announcing itself. A
service of another name is not a board."""

from __future__ import annotations

import socket
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from zeroconf import IPVersion, ServiceInfo, Zeroconf

from tests.club_players import BOARD_PIN, Director, Process, board, director_program, until

AVAHI = Path(__file__).parents[1] / "hardware/avahi/pegboard.service"
pytestmark = pytest.mark.slow


def announced(name: str, port: int) -> ServiceInfo:
    """The service the board's avahi file announces, for a host ``name`` at ``port``."""
    service = ElementTree.parse(AVAHI).getroot()
    kind = service.findtext("service/type")
    title = str(service.findtext("name")).replace("%h", name)
    return ServiceInfo(
        f"{kind}.local.",
        f"{title}.{kind}.local.",
        addresses=[socket.inet_aton("127.0.0.1")],
        port=port,
        properties={"path": "/"},
        server=f"{name}.local.",
    )


def test_boards_announced_by_mdns_are_found_and_paired(tmp_path: Path) -> None:
    processes: list[Process] = []
    zeroconf = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    try:
        sim, address = board(tmp_path / "board")
        processes.append(sim)
        club, url = director_program(tmp_path / "club", "4321", 0, "--discover")
        processes.append(club)
        port = int(address.rsplit(":", 1)[1])
        pegboard, printer = announced("pi7", port), announced("pi8", port + 1)
        printer = ServiceInfo(
            printer.type, "office printer._http._tcp.local.", port=631,
            addresses=printer.addresses, server="printer.local.",
        )  # fmt: skip
        zeroconf.register_service(pegboard)
        zeroconf.register_service(printer)
        director = Director(url, "4321")
        found = until(lambda: director.call("GET", "/club/api/boards")["boards"], "the board")
        assert found == [
            {"name": "pegboard cribbage board on pi7", "address": address, "table": None}
        ]
        director.call(
            "POST", "/club/api/tables", {"address": found[0]["address"], "pin": BOARD_PIN}
        )
        tables = director.call("GET", "/club/api/tables")["tables"]
        assert [(t["table"], t["kind"], t["address"]) for t in tables] == [(1, "board", address)]
        assert director.call("GET", "/club/api/boards")["boards"][0]["table"] == 1
        zeroconf.unregister_service(pegboard)
        until(lambda: not director.call("GET", "/club/api/boards")["boards"], "the board gone")
    finally:
        zeroconf.close()
        for process in processes:
            process.stop()
