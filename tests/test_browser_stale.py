"""The page never draws an older board over a newer one. A live stream's first message is
the last board the broadcaster sent, which may be older than the one the phone already
drew (the page came with the board as it stands; an answer to a tap brings the board
after the tap): after "Start a new game" the names then went back to the game before,
for a moment a player can see. Snapshots carry the board's run and its change counter:
an older one of the same run is dropped. Debian's chromium at 360 x 740 (see
tests/browsing.py)."""

from __future__ import annotations

import json

from browsing import (  # noqa: F401
    act,
    board_url_fixture,
    browser_fixture,
    phone_fixture,
    sign_in,
    snapshot,
)

# Every set of names the score cards show, as they are drawn.
NAMES_SEEN = """() => {
  window.namesSeen = [];
  const watch = () => {
    const sides = document.getElementById('sides');
    if (!sides) return requestAnimationFrame(watch);
    const names = () => [...sides.querySelectorAll('.name')].map((n) => n.textContent);
    new MutationObserver(() => window.namesSeen.push(names()))
      .observe(sides, { childList: true, subtree: true, characterData: true });
  };
  watch();
}"""
LIT = "#board svg [data-lit]"


def test_a_streams_older_first_board_is_not_drawn_over_a_newer_one(phone, browser, board_url):
    from playwright.sync_api import expect

    first = phone()
    sign_in(first)
    act(first, "new_game", players=["Ann", "Dan"], dealer=0)
    older = snapshot(first)  # the board of the game before, as the page had it
    act(first, "new_game", players=["Cat", "Dan"], dealer=0)  # "Start a new game"

    # Another phone opens the page; its stream's first message is that older board (as
    # the broadcaster sends it when it has not caught up yet), then the lit holes.
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.add_init_script(f"({NAMES_SEEN})()")
        streams = []

        def stream(route):
            streams.append(route.request.url)
            if len(streams) > 1:  # the stream taken up again: the board's own
                route.continue_()
                return
            frame = {"holes": {"t0h3": "#ff0000"}}
            body = f"retry: 60000\n\nevent: state\nid: x.1\ndata: {json.dumps(older)}\n\n"
            body += f"event: frame\ndata: {json.dumps(frame)}\n\n"
            route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=body)

        page.route("**/api/events", stream)
        page.goto(board_url)
        # The frame after the older board is drawn: the older board was heard before it.
        expect(page.locator(LIT)).not_to_have_count(0)
        names = page.locator("#sides .name")
        expect(names).to_have_text(["Cat", "Dan"])
        seen = page.evaluate("window.namesSeen")
        assert ["Ann", "Dan"] not in seen, seen
    finally:
        context.close()
