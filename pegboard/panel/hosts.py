"""Which names the board answers to: the Host header checked against its own names and
addresses, so a web page elsewhere cannot reach the board through DNS rebinding (a name
of its own that it points at the board's address) to read it or guess its PIN.

A name is allowed when it is one of the board's names (its hostname, hostname.local,
localhost, the configured host); an address when it is a loopback address or the very
address the request came in on (so every LAN address the board has, today's or
tomorrow's, with no list to keep). A rebinding page always sends its own name.

>>> names = frozenset({"pegboard", "pegboard.local", "localhost"})
>>> [allowed(host, names, "192.168.1.20") for host in
...  ("pegboard.local:8080", "PEGBOARD.local.", "192.168.1.20", "[::1]:80", "evil.example",
...   "192.168.1.21", "pegboard.local:8080:1", "")]
[True, True, True, True, False, False, False, False]
"""

from __future__ import annotations

import ipaddress
import re

LOCAL_ADDRESS = "pegboard.local_address"  # in the WSGI environ: the address it came in on
_PORT = re.compile(r":\d{1,5}$")


def allowed(host: str, names: frozenset[str], local: str | None = None) -> bool:
    """Whether the Host header ``host`` names this board (``local``: the address the
    request came in on, if known)."""
    name = _PORT.sub("", host.strip())
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    name = name.lower().rstrip(".")
    if not name:
        return False
    if name in names:
        return True
    address = _address(name)
    if address is None:
        return False
    return address.is_loopback or (local is not None and address == _address(local))


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    mapped = getattr(address, "ipv4_mapped", None)  # ::ffff:a.b.c.d on a dual-stack socket
    return mapped or address
