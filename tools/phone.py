"""Write the phone panel's files into a checkout: the app icons (PNG, drawn from
web/static/icon.svg by Debian's chromium), the screenshots of each moment of a deal in
docs/ (shown in the README), in English and German, and the page's copy of lit-html
(web/static/vendor, from the npm package web/package-lock.json pins: ``npm ci --prefix
web`` first).

    python -m tools.phone icons
    python -m tools.phone shots
    python -m tools.phone vendor

Both drive chromium with Playwright (the test extra); the shots start a simulated board
of their own (``pegboard serve --sim``) and play a deal through the page.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
STATIC = REPO / "web" / "static"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
# name -> (pixels, how much of the square the drawing fills: a maskable icon keeps its
# drawing inside the middle 80 %, the launcher may cut the rest away)
ICONS = {
    "icon-180.png": (180, 1.0),
    "icon-192.png": (192, 1.0),
    "icon-512.png": (512, 1.0),
    "icon-maskable.png": (512, 0.78),
}
PHONE = {"width": 360, "height": 740}
WOOD = "#3b2f22"  # the maskable icon's background, to its edges


def icons() -> list[Path]:
    from playwright.sync_api import sync_playwright

    svg = (STATIC / "icon.svg").read_text(encoding="utf-8")
    written = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for name, (size, share) in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            inner = size * share
            background = WOOD if share < 1 else "transparent"
            page.set_content(
                f'<body style="margin:0;background:{background};display:grid;'
                f'place-items:center;width:{size}px;height:{size}px">'
                f'<div style="width:{inner}px;height:{inner}px">{svg}</div></body>'
            )
            page.add_style_tag(content="svg{width:100%;height:100%;display:block}")
            path = STATIC / name
            page.screenshot(path=str(path), omit_background=share == 1)
            page.close()
            written.append(path)
        browser.close()
    return written


PIN = "2468"
LANGUAGES = ("en", "de")
# A deal at the table (see tests/browsing.py): Ann deals, Bob leads; None: a go.
PLAY = [(1, "10H"), (0, "5C"), (1, "5H"), (0, "6C"), (1, "4D"), (0, None), (1, None)]
PLAY += [(0, "7C"), (1, "JS"), (0, "8C")]


def board(folder: Path) -> tuple[subprocess.Popen, str]:
    """``pegboard serve --sim`` on a free port, in a child process; its address."""
    config = folder / "config.toml"
    config.write_text(f'[board]\npin = "{PIN}"\n[voice]\nout = "silent"\n')
    command = [sys.executable, "-m", "pegboard.cli", "serve", "--sim", "--port", "0"]
    command += ["--host", "127.0.0.1", "--data", str(folder / "data"), "--config", str(config)]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    found = re.search(r"panel at (http://\S+/)", process.stdout.readline())
    if found is None:
        process.kill()
        sys.exit("the board did not start")
    return process, found.group(1)


# An entry made through the page's own module, as its buttons make them.
MAIN = "document.querySelector('script[type=module]').src"  # the page's modules, as it has them
ACT = f"async ([action, args]) => (await import(new URL('talk.js', {MAIN}))).act(action, args)"
COLOURS = 96  # a screenshot's palette: flat colours and text, a third of the bytes


def small(png: bytes, path: Path) -> None:
    """A screenshot written with a palette of its own (Pillow comes with fpdf2)."""
    from io import BytesIO

    from PIL import Image

    image = Image.open(BytesIO(png)).convert("RGB")
    image.quantize(COLOURS, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def shots(folder: Path) -> list[Path]:
    """Each moment of a deal on a 360 x 740 phone, in each of LANGUAGES; the whole board
    on a phone held sideways."""
    from playwright.sync_api import sync_playwright

    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as data, sync_playwright() as playwright:
        process, url = board(Path(data))
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for lang in LANGUAGES:
                context = browser.new_context(viewport=PHONE, locale=lang)
                written += a_deal(context.new_page(), url, folder / lang)
                context.close()
        finally:
            browser.close()
            process.terminate()
            process.wait(timeout=15)
    return written


def a_deal(page, url: str, stem: Path) -> list[Path]:
    """The deal of PLAY entered from ``page``, Muggins on, each moment shot as
    ``stem-N-moment.png``; then a won game, the game's settings, the board sideways."""
    from playwright.sync_api import expect

    written = []

    def act(action: str, **args) -> None:
        page.evaluate(ACT, [action, args])

    def shot(name: str) -> None:
        page.evaluate("window.scrollTo(0, 0)")
        path = stem.with_name(f"{stem.name}-{name}.png")
        small(page.screenshot(), path)
        written.append(path)

    page.goto(url)
    page.wait_for_selector("#live.on")
    page.click("#pin-prompt")
    page.fill("#pin", PIN)
    page.click("#pin-ok")
    expect(page.locator("#pin-prompt")).to_have_count(0)
    act("new_game", players=["Ann", "Bob"], dealer=0, muggins=True)
    shot("1-starter")
    act("starter", card="5D")
    for seat, card in PLAY[:2]:
        act("lay", seat=seat, card=card)
    shot("2-play")
    for seat, card in PLAY[2:]:
        act("lay", seat=seat, card=card) if card else act("go", seat=seat)
    shot("3-count")
    act("claim", seat=1, points=8, kind="hand")  # the next pad at once, the call beside it
    expect(page.locator("#moment .call-row")).to_have_count(1)
    shot("4-muggins")
    act("muggins", seat=0, points=2)
    act("claim", seat=0, points=16, kind="hand")
    act("claim", seat=0, points=4, kind="crib")
    expect(page.locator("#moment button.due")).to_have_count(1)  # the next deal, at once
    shot("5-done")
    act("new_game", players=["Ann", "Bob"], dealer=0, match_games=5, skunk="single")
    act("starter", card=None)
    page.click("#moment input[value=points] + span")
    shot("6-chips")
    for points in (15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5):
        act("claim", seat=1, points=points, kind="play")
    act("claim", seat=0, points=12, kind="play")
    act("claim", seat=1, points=15, kind="play")
    expect(page.locator("#moment button.due")).to_have_count(1)
    shot("7-win")
    page.click("#tab-game")
    shot("8-game")
    page.click("#tab-now")
    page.set_viewport_size({"width": 740, "height": 360})
    shot("9-sideways")
    return written


