"""The phone by ear: a whole deal played on one phone while another listens as a screen
reader would. The page has one live region; every entry is announced there once, in
words (the card laid by its name, the count, whose turn, the starter, a go, each claim);
and the accessibility tree names every card by its spoken name, in the pack, the cards
of a count and the history. Debian's chromium at 360 x 740 (see tests/browsing.py)."""

from __future__ import annotations

from browsing import (  # noqa: F401
    STARTER,
    act,
    board_url_fixture,
    browser_fixture,
    heard,
    made,
    phone_fixture,
    sign_in,
)

# What a screen reader hears, kept as it is told (the region keeps only the latest).
LISTEN = """() => {
  window.told = [];
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) window.told.push(node.textContent);
    }
  }).observe(document.getElementById('aloud'), { childList: true });
}"""
LIVE = """() => [...document.querySelectorAll('[aria-live], [role=status], [role=log],'
  + ' [role=alert], [role=marquee], [role=timer]')].map((e) => e.id)"""

# The deal of browsing.PLAY with Muggins on, by ear (written by hand from the rules).
HEARD = [
    "The starter: five of diamonds.",
    "Bob to lay.",
    "Bob lays ten of hearts: ten.",
    "Ann to lay.",
    "Ann lays five of clubs: fifteen for two.",
    "Bob to lay.",
    "Bob lays five of hearts: twenty for two.",
    "Ann to lay.",
    "Ann lays six of clubs: twenty-six.",
    "Bob to lay.",
    "Bob lays four of diamonds: thirty for three.",
    "Ann to lay.",
    "Ann says go.",
    "Bob to lay.",
    "Bob says go.",
    "Bob: one for the go",
    "Ann to lay.",
    "Ann lays seven of clubs: seven.",
    "Bob to lay.",
    "Bob lays jack of spades: seventeen.",
    "Ann to lay.",
    "Ann lays eight of clubs: twenty-five, and one for the last card.",
    "Next: Bob's hand.",
    # each show by its cards (those the play showed, here), then the claim
    "Bob's hand shows ten of hearts, five of hearts, four of diamonds, and jack of spades; "
    "the starter, five of diamonds.",
    "Bob's hand: eight.",
    "Next: Ann's hand.",
    "Ann's hand shows five of clubs, six of clubs, seven of clubs, and eight of clubs; "
    "the starter, five of diamonds.",
    "Ann's hand: sixteen.",
    "Bob's hand held ten: two missed.",  # the window on Bob's closed: the lesson
    "Next: Ann's crib.",
    "Ann's crib: four.",
]


def tap_card(page, card: str) -> None:
    made(page, f"#moment .picker button[data-card='{card}']")


def test_every_entry_is_heard_once_in_one_live_region_cards_by_name(phone):
    from playwright.sync_api import expect

    player, listener = phone(), phone()
    sign_in(player)
    act(player, "new_game", players=["Ann", "Bob"], dealer=0, muggins=True)
    listener.evaluate(LISTEN)
    assert listener.evaluate(LIVE) == ["aloud"]  # the one live region
    # The pack, as a screen reader reads it: each card by its name.
    pack = heard(player.locator("#moment .picker"), 'button "five of diamonds"')
    assert "5♦" not in pack

    tap_card(player, STARTER)
    for card in ("10♥", "5♣", "5♥", "6♣", "4♦"):
        tap_card(player, card)
    for _ in range(2):  # Ann, then Bob, say go
        made(player, "#moment button.go")
    for card in ("7♣", "J♠", "8♣"):
        tap_card(player, card)
    expect(listener.locator("#moment-title")).to_have_text("Bob's hand")
    # The cards of the count and the starter, by name.
    heard(listener.locator("#moment .cards-line"), 'img "ten of hearts"', 'img "five of diamonds"')
    for total, next_count in ((8, "Ann's hand"), (16, "Ann's crib"), (4, "Every count is in")):
        player.click(f"#moment .pad button[data-key='{total}']")
        expect(player.locator("#moment-title")).to_have_text(next_count)
    expect(listener.locator("#moment-title")).to_have_text("Every count is in")
    expect(listener.locator("#aloud p").last).to_have_text(HEARD[-1])
    told = listener.evaluate("window.told")
    assert told == HEARD, "\n".join(told)
    assert player.evaluate(LIVE) == ["aloud"]

    # The history names each card as it is said.
    listener.click("#tab-history")
    history = heard(
        listener.locator("#history-view"), "five of clubs: fifteen for two", 'img "five of clubs"'
    )
    assert "5♣:" not in history
