"""The page's first load and a reload, as chromium's network carries them: the first load
fits in 150 KB on the wire, headers and all (the page, its files and the board's drawing
gzipped), and a reload asks the board for a handful of things only (the page, the live
stream, the history: each file of the page is kept by the phone, named with its version).
benchmarks/bench_wire.py measures it (``python -m benchmarks wire``)."""

from __future__ import annotations

from browsing import (  # noqa: F401
    act,
    board_url_fixture,
    browser_fixture,
    phone_fixture,
    play_the_deal,
    sign_in,
)

from benchmarks.bench_wire import GOAL_BYTES, GOAL_RELOAD, first_and_again


def test_the_first_load_is_small_and_a_reload_asks_for_a_handful(phone, browser, board_url):
    player = phone()
    sign_in(player)
    act(player, "new_game", players=["Ann", "Bob"], dealer=0, muggins=True)
    act(player, "starter", card="5D")
    act(player, "lay", seat=1, card="10H")  # a page opened in the play
    first, again = first_and_again(browser, board_url)
    assert len(first.sent()) > 20  # the page's modules: each its own file
    assert first.bytes() <= GOAL_BYTES, first.bytes()
    assert len(again.sent()) <= GOAL_RELOAD, again.sent()
