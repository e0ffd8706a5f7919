"""A photo on the count's pad: chosen on the phone (as its camera takes it), scaled down and
read by the board, the cards read picked for the count and the rest asked in the picker;
then the claim goes on as before. With Muggins on, nothing of what the cards score is told
before the claim. Debian's chromium at 360 x 740, photos of a held-out deck (see
tests/browsing.py, tests/reader_photos.py)."""

from __future__ import annotations

import pytest
from browsing import (  # noqa: F401
    act,
    board_url_fixture,
    browser_fixture,
    on_screen,
    phone_fixture,
    score_of,
    sign_in,
)
from reader_photos import need_decks, photo, render

need_decks()
pytestmark = pytest.mark.subprocess  # rsvg-convert draws the deck

STARTER = "5D"
HAND = ["5H", "5C", "5S", "JD"]  # Bob's: with the starter, 29
SHOWN = ["5♥", "5♣", "5♠", "J♦"]
CAMERA = "#moment .cards-line input.camera, #moment .cards-line .camera input"


@pytest.fixture(scope="module")
def decks(tmp_path_factory):
    return render(tmp_path_factory.mktemp("decks"), ("svg-standard",), [*HAND, STARTER])


def bobs_hand_due(page, muggins: bool) -> None:
    from playwright.sync_api import expect

    sign_in(page)
    act(page, "new_game", players=["Ann", "Bob"], dealer=0, muggins=muggins)
    act(page, "starter", card=STARTER)
    act(page, "advance")  # the play, pegged by nobody
    expect(page.locator("#moment-title")).to_have_text("Bob's hand")


def choose(page, name: str, body: bytes, kind: str = "image/jpeg") -> None:
    page.set_input_files(CAMERA, files=[{"name": name, "mimeType": kind, "buffer": body}])


def test_a_photo_of_the_show_picks_the_hand_and_tells_nothing_with_muggins_on(phone, decks):
    from playwright.sync_api import expect

    page = phone()
    bobs_hand_due(page, muggins=True)
    on_screen(page, "#moment .cards-line .camera")
    choose(page, "show.jpg", photo(decks, "svg-standard", [*HAND, STARTER], fanned=False, seed=4))
    cards = page.locator("#moment .cards-line .cards .c:not(.starter)")
    expect(cards).to_have_text(SHOWN)  # the starter in the photo set aside
    expect(page.locator("#message")).to_contain_text("Read from the photo")
    expect(page.locator("#moment .cards-say")).to_have_count(0)  # what they score: untold
    page.click("#moment .keys button:text-is('29')")
    expect(page.locator("#moment-title")).to_have_text("Ann's hand")
    expect(score_of(page, 1)).to_have_text("29")


def test_what_the_photo_did_not_show_is_asked_in_the_picker(phone, decks):
    """Three of Bob's four cards in the photo: those read sure are picked, and the picker
    opens for the rest (at the likely card of one the reader was not sure of)."""
    from playwright.sync_api import expect

    page = phone()
    bobs_hand_due(page, muggins=False)
    choose(page, "three.jpg", photo(decks, "svg-standard", HAND[:3], fanned=False, seed=5))
    sheet = page.locator("dialog[open]")
    expect(sheet).to_be_visible()
    said = page.locator("#message").inner_text()
    picked = sheet.locator(".picker button[aria-pressed=true]")
    read = [c for c in SHOWN[:3] if c in said.split("Not sure")[0]]
    expect(picked).to_have_count(len(read))  # the sure ones, and only those
    if "Not sure of" in said:  # the tab stop on the likely card
        likely = said.split("Not sure of ")[1].split(":")[0].split(" ")[0].strip(",")
        expect(sheet.locator(".picker button[tabindex='0']")).to_have_attribute("data-card", likely)
    page.click("dialog[open] .picker button[data-card='J♦']")
    for card in SHOWN[:3]:
        if card not in read:
            page.click(f"dialog[open] .picker button[data-card='{card}']")
    page.click("#cards-done")
    cards = page.locator("#moment .cards-line .cards .c:not(.starter)")
    expect(cards).to_have_count(4)


def test_a_file_that_is_no_photo_is_refused_with_one_line_and_picks_nothing(phone):
    from playwright.sync_api import expect

    page = phone()
    bobs_hand_due(page, muggins=False)
    choose(page, "notes.jpg", b"these are not the cards")
    expect(page.locator("#message")).to_have_text("That file is not a photo.")
    expect(page.locator("#moment .cards-line .cards .c:not(.starter)")).to_have_count(0)
