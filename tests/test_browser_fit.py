"""Nothing moves under the thumb, and every control of what is due is on the screen, at
360 x 740 in all six languages with the longest strings (two-line names, Go due, a
Muggins row and a lesson beside the pad, the call opened, the next deal after a lesson):
after each entry, once the page holds still, no control of what is due is hidden (under
the tab bar or the board, or clipped), and no control that was on the screen before the
entry moved (benchmarks/bench_fit.py measures it, ``python -m benchmarks fit`` prints it).
The Game tab's language choice and "Start a new game" are on its first screen, and no
tab's word breaks."""

from __future__ import annotations

import pytest
from browsing import (  # noqa: F401
    board_url_fixture,
    browser_fixture,
    measure,
    on_screen,
    phone_fixture,
    sign_in,
)

from benchmarks.bench_fit import walk
from pegboard.i18n import LANGUAGES


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_control_of_what_is_due_is_hidden_or_moved_by_an_entry(phone, lang):
    page = phone(lang)
    sign_in(page)
    steps = walk(page, lang=lang)
    wrong = [step for step in steps if step["hidden"] or step["shifted"]]
    assert wrong == [], wrong


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_game_tab_starts_a_game_and_changes_language_on_its_first_screen(phone, lang):
    from playwright.sync_api import expect

    page = phone(lang)
    sign_in(page)
    for tab in ("tab-now", "tab-history", "tab-match", "tab-advice", "tab-game"):
        page.click(f"#{tab}")
        expect(page.locator(f"#{tab}")).to_have_attribute("aria-selected", "true")
        broken = [word for word in measure(page)["broken"] if word.startswith("tab-")]
        assert broken == [], (tab, broken)  # the tab open as wide as the others: "Historia"
    on_screen(page, "#language-choice")
    on_screen(page, "#new-game button[type=submit]")  # not half under the tabs
