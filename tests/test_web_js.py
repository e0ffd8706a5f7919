"""The page's own code, by its own tools: ESLint over web/static (no globals shared, no
unused or shadowed names) and the view logic unit-tested with node's own test runner
(web/test/*.test.js), against the board's real snapshots of a deal and the page's real
words, written here from a real game through the panel's own view.

scripts/test installs ESLint (and lit-html, which web/static/vendor holds a copy of)
from web/package-lock.json with ``npm ci --prefix web``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from needs import missing

from pegboard.panel import LANGUAGE_COOKIE, create_app
from pegboard.panel.view import snapshot

WEB = Path(__file__).resolve().parents[1] / "web"
ESLINT = WEB / "node_modules" / "eslint" / "bin" / "eslint.js"
PLAY = [("Bob", "10H"), ("Ann", "5C"), ("Bob", "5H"), ("Ann", "6C"), ("Bob", "4D")]
PLAY += [("Ann", None), ("Bob", None), ("Ann", "7C"), ("Bob", "JS"), ("Ann", "8C")]


def node() -> str:
    found = shutil.which("node")
    if found is None or not ESLINT.exists():
        missing("node and web/node_modules (npm ci --prefix web)")
    return found


def words(keeper, lang: str) -> dict:
    """The page's own words and pack in ``lang``, as it serves them."""
    app = create_app({"PIN": "1234", "SECRET_KEY": "x" * 64}, keeper)
    client = app.test_client()
    client.set_cookie(LANGUAGE_COOKIE, lang)
    page = client.get("/").get_data(as_text=True)
    block = lambda name: json.loads(  # noqa: E731
        re.search(rf'<script type="application/json" id="{name}">(.*?)</script>', page, re.S)[1]
    )
    return {"messages": block("messages"), "cards": block("cards")}


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory):
    return write_fixtures(tmp_path_factory.mktemp("fixtures"))


def write_fixtures(folder: Path) -> Path:
    """Snapshots of a deal of Ann (who deals) and Bob, Muggins on, at each moment, and
    the page's words in English and German, into ``folder``."""
    from pegboard.board.layout import load_layout
    from pegboard.game import Table
    from pegboard.keeper import Scorekeeper

    table = Table(folder / "games.db")
    keeper = Scorekeeper(table, load_layout("two-track-121"))

    def keep(name: str) -> None:
        (folder / f"{name}.json").write_text(json.dumps(snapshot(keeper, "en")), encoding="utf-8")

    for lang in ("en", "de"):
        (folder / f"words-{lang}.json").write_text(json.dumps(words(keeper, lang)), "utf-8")
    keeper.new_game({"players": ["Ann", "Bob"], "muggins": True}, dealer=0)
    keep("starter")
    keeper.turn_starter("5D")
    keeper.lay("10H", "Bob")
    keep("play")
    for seat, card in PLAY[1:]:
        keeper.lay(card, seat) if card else keeper.go(seat)
    keep("count")
    keeper.claim("Bob", 8, cards="10H 5H 4D JS")
    keep("claimed")
    keeper.claim("Ann", 16, cards="5C 6C 7C 8C")
    keeper.claim("Ann", 4, kind="crib")
    keep("done")
    keeper.new_game({"players": ["Ann", "Bob"], "match_games": 5, "skunk": "single"}, dealer=0)
    keeper.turn_starter(None)
    for _ in range(8):
        keeper.claim("Bob", 15)
    keeper.claim("Bob", 1)
    keep("over")
    table.close()
    return folder


@pytest.mark.subprocess
def test_the_view_logic_passes_its_unit_tests(fixtures):
    done = subprocess.run(
        [
            node(),
            "--test",
            "--test-reporter=spec",
            *sorted(str(p) for p in (WEB / "test").glob("*.test.js")),
        ],
        cwd=WEB,
        env={"PATH": "/usr/bin:/bin", "PEGBOARD_FIXTURES": str(fixtures)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout or "✖" not in done.stdout


@pytest.mark.subprocess
def test_eslint_finds_nothing_in_the_pages_modules():
    done = subprocess.run(
        [node(), str(ESLINT), "--max-warnings=0", "."],
        cwd=WEB,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.subprocess
def test_eslint_would_see_a_global_shared_between_modules(tmp_path):
    """The check above can fail: a module that leaks a global, or reads one, is refused."""
    bad = WEB / "static" / "zz-leak.js"
    bad.write_text("state = 1;\nexport const seen = () => drawNow();\n", encoding="utf-8")
    try:
        done = subprocess.run(
            [node(), str(ESLINT), "static/zz-leak.js"],
            cwd=WEB,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        bad.unlink()
    assert done.returncode == 1
    assert "'state' is not defined" in done.stdout and "'drawNow' is not defined" in done.stdout


def test_the_pages_lit_html_is_the_pinned_packages_own():
    """web/static/vendor holds lit-html as npm ships it (``python -m tools.phone vendor``),
    the version web/package-lock.json pins: no hand edits, no other copy."""
    from tools.phone import LIT, LIT_MODULES, VENDOR, vendored

    if not LIT.is_dir():
        missing("web/node_modules (npm ci --prefix web)")
    lock = json.loads((WEB / "package-lock.json").read_text(encoding="utf-8"))
    pinned = lock["packages"]["node_modules/lit-html"]["version"]
    shipped = json.loads((LIT / "package.json").read_text(encoding="utf-8"))["version"]
    assert pinned == shipped
    for name in LIT_MODULES:
        ours = (VENDOR / name).read_text(encoding="utf-8")
        assert ours == vendored((LIT / name).read_text(encoding="utf-8")), name
        assert "@license" in ours
    assert (VENDOR / "lit-html.LICENSE.txt").exists()
    ours = {str(p.relative_to(VENDOR)) for p in VENDOR.rglob("*.js")}
    assert ours == set(LIT_MODULES)
