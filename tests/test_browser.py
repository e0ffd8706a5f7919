"""The panel in a real browser: Debian's chromium, driven by Playwright, at a phone's size
(360 x 740), against ``pegboard serve --sim`` in its own process (see tests/browsing.py).

A deal is played through the page with taps only, and at each moment what is due and the
answer to it are on the screen without scrolling.
"""

from __future__ import annotations

import re

from browsing import (  # noqa: F401
    PIN,
    PLAY,
    STARTER,
    board_url_fixture,
    browser_fixture,
    message,
    on_screen,
    phone_fixture,
    pick,
    play_the_deal,
    score_of,
    shot,
    sign_in,
    snapshot,
    start_from_the_form,
)
from browsing import act as act_in

from pegboard.i18n import LANGUAGES


def new_game(page, *players: str, dealer: int = 0, **settings) -> None:
    from playwright.sync_api import expect

    act_in(page, "new_game", players=list(players), dealer=dealer, **settings)
    expect(page.locator("#moment-title")).to_have_text("Turn the starter")


def tap(page, selector: str) -> None:
    """A thumb's tap on what is due: it is on the screen before it is tapped."""
    on_screen(page, selector)
    page.click(selector)


def card(name: str) -> str:
    return f"#moment .picker button[data-card='{name}']"


def key(n: int) -> str:
    return f"#moment .keys button:text-is('{n}')"


