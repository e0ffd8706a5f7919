"""A club's hosted tables in one browser (tests/browsing.py: Debian's chromium at 360 x
740), against `pegboard club` with two hosted tables on its one port: the phone page at
``/table/1/`` loads, goes live, signs in with table 1's PIN and makes an entry, every
address it asks under its own table (its files, its API, its stream, the board's drawing);
its language form and its one-time link stay at the table; table 2 in the same browser is
not signed in, and its page shows its own game."""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from browsing import (  # noqa: F401
    PHONE,
    browser_fixture,
    made,
    message,
    shot,
    snapshot,
)

from tests.club_players import Client, Director, director_program

PIN = "8642"
pytestmark = [pytest.mark.slow, pytest.mark.subprocess]


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[int, dict[str, Any]]]:
    """`pegboard club` with two hosted tables: the tables as its director reads them."""
    process, url = director_program(tmp_path_factory.mktemp("club"), PIN, tables=2)
    try:
        director = Director(url, PIN)
        yield {t["table"]: t for t in director.call("GET", "/club/api/tables")["tables"]}
    finally:
        process.stop()


def live(page: Any, address: str) -> None:
    page.goto(f"{address}/")
    page.wait_for_selector("#live.on")
    page.wait_for_function("document.querySelector('#moment-title').textContent !== ''")


def sign_in(page: Any, pin: str) -> None:
    from playwright.sync_api import expect

    page.click("#tab-now")
    page.click("#pin-prompt")
    page.fill("#pin", pin)
    page.click("#pin-ok")
    expect(page.locator("#pin-button")).to_have_text(message(page, "sign_out"))


def test_a_phone_at_a_hosted_table_goes_live_signs_in_and_pegs_under_its_path(
    browser: Any, night: dict[int, dict[str, Any]]
) -> None:
    from playwright.sync_api import expect

    one, two = night[1], night[2]
    prefix = urllib.parse.urlsplit(one["address"]).path + "/"  # "/table/1/"
    context = browser.new_context(viewport=PHONE, locale="en")
    asked: list[str] = []
    errors: list[str] = []
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("request", lambda sent: asked.append(urllib.parse.urlsplit(sent.url).path))
        page.on("pageerror", lambda error: errors.append(str(error)))
        live(page, one["address"])
        sign_in(page, one["pin"])

        # A game started from the form, and its first entry tapped: the starter.
        page.click("#tab-game")
        rows = page.locator("#new-game .player:not([hidden]) input[name=player]")
        rows.nth(0).fill("Ann")
        rows.nth(1).fill("Bob")
        page.click("#new-game button[type=submit]")
        expect(page.locator("#tab-now")).to_have_attribute("aria-selected", "true")
        made(page, "#moment .picker button[data-card='5♦']")
        assert snapshot(page)["game"]["starter"] is not None
        state = Client(one["address"]).call("GET", "/api/state")  # the table's own API
        assert [s["name"] for s in state["game"]["seats"]] == ["Ann", "Bob"]
        assert state["game"]["starter"] is not None
        assert Client(two["address"]).call("GET", "/api/state")["game"] is None

        # Every address the page asked is its table's: files, API, stream, drawing.
        assert asked and all(path.startswith(prefix) for path in asked), asked
        for wanted in ("api/events", "api/login", "api/act/new_game", "api/act/starter"):
            assert f"{prefix}{wanted}" in asked, wanted

        # Its one-time link is the table's.
        page.click("#tab-game")
        page.click("#invite-button")
        link = page.locator("#invite-link").get_attribute("href")
        assert link is not None and link.startswith(f"{one['address']}/#join=")
        page.click("#invite-close")

        # Table 2, in the same browser: not signed in (table 1's sign-in is table 1's).
        other = context.new_page()
        other.set_default_timeout(10_000)
        other.on("pageerror", lambda error: errors.append(str(error)))
        live(other, two["address"])
        expect(other.locator("#pin-button")).to_have_text(message(other, "enter_pin"))
        expect(other.locator("#moment-title")).to_have_text(message(other, "no_game"))
        # Its language form brings the phone back to table 2, in the language chosen.
        other.click("#tab-game")
        with other.expect_navigation():
            other.select_option("#language-choice", "de")
        other.wait_for_selector("#live.on")
        root = urllib.parse.urlsplit(two["address"]).path + "/"  # "/table/2/"
        assert urllib.parse.urlsplit(other.url).path == root
        assert other.evaluate("document.documentElement.lang") == "de"
        manifest = other.evaluate(
            "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())"
        )
        assert manifest["start_url"] == manifest["scope"] == manifest["id"] == root

        # Table 1's page, opened again: still signed in, its game as it was.
        page.reload()
        page.wait_for_selector("#live.on")
        expect(page.locator("#pin-button")).to_have_text(re.compile(message(page, "sign_out")))
        shot(page, "hall-table-1")
        assert errors == []
    finally:
        context.close()
