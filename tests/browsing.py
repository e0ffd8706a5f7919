"""A phone's browser for the tests: Debian's chromium, driven by Playwright, at a phone's
size, against ``pegboard serve --sim`` in its own process. A test module imports the
fixtures (``browser_fixture``, ``board_url_fixture``, ``phone_fixture``) and asks for
``browser``, ``board_url`` or ``phone``.

Without chromium or Playwright these tests skip, except in CI (CI=true), where that is a
failure. Another chromium: PEGBOARD_CHROMIUM=/path/to/chromium. Screenshots go to
artifacts/screenshots/ (CI shows that folder).
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from needs import missing

from benchmarks.bench_fit import held_still

CHROMIUM = Path(os.environ.get("PEGBOARD_CHROMIUM", "/usr/bin/chromium"))  # Debian's
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 360, "height": 740}
THUMB = 44  # px: the smallest target a thumb hits reliably
SMALLEST_TEXT = 16  # px: text read on a phone at arm's length
PIN = "8642"
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "screenshots"


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed: pip install -e '.[test]'"
    if not CHROMIUM.exists():
        return f"no {CHROMIUM}: apt-get install -y chromium"
    return None


@pytest.fixture(scope="module", name="browser")
def browser_fixture():
    lacking = _missing()
    if lacking:
        missing(lacking)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=10_000)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@contextlib.contextmanager
def serving(folder: Path, layout: str | None = None, more: str = ""):
    """``pegboard serve --sim`` on ``folder`` (its config and game file), with ``layout``
    (None: the default) and ``more`` of the config's tables: its address, while it runs."""
    config = folder / "config.toml"
    board = f'[board]\npin = "{PIN}"\n' + (f'layout = "{layout}"\n' if layout else "")
    config.write_text(board + "[pins.settings]\nbounce_time = 0.002\n" + more)
    command = [sys.executable, "-m", "pegboard.cli", "serve", "--sim", "--port", "0"]
    command += ["--data", str(folder / "data"), "--config", str(config)]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        found = re.search(r"panel at (http://\S+/)", process.stdout.readline())
        assert found, "the board did not start"
        yield found.group(1)
    finally:
        process.terminate()
        process.wait(timeout=15)


@pytest.fixture(scope="module", name="board_url")
def board_url_fixture(request, tmp_path_factory):
    """One simulated board for the module; each test starts its own game. A module's
    ``BOARD_LAYOUT`` names another layout than the default; its ``board_config(folder)``
    writes what the board needs in ``folder`` and says more of the config's tables."""
    layout = getattr(request.module, "BOARD_LAYOUT", None)
    folder = tmp_path_factory.mktemp("board")
    more = getattr(request.module, "board_config", lambda folder: "")(folder)
    with serving(folder, layout, more) as url:
        yield url


@pytest.fixture(name="phone")
def phone_fixture(browser, board_url):
    """``phone(locale="en")``: a new phone (its own cookies) asking for ``locale``,
    showing the panel, live; call it again for more phones."""
    contexts, errors = [], []

    def open_phone(locale: str = "en"):
        context = browser.new_context(viewport=PHONE, locale=locale)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(board_url)
        page.wait_for_selector("#live.on")
        page.wait_for_function("document.querySelector('#moment-title').textContent !== ''")
        return page

    yield open_phone
    for context in contexts:
        context.close()
    assert errors == []  # no script error on any page


def shot(page, name: str, **options) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), **options)
    return path


def message(page, key: str) -> str:
    """One of the page's own messages (#messages), in its language."""
    return page.evaluate("(key) => JSON.parse(document.getElementById('messages').text)[key]", key)


def sign_in(page) -> None:
    """Enter the PIN from what is due now, in whatever language the page speaks."""
    from playwright.sync_api import expect

    page.click("#tab-now")
    page.click("#pin-prompt")
    page.fill("#pin", PIN)
    page.click("#pin-ok")
    expect(page.locator("#pin-button")).to_have_text(message(page, "sign_out"))


