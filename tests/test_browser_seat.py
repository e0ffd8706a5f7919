"""A phone that knows whose it is never offers a Muggins call on its own side's claim: it
pegs for one side (or chose its caller once), and the board's other phones still offer
the call on that side's counts. A phone passed round the table, pegging for both sides,
knows no side and offers every call. Debian's chromium at 360 x 740 (see
tests/browsing.py)."""

from __future__ import annotations

from browsing import (  # noqa: F401
    act,
    board_url_fixture,
    browser_fixture,
    phone_fixture,
    sign_in,
)

ROW = "#moment .call-row button.call"


def tap_total(page, total: int) -> None:
    from playwright.sync_api import expect

    title = page.locator("#moment-title").text_content()
    page.click(f"#moment .pad button[data-key='{total}']")
    expect(page.locator("#moment-title")).not_to_have_text(title)


def test_a_phone_offers_no_call_on_its_own_sides_claim(phone):
    from playwright.sync_api import expect

    ann, bob = phone(), phone()
    for page in (ann, bob):
        sign_in(page)
    act(ann, "new_game", players=["Ann", "Bob"], dealer=0, muggins=True)
    act(ann, "starter", card=None)
    act(ann, "advance")  # the play pegged by nobody: Bob's hand is due
    expect(bob.locator("#moment-title")).to_have_text("Bob's hand")
    tap_total(bob, 4)  # Bob pegs his own hand from his phone
    expect(ann.locator(ROW)).to_be_visible()  # Ann's phone: "Muggins?" on Bob's claim
    expect(bob.locator("#moment-title")).to_have_text("Ann's hand")
    expect(bob.locator("#moment .pad")).to_be_visible()
    expect(bob.locator(ROW)).to_have_count(0)  # Bob's own: none
    expect(bob.locator("#message")).to_contain_text("Bob's hand")  # what he pegged, said

    tap_total(ann, 6)  # and Ann hers, from hers
    expect(bob.locator(ROW)).to_be_visible()
    expect(ann.locator("#moment-title")).to_have_text("Ann's crib")
    expect(ann.locator(ROW)).to_have_count(0)

    # Bob's phone, passed to Ann for her crib, pegs for both sides now: it knows none.
    tap_total(bob, 2)
    expect(ann.locator(ROW)).to_have_count(0)
    expect(bob.locator(ROW)).to_be_visible()
