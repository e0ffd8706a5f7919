"""A correction says its rule: a count told as over or under by exactly what one rule new
players get wrong makes (pegboard.rules.corrections) says that rule on the phone that
claimed it, in its language, beside the verdict."""

from __future__ import annotations

import pytest
from browsing import act, board_url_fixture, browser_fixture, phone_fixture, sign_in  # noqa: F401

from pegboard.i18n import translations
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.scoring import score_show

CRIB = ["2H", "6H", "9H", "KH"]  # four hearts: with a spade turned, no flush
STARTER = "5S"


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_crib_flush_claimed_without_the_starter_is_told_its_rule(phone, lang):
    from playwright.sync_api import expect

    page = phone(lang)
    sign_in(page)
    act(page, "new_game", players=["Ann", "Bob"], dealer=0)
    act(page, "starter", card=STARTER)
    act(page, "advance")  # the play pegged by nobody: the counts
    act(page, "claim", seat=1, points=0, kind="hand")
    act(page, "claim", seat=0, points=0, kind="hand")
    actual = score_show(parse_cards(CRIB), Card.parse(STARTER), crib=True).total
    act(page, "claim", seat=0, points=actual + 4, kind="crib", cards=CRIB)  # a flush of four
    words = translations(lang).gettext
    rule = words("A crib scores a flush only when the starter is of its suit too: five cards.")
    expect(page.locator("#moment")).to_contain_text(rule)
