"""Every moment's controls above the tab bar on a 360 x 740 phone, in all six languages,
with the answer to the last tap showing: the whole pack on the starter and play screens
(with Go and the end of the play), the pad of a count, the next deal. Measured as the
thumb meets them: the bounding boxes of what is due, against the tab bar's top (see
tests/browsing.py)."""

from __future__ import annotations

import pytest
from browsing import (  # noqa: F401
    above_the_tabs,
    act,
    board_url_fixture,
    browser_fixture,
    phone_fixture,
    sign_in,
    snapshot,
)

from pegboard.i18n import LANGUAGES

NAMES = ["Alexandra", "Christopher"]  # long enough to wrap a score card, were it cut


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_moments_controls_are_above_the_tab_bar(phone, lang):
    from playwright.sync_api import expect

    page = phone(lang)
    sign_in(page)
    act(page, "new_game", players=NAMES, dealer=0, muggins=True)
    message = page.locator("#message")
    expect(message).not_to_be_empty()  # the new game's words at the action
    above_the_tabs(page, "#moment .picker", "#moment .row button", "#message")
    act(page, "starter", card="5D")
    expect(page.locator("#moment .segments")).to_be_visible()  # by cards or by points
    above_the_tabs(page, "#moment .picker", "#moment .segments", "#moment button", "#message")
    act(page, "lay", seat=1, card="10H")
    act(page, "lay", seat=0, card="5C")  # fifteen two: said at the pack
    expect(message).not_to_be_empty()
    # The whole pack, Go and the end of the play (a play cut short) above the tabs.
    above_the_tabs(page, "#moment .picker", "#moment button.go", "#moment button.end", "#message")
    for seat, card in [(1, "5H"), (0, "6C"), (1, "4D")]:
        act(page, "lay", seat=seat, card=card)
    act(page, "advance")
    act(page, "claim", seat=1, points=8, kind="hand")  # the call beside the next pad
    expect(page.locator("#moment .call-row")).to_be_visible()
    above_the_tabs(page, "#moment .pad", "#moment .call-row", "#message")
    act(page, "claim", seat=0, points=4, kind="hand")
    act(page, "claim", seat=0, points=2, kind="crib")
    expect(page.locator("#moment button.due")).to_be_visible()
    above_the_tabs(page, "#moment button.due", "#moment .call-row", "#message")
