"""The panel in a real browser: Debian's chromium, driven by Playwright, at a phone's size,
against ``pegboard serve --sim`` in its own process (see tests/browsing.py).
"""

from __future__ import annotations

import re

from browsing import (  # noqa: F401
    PHONE,
    board_url_fixture,
    browser_fixture,
    measure,
    phone_fixture,
    pick,
    score_of,
    shot,
)
from browsing import act as act_in
from browsing import sign_in as enter_pin


def sign_in(page) -> None:
    """Sign in, and the page says so in English."""
    from playwright.sync_api import expect

    enter_pin(page)
    expect(page.locator("#message")).to_have_text("Signed in: you can peg from this phone.")
    expect(page.locator("#pin-button")).to_have_text("Sign out")


def new_game(page, *players: str, dealer: int = 0, muggins: bool = False, **selects) -> None:
    from playwright.sync_api import expect

    names = page.locator("input[name=player]")
    for seat in range(4):
        names.nth(seat).fill(players[seat] if seat < len(players) else "")
    page.locator("input[name=muggins]").set_checked(muggins)
    for name, value in selects.items():
        page.select_option(f"#new-game select[name={name}]", value)
    page.select_option("select[name=dealer]", str(dealer))
    page.click("#new-game button[type=submit]")
    expect(page.locator("#message")).to_have_text(f"New game: {players[dealer]} deals first.")
    expect(page.locator("#status")).to_have_text(
        f"Deal 1, {players[dealer]} deals. Turn the starter."
    )


def test_a_hand_is_verified_mugged_and_seen_live_on_another_phone(phone):
    from playwright.sync_api import expect

    ann = phone()
    sign_in(ann)
    new_game(ann, "Ann", "Bob", dealer=0, muggins=True)
    watcher = phone()  # signed out: watching needs nothing
    watcher.evaluate("window.sameLoad = true")  # gone if the page reloads
    expect(watcher.locator("#sides li .name")).to_have_text(["Ann", "Bob"])
    expect(watcher.locator("#sim")).to_be_hidden()  # the dials peg: they need the PIN
    expect(ann.locator("#sim")).to_be_visible()

    # The starter, entered once: both phones remember it; the play laid card by card.
    pick(ann, "5♦")
    ann.click("#actions button:has-text('Turn 5♦')")
    expect(ann.locator("#status")).to_contain_text("The play")
    expect(watcher.locator("#picked-starter")).to_have_text("5♦")
    pick(ann, "10♥")
    ann.click("#actions button:has-text('Lay 10♥')")
    expect(ann.locator("#actions .pile")).to_have_text("Count 10: 10♥")
    pick(ann, "5♣")
    ann.click("#actions button:has-text('Lay 5♣')")
    expect(ann.locator("#actions .pile")).to_have_text("Count 15: 10♥ 5♣")
    expect(score_of(ann, 0)).to_have_text("2")  # fifteen two, scored by the game
    expect(ann.locator("#picker button[data-card='10♥']")).to_have_class(re.compile(r"\bused\b"))
    ann.click("#actions button:has-text('End of the play')")

    # Bob's hand: 10♥ (laid, picked already) 5♥ J♠ 4♦ with the 5♦ is ten; he says eight.
    expect(ann.locator("#due-text")).to_have_text("Now: Bob's hand.")
    expect(ann.locator("#picked-hand")).to_have_text("10♥")
    pick(ann, "5♥", "J♠", "4♦")
    ann.fill("#claim-points", "8")
    result = ann.locator("#result")
    expect(result.locator(".verdict")).to_have_text("True score 10 · claimed 8: under by 2")
    expect(result.locator(".call")).to_have_text(
        "“fifteen two, fifteen four, fifteen six, fifteen eight, and a pair is ten”"
    )
    expect(result.locator(".breakdown button")).to_have_count(5)
    pair = result.locator(".breakdown button", has_text="Pair")
    pair.click()  # a tap lights the line's cards in the hand
    expect(result.locator(".cards.big .c.lit")).to_have_text(["5♥", "5♦"])
    expect(result.locator(".cards.big .c.dim")).to_have_count(3)
    ann.locator("#claim-points").evaluate("node => node.scrollIntoView()")
    shot(ann, "verify-under-by-2")

    # Bob pegs eight; the game checks the cards and Ann calls Muggins for the two.
    ann.click("#peg-claim")
    expect(ann.locator("#message")).to_have_text("8: under by 2.")
    expect(ann.locator("#muggins-text")).to_have_text("Bob's hand: claimed 8, under by 2.")
    expect(watcher.locator("#muggins-text")).to_have_text("Bob's hand: claimed 8, under by 2.")
    expect(watcher.locator("#muggins-buttons")).to_have_text("Enter the PIN to call Muggins.")
    shot(ann, "muggins-open")
    ann.click("#muggins-buttons button:has-text('Muggins! Ann pegs 2')")
    expect(score_of(ann, 0)).to_have_text("4")
    entry = ann.locator("#history li").first
    expect(entry).to_contain_text("muggins on Bob's hand")
    expect(entry.locator(".c")).to_have_text(["10♥", "5♥", "J♠", "4♦"])

    # The other phone followed every step live, without a reload.
    expect(score_of(watcher, 0)).to_have_text("4")
    expect(score_of(watcher, 1)).to_have_text("8")
    expect(watcher.locator("#history li").first).to_contain_text("muggins on Bob's hand")
    assert watcher.evaluate("window.sameLoad") is True
    expect(watcher.locator("#muggins")).to_be_hidden()
    shot(watcher, "watcher-after-muggins")


