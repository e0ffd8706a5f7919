"""A plain (non-editable) install carries web/, firmware/ and hardware/ inside the wheel.

The wheel is built from a copy of the sources (no network: the build backend of the
dev venv), unpacked into a fresh venv as pip would for a pure wheel, and run from a
folder outside the repository. The dev venv lends only the dependencies, behind the
fresh venv's own site-packages, so ``pegboard`` itself can only come from the wheel.
"""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import urllib.request
import zipfile
from pathlib import Path
from typing import NamedTuple

import pytest

REPO = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "pegboard", "web", "firmware", "hardware")
PIP_WHEEL = [
    sys.executable,
    "-m",
    "pip",
    "wheel",
    "--no-deps",
    "--no-build-isolation",
    "--no-index",
]
JUNK = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "node_modules")

INSIDE = """
import json, sys
from importlib.resources import files
import pegboard
from pegboard.board.layout import layout_names, load_layout
from pegboard.maker.firmware_tool import firmware_files
from pegboard.inputs import load_pins
from pathlib import Path

static = Path(str(files("pegboard._web") / "static"))
print(json.dumps({
    "pegboard": pegboard.__file__,
    "path": sys.path,
    "resources": {p: str(files(p)) for p in ("pegboard._web", "pegboard._firmware",
                                             "pegboard._hardware")},
    "layouts": {name: len(list(load_layout(name).holes())) for name in layout_names()},
    "seats": len(load_pins().seats),
    "firmware": [name for name, _ in firmware_files()],
    "hardware": sorted(p.name for p in files("pegboard._hardware").iterdir()),
    "web": sorted(str(p.relative_to(static)) for p in static.rglob("*") if p.is_file()),
}))
"""


class Installed(NamedTuple):
    python: Path  # the fresh venv's
    env: dict[str, str]  # to run it in: no PYTHONPATH, no user site
    root: Path  # a folder outside the repository, to run it from
    venv: Path
    wheel: Path
    built: str  # what the build printed


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    """A fresh venv holding only the wheel."""
    root = tmp_path_factory.mktemp("wheel")
    source, dist, venv = root / "source", root / "dist", root / "venv"
    for name in SOURCES:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=JUNK)
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(path, source / name)
    build = subprocess.run(
        [*PIP_WHEEL, "-w", str(dist), str(source)],
        check=True,
        timeout=120,
        cwd=root,
        capture_output=True,
        text=True,
    )
    [wheel] = dist.glob("pegboard-*.whl")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    )
    with zipfile.ZipFile(wheel) as archive:  # what pip does with a pure wheel
        archive.extractall(site)
    # The dependencies, from the dev venv, after the venv's own site-packages.
    (site / "zz-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(root), "PYTHONNOUSERSITE": "1"}
    return Installed(python, env, root, venv, wheel, build.stdout + build.stderr)


@pytest.mark.slow
@pytest.mark.subprocess
def test_the_build_warns_of_nothing(installed):
    """The first start installs pegboard: setuptools has nothing to warn about."""
    assert "Warning" not in installed.built and "would be ignored" not in installed.built


@pytest.mark.subprocess
def test_the_installed_package_is_the_wheel_and_carries_its_files(installed):
    done = subprocess.run(
        [installed.python, "-c", INSIDE],
        capture_output=True,
        text=True,
        env=installed.env,
        cwd=installed.root,
        timeout=60,
    )
    venv = installed.venv
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert Path(found["pegboard"]).is_relative_to(venv)
    assert not any(Path(p).resolve() == REPO for p in found["path"] if p)
    for package, folder in found["resources"].items():
        assert Path(folder).is_relative_to(venv), package
    shipped = {p.stem for p in (REPO / "hardware" / "layouts").glob("*.toml")}
    assert set(found["layouts"]) == shipped and all(found["layouts"].values())
    assert found["seats"] == 4
    assert found["firmware"] == ["main.py", "pegfirm.py", "pegproto.py", "pico.py"]
    assert {"pins.toml", "PINS.md", "install.sh", "99-pegboard-pico.rules", "wiring.svg"} <= set(
        found["hardware"]
    )
    assert {"systemd", "avahi", "layouts", "templates"} <= set(found["hardware"])
    shipped = {
        str(p.relative_to(REPO / "web" / "static")) for p in (REPO / "web" / "static").rglob("*")
    }
    assert {"main.js", "panel.css", "vendor/lit-html.js", "moments/count.js"} <= set(found["web"])
    assert set(found["web"]) == {p for p in shipped if (REPO / "web" / "static" / p).is_file()}


@pytest.mark.subprocess
def test_the_wheel_holds_each_layout_once_and_no_developer_tools(installed):
    names = zipfile.ZipFile(installed.wheel).namelist()
    shipped = sorted(p.name for p in (REPO / "hardware" / "layouts").glob("*.toml"))
    layouts = [n for n in names if n.endswith(".toml") and "layouts" in n]
    assert sorted(Path(n).name for n in layouts) == shipped  # once each
    assert all(n.startswith("pegboard/_hardware/layouts/") for n in layouts)
    assert not [n for n in names if n.startswith(("tools/", "tests/")) or "generate" in n]
    for name in shipped:  # the drawings a maker prints or cuts travel too
        stem = name.removesuffix(".toml")
        for form in (".svg", ".dxf", "-a4.pdf", "-letter.pdf"):
            assert f"pegboard/_hardware/templates/{stem}{form}" in names


@pytest.mark.slow
@pytest.mark.subprocess
def test_the_installed_wheel_serves_the_panel_and_a_layout(installed):
    server = subprocess.Popen(
        [installed.python, "-m", "pegboard.cli", "serve", "--sim", "--port", "0", "--data", "data"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=installed.env,
        cwd=installed.root,
    )
    try:
        line = server.stdout.readline()
        match = re.search(r"panel at http://[^/]+:(\d+)/", line)
        assert match, line + server.stderr.read()
        base = f"http://127.0.0.1:{match.group(1)}"

        def get(path: str) -> tuple[str, bytes]:
            with urllib.request.urlopen(base + path, timeout=10) as answer:
                return answer.headers.get_content_type(), answer.read()

        kind, page = get("/")
        assert kind == "text/html" and b"main.js" in page
        kind, script = get("/static/vendor/lit-html.js")  # what the page's modules import
        assert script == (REPO / "web" / "static" / "vendor" / "lit-html.js").read_bytes()
        kind, svg = get("/board.svg")
        assert kind == "image/svg+xml" and svg.count(b"<circle") >= 2 * 122
        assert get("/healthz")[1]
    finally:
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=30)
    assert code == 0, server.stderr.read()
