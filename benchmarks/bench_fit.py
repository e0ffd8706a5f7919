"""The phone holds still under the thumb: a deal at 360 x 740 in each of the six
languages, with the longest strings the page shows (two-line names, Go due, a Muggins row
and a lesson beside the pad, the call opened, the next deal after a lesson), by Debian's
chromium (Playwright) against ``pegboard serve --sim``.

After each entry, once the page has settled (no animation running, the same layout read
twice), every control of what is due is measured: a control a thumb cannot reach (under
the tab bar, under the board, or clipped) or whose label breaks a word ("Pass-e") is
counted as hidden; a control that was on the screen before the entry and is still there
after it is counted as shifted when its box moved. tests/test_browser_fit.py asserts 0 and
0; this prints them by language.

Run: ``python -m benchmarks fit`` (``--shots DIR``: a screenshot of each step there;
``--detail``: each step's hidden and shifted controls).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

if not __package__:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_panel import PIN, start_board
from pegboard.i18n import LANGUAGES

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE: ViewportSize = {"width": 360, "height": 740}
NAMES = ["Alexandra Christina", "Maximilian Friedrich"]  # the longest a seat takes: two lines
BACK = "muggins_back"  # the call put away, in the page's words (an older page's too)
SHIFT = 0.5  # px: a move a thumb would feel (less is rounding)
TALK = "(await import(new URL('talk.js', document.querySelector('script[type=module]').src)))"

# Every control of what is due: where it is, and whether a thumb at its middle reaches it
# (nothing over it: the tab bar, the board at the top, the edge of a box it scrolls in).
CONTROLS = r"""() => {
  const tabs = document.querySelector('.tabs').getBoundingClientRect().top;
  const host = document.getElementById('moment-host');
  const key = (node) => {
    const pad = node.closest('[data-pad]');
    if (node.dataset.card) return `card ${node.dataset.card}`;
    if (pad) return `pad ${pad.dataset.pad} ${node.dataset.key}`;
    return node.id ? `#${node.id}` : `${node.className} "${node.textContent.trim()}"`;
  };
  const range = document.createRange();
  const broken = (node) => {  // a word of its label split over two lines ("Pass-e")
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      for (const word of text.textContent.matchAll(/\S+/g)) {
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) return true;
      }
    }
    return false;
  };
  // A file input hidden in a label that looks as a button (a photo): the label is tapped.
  return [...host.querySelectorAll('button, select, input, summary, .segments span')]
    .map((node) => (node.matches('label.button input') ? node.closest('label') : node))
    .filter((node) => node.getClientRects().length
      && !node.closest('details:not([open]) > :not(summary)'))
    .map((node) => {
      const box = node.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      const reached = Boolean(hit && (hit === node || node.contains(hit)));
      const round = (px) => Math.round(px * 10) / 10;
      return { key: key(node), top: round(box.top), left: round(box.left), broken: broken(node),
               shown: reached && box.top >= 0 && box.bottom <= tabs + 0.5 };
    });
}"""


MOVING = "() => document.getAnimations().length > 0"
T = TypeVar("T")


def held_still(page, read: Callable[[], T]) -> T:
    """What ``read()`` reads of ``page`` once the page holds still: no animation running
    (an answer fading) and the same read twice in a row, a little apart. (The page's
    policy forbids eval, which Playwright's own waits need: this reads in a loop.)"""
    last: T | None = None
    deadline = time.monotonic() + 60
    while True:
        now = None if page.evaluate(MOVING) else read()
        if now is not None and now == last:
            return now
        assert time.monotonic() < deadline, f"the page never held still: {last}"
        last = now
        page.wait_for_timeout(120)


def settled(page) -> list[dict]:
    """Every control of what is due, once the page holds still."""
    return held_still(page, lambda: page.evaluate(CONTROLS))


def act(page, action: str, **args) -> None:
    result = page.evaluate(f"async ([a, b]) => {TALK}.act(a, b)", [action, args])
    assert result is not None, (action, args, page.locator("#message").text_content())


# The deal (tests/browsing.py's): Ann deals, Bob leads, the starter 5♦; Bob's hand held 10
# and is claimed as 8 (a Muggins row beside Ann's pad, then a lesson beside the crib's).
STEPS: list[tuple[str, str, dict]] = [
    (
        "a new game: the starter's pack",
        "new_game",
        {"players": NAMES, "dealer": 0, "muggins": True},
    ),
    ("the play's first card", "starter", {"card": "5D"}),
    ("Bob lays", "lay", {"seat": 1, "card": "10H"}),
    ("fifteen two", "lay", {"seat": 0, "card": "5C"}),
    ("a pair", "lay", {"seat": 1, "card": "5H"}),
    ("26", "lay", {"seat": 0, "card": "6C"}),
    ("30: Go due", "lay", {"seat": 1, "card": "4D"}),
    ("Ann says go", "go", {"seat": 0}),
    ("one for the go", "go", {"seat": 1}),
    ("seven", "lay", {"seat": 0, "card": "7C"}),
    ("seventeen", "lay", {"seat": 1, "card": "JS"}),
    ("the last card: Bob's pad", "lay", {"seat": 0, "card": "8C"}),
    ("Bob claims 8: Muggins row, Ann's pad", "claim", {"seat": 1, "points": 8, "kind": "hand"}),
    (
        "Ann claims 16: the lesson, the crib's pad",
        "claim",
        {"seat": 0, "points": 16, "kind": "hand"},
    ),
    ("the crib claimed: the next deal", "claim", {"seat": 0, "points": 2, "kind": "crib"}),
    ("the next deal's starter", "advance", {}),
]


def walk(page, shots: Path | None = None, lang: str = "en") -> list[dict]:
    """The deal entered on ``page`` (signed in, at 360 x 740): for each step, the controls
    hidden and those shifted by the entry (besides, the Muggins call opened)."""
    steps, before = [], None
    for number, (name, action, args) in enumerate(STEPS):
        act(page, action, **args)
        after = settled(page)
        steps.append(measured(name, before, after))
        if shots:
            page.screenshot(path=str(shots / f"fit-{lang}-{number:02d}.png"))
        before = after
        if action == "claim" and args["kind"] == "hand" and args["seat"] == 1:
            page.click("#moment .call-row button")  # the call opened: its pad, its way back
            steps.append(measured("the Muggins call opened", None, settled(page)))
            if shots:
                page.screenshot(path=str(shots / f"fit-{lang}-{number:02d}-call.png"))
            back = page.evaluate(f"JSON.parse(document.getElementById('messages').text).{BACK}")
            page.locator("#moment button").filter(has_text=back).click()
            before = settled(page)
    return steps


def measured(name: str, before: list[dict] | None, after: list[dict]) -> dict:
    was = {c["key"]: c for c in before or [] if c["shown"]}
    moved = {
        c["key"]: abs(c["top"] - was[c["key"]]["top"]) + abs(c["left"] - was[c["key"]]["left"])
        for c in after
        if c["key"] in was
    }
    shifted = [f"{key} by {by:.0f} px" for key, by in moved.items() if by > SHIFT]
    hidden = [c["key"] for c in after if not c["shown"]]
    hidden += [f"{c['key']} (a word broken)" for c in after if c["broken"]]
    return {"step": name, "hidden": hidden, "shifted": shifted}


def sign_in(page) -> None:
    page.click("#pin-prompt")
    page.fill("#pin", PIN)
    page.click("#pin-ok")
    page.wait_for_selector("#invite-button:not([hidden])", state="attached")  # the page knows


def main(argv: list[str] | None = None) -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(prog="python -m benchmarks fit")
    parser.add_argument("--shots", type=Path, help="a screenshot of each step in this folder")
    parser.add_argument("--detail", action="store_true", help="each step's hidden and shifted")
    options = parser.parse_known_args(sys.argv[1:] if argv is None else argv)[0]
    shots = options.shots
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    rows = {}
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as folder:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        process, port = start_board(Path(folder))
        try:
            for lang in LANGUAGES:
                # (the page's CSP forbids eval: Playwright's waits need it)
                context = browser.new_context(viewport=PHONE, locale=lang, bypass_csp=True)
                page = context.new_page()
                page.goto(f"http://localhost:{port}/")
                page.wait_for_selector("#live.on")
                sign_in(page)
                rows[lang] = walk(page, shots, lang)
                context.close()
        finally:
            process.terminate()
            process.wait(timeout=30)
        browser.close()
    print(f"a deal at 360 x 740, two-line names, Muggins on: {len(STEPS)} entries and the call")
    print("| language | controls hidden | controls shifted by an entry | worst step |")
    print("| --- | ---: | ---: | --- |")
    for lang, steps in rows.items():
        hidden = sum(len(s["hidden"]) for s in steps)
        shifted = sum(len(s["shifted"]) for s in steps)
        worst = max(steps, key=lambda s: len(s["hidden"]) + len(s["shifted"]))
        said = (
            f"{worst['step']}: {(worst['hidden'] + worst['shifted'])[:3]}"
            if hidden + shifted
            else "–"
        )
        print(f"| {lang} | {hidden} | {shifted} | {said} |")
    for lang, steps in rows.items() if options.detail else ():
        for number, step in enumerate(steps):
            if step["hidden"] or step["shifted"]:
                hidden, shifted = step["hidden"], step["shifted"]
                print(f"{lang} {number} {step['step']}: hidden {hidden}, shifted {shifted}")


if __name__ == "__main__":
    main()
