"""Everyone can read the panel: axe-core finds no serious or critical problem in its main
states, in English and in Finnish; text and targets are big enough for a phone at arm's
length; and in every language nothing overflows a 360 px screen, however long its words.

axe-core runs from the axe.min.js inside the axe-playwright-python wheel (installed with
the test extra): nothing is downloaded when the tests run.
"""

from __future__ import annotations

import pytest
from browsing import (  # noqa: F401
    PHONE,
    act,
    board_url_fixture,
    browser_fixture,
    measure,
    phone_fixture,
    pick,
    play_the_deal,
    shot,
    sign_in,
)

from pegboard.i18n import LANGUAGES

SERIOUS = ("serious", "critical")
CHECKED = ("en", "fi")  # English and the language of the longest words


def axe_problems(page) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it stands."""
    from axe_playwright_python.sync_playwright import Axe

    # A message fading out (0.8 s) is on its way off the page: judge the page it leaves.
    page.wait_for_function(
        "() => ![...document.querySelectorAll('.fading')].some((e) => e.textContent)"
    )
    results = Axe().run(page, options={"resultTypes": ["violations"]}).response
    return [
        f"{violation['id']} ({violation['impact']}): "
        + ", ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
        for violation in results["violations"]
        if violation["impact"] in SERIOUS
    ]


def to_the_show(page, muggins: bool = True) -> None:
    """A new game on the board, its first deal played (see browsing.PLAY): Bob's hand is
    due, all its cards seen in the play."""
    from playwright.sync_api import expect

    act(page, "new_game", players=["Ann", "Bob"], dealer=0, muggins=muggins)
    play_the_deal(page)
    expect(page.locator("#moment .keys button")).to_have_count(30)


def muggins_open(page) -> None:
    """Bob pegs eight of his ten: Ann may call Muggins, saying how many he missed (the
    call opened from its row beside Ann's pad)."""
    from playwright.sync_api import expect

    act(page, "claim", seat=1, points=8, kind="hand")  # (a phone of no side: it may call)
    page.click("#moment .call-row button")
    expect(page.locator("#moment .keys button")).not_to_have_count(0)


def test_no_serious_problem_in_any_main_state(phone):
    pages = {lang: phone(lang) for lang in CHECKED}
    found = {}
    from playwright.sync_api import expect

    for lang, page in pages.items():  # no game yet, watching
        found[f"{lang}: no game"] = axe_problems(page)
    lead = pages["en"].locator("#moment-lead")
    expect(lead).to_have_text("Whoever has the board's PIN can start one.")
    for page in pages.values():
        sign_in(page)
    expect(lead).to_have_text("Choose who plays and the rules, then deal.")
    for lang, page in pages.items():
        if lang == CHECKED[0]:
            act(page, "new_game", players=["Ann", "Bob"], dealer=1)
        found[f"{lang}: the starter"] = axe_problems(page)
        if lang == CHECKED[0]:
            act(page, "starter", card="7C")
            act(page, "lay", seat=0, card="8S")
        page.wait_for_selector("#sim .dial")
        found[f"{lang}: the play, dials"] = axe_problems(page)
    for lang, page in pages.items():
        to_the_show(page, muggins=False)
        found[f"{lang}: a count, its cards scored"] = axe_problems(page)
        page.click("#moment details.show summary")
        found[f"{lang}: the breakdown"] = axe_problems(page)
        to_the_show(page)
        muggins_open(page)
        found[f"{lang}: Muggins"] = axe_problems(page)
        shot(page, f"a11y-muggins-{lang}")
        for view in ("history", "match", "advice", "game"):
            page.click(f"#tab-{view}")
            found[f"{lang}: {view}"] = axe_problems(page)
        page.click("#tab-now")
    page = pages[CHECKED[0]]
    act(page, "claim", seat=0, points=16, kind="hand")
    act(page, "claim", seat=0, points=4, kind="crib")
    page.click("#moment .call-row button")  # a call on the crib, beside the next deal
    page.click("#moment .cards-line button")  # the crib's cards, named in a sheet
    found["en: the cards sheet"] = axe_problems(page)
    assert {state: problems for state, problems in found.items() if problems} == {}


def test_text_and_targets_are_big_enough_at_arms_length(phone):
    page = phone("de")
    sign_in(page)
    to_the_show(page)
    muggins_open(page)
    for view in ("now", "game"):  # what is due, and the longest form
        page.click(f"#tab-{view}")
        if view == "game":
            page.click("#new-game details summary")
        found = measure(page)
        assert found["small"] == [], view  # no text under 16 px
        assert found["targets"] == [], view  # no control under 44 px
    body = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert body >= 16


@pytest.mark.parametrize("lang", LANGUAGES)
def test_long_words_break_no_layout_at_360px(phone, lang):
    page = phone(lang)
    assert page.evaluate("document.documentElement.lang") == lang
    sign_in(page)
    to_the_show(page)
    verified = measure(page)
    muggins_open(page)
    after = measure(page)
    page.click("#tab-game")
    page.click("#new-game details summary")
    form = measure(page)
    for found in (verified, after, form):
        assert found["scroll"] <= PHONE["width"]  # no sideways scrolling
        assert found["overflowing"] == []  # no element wider than its box
        assert found["broken"] == []  # no word split for want of room
        assert found["targets"] == []
    if lang in ("de", "fi"):
        shot(page, f"game-{lang}", full_page=True)


def test_the_measure_sees_small_text_a_broken_word_and_an_overflow(phone):
    """The layout checks above can fail: a box too narrow for its word is seen."""
    page = phone("fi")
    page.evaluate(
        """() => {
        const box = document.getElementById('moment');
        box.insertAdjacentHTML('beforeend',
          '<p id="tiny">pieni</p><p id="narrow">kolmekymmentäyksi</p><div id="nowrap">'
          + 'kaksikymmentäkahdeksan</div>');
        document.getElementById('tiny').style.fontSize = '12px';  // the page allows no inline style
        document.getElementById('narrow').style.width = '3rem';
        const nowrap = document.getElementById('nowrap');
        nowrap.style.width = '3rem';
        nowrap.style.whiteSpace = 'nowrap';
      }"""
    )
    found = measure(page)
    assert found["small"] == ['tiny "pieni": 12px']
    assert found["broken"] == ["narrow: kolmekymmentäyksi"]
    assert found["overflowing"] == ['nowrap "kaksikymmentäkahdeksan"']
