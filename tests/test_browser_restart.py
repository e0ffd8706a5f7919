"""A game the board cannot show, said on every phone: a three-player game left on a board
restarted with two tracks (a layout changed in the config) is not drawn as if it were
empty; each phone, in its language, says why and what to do."""

from __future__ import annotations

from browsing import PHONE, act, browser_fixture, serving, sign_in  # noqa: F401

from pegboard.i18n import translations


def test_a_game_the_board_cannot_show_is_said_on_every_phone(browser, tmp_path):
    from playwright.sync_api import expect

    with serving(tmp_path, "three-track-121") as url:
        page = browser.new_page(viewport=PHONE)
        page.goto(url)
        page.wait_for_selector("#live.on")
        sign_in(page)
        act(page, "new_game", players=["Ann", "Bob", "Cat"], dealer=0)
        act(page, "starter", card="JH")  # his heels: Ann 2
        page.close()
    with serving(tmp_path, "two-track-121") as url:  # the same game file, two tracks
        for lang in ("en", "de"):
            context = browser.new_context(viewport=PHONE, locale=lang)
            phone = context.new_page()
            phone.goto(url)
            phone.wait_for_selector("#live.on")
            said = phone.locator("#unshown .unshown")
            why = (
                translations(lang)
                .gettext(
                    "this board ({layout}) has {tracks} tracks: {players} players need {sides}"
                )
                .format(layout="two-track-121", tracks=2, players=3, sides=3)
            )
            expect(said).to_contain_text(why)
            expect(said).to_be_visible()
            # No peg is drawn where the board cannot show one; the scores stand.
            expect(phone.locator("#board svg [data-lit=peg]")).to_have_count(0)
            expect(phone.locator("#board .tag")).to_have_count(0)
            expect(phone.locator("#sides li")).to_have_count(3)
            context.close()