# The page's own modules, reached as any module reaches them (the page has no globals): at
# the address of the page's own main module (its files' version), the same instances.
TALK = "(await import(new URL('talk.js', document.querySelector('script[type=module]').src)))"


def act(page, action: str, **args) -> dict:
    """An entry made from ``page`` through its own script (as its buttons make them)."""
    result = page.evaluate(f"async ([action, args]) => {TALK}.act(action, args)", [action, args])
    assert result is not None, page.locator("#message").text_content()
    return result


def heard(locator, *said: str, timeout: float = 30) -> str:
    """The accessibility tree of ``locator`` (as a screen reader reads it) once it says each
    of ``said``: read again until it does (the page draws when it likes), never once."""
    deadline = time.monotonic() + timeout
    while True:
        tree = locator.aria_snapshot()
        if all(words in tree for words in said):
            return tree
        assert time.monotonic() < deadline, f"never said {said}: {tree}"
        locator.page.wait_for_timeout(50)


def start_from_the_form(page, *names: str, confirm: bool = True) -> None:
    """A new game from the form; asked whether to leave a game on, yes (or not answered)."""
    page.click("#tab-game")
    rows = page.locator("#new-game .player:not([hidden]) input[name=player]")
    for seat, name in enumerate(names):
        rows.nth(seat).fill(name)
    page.click("#new-game button[type=submit]")
    # Asked (a game is on), or the new game started: whichever comes, waited for.
    page.locator("#confirm-dialog[open], #tab-now[aria-selected=true]").first.wait_for()
    if confirm and page.locator("#confirm-dialog[open]").count():
        page.click("#confirm-ok")


def snapshot(page) -> dict:
    """The board's snapshot ``page`` drew last."""
    return page.evaluate(f"async () => {TALK}.now()")


def made(page, selector: str) -> None:
    """Tap ``selector`` and wait until the page has drawn the entry it makes, as a player
    sees one card laid before laying the next."""
    seen = snapshot(page)["game"]["version"]
    page.click(selector)
    deadline = time.monotonic() + 60  # a busy machine draws slowly
    while snapshot(page)["game"]["version"] <= seen:
        assert time.monotonic() < deadline, f"tapping {selector} made no entry"
        page.wait_for_timeout(20)


# A deal at the table (Ann deals, Bob leads), the starter 5♦, laid in this order:
# Bob 10♥, Ann 5♣ (fifteen two), Bob 5♥ (a pair), Ann 6♣, Bob 4♦ (30, a run of three),
# Ann and Bob go (one for Bob), Ann 7♣, Bob J♠, Ann 8♣ (one for the last card).
# Bob's hand scores 10, Ann's 16 (RULES.md: fifteens, the double run of four, the pair,
# the four-card flush). None: that seat says go.
STARTER = "5♦"
PLAY = [(1, "10♥"), (0, "5♣"), (1, "5♥"), (0, "6♣"), (1, "4♦"), (0, None), (1, None)]
PLAY += [(0, "7♣"), (1, "J♠"), (0, "8♣")]


def play_the_deal(page) -> None:
    """The starter and the play of the deal above, entered from ``page``'s script."""
    act(page, "starter", card=STARTER)
    for seat, card in PLAY:
        if card:
            act(page, "lay", seat=seat, card=card)
        else:
            act(page, "go", seat=seat)


def pick(page, *cards: str) -> None:
    """Tap cards in the pack shown: in the sheet open, or in the view."""
    scope = "dialog[open]" if page.locator("dialog[open]").count() else ".view:not([hidden])"
    for card in cards:
        page.click(f"{scope} .picker button[data-card='{card}']")


def score_of(page, side: int):
    return page.locator("#sides li").nth(side).locator(".score")


# Where an element is: inside the phone's screen with nothing scrolled, and not under the
# board at the top or the tabs at the bottom (the element a thumb at its middle touches).
ON_SCREEN = """(node) => {
  const box = node.getBoundingClientRect();
  const touched = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return { scrolled: window.scrollY, top: box.top, bottom: box.bottom, screen: innerHeight,
           touched: Boolean(touched && (touched === node || node.contains(touched))) };
}"""


