"""Taps per deal: a deal of 2, 3 and 4 players entered through the phone panel at
360 x 740, by Debian's chromium (Playwright), against ``pegboard serve --sim``.

Each deal is entered twice, the same cards both times:

- **by cards**: the starter tapped in the pack, each card laid with one tap (a go is a tap),
  the play scored by the board; each count one tap on the totals pad (the hands are known
  from the play, the crib is pegged by its number); one tap for the next deal.
- **by points**: one tap to say the starter is no jack, one chip per score pegged in the
  play (as the board scored it by cards), one tap to end the play, one per count, one for
  the next deal.

Every tap is made on a control that is on the screen as it stands, nothing scrolled (a
tap that is not is counted and reported). The phone's choice of how the play is entered
is made once, before the deal, and kept (not counted).

Run: ``python -m benchmarks taps``.
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

if not __package__:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_panel import PIN, start_board
from pegboard.rules.cards import DECK, Card
from pegboard.rules.play import can_lay
from pegboard.rules.scoring import score_show

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"width": 360, "height": 740}
NAMES = ("Ann", "Bob", "Cat", "Dan")
SEED = 2026
ON_SCREEN = """(node) => {
  const box = node.getBoundingClientRect();
  const touched = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return scrollY === 0 && box.top >= 0 && box.bottom <= innerHeight
    && Boolean(touched && (touched === node || node.contains(touched)));
}"""


class Thumb:
    """Taps on the page, counted; a tap on something off the screen is counted apart."""

    def __init__(self, page) -> None:
        self.page, self.taps, self.off_screen, self.last = page, 0, [], None

    def tap(self, selector: str) -> None:
        self.last = selector
        locator = self.page.locator(selector)
        locator.wait_for()
        if not locator.evaluate(ON_SCREEN):
            self.off_screen.append(selector)
        locator.click()
        self.taps += 1

    def wait_version(self, before: int) -> int:
        """The version after the tap's entry (a refusal stops the benchmark, saying why)."""
        try:
            self.page.wait_for_function("(v) => state.game.version > v", arg=before, timeout=10_000)
        except Exception:
            said = self.page.locator("#message").text_content()
            raise SystemExit(f"tap {self.taps} ({self.last}) made no entry: {said}") from None
        return self.page.evaluate("state.game.version")


def deal_cards(players: int, rng: random.Random) -> tuple[list[list[Card]], list[Card], Card]:
    """Four cards a hand, a crib of four, a starter: drawn from a shuffled pack."""
    pack = list(DECK)
    rng.shuffle(pack)
    hands = [pack[4 * seat : 4 * seat + 4] for seat in range(players)]
    rest = pack[4 * players :]
    return hands, rest[:4], rest[4]


def by_cards(thumb: Thumb, hands, crib, starter) -> list[dict]:
    """The deal entered card by card; the play's scores the board pegged (its history)."""
    page = thumb.page
    version = page.evaluate("state.game.version")
    thumb.tap(f"#moment #picker button[data-card='{starter}']")
    version = thumb.wait_version(version)
    left = [list(hand) for hand in hands]
    while page.evaluate("state.game.phase") == "play":
        seat = page.evaluate("state.game.play.turn")
        pile = [Card.parse(c) for c in page.evaluate("state.game.play.pile")]
        card = next((c for c in left[seat] if can_lay(pile, c)), None)
        if card is None:
            thumb.tap("#moment-lead button")  # go
        else:
            left[seat].remove(card)
            thumb.tap(f"#moment #picker button[data-card='{card}']")
        version = thumb.wait_version(version)
    history = page.evaluate("fetch('/api/history').then((r) => r.json())")["entries"]
    count_the_show(thumb, hands, crib, starter)
    return [entry for entry in history if entry["kind"] == "play"]


