"""Taps per deal: a deal of 2, 3 and 4 players entered through the phone panel at
360 x 740, by Debian's chromium (Playwright), against ``pegboard serve --sim``, Muggins on.

Each deal is entered three ways, the same cards each time:

- **by cards**: the starter tapped in the pack, each card laid with one tap (a go is a tap),
  the play scored by the board; each count one tap on the totals pad (the hands are known
  from the play, the crib is pegged by its number); one tap for the next deal.
- **by points**: one tap to say the starter is no jack, one chip per score pegged in the
  play (as the board scored it by cards), one tap to end the play, one per count, one for
  the next deal.
- **by keys** (two players): the same as by cards with the keyboard alone, as the page's
  key hints tell a new player: Tab, a rank or a number typed, a suit's letter, the
  arrows, Enter; every key press counted (an older page, without suit letters: the arrows).

Whatever else the page asks for before the next thing can be done (a "No Muggins: go on"
after a count) is tapped too, and counted apart. Every tap is made on a control that is
on the screen as it stands, nothing scrolled (a tap that is not is counted and reported).
The phone's choice of how the play is entered is made once, before the deal, and kept
(not counted). The page is driven only through what a player sees and the board's
snapshot, so the same file measures an older page too (BENCHMARKS.md says how).

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
# The page's own script: its modules (this page, at its main module's address), or its
# globals (an older page).
MAIN = "document.querySelector('script[type=module]')"
TALK = f"(await ({MAIN} ? import(new URL('talk.js', {MAIN}.src)) : {{ now: () => state, act }}))"
GAME = f"async () => {TALK}.now().game"
ACT = f"async ([action, args]) => {TALK}.act(action, args)"
# What an older page asked for after each count before anything else could be done.
GATE = "#moment button:text-is('No Muggins: go on')"
# Keys: where the focus is against where it must go, in the same grid of buttons (the
# pack, the pad) when that grid is one tab stop that the keys move within.
FOCUS = """(target) => {
  const at = document.activeElement;
  const grid = target.closest('.picker, .pad');
  if (at === target) return { on: true };
  const roving = grid && grid.querySelectorAll('button[tabindex="0"]').length === 1;
  if (!roving || !grid.contains(at) || !at.matches('button')) return { on: false, within: false };
  const a = at.getBoundingClientRect(), b = target.getBoundingClientRect();
  return { on: false, within: true, at: at.dataset.card || at.textContent.trim(),
           dy: b.top - a.top, dx: b.left - a.left };
}"""


SUIT_LETTERS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}


class Thumb:
    """Taps on the page (or, ``by_keys``, key presses), counted; a tap on something off the
    screen is counted apart, and so are the taps a gate asked for."""

    def __init__(self, page, by_keys: bool = False) -> None:
        self.page, self.by_keys = page, by_keys
        self.taps, self.gates, self.off_screen, self.last = 0, 0, [], None

    def game(self) -> dict:
        return self.page.evaluate(GAME)

    def tap(self, selector: str) -> None:
        self.last = selector
        locator = self.page.locator(selector).first
        locator.wait_for()
        if self.by_keys:
            self.reach(locator)
            return
        if not locator.evaluate(ON_SCREEN):
            self.off_screen.append(selector)
        locator.click()
        self.taps += 1

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.taps += 1

    def reach(self, locator) -> None:
        """Keys to the control and Enter, as the page's key hints tell a new player: Tab to
        its grid; within the grid its rank or number typed, then its suit's letter (c, d,
        h, s) when the rank landed in another suit, then the arrows. Where the grid is not
        one tab stop, or its arrows do not move (an older page), Tab all the way."""
        card = locator.get_attribute("data-card")
        name = card[:-1] if card else locator.text_content().strip()  # a rank, a total
        typed = suited = tabbing = False
        for _ in range(400):
            where = locator.evaluate(FOCUS)
            if where["on"]:
                self.press("Enter")
                return
            if tabbing or not where["within"]:
                self.press("Tab")
                continue
            at = where["at"][:-1] if card else where["at"]
            if not typed and at != name:
                typed = True
                for key in "T" if name == "10" else name:
                    self.press(key)
                continue
            if card and not suited and at == name:
                suited = True
                self.press(SUIT_LETTERS[card[-1]])
                continue
            dx, dy = where["dx"], where["dy"]
            key = ("ArrowDown" if dy > 0 else "ArrowUp") if abs(dy) > 4 else None
            self.press(key or ("ArrowRight" if dx > 0 else "ArrowLeft"))
            after = locator.evaluate(FOCUS)
            tabbing = not after["on"] and after.get("at") == where["at"]  # it did not move
        raise SystemExit(f"{self.last}: not reached by 400 key presses")

    def wait_version(self, before: int) -> int:
        """The version after the tap's entry (a refusal stops the benchmark, saying why)."""
        for _ in range(200):
            version = self.game()["version"]
            if version > before:
                return version
            self.page.wait_for_timeout(50)
        said = self.page.locator("#message").text_content()
        raise SystemExit(f"tap {self.taps} ({self.last}) made no entry: {said}")

    def through_gates(self, selector: str) -> None:
        """Whatever the page asks before ``selector`` can be tapped, tapped (and counted)."""
        wanted, gate = self.page.locator(selector).first, self.page.locator(GATE).first
        wanted.or_(gate).first.wait_for()
        while gate.is_visible():  # (an older page's call had a pad of its own)
            before = self.taps
            self.tap(GATE)
            self.gates += self.taps - before
            self.page.wait_for_timeout(50)
            wanted.or_(gate).first.wait_for()


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
    version = thumb.game()["version"]
    thumb.tap(f"#moment .picker button[data-card='{starter}']")
    version = thumb.wait_version(version)
    left = [list(hand) for hand in hands]
    while (game := thumb.game())["phase"] == "play":
        seat = game["play"]["turn"]
        pile = [Card.parse(c) for c in game["play"]["pile"]]
        card = next((c for c in left[seat] if can_lay(pile, c)), None)
        if card is None:
            thumb.tap("#moment button.go")  # go
        else:
            left[seat].remove(card)
            thumb.tap(f"#moment .picker button[data-card='{card}']")
        version = thumb.wait_version(version)
    history = page.evaluate("fetch('/api/history').then((r) => r.json())")["entries"]
    count_the_show(thumb, hands, crib, starter)
    return [entry for entry in history if entry["kind"] == "play"]


