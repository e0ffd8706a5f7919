"""The phone page by keys alone (a keyboard, a switch, a screen reader's keys): the pack
and the pad are one tab stop each, the arrow keys move within them, a rank or a number
typed jumps to it, Enter makes the entry, and the focus lands on the next thing to do.
The simulated board's shortcut keys never make an entry unless one of its controls has
the focus. Debian's chromium at 360 x 740 (see tests/browsing.py)."""

from __future__ import annotations

from browsing import (  # noqa: F401
    act,
    board_url_fixture,
    browser_fixture,
    phone_fixture,
    sign_in,
    snapshot,
    start_from_the_form,
)

FOCUSED = """() => { const e = document.activeElement;
  return e.dataset.card || e.dataset.key || e.id || e.textContent.trim(); }"""


def focused(page) -> str:
    return page.evaluate(FOCUSED)


def version(page) -> int:
    return snapshot(page)["game"]["version"]


def test_arrow_keys_move_within_the_pack_and_enter_lays(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    act(page, "new_game", players=["Ann", "Bob"], dealer=0)
    page.locator("#moment .picker button").first.focus()  # the pack's one tab stop
    assert focused(page) == "A♣"
    for key, card in [("ArrowRight", "2♣"), ("ArrowDown", "9♣"), ("ArrowLeft", "8♣")]:
        page.keyboard.press(key)
        assert focused(page) == card, key
    page.keyboard.press("5")  # a rank typed: that card of the suit in focus
    assert focused(page) == "5♣"
    page.keyboard.press("5")  # typed again: the same rank in the next suit
    assert focused(page) == "5♦"
    page.keyboard.press("s")  # a suit typed: the same rank in that suit
    assert focused(page) == "5♠"
    page.keyboard.press("d")
    assert focused(page) == "5♦"
    page.keyboard.press("Tab")  # one tab stop: Tab leaves the pack
    assert not page.evaluate("document.activeElement.closest('.picker')")
    page.keyboard.press("Shift+Tab")  # and comes back to the card it left
    assert focused(page) == "5♦"
    before = version(page)
    page.keyboard.press("Enter")
    expect(page.locator("#moment-title")).to_have_text("Count 0: Bob lays")
    assert version(page) == before + 1
    # The focus is on the pack again, where the next card is laid; laid cards are passed.
    expect(page.locator("#moment .picker button:focus")).to_have_count(1)
    page.keyboard.press("k")
    page.keyboard.press("h")  # the king of hearts: a rank and a suit
    assert focused(page) == "K♥"
    page.keyboard.press("Enter")
    expect(page.locator("#moment-title")).to_have_text("Count 10: Ann lays")
    expect(page.locator("#moment .picker button[data-card='K♥']")).to_be_disabled()
    assert page.evaluate("document.activeElement.closest('.picker') !== null"), page.evaluate(
        "document.activeElement.outerHTML.slice(0, 200)"
    )


def test_a_new_game_from_the_form_puts_the_focus_on_the_starters_pack(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    page.click("#tab-game")
    page.select_option("#new-game select[name=dealer]", "0")  # Ann deals
    start_from_the_form(page, "Ann", "Bob")
    expect(page.locator("#moment-title")).to_have_text("Turn the starter")
    expect(page.locator("#moment .picker button:focus")).to_have_count(1)
    page.keyboard.press("5")
    page.keyboard.press("d")
    assert focused(page) == "5♦"  # two keys and Enter name the starter
    page.keyboard.press("Enter")
    expect(page.locator("#moment-title")).to_have_text("Count 0: Bob lays")


def test_the_pad_by_keys_a_number_typed_then_enter(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    act(page, "new_game", players=["Ann", "Bob"], dealer=0)
    act(page, "starter", card=None)
    act(page, "advance")  # the play pegged by nobody: Bob's hand is due
    page.locator("#moment .pad button[tabindex='0']").focus()
    page.keyboard.press("1")
    page.keyboard.press("2")
    assert focused(page) == "12"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    assert focused(page) == "5"
    page.keyboard.press("Enter")
    expect(page.locator("#moment-title")).to_have_text("Ann's hand")
    assert snapshot(page)["game"]["sides"][1]["front"] == 5
    # The next count's pad has the focus: the next number and Enter peg it.
    assert page.evaluate("document.activeElement.closest('.pad') !== null")
    page.keyboard.press("1")  # his nobs alone
    page.keyboard.press("Enter")
    expect(page.locator("#moment-title")).to_have_text("Ann's crib")
    assert snapshot(page)["game"]["sides"][0]["front"] == 1
    # A number typed for the next count starts afresh: this 2 is not the 1 before's 12.
    page.keyboard.press("2")
    assert focused(page) == "2"
    page.keyboard.press("Enter")
    expect(page.locator("#moment-title")).not_to_have_text("Ann's crib")
    assert snapshot(page)["game"]["sides"][0]["front"] == 3


def test_a_stray_key_changes_nothing_unless_a_dial_has_the_focus(phone):
    """On the simulated board, ``d`` is the second dial's press: with nothing focused (or
    the pack focused) it is just a key; with that dial's button focused, it presses."""
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    act(page, "new_game", players=["Ann", "Bob"], dealer=0)
    act(page, "starter", card=None)
    act(page, "advance")
    sent = []
    page.on("request", lambda r: "/api/act/" in r.url and sent.append(r.url))
    before = version(page)
    page.evaluate("document.activeElement.blur()")
    for key in ("d", "s", "D", " "):
        page.keyboard.press(key)
    page.locator("#moment .pad button[tabindex='0']").focus()
    page.keyboard.press("d")
    assert sent == [] and version(page) == before
    page.locator("#dials .dial").nth(1).locator("button").first.focus()
    page.keyboard.press("s")  # a dial's key, a dial in focus: Bob's dial turns
    expect(page.locator("#dials .dial").nth(1).locator(".value")).to_have_text("+1")
    assert sent and all("sim_turn" in url for url in sent)