def by_points(thumb: Thumb, pegged: list[dict], hands, crib, starter) -> None:
    """The deal entered by its numbers: the play's scores as chips, then the counts."""
    page = thumb.page
    version = page.evaluate("state.game.version")
    thumb.tap("#moment button.due")  # not a jack
    version = thumb.wait_version(version)
    for entry in pegged:
        side = page.evaluate(f"state.game.sides[{entry['side']}].name")
        chips = f"#moment .chips:has(.who:text-is('{side}'))"
        thumb.tap(f"{chips} button:text-is('+{entry['points']}')")
        version = thumb.wait_version(version)
    thumb.tap("#moment button:text-is('End of the play')")
    thumb.wait_version(version)
    count_the_show(thumb, hands, crib, starter)


def count_the_show(thumb: Thumb, hands, crib, starter) -> None:
    """Each count due, its true total tapped on the pad; then the next deal."""
    page = thumb.page
    version = page.evaluate("state.game.version")
    while (due := page.evaluate("state.game.due")) is not None:
        cards = crib if due["kind"] == "crib" else hands[due["seat"]]
        total = score_show(cards, starter, crib=due["kind"] == "crib").total
        thumb.tap(f"#moment .keys button:text-is('{total}')")
        version = thumb.wait_version(version)
    thumb.tap("#moment button.due")  # the next deal
    thumb.wait_version(version)


def one_deal(page, players: int, rng: random.Random) -> dict[str, object]:
    hands, crib, starter = deal_cards(players, rng)
    names = list(NAMES[:players])
    start = "([names]) => act('new_game', {players: names, dealer: 0})"
    page.evaluate(start, [names])
    page.wait_for_function("state.game && state.game.phase === 'discard'")
    page.evaluate("phone.set('playMode', 'cards'); drawNow()")
    cards = Thumb(page)
    pegged = by_cards(cards, hands, crib, starter)
    page.evaluate(start, [names])
    page.wait_for_function("state.game && state.game.version === 1")
    page.evaluate("phone.set('playMode', 'points'); drawNow()")
    points = Thumb(page)
    by_points(points, pegged, hands, crib, starter)
    counts = players + 1
    return {
        "players": players,
        "laid": 4 * players,
        "pegged": len(pegged),
        "counts": counts,
        "cards": cards.taps,
        "points": points.taps,
        "off_screen": cards.off_screen + points.off_screen,
    }


def main() -> None:
    from playwright.sync_api import sync_playwright

    rng = random.Random(SEED)
    rows = []
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as folder:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for players in (2, 3, 4):  # three players need the board with three tracks
            layout = "three-track-121" if players == 3 else None
            process, port = start_board(Path(folder) / str(players), layout)
            try:
                # (the page's CSP forbids eval: Playwright's waits need it)
                context = browser.new_context(viewport=PHONE, bypass_csp=True)
                page = context.new_page()
                page.goto(f"http://localhost:{port}/")
                page.wait_for_selector("#live.on")
                page.click("#pin-prompt")
                page.fill("#pin", PIN)
                page.click("#pin-ok")
                page.wait_for_function("session.signed_in")
                rows.append(one_deal(page, players, rng))
                context.close()
            finally:
                process.terminate()
                process.wait(timeout=30)
        browser.close()
    print(f"a deal entered on a 360 x 740 phone (seed {SEED}), taps:")
    print("| players | by cards | of which | by points | of which |")
    print("| ---: | ---: | --- | ---: | --- |")
    for row in rows:
        goes = row["cards"] - 1 - row["laid"] - row["counts"] - 1
        print(
            f"| {row['players']} | {row['cards']} | 1 starter + {row['laid']} laid + {goes} go"
            f" + {row['counts']} counts + 1 next deal | {row['points']} | 1 starter +"
            f" {row['pegged']} scores + 1 end of play + {row['counts']} counts + 1 next deal |"
        )
    missed = [tap for row in rows for tap in row["off_screen"]]
    print(f"taps on a control off the screen: {len(missed)}", *missed[:5])


if __name__ == "__main__":
    main()