def test_each_moment_of_a_deal_fits_the_phone_with_its_answer(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    new_game(page, "Ann", "Bob", muggins=True)
    answer = "#message"

    # The starter: the whole pack on the screen; a tap turns it.
    on_screen(page, "#moment button.due")  # or only say it is not a jack
    tap(page, card(STARTER))
    expect(page.locator("#moment-title")).to_have_text("Count 0: Bob lays")
    shot(page, "moment-play")

    # The play: one tap per card; the board scores it and says so at the cards.
    tap(page, card("10♥"))
    tap(page, card("5♣"))
    expect(page.locator(answer)).to_have_text("Ann: fifteen for two")
    on_screen(page, answer)
    expect(score_of(page, 0)).to_have_text("2")
    for seat, laid in PLAY[2:]:
        name = ("Ann", "Bob")[seat]
        expect(page.locator("#moment-title")).to_contain_text(f"{name} lays")
        tap(page, card(laid) if laid else "#moment button.go")
    expect(score_of(page, 1)).to_have_text("6")  # the pair, the run, the go

    # Bob's hand, all laid in the play: the totals it can make, one tap pegs.
    expect(page.locator("#moment-title")).to_have_text("Bob's hand")
    expect(page.locator("#moment .keys button[aria-disabled=true]")).to_have_text(
        ["19", "25", "26", "27"]
    )
    shot(page, "moment-count")
    tap(page, key(8))
    # Claimed: Ann's hand is due at once; the verdict waits for a call (Muggins is on),
    # which is a tap away beside the pad until the next claim.
    expect(page.locator("#moment-title")).to_have_text("Ann's hand")
    expect(page.locator("#moment .verdict, #moment details.show")).to_have_count(0)
    on_screen(page, key(16))
    tap(page, "#moment .call-row button")
    expect(page.locator("#moment-title")).to_have_text("Muggins?")
    on_screen(page, key(2))  # how many were missed: Ann says
    shot(page, "moment-muggins")
    tap(page, key(2))
    expect(score_of(page, 0)).to_have_text("5")  # 2, the last card, Muggins 2
    expect(page.locator(answer)).to_have_text(
        "Muggins! Ann takes two. Bob's hand held ten: two missed."
    )

    # Ann's hand: claimed; the crib is due at once, nothing to tap in between.
    expect(page.locator("#moment-title")).to_have_text("Ann's hand")
    on_screen(page, answer)  # what the board said of the Muggins call
    tap(page, key(16))
    expect(page.locator("#moment-title")).to_have_text("Ann's crib")
    expect(page.locator("#moment .call-row")).to_contain_text("Ann's hand: 16 claimed.")

    # The crib, its cards never seen: pegged as claimed.
    tap(page, key(4))
    # The show is done: the next deal on the screen, the call on the crib beside it.
    expect(page.locator("#moment-title")).to_have_text("Every count is in")
    expect(page.locator("#moment .call-row")).to_contain_text("Ann's crib: 4 claimed.")
    on_screen(page, answer)
    tap(page, "#moment button.due")
    expect(page.locator("#moment-title")).to_have_text("Turn the starter")
    expect(page.locator("#sides li").nth(1).locator(".deals")).to_have_text("dealer")


def test_the_win_shows_the_margin_the_skunk_and_the_next_game(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    new_game(page, "Ann", "Bob", match_games=5, skunk="single")
    act_in(page, "starter", card=None)
    for _ in range(8):
        act_in(page, "claim", seat=1, points=15, kind="play")
    expect(score_of(page, 1)).to_have_text("120")
    tap(page, "#moment .chips:has(.who:text-is('Bob')) button:text-is('+1')")
    expect(page.locator("#moment-title")).to_have_text("Bob wins!")
    expect(page.locator("#moment-lead")).to_have_text("by 121, with a skunk")
    on_screen(page, "#moment button.due")
    expect(page.locator("#moment button.due")).to_have_text("Next game of the match")
    shot(page, "moment-win")
    tap(page, "#moment button.due")
    expect(page.locator("#moment-title")).to_have_text("Turn the starter")
    expect(page.locator("#sides li").nth(1).locator(".deals")).to_have_text("dealer")


def test_a_watching_phone_never_sees_a_true_count_before_its_claim(phone):
    """With Muggins on, in every language: the hand laid in the play is not scored for
    anyone until it is claimed, nor once claimed while the opponents may call Muggins; the
    next count closes the window, and then the cards are told, as a lesson."""
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    new_game(page, "Ann", "Bob", muggins=True)
    watchers = {lang: phone(lang) for lang in LANGUAGES}
    play_the_deal(page)
    for lang, watcher in watchers.items():
        expect(watcher.locator("#sides li").nth(1).locator(".score")).to_have_text("6")
        expect(watcher.locator("#moment .cards-line .c")).to_have_count(5)  # Bob's, and the starter
        shown = watcher.evaluate("document.body.innerText")
        for told in ("cards_say",):
            assert message(watcher, told).split("{")[0] not in shown, (lang, told)
        expect(watcher.locator("#moment details.show, #moment .keys .true")).to_have_count(0)
        assert (
            watcher.evaluate("fetch('/api/score?hand=10H,5H,4D,JS&starter=5D').then(r => r.status)")
            == 409
        )
    act_in(page, "claim", seat=1, points=8, kind="hand")
    for lang, watcher in watchers.items():
        row = watcher.locator("#moment .call-row")
        expect(row).to_be_visible()  # beside the next count's pad
        name = snapshot(watcher)["game"]["muggins_open"]["name"]
        expect(row).to_contain_text(message(watcher, "muggins_lead").format(name=name, claimed=8))
        expect(watcher.locator("#moment .verdict, #moment details.show, .lesson")).to_have_count(0)
        on_screen(watcher, "#pin-prompt")  # the call is a tap away: with the PIN
        if lang == "de":
            shot(watcher, "watcher-muggins-de")
    act_in(page, "claim", seat=0, points=16, kind="hand")  # the window on Bob's closes
    for watcher in watchers.values():
        expect(watcher.locator(".lesson .hint")).to_be_visible()  # the lesson drawn, then read
        lesson = message(watcher, "lesson").format(
            name=snapshot(watcher)["game"]["lesson"]["name"], actual=10, missed=2
        )
        expect(watcher.locator(".lesson .hint")).to_have_text(lesson)
        expect(watcher.locator(".lesson details.show .breakdown button")).to_have_count(5)


def test_a_starter_not_entered_never_blocks_a_count_and_named_late_checks_them(phone):
    """ "Not a jack" at the turn, then the play laid card by card: every hand is known but
    the starter is not. A count is still pegged as claimed; naming the starter (one tap
    on its card) gets the next ones checked."""
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    new_game(page, "Ann", "Bob")
    tap(page, "#moment button.due")  # not a jack
    expect(page.locator("#moment-title")).to_have_text("Count 0: Bob lays")
    for seat, laid in PLAY:
        act_in(page, "lay", seat=seat, card=laid) if laid else act_in(page, "go", seat=seat)
    expect(page.locator("#moment-title")).to_have_text("Bob's hand")
    expect(page.locator("#moment .cards-line .note")).to_have_text("name the starter to check them")
    tap(page, key(10))
    expect(page.locator("#message")).to_have_text("Bob's hand: ten.")  # no cards to check
    expect(score_of(page, 1)).to_have_text("16")  # 6 in the play
    expect(page.locator("#moment-title")).to_have_text("Ann's hand")
    tap(page, "#moment button:text-is('Name the starter')")
    tap(page, f"dialog[open] .picker button[data-card='{STARTER}']")  # one tap names it
    expect(page.locator("#message")).to_have_text(f"The starter: {STARTER}.")
    expect(page.locator("#moment .cards-line .c.starter")).to_have_text(STARTER)
    expect(page.locator("#moment button:text-is('Name the starter')")).to_have_count(0)
    tap(page, key(16))
    expect(page.locator("#message")).to_have_text("Ann's hand: sixteen… exact.")


def test_a_muggins_call_without_the_cards_is_disputed_with_them(phone):
    """Bob pegs his hand by points, the starter not entered; Ann calls Muggins without
    the cards. Bob shows his hand and names the starter: the cards say the call was
    false, and Bob pegs it."""
    from playwright.sync_api import expect

    bob, ann = phone(), phone()
    for page in (bob, ann):
        sign_in(page)
    new_game(bob, "Ann", "Bob", muggins=True)
    act_in(bob, "starter", card=None)
    act_in(bob, "advance")  # the play, pegged by points: nothing
    act_in(bob, "claim", seat=1, points=10, kind="hand")
    act_in(ann, "muggins", seat=0, points=2)
    expect(bob.locator("#moment-title")).to_have_text("Ann's hand")  # nothing waits for it
    expect(score_of(bob, 0)).to_have_text("2")
    tap(bob, "#moment .call-row button")
    expect(bob.locator("#moment-title")).to_have_text("Dispute the Muggins call?")
    tap(bob, "#moment .cards-line button:text-is('Pick cards')")
    pick(bob, "10♥", "5♥", "J♠", "4♦")
    bob.click("#cards-done")
    settle = "#moment button:text-is('Settle it with these cards')"
    expect(bob.locator(settle)).to_be_disabled()  # the starter first
    tap(bob, "#moment button:text-is('Name the starter')")
    tap(bob, f"dialog[open] .picker button[data-card='{STARTER}']")
    expect(bob.locator(settle)).to_be_enabled()
    tap(bob, settle)
    for page in (bob, ann):  # both phones say how it was settled
        expect(page.locator("#message")).to_have_text("False Muggins! Bob takes two.")
        expect(score_of(page, 0)).to_have_text("0")
        expect(score_of(page, 1)).to_have_text("12")  # 10 was right: the false call pegs Bob 2


def test_a_count_claimed_at_its_most_leaves_nothing_to_mug_and_the_next_pad_whole(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    new_game(page, "Ann", "Bob", muggins=True)
    act_in(page, "starter", card=STARTER)
    act_in(page, "advance")  # the play, pegged by points: nothing
    tap(page, key(29))  # Bob's hand, its cards never seen: 29 is the most a hand scores
    expect(page.locator("#moment-title")).to_have_text("Ann's hand")
    expect(page.locator("#moment .call-row")).to_have_count(0)  # nothing can have been missed
    expect(page.locator("#moment .keys button")).to_have_count(30)  # 0 to 29
    tap(page, key(12))
    expect(score_of(page, 0)).to_have_text("12")


def test_a_reload_in_the_play_or_a_count_keeps_every_choice(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    new_game(page, "Ann", "Bob")
    act_in(page, "starter", card="5D")
    tap(page, card("10♥"))
    page.reload()
    page.wait_for_selector("#live.on")
    # The picker lays for whoever's turn it is: a tap lays, as before the reload.
    expect(page.locator("#moment-title")).to_have_text("Count 10: Ann lays")
    tap(page, card("5♣"))
    expect(page.locator("#message")).to_have_text("Ann: fifteen for two")
    act_in(page, "advance")
    for seat, points in ((1, 2), (0, 4)):
        act_in(page, "claim", seat=seat, points=points, kind="hand")
    # The crib: its cards picked in a sheet, kept over a reload, checked with the count.
    expect(page.locator("#moment-title")).to_have_text("Ann's crib")
    tap(page, "#moment .cards-line button")
    pick(page, "2♠", "3♠", "Q♥", "K♦")
    page.click("#cards-done")
    page.reload()
    page.wait_for_selector("#live.on")
    expect(page.locator("#moment-title")).to_have_text("Ann's crib")
    expect(page.locator("#moment .cards-line .c")).to_have_text(["2♠", "3♠", "Q♥", "K♦", "5♦"])
    expect(page.locator("#moment .cards-say")).to_have_count(0)
    expect(page.locator("#moment details.show summary")).to_have_text("The cards score 8.")
    tap(page, key(8))
    expect(page.locator("#message")).to_have_text("Ann's crib: eight… exact.")
    # The next deal, by points: the choice is kept over a reload too.
    act_in(page, "advance")
    act_in(page, "starter", card=None)
    tap(page, "#moment input[value=points] + span")
    page.reload()
    page.wait_for_selector("#live.on")
    expect(page.locator("#moment input[value=points]")).to_be_checked()
    expect(page.locator("#moment .chips")).to_have_count(2)


def test_a_double_tap_pegs_once(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    new_game(page, "Ann", "Bob")
    act_in(page, "starter", card=None)
    page.click("#moment input[value=points] + span")
    sent = []

    def through(route):
        sent.append(route.request.post_data_json)
        route.fulfill(response=route.fetch())

    page.route("**/api/act/claim", through)
    chip = "#moment .chips:has(.who:text-is('Bob')) button:text-is('+2')"
    page.dblclick(chip)
    expect(score_of(page, 1)).to_have_text("2")
    # The second tap of a double tap that comes after the first was answered (the chips
    # drawn again under the thumb): dropped as well.
    page.locator(chip).dispatch_event("click", {"detail": 2})
    page.click("#moment .chips:has(.who:text-is('Bob')) button:text-is('+3')")  # the next card
    expect(score_of(page, 1)).to_have_text("5")
    history = page.evaluate("fetch('/api/state').then((r) => r.json())")["game"]["history"]
    assert history["count"] == 2
    assert [body["points"] for body in sent] == [2, 3]


def test_a_lost_answer_is_sent_again_and_pegs_once(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    new_game(page, "Ann", "Bob")
    act_in(page, "starter", card=None)
    keys = []

    def lose_the_first_answer(route):
        keys.append(route.request.headers.get("idempotency-key"))
        answer = route.fetch()  # the board makes the entry...
        if len(keys) == 1:
            route.abort("connectionreset")  # ...and its answer is lost on the way
        else:
            route.fulfill(response=answer)

    page.route("**/api/act/claim", lose_the_first_answer)
    answer = act_in(page, "claim", seat=1, points=2, kind="play")  # as the +2 chip sends it
    assert answer["replayed"] is True
    assert len(keys) == 2 and keys[0] == keys[1] and keys[0]
    expect(score_of(page, 1)).to_have_text("2")


def test_new_game_asks_first_and_can_be_taken_back_and_a_game_resumed(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    new_game(page, "Ann", "Bob")
    act_in(page, "starter", card="JC")  # two for his heels
    start_from_the_form(page, "Cat", "Dan", confirm=False)
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#confirm-text")).to_contain_text("Ann and Bob (Ann 2 · Bob 0) is kept")
    page.click("#confirm-cancel")  # not now: Ann and Bob play on
    expect(page.locator("#sides li .name")).to_have_text(["Ann", "Bob"])
    page.click("#new-game button[type=submit]")
    page.click("#confirm-ok")
    expect(page.locator("#sides li .name")).to_have_text(["Cat", "Dan"])
    expect(page.locator("#message")).to_contain_text("deals first.")
    tap(page, "#message button")  # taken back
    expect(page.locator("#message")).to_have_text("Back to the game of Ann and Bob.")
    expect(score_of(page, 0)).to_have_text("2")
    # Cat and Dan again, a point pegged: Ann and Bob's game waits in the list.
    start_from_the_form(page, "Cat", "Dan")
    expect(page.locator("#sides li .name")).to_have_text(["Cat", "Dan"])
    act_in(page, "starter", card="JH")
    page.click("#tab-game")
    games = page.locator("#games li")
    expect(games.first).to_contain_text("Playing now")
    expect(games.nth(1)).to_contain_text("Ann 2")
    games.nth(1).locator("button", has_text="Resume").click()
    expect(page.locator("#sides li .name")).to_have_text(["Ann", "Bob"])
    expect(page.locator("#tab-now")).to_have_attribute("aria-selected", "true")


def test_the_form_offers_the_players_this_board_can_show(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    page.click("#tab-game")
    three = page.locator("#new-game input[name=players][value='3']")
    expect(three).to_be_disabled()
    expect(page.locator("#players-hint")).to_have_text(
        "This board (two-track-121) has 2 tracks: 2 or 4 players."
    )
    page.click("#new-game input[name=players][value='4'] + span")
    expect(page.locator("#new-game .player:not([hidden])")).to_have_count(4)
    expect(page.locator("#players-hint")).to_contain_text("two teams")
    expect(
        page.locator("#new-game select[name=variant] option[value='five-card']")
    ).to_be_disabled()
    expect(
        page.locator("#new-game select[name=variant] option[value='seven-card']")
    ).to_be_disabled()
    page.click("#new-game details summary")
    page.fill("#new-game input[name=target]", "2.5")
    page.click("#new-game button[type=submit]")
    expect(page.locator("#form-message")).to_have_text(
        "The target is a whole number from 0 to 999."
    )


def test_the_on_screen_dials_peg_light_the_board_and_say_why_at_the_dials(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    new_game(page, "Ann", "Bob", dealer=1)
    dials = page.locator("#dials .dial")
    expect(dials).to_have_count(2)
    dials.nth(1).locator("button", has_text="Peg").click()  # the starter: no heels
    expect(page.locator("#moment-title")).to_contain_text("Ann lays")
    dials.nth(0).locator("button", has_text="Peg").click()  # nothing dialled
    expect(page.locator("#dial-message")).to_have_text(
        "dial the points scored in the play, then press"
    )
    ann = dials.nth(0)
    for _ in range(3):
        ann.locator("button", has_text="+").click()
    expect(ann.locator(".value")).to_have_text("+3")
    expect(page.locator("#sides li").nth(0).locator(".pending")).to_have_text("dial +3")
    ann.locator("button", has_text="Peg").click()
    expect(score_of(page, 0)).to_have_text("3")
    # The board drawing shows the pegs the LEDs show, near the pegs, numbered every five.
    board = page.locator("#board svg")
    expect(board.locator("#t0h3")).to_have_attribute("data-lit", "peg")
    expect(page.locator("#board")).to_have_class(re.compile(r"\bnear\b"))
    expect(board.locator(".number").first).to_have_text("5")
    page.click("#board")  # the whole board
    expect(page.locator("#board")).not_to_have_class(re.compile(r"\bnear\b"))
    page.click("#board")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "board", clip=page.locator("#top").bounding_box())


def test_teams_colours_and_a_match_from_the_form(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    page.click("#tab-game")
    page.click("#new-game input[name=players][value='4'] + span")
    page.locator("input[name=colour]").nth(0).fill("#ff0000")
    page.click("#new-game details summary")
    for name, value in {"match_games": "3", "skunk": "triple", "match_scoring": "acc"}.items():
        page.select_option(f"#new-game select[name={name}]", value)
    page.select_option("#new-game select[name=dealer]", "3")
    start_from_the_form(page, "Ann", "Bob", "Cat", "Dan")
    expect(page.locator("#sides li .name")).to_have_text(["Ann & Cat", "Bob & Dan"])
    expect(page.locator("#sides li").nth(1).locator(".deals")).to_have_text("dealer")
    expect(page.locator("#moment-lead")).to_have_text("Deal 1: Dan deals, the crib is Bob & Dan's.")
    colour = page.locator("#sides li").first.evaluate("li => getComputedStyle(li).borderLeftColor")
    assert colour == "rgb(255, 0, 0)"
    page.click("#tab-match")
    expect(page.locator("#match-caption")).to_have_text("Best of 3: 4 points win the match.")
    page.click("#tab-now")
    expect(page.locator("#dials .dial")).to_have_count(4)  # a dial per seat
    settings = page.evaluate("fetch('/api/state').then((r) => r.json())")["game"]["settings"]
    assert (settings["match_games"], settings["skunk"], settings["match_scoring"]) == (
        3,
        "triple",
        "acc",
    )


def test_a_wrong_pin_and_advice_while_dealing_not_during_a_count(phone):
    from playwright.sync_api import expect

    page = phone()
    page.click("#pin-prompt")
    page.fill("#pin", "0000")
    page.click("#pin-ok")
    # The dialog stays open and says why, at the PIN, for another try.
    expect(page.locator("#pin-message")).to_have_text("wrong PIN")
    expect(page.locator("#pin-dialog")).to_be_visible()
    expect(page.locator("#pin")).to_have_attribute("aria-invalid", "true")
    page.fill("#pin", PIN)
    page.click("#pin-ok")
    expect(page.locator("#pin-dialog")).to_be_hidden()
    expect(page.locator("#pin-button")).to_have_text("Sign out")
    new_game(page, "Ann", "Bob")
    page.click("#tab-advice")
    pick(page, "5♥", "5♣", "J♦", "Q♠", "2♣", "9♥")
    page.click("#advise")
    expect(page.locator("#advice li")).to_have_count(15)
    expect(page.locator("#advice li").first).to_contain_text("throw 2♣ 9♥")
    act_in(page, "starter", card=None)
    act_in(page, "advance")
    page.click("#advise")
    expect(page.locator("#advice-message")).to_have_text("no advice during a count")


def test_the_language_switch_reloads_the_page_and_this_phone_keeps_it(phone):
    from playwright.sync_api import expect

    page = phone("fi-FI")  # the phone asks for Finnish
    assert page.evaluate("document.documentElement.lang") == "fi"
    expect(page.locator("#tab-history")).to_have_text("Historia")
    page.click("#tab-game")
    with page.expect_navigation():
        page.select_option("#language-choice", "de")  # chosen on the page
    page.wait_for_selector("#live.on")
    assert page.evaluate("document.documentElement.lang") == "de"
    expect(page.locator("#tab-history")).to_have_text("Verlauf")
    names = page.evaluate(
        "Object.fromEntries(JSON.parse(document.getElementById('cards').text).suits"
        ".flatMap((suit) => suit.cards))"
    )
    assert names["J♥"] == "Herz-Bube"
    again = page.context.new_page()  # the same phone, later: still German
    again.goto(page.url)
    assert again.evaluate("document.documentElement.lang") == "de"
    other = phone("fi-FI")  # another phone keeps its own
    assert other.evaluate("document.documentElement.lang") == "fi"


def test_key_hints_show_only_where_there_is_a_keyboard(browser, board_url):
    from browsing import PHONE

    touch = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    desk = browser.new_context(viewport={"width": 1200, "height": 800})
    try:
        seen = {}
        for name, context in (("phone", touch), ("desk", desk)):
            page = context.new_page()
            page.goto(board_url)
            seen[name] = page.evaluate(
                "getComputedStyle(document.querySelector('.key-hints')).display"
            )
        assert seen == {"phone": "none", "desk": "block"}
    finally:
        touch.close()
        desk.close()


def test_the_board_installs_as_an_app_that_opens_on_the_board(browser, board_url, tmp_path):
    """Chromium's own check: nothing stands in the way of installing it (a persistent
    profile: a private window installs nothing; on this computer, a secure origin: over
    plain HTTP from the LAN a phone adds it as a shortcut to the board instead)."""
    from urllib.parse import urlsplit

    from browsing import CHROMIUM, CHROMIUM_ARGS, PHONE
    from playwright.sync_api import expect

    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, viewport=PHONE
    )
    try:
        page = context.new_page()
        page.goto(f"http://localhost:{urlsplit(board_url).port}/")
        page.wait_for_selector("#live.on")
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")
        expect(page.locator("#tab-now")).to_have_attribute("aria-selected", "true")
    finally:
        context.close()
