"""The phones follow the game by ear: each new entry's sentences go into the page's live
region (a screen reader reads them) in the phone's own language, and a phone that turns
its voice on hears them from the browser's speech synthesis. Debian's chromium through
Playwright, against ``pegboard serve --sim`` (see tests/browsing.py)."""

from __future__ import annotations

from browsing import (  # noqa: F401
    act,
    board_url_fixture,
    browser_fixture,
    phone_fixture,
    sign_in,
)
from test_a11y import axe_problems

# The browser's own voice, listened to: what the page hands to speechSynthesis.speak.
LISTEN = """() => {
  window.heard = [];
  speechSynthesis.speak = (utterance) => window.heard.push([utterance.text, utterance.lang]);
}"""


def test_a_pegged_count_is_announced_on_every_phone_in_its_language(phone):
    from playwright.sync_api import expect

    ann = phone()
    sign_in(ann)
    act(ann, "new_game", players=["Ann", "Bob"], dealer=0)
    greta = phone("de")  # opened after the new game: old news is not announced
    greta.evaluate(LISTEN)
    greta.click("#tab-game")  # this phone's settings
    expect(greta.locator("#speak-choice")).to_be_visible()
    greta.check("#speak")
    log = greta.locator("#aloud")
    expect(log).to_have_attribute("role", "log")

    act(ann, "starter", card="5D")
    act(ann, "advance")  # the play pegged by nobody: to the show
    # Bob's hand 10♥ 5♥ J♠ 4♦ with the 5♦ is ten; he claims eight.
    act(ann, "claim", seat=1, points=8, cards=["10H", "5H", "JS", "4D"])
    expect(ann.locator("#aloud p").nth(-2)).to_have_text("Bob's hand: eight… under by two.")
    # Each entry once, in German: the starter by its name, who counts, the show, the claim.
    said = [
        "Die Startkarte: Karo-Fünf.",
        "Bob ist dran.",  # he leads the play
        "Jetzt: Bobs Hand.",  # the play ended: Bob counts first
        "Bobs Hand zeigt Herz-Zehn, Herz-Fünf, Pik-Bube und Karo-Vier; die Startkarte, Karo-Fünf.",
        "Bobs Hand: acht… zwei zu wenig.",
        "Jetzt: Anns Hand.",
    ]
    expect(log.locator("p")).to_have_text(said)
    assert greta.evaluate("window.heard") == [[text, "de"] for text in said]
    assert ann.evaluate("typeof window.heard") == "undefined"  # Ann's phone keeps quiet
    assert axe_problems(greta) == []

    act(ann, "undo")
    expect(log.locator("p").last).to_have_text("Rückgängig gemacht.")
    greta.uncheck("#speak")  # remembered on this phone, and the voice stops
    act(ann, "redo")
    expect(log.locator("p").nth(-2)).to_have_text("Bobs Hand: acht… zwei zu wenig.")
    assert len(greta.evaluate("window.heard")) == len(said) + 1  # the undo was spoken
    greta.reload()
    expect(greta.locator("#speak")).not_to_be_checked()
