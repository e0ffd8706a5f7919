"""Three players on a three-track board: three score cards across a 360 px phone."""

from __future__ import annotations

from browsing import (  # noqa: F401
    above_the_tabs,
    act,
    board_url_fixture,
    browser_fixture,
    measure,
    message,
    phone_fixture,
    shot,
    sign_in,
)

BOARD_LAYOUT = "three-track-121"
NAMES = ["Alexandra", "Bartholomew", "Christopher"]  # long names, each its own card


def test_with_no_game_the_advance_button_starts_the_house_game(phone):
    """As on the board: before any game, the simulated board's advance button starts one
    with the house rules (first in this module: its board has no game yet)."""
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    expect(page.locator("#moment-title")).to_have_text("No game yet")
    expect(page.locator("#sim .dial")).to_have_count(0)
    page.click("#sim button.move-on")
    expect(page.locator("#moment-title")).to_have_text("Turn the starter")
    expect(page.locator("#sim .dial")).to_have_count(2)  # the house rules: two players


def test_three_cards_across_keep_the_names_and_put_the_dealer_by_the_score(phone):
    from playwright.sync_api import expect

    page = phone("de")
    sign_in(page)
    act(page, "new_game", players=NAMES, dealer=0)
    act(page, "starter", card="5D")
    act(page, "lay", seat=1, card="10H")
    act(page, "lay", seat=2, card="5C")  # fifteen two: Christopher leads by 2
    cards = page.locator("#sides li")
    expect(cards.nth(2).locator(".lead .sr-only")).to_have_text(
        message(page, "leads_by").format(n=2)
    )
    for side in range(3):
        card = cards.nth(side)
        # the name has the card's whole width (less its edge): no badge beside it
        name, whole = card.locator(".name").bounding_box(), card.bounding_box()
        assert name["width"] >= whole["width"] - 16, NAMES[side]
    expect(cards.nth(0).locator(".about .deals")).to_have_text("Geber")
    found = measure(page)
    assert (found["overflowing"], found["scroll"]) == ([], 360)
    shot(page, "three-across-de")


def test_three_sides_by_points_fit_above_the_tabs_the_bigger_chips_a_tap_away(phone):
    """Three sides' chips, the Muggins call and the end of the play all above the tab bar:
    +1 to +7 a side, the rest (rare scores) one tap away until the next entry."""
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    act(page, "new_game", players=NAMES, dealer=0, muggins=True)
    act(page, "starter", card=None)
    page.click("#moment input[value=points] + span")
    # Bartholomew's fifteen two, pegged on his own phone: this one (no side yet) may call it
    act(page, "claim", seat=1, points=2, kind="play")
    expect(page.locator("#moment .call-row")).to_be_visible()
    chips = page.locator("#moment .chips.side-2 button")
    expect(chips).to_have_text([f"+{n}" for n in range(1, 8)] + ["8–15"])
    above_the_tabs(page, "#moment .chips button", "#moment .call-row", "#moment .moves .end")
    chips.last.click()
    expect(chips).to_have_text([f"+{n}" for n in range(1, 16)])
    chips.nth(11).click()  # a double pair royal: +12
    expect(page.locator("#sides li").nth(2).locator(".score")).to_have_text("12")
    expect(chips).to_have_count(8)  # the next entry folds them again