def by_points(thumb: Thumb, pegged: list[dict], hands, crib, starter) -> None:
    """The deal entered by its numbers: the play's scores as chips, then the counts."""
    version = thumb.game()["version"]
    thumb.tap("#moment button.due")  # not a jack
    version = thumb.wait_version(version)
    for entry in pegged:
        side = thumb.game()["sides"][entry["side"]]["name"]
        chips = f"#moment .chips:has(.who:text-is('{side}'))"
        thumb.tap(f"{chips} button:text-is('+{entry['points']}')")
        version = thumb.wait_version(version)
    thumb.tap("#moment button:text-is('End of the play')")
    thumb.wait_version(version)
    count_the_show(thumb, hands, crib, starter)


def count_the_show(thumb: Thumb, hands, crib, starter) -> None:
    """Each count due, its true total tapped on the pad; then the next deal."""
    version = thumb.game()["version"]
    while (due := thumb.game()["due"]) is not None:
        cards = crib if due["kind"] == "crib" else hands[due["seat"]]
        total = score_show(cards, starter, crib=due["kind"] == "crib").total
        key = f"#moment .keys button:text-is('{total}')"
        thumb.through_gates(key)
        thumb.tap(key)
        version = thumb.wait_version(version)
    thumb.through_gates("#moment button.due")
    thumb.tap("#moment button.due")  # the next deal
    thumb.wait_version(version)


def fresh_deal(page, names: list[str], mode: str) -> None:
    """A new game (Muggins on), the play entered ``mode``, the page opened afresh."""
    page.evaluate(ACT, ["new_game", {"players": names, "dealer": 0, "muggins": True}])
    page.evaluate("(mode) => localStorage.setItem('pegboard.playMode', JSON.stringify(mode))", mode)
    page.reload()
    page.wait_for_selector("#live.on")
    page.wait_for_function("document.querySelector('#moment .picker, #moment button.due')")


def one_deal(page, players: int, rng: random.Random) -> dict[str, object]:
    hands, crib, starter = deal_cards(players, rng)
    names = list(NAMES[:players])
    fresh_deal(page, names, "cards")
    cards = Thumb(page)
    pegged = by_cards(cards, hands, crib, starter)
    fresh_deal(page, names, "points")
    points = Thumb(page)
    by_points(points, pegged, hands, crib, starter)
    keys = None
    if players == 2:
        fresh_deal(page, names, "cards")
        keys = Thumb(page, by_keys=True)
        by_cards(keys, hands, crib, starter)
    return {
        "players": players,
        "laid": 4 * players,
        "pegged": len(pegged),
        "counts": players + 1,
        "cards": cards,
        "points": points,
        "keys": keys,
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
                signed_in = "fetch('/api/session').then((r) => r.json()).then((s) => s.signed_in)"
                while not page.evaluate(signed_in):
                    page.wait_for_timeout(50)
                rows.append(one_deal(page, players, rng))
                context.close()
            finally:
                process.terminate()
                process.wait(timeout=30)
        browser.close()
    print(f"a deal entered on a 360 x 740 phone (seed {SEED}, Muggins on), taps:")
    print("| players | by cards | of which | by points | of which | by keys (presses) |")
    print("| ---: | ---: | --- | ---: | --- | ---: |")
    for row in rows:
        cards, points, keys = row["cards"], row["points"], row["keys"]
        goes = cards.taps - cards.gates - 1 - row["laid"] - row["counts"] - 1
        print(
            f"| {row['players']} | {cards.taps} | 1 starter + {row['laid']} laid + {goes} go"
            f" + {row['counts']} counts + {cards.gates} past Muggins + 1 next deal"
            f" | {points.taps} | 1 starter + {row['pegged']} scores + 1 end of play"
            f" + {row['counts']} counts + {points.gates} past Muggins + 1 next deal"
            f" | {keys.taps if keys else '–'} |"
        )
    missed = [tap for row in rows for tap in row["cards"].off_screen + row["points"].off_screen]
    print(f"taps on a control off the screen: {len(missed)}", *missed[:5])


if __name__ == "__main__":
    main()
