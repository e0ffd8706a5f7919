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
pytestmark = [pytest.mark.slow, pytest.mark.subprocess]


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


def pi7(director: Director) -> list[dict[str, object]]:
    """The boards the director lists that are announced as pi7's."""
    boards = director.call("GET", "/club/api/boards")["boards"]
    return [b for b in boards if str(b["name"]).endswith(" on pi7")]


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
        found = until(lambda: pi7(director), "the board")
        assert found == [
            {"name": "pegboard cribbage board on pi7", "address": address, "table": None}
        ]  # (the --sim board announces itself too: see the test below)
        director.call(
            "POST", "/club/api/tables", {"address": found[0]["address"], "pin": BOARD_PIN}
        )
        tables = director.call("GET", "/club/api/tables")["tables"]
        assert [(t["table"], t["kind"], t["address"]) for t in tables] == [(1, "board", address)]
        assert pi7(director)[0]["table"] == 1
        zeroconf.unregister_service(pegboard)
        until(lambda: not pi7(director), "the board gone")
    finally:
        zeroconf.close()
        for process in processes:
            process.stop()


def test_a_sim_board_announces_itself_and_is_found(tmp_path: Path) -> None:
    """`pegboard serve --sim` announces itself as a Pi board does: a laptop's board is
    found by the director's discovery, and gone once the board stops."""
    processes: list[Process] = []
    try:
        sim, address = board(tmp_path / "board")
        processes.append(sim)
        club, url = director_program(tmp_path / "club", "4321", 0, "--discover")
        processes.append(club)
        director = Director(url, "4321")

        def ours() -> list[dict[str, object]]:  # another board on the network is no matter
            boards = director.call("GET", "/club/api/boards")["boards"]
            return [found for found in boards if found["address"] == address]

        found = until(ours, "the board")
        port = address.rsplit(":", 1)[1]
        name = f"pegboard cribbage board on {socket.gethostname()} (sim, port {port})"
        assert found == [{"name": name, "address": address, "table": None}]
        sim.stop()
        until(lambda: not ours(), "the board gone")
    finally:
        for process in processes:
            process.stop()