VENDOR = STATIC / "vendor"
LIT = REPO / "web" / "node_modules" / "lit-html"


def vendored(text: str) -> str:
    """lit-html's built module as the page serves it: without its source map's comment
    (the map is not shipped)."""
    return "".join(
        line for line in text.splitlines(True) if not line.startswith("//# sourceMappingURL=")
    )


# lit-html's built modules the page imports: the library, and its live() directive (a
# value compared with the element's own, as a grid's tab stop moves with the focus).
LIT_MODULES = ("lit-html.js", "directive.js", "directive-helpers.js", "directives/live.js")


def vendor() -> list[Path]:
    """lit-html's built ES modules and its licence, copied from the npm package."""
    if not LIT.is_dir():
        sys.exit("no web/node_modules/lit-html: npm ci --prefix web")
    written = []
    for name in LIT_MODULES:
        path = VENDOR / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(vendored((LIT / name).read_text(encoding="utf-8")), encoding="utf-8")
        written.append(path)
    licence = VENDOR / "lit-html.LICENSE.txt"
    licence.write_text((LIT / "LICENSE").read_text(encoding="utf-8"), encoding="utf-8")
    return [*written, licence]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("icons", "shots", "vendor"))
    args = parser.parse_args(argv)
    make = {"icons": icons, "vendor": vendor, "shots": lambda: shots(REPO / "docs" / "phone")}
    written = make[args.what]()
    for path in written:
        print(f"wrote {path.relative_to(REPO)} ({path.stat().st_size:,} bytes)")


if __name__ == "__main__":
    sys.exit(main())
