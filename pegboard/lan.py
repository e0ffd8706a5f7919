"""Where phones find the board: its addresses and names on the local network.

One home for them: the service prints the panel's addresses (with a QR code), the
doctor shows the same, and the panel answers only requests addressed to one of them.
Reads the machine's interfaces; sends no packet.

>>> panel_urls("127.0.0.1", 8080)[0]
['http://localhost:8080/']
>>> panel_urls("192.168.1.20", 80)
(['http://192.168.1.20/'], None)
"""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct

from pegboard.i18n import N_, Phrase

ANY = ("0.0.0.0", "::", "")  # listen on every interface
PRIVATE_PROBE = ("10.255.255.255", 9)  # a connect() here only picks the route
SIOCGIFADDR = 0x8915  # Linux: an interface's IPv4 address


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks, the one with the default route
    first; loopback and link-local left out."""
    found = [address for address in (_routed(), *_interfaces()) if address]
    unique = list(dict.fromkeys(found))
    return [a for a in unique if _reachable(ipaddress.ip_address(a))]


def _reachable(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return not (address.is_loopback or address.is_link_local or address.is_unspecified)


def _routed() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PRIVATE_PROBE)
            return str(probe.getsockname()[0])
    except OSError:
        return None


def _interfaces() -> list[str]:
    addresses = []
    try:
        names = [name for _, name in socket.if_nameindex()]
    except OSError:
        return []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for name in names:
            try:
                answer = fcntl.ioctl(
                    probe.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode())
                )
            except OSError:  # no IPv4 address on it
                continue
            addresses.append(socket.inet_ntoa(answer[20:24]))
    return addresses


def names() -> list[str]:
    """The board's own names: its hostname, that name on mDNS (``.local``), localhost."""
    host = socket.gethostname().split(".")[0].lower()
    return list(dict.fromkeys([host, f"{host}.local", "localhost"]))


def own_hosts(listening: str) -> set[str]:
    """Every name and address a request may rightly be addressed to (a Host header
    without its port), for a panel listening on ``listening``."""
    hosts = {*names(), "127.0.0.1", "::1", *lan_addresses()}
    if listening not in ANY:
        hosts.add(listening.lower())
    return hosts


def panel_urls(host: str, port: int) -> tuple[list[str], Phrase | None]:
    """The URLs a phone opens, best first, and a warning if phones cannot reach them."""
    warning = None
    if host in ANY:
        shown = lan_addresses()
        if shown:
            shown.append(f"{names()[0]}.local")
        else:
            shown = ["localhost"]
            warning = Phrase(N_("no network found: phones cannot reach the panel yet"))
    elif host in ("localhost", "::1") or host.startswith("127."):
        shown = ["localhost"]
        warning = Phrase.of(
            N_("the panel answers this machine only ({option} or {setting} for phones)"),
            option="--host 0.0.0.0",
            setting="[panel] host",
        )
    else:
        shown = [host]
    if port == 0:
        warning = Phrase.of(
            N_("the panel's port is chosen at start ({setting}): see the service's log"),
            setting="[panel] port = 0",
        )
    suffix = "" if port in (80, 0) else f":{port}"
    return [f"http://{f'[{h}]' if ':' in h else h}{suffix}/" for h in shown], warning
