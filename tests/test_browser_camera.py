"""The board's own camera on the phone: a Board camera button beside the Photo button on the
count's pad, and the advance button held while the count is due, each fill the pad as the
phone's own photo does; with Muggins on nothing of what the cards score is told before the
claim. Debian's chromium at 360 x 740 against ``pegboard serve --sim`` whose camera reads a
folder holding a photo of a held-out deck (tests/reader_photos.py)."""

from __future__ import annotations

import pytest
from browsing import (  # noqa: F401
    act,
    board_url_fixture,
    browser_fixture,
    on_screen,
    phone_fixture,
    score_of,
    shot,
)
from reader_photos import need_decks, photo, render
from test_browser_photo import HAND, SHOWN, STARTER, bobs_hand_due

need_decks()
pytestmark = pytest.mark.subprocess  # rsvg-convert draws the deck

CARDS = "#moment .cards-line .cards .c:not(.starter)"


def board_config(folder) -> str:
    """The board's camera: a folder holding one photo of Bob's hand beside the starter."""
    decks = render(folder / "decks", ("svg-standard",), [*HAND, STARTER])
    photos = folder / "photos"
    photos.mkdir()
    show = photo(decks, "svg-standard", [*HAND, STARTER], fanned=False, seed=4)
    (photos / "show.jpg").write_bytes(show)
    return f'[camera]\nenabled = true\nfolder = "{photos}"\n'


def claimed_29(page) -> None:
    from playwright.sync_api import expect

    expect(page.locator("#moment .cards-say")).to_have_count(0)  # what they score: untold
    page.click("#moment .keys button:text-is('29')")
    expect(page.locator("#moment-title")).to_have_text("Ann's hand")
    expect(score_of(page, 1)).to_have_text("29")


def test_the_board_camera_button_fills_the_pad(phone):
    from playwright.sync_api import expect

    page = phone()
    bobs_hand_due(page, muggins=True)
    button = page.locator("#moment .cards-line button.board-camera")
    on_screen(page, "#moment .cards-line button.board-camera")
    expect(button).to_have_text("Board camera")
    shot(page, "board-camera-pad")
    button.click()
    expect(page.locator(CARDS)).to_have_text(SHOWN)  # the starter in the photo set aside
    expect(page.locator("#message")).to_contain_text("Read from the photo")
    claimed_29(page)


def test_the_advance_button_held_fills_the_pad_of_the_phone_it_is_open_on(phone):
    from playwright.sync_api import expect

    page = phone()
    bobs_hand_due(page, muggins=True)
    act(page, "sim_repeat")  # the advance button held, on the simulated board's screen
    expect(page.locator(CARDS)).to_have_text(SHOWN)
    expect(page.locator("#message")).to_contain_text("Read from the photo")
    claimed_29(page)
