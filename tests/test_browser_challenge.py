"""A count the cards show over, challenged from a phone: with Muggins on, the hand just
claimed (from the Muggins call; from its row when it was claimed at its most and nothing
is left to mug); Muggins or not, a claim of game made without its cards, beside the win
until the next entry. The claimer's own phone
offers nothing on its own claim. Debian's chromium at 360 x 740 (see tests/browsing.py)."""

from __future__ import annotations

from browsing import (  # noqa: F401
    act,
    board_url_fixture,
    browser_fixture,
    on_screen,
    phone_fixture,
    pick,
    score_of,
    sign_in,
)

from pegboard.rules.cards import Card
from pegboard.rules.scoring import show_total

STARTER = "5D"
HAND = ("10♥", "5♥", "J♠", "4♦")  # Bob's hand, never entered with his claim
OVER = "#moment .call-row button.over"


def true_count() -> int:
    return show_total([Card.parse(c) for c in HAND], Card.parse(STARTER))


def tap(page, selector: str) -> None:
    """A thumb's tap on what is due: it is on the screen before it is tapped."""
    on_screen(page, selector)
    page.click(selector)


def bob_near_home(page, muggins: bool) -> None:
    """A game where the play, pegged by hand, took Bob to 110: his hand is due."""
    from playwright.sync_api import expect

    act(page, "new_game", players=["Ann", "Bob"], dealer=0, muggins=muggins)
    act(page, "starter", card=STARTER)
    for _ in range(11):
        act(page, "claim", seat=1, points=10, kind="play")
    act(page, "advance")
    expect(page.locator("#moment-title")).to_have_text("Bob's hand")


def challenge_with_his_cards(ann, over: str = OVER) -> None:
    from playwright.sync_api import expect

    tap(ann, over)
    expect(ann.locator("#moment-title")).to_have_text("Show the count over?")
    send = "#moment button:text-is('Ann challenges with these cards')"
    expect(ann.locator(send)).to_be_disabled()  # the cards first
    tap(ann, "#moment .cards-line button:text-is('Pick cards')")
    pick(ann, *HAND)
    ann.click("#cards-done")
    expect(ann.locator(send)).to_be_enabled()
    tap(ann, send)


def test_a_false_claim_of_game_is_shown_over_beside_the_win(phone):
    """Muggins off: Bob claims 12 for his hand at 110, without its cards, and the game
    ends. Ann's phone offers the challenge beside the win; his cards hold less, so the
    win is undone and Bob is pegged what they hold."""
    from playwright.sync_api import expect

    ann, bob = phone(), phone()
    for page in (ann, bob):
        sign_in(page)
    bob_near_home(bob, muggins=False)
    tap(bob, "#moment .keys button:text-is('12')")  # Bob's own phone: his claim of game
    for page in (ann, bob):
        expect(page.locator("#moment-title")).to_have_text("Bob wins!")
    expect(ann.locator(OVER)).to_be_visible()
    expect(bob.locator(OVER)).to_have_count(0)  # never on its own side's claim
    challenge_with_his_cards(ann)
    for page in (ann, bob):
        expect(score_of(page, 1)).to_have_text(str(110 + true_count()))
        expect(page.locator("#moment-title")).to_have_text("Ann's hand")  # the game goes on
    expect(ann.locator(OVER)).to_have_count(0)  # settled: nothing left to challenge


def test_with_muggins_on_a_hand_claimed_at_its_most_can_still_be_shown_over(phone):
    """Muggins on: Bob claims 29, the most a hand scores, so nothing was missed and there
    is no Muggins to call, and the board tells nothing of his cards. Ann shows them: they
    hold less, and the count is taken back to what they hold."""
    from playwright.sync_api import expect

    ann = phone()
    sign_in(ann)
    bob_near_home(ann, muggins=True)
    act(ann, "claim", seat=1, points=29, kind="hand")  # from Bob's phone
    expect(ann.locator("#moment-title")).to_have_text("Ann's hand")
    expect(ann.locator(OVER)).to_be_visible()
    expect(ann.locator("#moment .call-row button.call")).to_have_count(0)  # nothing to mug
    expect(ann.locator("#moment .call-row")).to_contain_text("Bob's hand: 29 claimed.")
    challenge_with_his_cards(ann)
    expect(score_of(ann, 1)).to_have_text(str(110 + true_count()))
    expect(ann.locator("#moment-title")).to_have_text("Ann's hand")
    expect(ann.locator(OVER)).to_have_count(0)


def test_with_muggins_on_the_call_on_a_hand_offers_to_show_it_over(phone):
    """Muggins on: Bob claims 24. Ann opens the Muggins call (24 could have missed 4 or
    5), and from it shows the count over instead: his cards hold less."""
    from playwright.sync_api import expect

    ann = phone()
    sign_in(ann)
    bob_near_home(ann, muggins=True)
    act(ann, "claim", seat=1, points=24, kind="hand")  # from Bob's phone
    expect(ann.locator(OVER)).to_have_count(0)  # the row's call is Muggins
    tap(ann, "#moment .call-row button.call")
    expect(ann.locator("#moment-title")).to_have_text("Muggins?")
    challenge_with_his_cards(ann, "#moment .moves button.over")
    expect(score_of(ann, 1)).to_have_text(str(110 + true_count()))
    expect(ann.locator("#moment .call-row")).to_have_count(0)


def test_an_over_count_nobody_challenged_stands_and_its_lesson_says_so(phone):
    """Muggins on, lessons on: Bob pegs 24 on a hand worth less, with its cards; nobody
    shows it over before the next count, so it stands, and the lesson says what the
    cards held."""
    from playwright.sync_api import expect

    ann = phone()
    sign_in(ann)
    act(ann, "new_game", players=["Ann", "Bob"], dealer=0, muggins=True)
    act(ann, "starter", card=STARTER)
    act(ann, "advance")  # the play, pegged by nobody
    act(ann, "claim", seat=1, points=24, kind="hand", cards=list(HAND))
    act(ann, "claim", seat=0, points=0, kind="hand")  # Ann's count closes the window
    lesson = ann.locator("#moment .lesson")
    expect(lesson).to_contain_text(
        f"Bob's hand held {true_count()}: {24 - true_count()} over, and it stands."
    )
    expect(score_of(ann, 1)).to_have_text("24")