def on_screen(page, selector: str) -> None:
    """The element is on the phone's screen as the page opened it: no scrolling."""
    found = held_still(page, lambda: page.locator(selector).evaluate(ON_SCREEN))
    seen = found["scrolled"] == 0 and found["top"] >= 0 and found["bottom"] <= found["screen"]
    assert seen and found["touched"], f"{selector} is not on the screen: {found}"


# Every visible control and text of the page, measured: targets smaller than a thumb, text
# smaller than SMALLEST_TEXT, words broken over two lines, anything wider than its box or
# the screen.
MEASURE = r"""([thumb, smallest, width]) => {
  const shown = (node) =>
    node.getClientRects().length && getComputedStyle(node).visibility !== 'hidden';
  const name = (node) => node.id || node.dataset.card || node.className || node.tagName;
  const targets = [...document.querySelectorAll(
      'main button, main select, main a, main input:not([type=checkbox]):not([type=radio]),'
      + ' main .segments span, main label.check, header button, header select')]
    .filter(shown)
    .map((node) => [name(node), node.getBoundingClientRect()])
    .filter(([, box]) => box.width < thumb - 0.5 || box.height < thumb - 0.5)
    .map(([name, box]) => `${name}: ${Math.round(box.width)}x${Math.round(box.height)}`);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const small = new Set(), broken = new Set();
  const range = document.createRange();
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const node = text.parentElement;
    const words = text.textContent.trim();
    if (!node || !words || !shown(node) || node.closest('svg, script, .sr-only')) continue;
    const size = parseFloat(getComputedStyle(node).fontSize);
    if (size < smallest - 0.01) small.add(`${name(node)} "${words.slice(0, 20)}": ${size}px`);
    for (const word of text.textContent.matchAll(/\S+/g)) {  // a word split over two lines
      range.setStart(text, word.index);
      range.setEnd(text, word.index + word[0].length);
      const lines = new Set([...range.getClientRects()].map((box) => Math.round(box.top)));
      if (lines.size > 1) broken.add(`${name(node)}: ${word[0]}`);
    }
  }
  const overflowing = [...document.body.querySelectorAll('*')]
    .filter((node) => shown(node) && !node.closest('svg, .sr-only, dialog:not([open])'))
    .filter((node) => {
      const box = node.getBoundingClientRect();
      const style = getComputedStyle(node);
      const clips = style.overflowX !== 'visible';  // scrolls or clips on purpose
      return box.left < -0.5 || box.right > width + 0.5
        || (!clips && node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0);
    })
    .map((node) => `${name(node)} "${node.textContent.trim().slice(0, 30)}"`);
  return { targets, small: [...small], broken: [...broken], overflowing,
           scroll: document.documentElement.scrollWidth };
}"""


def measure(page) -> dict:
    """What :data:`MEASURE` finds on ``page`` (empty lists when all is well)."""
    return held_still(page, lambda: page.evaluate(MEASURE, [THUMB, SMALLEST_TEXT, PHONE["width"]]))


# The bottom of the lowest element each selector finds, against the tab bar's top.
BOXES = """(selectors) => {
  const tabs = document.querySelector('.tabs').getBoundingClientRect().top;
  return { tabs, scrolled: scrollY, boxes: Object.fromEntries(selectors.map((s) => {
    const found = [...document.querySelectorAll(s)];
    const bottoms = found.map((e) => e.getBoundingClientRect().bottom);
    return [s, found.length ? Math.max(...bottoms) : null];
  })) };
}"""


def above_the_tabs(page, *selectors: str) -> None:
    found = held_still(page, lambda: page.evaluate(BOXES, list(selectors)))
    assert found["scrolled"] == 0
    tabs = found["tabs"]
    low = {s: bottom for s, bottom in found["boxes"].items() if bottom is None or bottom > tabs}
    assert low == {}, f"under the tab bar at {found['tabs']:.0f} px: {low}"
