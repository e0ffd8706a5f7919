"""The phone's first load and its reload, as they go over the wire: the page opened in the
middle of a deal by Debian's chromium (Playwright) at 360 x 740 against ``pegboard serve
--sim``, every request counted as chromium's network sees it (Chrome DevTools Protocol:
the bytes received for each, headers and all, gzipped or not), until the page is live and
quiet; then the same page reloaded: the requests that still went to the board (a file
kept by the phone goes nowhere).

Goals: the first load <= 150 KB on the wire, a reload at most a handful of requests.
Run: ``python -m benchmarks wire``.
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

if not __package__:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_panel import Phone, start_board

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"width": 360, "height": 740}
GOAL_BYTES = 150 * 1024
GOAL_RELOAD = 5  # requests: the page, its live stream, the history, and a spare two
QUIET_MS = 1500  # no new request this long: the page is loaded


@dataclass
class Wire:
    """What chromium's network saw on one page: each request's address, whether the
    phone's cache answered it, and the bytes that came over the wire for it."""

    urls: dict[str, str] = field(default_factory=dict)
    cached: set[str] = field(default_factory=set)
    received: dict[str, int] = field(default_factory=dict)

    def listen(self, cdp) -> None:
        cdp.on(
            "Network.requestWillBeSent",
            lambda e: self.urls.setdefault(e["requestId"], e["request"]["url"]),
        )
        cdp.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        cdp.on("Network.responseReceived", self._response)
        cdp.on("Network.dataReceived", self._data)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.send("Network.enable")

    def _response(self, event: dict) -> None:
        response = event["response"]
        if response.get("fromDiskCache") or response.get("fromPrefetchCache"):
            self.cached.add(event["requestId"])

    def _data(self, event: dict) -> None:  # (a live stream never finishes)
        key = event["requestId"]
        self.received[key] = self.received.get(key, 0) + event["encodedDataLength"]

    def _finished(self, event: dict) -> None:
        self.received[event["requestId"]] = event["encodedDataLength"]  # headers and all

    def sent(self) -> list[str]:
        """The addresses that went to the board (not answered by the phone's cache)."""
        return [url for key, url in self.urls.items() if key not in self.cached]

    def bytes(self) -> int:
        return sum(size for key, size in self.received.items() if key not in self.cached)


def opened(page, url: str | None = None) -> Wire:
    """The page opened at ``url`` (None: reloaded), live, and quiet for a while: what
    the wire carried."""
    wire = Wire()
    cdp = page.context.new_cdp_session(page)
    wire.listen(cdp)
    if url is None:
        page.reload()
    else:
        page.goto(url)
    page.wait_for_selector("#live.on")
    seen = -1
    while seen != len(wire.urls):  # until no request came for a while
        seen = len(wire.urls)
        page.wait_for_timeout(QUIET_MS)
    cdp.detach()
    return wire


def mid_deal(port: int) -> None:
    """A game at the table: the starter turned, a card laid; the next to lay is due."""
    phone = Phone(port)
    phone.sign_in()
    for action, args in (
        ("new_game", {"players": ["Ann", "Bob"], "dealer": 0, "muggins": True}),
        ("starter", {"card": "5D"}),
        ("lay", {"seat": 1, "card": "10H"}),
    ):
        status, _ = phone.call("POST", f"/api/act/{action}", args)
        assert status == 200, (action, status)


def first_and_again(browser, url: str) -> tuple[Wire, Wire]:
    """The page at ``url`` opened on a new phone, then reloaded."""
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        first = opened(page, url)
        again = opened(page)
    finally:
        context.close()
    return first, again


def main() -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as folder:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        process, port = start_board(Path(folder))
        try:
            mid_deal(port)
            first, again = first_and_again(browser, f"http://localhost:{port}/")
        finally:
            process.terminate()
            process.wait(timeout=30)
            browser.close()
    size = first.bytes()
    print("the page opened in the play on a new phone, then reloaded (chromium's network):")
    print("| | requests | on the wire (headers too) | goal |")
    print("| --- | ---: | ---: | --- |")
    print(f"| first load | {len(first.sent())} | {size / 1024:.1f} KB | <= 150 KB |")
    reload = again.sent()
    print(f"| reload | {len(reload)} | {again.bytes() / 1024:.1f} KB | <= {GOAL_RELOAD} requests |")
    print("sent on the reload:", ", ".join(url.split("/", 3)[-1] or "/" for url in reload))


if __name__ == "__main__":
    main()
