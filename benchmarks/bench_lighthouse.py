"""Lighthouse on the phone panel: performance, accessibility and best practices of the
page a phone opens in the middle of a deal, under Lighthouse's mobile emulation (a
mid-range phone, a slow 4G link, simulated), in Debian's chromium, against
``pegboard serve --sim``; and whether chromium would install it as an app.

Lighthouse (npm ``lighthouse``, the version pinned in benchmarks/lighthouse/package.json)
is installed into benchmarks/lighthouse/ by this benchmark on first use (``npm ci``), as
the tests install their MicroPython harness. Lighthouse 12 has no PWA category any more:
installability is chromium's own check (``Page.getInstallabilityErrors``), made from a
profile of its own (a private window installs nothing), on this computer (a secure
origin; over plain HTTP from the LAN a phone adds the board as a shortcut instead).

Goals: performance >= 95, accessibility 100, best practices >= 95, installable.
Run: ``python -m benchmarks lighthouse`` (``--runs N``, 3 by default: the median is kept).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

if not __package__:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_panel import Phone, run_board

FOLDER = Path(__file__).resolve().parent / "lighthouse"
CLI = FOLDER / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROMIUM = os.environ.get("PEGBOARD_CHROMIUM", "/usr/bin/chromium")
FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-background-networking"
CATEGORIES = ("performance", "accessibility", "best-practices")
PHONE = {"width": 360, "height": 740}
GOALS = {"performance": 95, "accessibility": 100, "best-practices": 95}
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time")
METRICS += ("cumulative-layout-shift", "speed-index")


def install() -> None:
    """Lighthouse into benchmarks/lighthouse/node_modules, from its lock file."""
    if not CLI.exists():
        command = ["npm", "ci", "--prefix", str(FOLDER), "--no-audit", "--no-fund", "--silent"]
        subprocess.run(command, check=True)


def mid_deal(port: int) -> None:
    """A game at the table: the starter turned, a card laid; the next to lay is due."""
    phone = Phone(port)
    phone.sign_in()
    for action, args in (
        ("new_game", {"players": ["Ann", "Bob"], "dealer": 0}),
        ("starter", {"card": "5D"}),
        ("lay", {"seat": 1, "card": "10H"}),
    ):
        status, _ = phone.call("POST", f"/api/act/{action}", args)
        assert status == 200, (action, status)


def audit(url: str, folder: Path) -> dict:
    """One Lighthouse run: its JSON report."""
    report = folder / "report.json"
    command = ["node", str(CLI), url, "--output=json", f"--output-path={report}", "--quiet"]
    command += [f"--chrome-flags={FLAGS}", f"--only-categories={','.join(CATEGORIES)}"]
    subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": CHROMIUM})
    return json.loads(report.read_text())


def installable(url: str) -> list[str]:
    """Chromium's reasons not to install the page as an app (none: installable)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=FLAGS.split(), viewport=PHONE
        )
        try:
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector("#live.on")
            errors = context.new_cdp_session(page).send("Page.getInstallabilityErrors")
        finally:
            context.close()
    return [error["errorId"] for error in errors["installabilityErrors"]]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_lighthouse")
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs (3)")
    runs = parser.parse_known_args(sys.argv[1:] if argv is None else argv)[0].runs
    install()
    print(f"machine load (1 min) at the start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    reports, refusals = [], []

    def scenario(port: int) -> None:
        mid_deal(port)
        url = f"http://localhost:{port}/"
        with tempfile.TemporaryDirectory() as folder:
            reports.extend(audit(url, Path(folder)) for _ in range(runs))
        refusals.extend(installable(url))

    with tempfile.TemporaryDirectory() as folder:
        run_board(Path(folder), scenario)
    version = reports[0]["lighthouseVersion"]
    print(f"Lighthouse {version}, mobile emulation, {runs} runs, medians:")
    print("| category | score | goal |")
    print("| --- | ---: | ---: |")
    for category in CATEGORIES:
        score = statistics.median(r["categories"][category]["score"] * 100 for r in reports)
        print(f"| {category} | {score:.0f} | >= {GOALS[category]} |")
    print("| metric | median |")
    print("| --- | ---: |")
    for metric in METRICS:
        value = statistics.median(r["audits"][metric]["numericValue"] for r in reports)
        shown = f"{value:.3f}" if metric == "cumulative-layout-shift" else f"{value:.0f} ms"
        print(f"| {metric} | {shown} |")
    for category in CATEGORIES:  # what cost points, in any run
        lost = {
            ref["id"]
            for r in reports
            for ref in r["categories"][category]["auditRefs"]
            if ref["weight"] and r["audits"][ref["id"]]["score"] not in (None, 1)
        }
        if lost:
            print(f"{category}: points lost on {', '.join(sorted(lost))}")
    print("installable as an app:", "yes" if not refusals else f"no ({', '.join(refusals)})")


if __name__ == "__main__":
    main()
