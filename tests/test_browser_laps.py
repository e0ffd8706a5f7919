"""The phone's board on the English board (60 holes a track, played round twice): the pegs
lit where the LEDs light them, and the lap marks of the laps begun after the first."""

from __future__ import annotations

from browsing import (  # noqa: F401
    act,
    board_url_fixture,
    browser_fixture,
    phone_fixture,
    score_of,
    shot,
    sign_in,
    snapshot,
)

BOARD_LAYOUT = "two-track-61"


def deal(page, points: dict[int, int]) -> None:
    """A deal with no play points: the starter, each hand as ``points`` by seat, no crib."""
    act(page, "starter", card=None)
    act(page, "advance")
    while (due := snapshot(page)["game"]["due"]) is not None:
        said = 0 if due["kind"] == "crib" else points[due["seat"]]
        act(page, "claim", seat=due["seat"], points=said, kind=due["kind"])
    act(page, "advance")


def test_the_board_drawing_shows_the_second_lap(phone):
    from playwright.sync_api import expect

    page = phone()
    sign_in(page)
    act(page, "new_game", players=["Ann", "Bob"], dealer=0)
    board = page.locator("#board svg")
    expect(board).to_have_attribute("data-laps", "3")
    deal(page, {0: 4, 1: 24})
    deal(page, {0: 4, 1: 24})
    expect(score_of(page, 1)).to_have_text("48")
    expect(board.locator("#t1h48")).to_have_attribute("data-lit", "peg")
    expect(board.locator("#t1l2")).not_to_have_attribute("data-lit", "lap")
    deal(page, {0: 4, 1: 24})
    expect(score_of(page, 1)).to_have_text("72")
    # 72 is hole 12 on Bob's second time round, 48 his back peg; his lap-2 mark lights.
    expect(board.locator("#t1h12")).to_have_attribute("data-lit", "peg")
    expect(board.locator("#t1h48")).to_have_attribute("data-lit", "back")
    expect(board.locator("#t1l2")).to_have_attribute("data-lit", "lap")
    expect(board.locator("#t1l3")).not_to_have_attribute("data-lit", "lap")
    expect(board.locator("#t0l2")).not_to_have_attribute("data-lit", "lap")
    expect(board.locator("#t1h61")).not_to_have_attribute("data-lit", "peg")  # not the game hole
    # Each peg says its score and its lap, near the pegs and on the whole board: the hole
    # numbered 12 is Bob's 72.
    tags = board.locator(".tag text")
    expect(tags).to_have_text(["12 · lap 1", "72 · lap 2"])
    for whole in (False, True):
        if whole:
            page.click("#board")
        frame = page.locator("#board").bounding_box()
        for tag in (tags.nth(0), tags.nth(1)):
            box = tag.bounding_box()
            for start, size in (("x", "width"), ("y", "height")):
                assert frame[start] <= box[start]
                assert box[start] + box[size] <= frame[start] + frame[size]
    page.click("#board")  # near the pegs again
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "english-board-lap-2", clip=page.locator("#top").bounding_box())
