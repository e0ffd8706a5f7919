"""A phone lets another in without the PIN, in real browsers (tests/browsing.py): the
signed-in phone shows a one-time link as a QR code; the other phone opens the link and
pegs; the link leaves its address bar and lets no third phone in."""

from __future__ import annotations

import re

from browsing import (  # noqa: F401
    act,
    board_url_fixture,
    browser_fixture,
    message,
    phone_fixture,
    sign_in,
)


def test_a_signed_in_phone_lets_another_in_with_its_link(phone):
    from playwright.sync_api import expect

    host = phone()
    expect(host.locator("#invite-button")).to_be_hidden()  # a watcher has no link to give
    sign_in(host)
    host.click("#tab-game")
    host.click("#invite-button")
    expect(host.locator("#invite-dialog")).to_be_visible()
    expect(host.locator("#invite-qr")).to_have_attribute("src", re.compile(r"^data:image/svg\+xml"))
    expect(host.locator("#invite-link")).to_have_attribute("href", re.compile("#join="))
    link = host.locator("#invite-link").get_attribute("href")
    host.click("#invite-close")

    guest = phone()
    guest.goto(link)
    expect(guest.locator("#pin-button")).to_have_text(message(guest, "sign_out"))
    expect(guest.locator("#message")).to_have_text(message(guest, "joined"))
    assert "#join=" not in guest.url  # spent: it is not kept, shared or reloaded
    result = act(guest, "new_game", players=["Ann", "Bob"], dealer=0)
    assert result["state"]["game"]["seats"][0]["name"] == "Ann"

    third = phone()
    third.goto(link)
    expect(third.locator("#message")).to_contain_text("used already or is out of date")
    expect(third.locator("#pin-button")).to_have_text(message(third, "enter_pin"))
