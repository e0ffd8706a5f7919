"""A new player at the table taps whatever each screen offers, in any order: the right
thing mostly, anything else sometimes (a wrong total, a card sheet opened and closed, a
Muggins call, Undo). However they tap, the game never gets stuck: within a few taps an
entry is made, the page never throws, and the board never answers with a 5xx.

The taps are random but seeded: a failure is the same on every run.
"""

from __future__ import annotations

import random

import pytest
from browsing import (  # noqa: F401
    act,
    board_url_fixture,
    browser_fixture,
    phone_fixture,
    shot,
    sign_in,
    snapshot,
)

STUCK = 60  # taps without an entry that count as stuck (a card sheet takes a dozen at most)
TAPS = 250  # per game

# One tap, chosen in the page among the enabled controls a thumb can see: in an open card
# sheet, its cards and buttons (Done one time in three); else what is due one time in two,
# any other control of the moment, Undo rarely.
TAP = """([due, which, undo]) => {
  const sheet = document.querySelector('#cards-dialog[open]');
  const shown = (b) => !b.disabled && b.offsetParent !== null;
  const offered = sheet ? sheet.querySelectorAll('button')
    : document.querySelectorAll('#moment button, #undo');
  const all = [...offered].filter(shown).filter((b) => b.id !== 'undo' || undo);
  if (!all.length) return null;
  const done = sheet && due < 0.3 ? all.filter((b) => b.id === 'cards-done') : [];
  const dueNow = all.filter((b) => b.classList.contains('due'));
  const pool = done.length ? done : dueNow.length && due < 0.5 ? dueNow : all;
  const button = pool[Math.floor(which * pool.length)];
  button.scrollIntoView({ block: 'center' });
  button.click();
  return button.textContent;
}"""


@pytest.mark.parametrize(
    "seed, settings",
    [
        (1, {"players": ["Ann", "Bob"], "muggins": True}),
        (2, {"players": ["Ann", "Bob"], "variant": "five-card"}),
        (3, {"players": ["Ann", "Bob", "Cat", "Dan"], "variant": "shotgun", "muggins": True}),
        (4, {"players": ["Ann", "Bob", "Cat", "Dan"], "match_games": 3}),
    ],
)
def test_tapping_whatever_is_offered_never_gets_stuck(phone, seed, settings):
    rng = random.Random(seed)
    page = phone()
    failed: list[str] = []
    page.on("response", lambda r: r.status >= 500 and failed.append(f"{r.status} {r.url}"))
    sign_in(page)
    act(page, "new_game", **settings)

    def entries():
        game = snapshot(page)["game"]
        return game and [game["version"], game["phase"]]

    last, since, tapped = entries(), 0, []
    for _ in range(TAPS):
        if page.locator("#tab-now").get_attribute("aria-selected") != "true":  # another tab
            page.click("#tab-now")
        tap = page.evaluate(TAP, [rng.random(), rng.random(), rng.random() < 0.03])
        tapped.append(tap)
        page.wait_for_timeout(30)
        now = entries()
        since = 0 if now != last else since + 1
        last = now
        if since >= STUCK and now[1] != "over":  # the win waits for a tap on what is next
            shot(page, f"stuck-{seed}")
            title = page.locator("#moment-title").text_content()
            pytest.fail(f"stuck at {title!r} {now}: the last taps {tapped[-12:]}")
    assert failed == []