def test_the_on_screen_dials_peg_and_light_the_virtual_board(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    new_game(page, "Ann", "Bob", dealer=1)
    dials = page.locator("#dials .dial")
    expect(dials).to_have_count(2)
    dials.nth(1).locator("button", has_text="Peg").click()  # the starter: no heels
    expect(page.locator("#status")).to_contain_text("The play")
    ann = dials.nth(0)
    for _ in range(3):
        ann.locator("button", has_text="+").click()
    expect(ann.locator(".value")).to_have_text("+3")
    expect(page.locator("#sides li").nth(0).locator(".pending")).to_have_text("dial +3")
    ann.locator("button", has_text="Peg").click()
    expect(score_of(page, 0)).to_have_text("3")
    page.keyboard.press("s")  # Bob's dial by key: one step
    expect(dials.nth(1).locator(".value")).to_have_text("+1")
    page.keyboard.press("d")
    expect(score_of(page, 1)).to_have_text("1")
    # The board drawing shows the pegs the LEDs show: front and back of each side.
    lit = page.locator("#board svg .hole[data-lit]")
    expect(lit.first).to_be_visible()
    expect(page.locator("#board svg #t0h3")).to_have_attribute("data-lit", "peg")
    expect(page.locator("#board svg #t1h1")).to_have_attribute("data-lit", "peg")
    expect(page.locator("#board svg #t0h5")).to_have_attribute("data-lit", "mark")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "board", clip=page.locator("#table").bounding_box())
    page.click("#board")  # zoom in on the board
    expect(page.locator("#board")).to_have_class(re.compile(r"\bzoom\b"))
    # Pegged by hand from the phone in the play, then undone and redone.
    page.click("#actions .group:has-text('Bob') button:has-text('+2')")
    expect(score_of(page, 1)).to_have_text("3")
    page.click("#undo")
    expect(score_of(page, 1)).to_have_text("1")
    page.click("#redo")
    expect(score_of(page, 1)).to_have_text("3")
    expect(page.locator("#history li")).to_have_count(3)
    shot(page, "dials", full_page=True)


def test_teams_colours_and_a_match_from_the_settings(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    page.locator("input[name=colour]").nth(0).fill("#ff0000")
    new_game(
        page,
        *("Ann", "Bob", "Cat", "Dan"),
        dealer=3,
        variant="standard",
        match_games="3",
        skunk="triple",
        over_count="penalise",
        match_scoring="acc",
    )
    expect(page.locator("#sides li .name")).to_have_text(["Ann & Cat", "Bob & Dan"])
    colour = page.locator("#sides li").first.evaluate("li => li.style.getPropertyValue('--side')")
    assert colour.lower() == "#ff0000"
    expect(page.locator("#match-caption")).to_have_text("Best of 3: 4 points win the match.")
    expect(page.locator("#match tr").first).to_have_text("GameAnn & CatBob & Dan")
    assert page.locator(".player").nth(3).evaluate("row => row.className") == "player shared"
    expect(page.locator("#dials .dial")).to_have_count(4)  # a dial per seat
    settings = page.evaluate("fetch('/api/state').then((r) => r.json())")["game"]["settings"]
    assert settings["match_games"] == 3 and settings["skunk"] == "triple"
    assert (settings["over_count"], settings["match_scoring"]) == ("penalise", "acc")
    # the brightness slider drives the LEDs
    page.locator("#brightness").fill("60")
    page.wait_for_function(
        "fetch('/api/state').then((r) => r.json()).then((s) => s.brightness === 0.6)"
    )


def test_a_wrong_pin_and_advice_during_a_count(phone):
    from playwright.sync_api import expect

    page = phone()
    page.click("#pin-button")
    page.fill("#pin", "0000")
    page.click("#pin-ok")
    expect(page.locator("#message")).to_have_text("wrong PIN")
    expect(page.locator("#pin-button")).to_have_text("Enter PIN")
    expect(page.locator("#enter .needs-pin")).to_be_visible()
    # Advice for the six cards dealt, while discarding.
    sign_in(page)
    new_game(page, "Ann", "Bob", dealer=0)
    page.click("#count .segments span:text-is('Hand')")
    pick(page, "5♥", "5♣", "J♦", "Q♠", "2♣", "9♥")
    page.click("#advise")
    expect(page.locator("#advice li")).to_have_count(15)
    expect(page.locator("#advice li").first).to_contain_text("throw 2♣ 9♥")
    # During the show: none.
    page.click("#clear-cards")
    page.click("#actions button:has-text('Turned, not entered')")
    page.click("#actions button:has-text('End of the play')")
    expect(page.locator("#due-text")).to_have_text("Now: Bob's hand.")
    pick(page, "5♥", "5♣", "J♦", "Q♠", "2♣")
    page.click("#advise")
    expect(page.locator("#message")).to_have_text("no advice during a count")
    expect(page.locator("#advice li")).to_have_count(0)


def test_every_control_is_thumb_sized_at_360px(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    new_game(page, "Ann", "Bob", dealer=0, muggins=True)
    pick(page, "5♦")
    page.click("#actions button:has-text('Turn 5♦')")
    page.click("#actions button:has-text('End of the play')")
    expect(page.locator("#due-text")).to_have_text("Now: Bob's hand.")
    pick(page, "5♥", "J♠", "4♦", "10♥")
    page.fill("#claim-points", "8")
    expect(page.locator("#result")).to_be_visible()
    page.click("#peg-claim")
    expect(page.locator("#muggins")).to_be_visible()
    found = measure(page)
    assert found["targets"] == []  # every control at least 44 px each way
    assert found["scroll"] <= PHONE["width"]
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "panel")


def test_the_language_switch_reloads_the_page_and_this_phone_keeps_it(phone):
    from playwright.sync_api import expect

    page = phone("fi-FI")  # the phone asks for Finnish
    assert page.evaluate("document.documentElement.lang") == "fi"
    expect(page.locator("#count-title")).to_have_text("Tarkista laskenta")
    expect(page.locator("#language-choice option:checked")).to_have_text("Suomi")
    with page.expect_navigation():
        page.select_option("#language-choice", "de")  # chosen on the page
    page.wait_for_selector("#live.on")
    assert page.evaluate("document.documentElement.lang") == "de"
    expect(page.locator("#count-title")).to_have_text("Zählung prüfen")
    expect(page.locator("#live")).to_have_text("verbunden")
    expect(page.locator("#picker button[data-card='J♥']")).to_have_attribute(
        "aria-label", "Herz-Bube"
    )
    again = page.context.new_page()  # the same phone, later: still German
    again.goto(page.url)
    assert again.evaluate("document.documentElement.lang") == "de"
    other = phone("fi-FI")  # another phone keeps its own
    assert other.evaluate("document.documentElement.lang") == "fi"


def chip(page, name: str, points: int):
    """The +points button of ``name`` in a play pegged by hand."""
    group = page.locator("#actions .group", has=page.locator(".who", has_text=name))
    return group.locator("button", has_text=f"+{points}")


def history_count(page) -> int:
    return page.evaluate("fetch('/api/state').then((r) => r.json())")["game"]["history"]["count"]


def playing_by_hand(phone):
    """A signed-in phone, a new game, the play to be pegged by hand."""
    page = phone()
    sign_in(page)
    new_game(page, "Ann", "Bob", dealer=0)
    act_in(page, "starter", card=None)
    return page


def test_a_double_tap_pegs_once(phone):
    from playwright.sync_api import expect

    page = playing_by_hand(phone)
    sent = []

    def through(route):
        sent.append(route.request.post_data_json)
        route.fulfill(response=route.fetch())

    page.route("**/api/act/claim", through)
    chip(page, "Bob", 2).dblclick()
    expect(score_of(page, 1)).to_have_text("2")
    act_in(page, "claim", seat=1, points=3, kind="play")  # after it: one entry of 2, one of 3
    expect(score_of(page, 1)).to_have_text("5")
    assert history_count(page) == 2
    taps = [body for body in sent if body["points"] == 2]
    assert all(body["version"] == taps[0]["version"] for body in taps)


def test_a_lost_answer_is_sent_again_and_pegs_once(phone):
    from playwright.sync_api import expect

    page = playing_by_hand(phone)
    keys = []

    def lose_the_first_answer(route):
        keys.append(route.request.headers.get("idempotency-key"))
        answer = route.fetch()  # the board makes the entry...
        if len(keys) == 1:
            route.abort("connectionreset")  # ...and its answer is lost on the way
        else:
            route.fulfill(response=answer)

    page.route("**/api/act/claim", lose_the_first_answer)
    answer = act_in(page, "claim", seat=1, points=2, kind="play")  # as the +2 button sends it
    assert answer["replayed"] is True
    assert len(keys) == 2 and keys[0] == keys[1] and keys[0]
    expect(score_of(page, 1)).to_have_text("2")
    assert history_count(page) == 1
