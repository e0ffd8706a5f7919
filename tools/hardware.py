"""Write the maker's files in a checkout from the code, the layouts and the pin map: the
layouts themselves, the generated parts of hardware/README.md, hardware/PINS.md, the
section drawing, each layout's drilling template as SVG, DXF and PDF (A4, Letter) and its
workshop files (CNC, laser, back panel), the case (STEP, STL) and the guide's pictures; for
the PCB layouts also their KiCad projects and fab files, and hardware/PCB.md
(:mod:`tools.pcb`: the fab files need KiCad's ``pcbnew``, and are made only when stale).

    python -m tools.hardware            # list what is out of date (exit 1 if any)
    python -m tools.hardware --write    # bring it up to date
    python -m tools.hardware --repo PATH --write
    python -m tools.hardware --write --strip-48-mm 333.9   # your reel's measured pitch

It writes into the checkout it runs from (or ``--repo``), and reads the layouts through
the installed pegboard, which must be that checkout (``pip install -e .``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pegboard.board.layout import layout_names, layouts_folder, load_layout
from pegboard.board.svg import drilling_template
from pegboard.board.template import PAPERS
from pegboard.config import SCHEMA
from pegboard.inputs.pins import load_pins, pins_md
from pegboard.maker.hardware_docs import readme
from tools import layouts, strips, workshop
from tools.pcb import designs, fab, guide
from tools.pictures import Picture, drawn
from tools.section import section_svg
from tools.templates import dxf, pdf

REPO = Path(__file__).resolve().parents[1]
SECTION_LAYOUT = SCHEMA["board"]["layout"][0]  # the config's default board


def drawings(repo: Path) -> dict[Path, str | bytes]:
    """The guides, the section drawing and the templates, from the layouts as they are."""
    hardware = repo / "hardware"
    files: dict[Path, str | bytes] = {
        hardware / "README.md": readme((hardware / "README.md").read_text(encoding="utf-8")),
        hardware / "PINS.md": pins_md(load_pins(hardware / "pins.toml")),
        hardware / "section.svg": section_svg(load_layout(SECTION_LAYOUT)),
    }
    shown = load_layout(SECTION_LAYOUT)  # the board the guide's pictures show
    pictures = hardware / "pictures"
    files[pictures / "strip.svg"] = strips.measured_svg(shown)
    files[pictures / "pieces.svg"] = strips.pieces_svg(shown)
    for end in ("cnc-bottom", "laser"):
        files[pictures / f"{end}.svg"] = drawn(workshop.files(shown)[f"{end}.dxf"])
    for name in layout_names():
        layout = load_layout(name)
        folder = hardware / "templates"
        files[folder / f"{name}.svg"] = drilling_template(layout)
        files[folder / f"{name}.dxf"] = dxf(layout)
        for paper in PAPERS:
            files[folder / f"{name}-{paper.lower()}.pdf"] = pdf(layout, paper)
        for end, content in workshop.files(layout).items():
            files[folder / f"{name}-{end}"] = content
    return files


def models(repo: Path) -> dict[Path, bytes | Picture]:
    """The case of each layout as STEP and STL, and the guide's rendered pictures: slower
    than :func:`drawings` (the CAD kernel builds every solid)."""
    from tools import case, pictures

    hardware = repo / "hardware"
    files: dict[Path, bytes | Picture] = {}
    for name in layout_names():
        for end, content in case.files(load_layout(name)).items():
            files[hardware / "case" / f"{name}-{end}"] = content
    files.update(pictures.pictures(hardware, load_layout(SECTION_LAYOUT)))
    return files


def stale(files: dict[Path, str | bytes | Picture]) -> list[Path]:
    """The files whose content on disk differs (a picture: what it shows)."""
    return [
        path
        for path, content in files.items()
        if not (
            content.current(path)
            if isinstance(content, Picture)
            else _read(path, content) == content
        )
    ]


def _read(path: Path, like: str | bytes) -> str | bytes | None:
    if not path.exists():
        return None
    return path.read_text(encoding="utf-8") if isinstance(like, str) else path.read_bytes()


def _write(files: dict[Path, str | bytes | Picture]) -> None:
    for path in stale(files):
        path.parent.mkdir(parents=True, exist_ok=True)
        content = files[path]
        if isinstance(content, Picture):
            content = content.make()
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)
        print(f"wrote {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.hardware", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--write", action="store_true", help="bring the files up to date")
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout (default: this)")
    parser.add_argument(
        "--strip-48-mm",
        type=float,
        help="48 LEDs of your reel measured end to end, in mm: layouts and drawings at its pitch",
    )
    args = parser.parse_args(argv)
    repo = args.repo.resolve()
    if not (repo / "hardware" / "README.md").is_file():
        print(f"{repo} is not a pegboard checkout (no hardware/README.md)", file=sys.stderr)
        return 2
    if layouts_folder().resolve() != repo / "hardware" / "layouts":
        print(
            f"pegboard is installed from {layouts_folder().parents[1]}, not {repo}: "
            f"run pip install -e {repo}",
            file=sys.stderr,
        )
        return 2
    if args.write:
        _write({**layouts.generated(repo, args.strip_48_mm), **designs.generated(repo)})
        _write({**drawings(repo), **fab.generated(repo)})
        for layout in fab.pcb_layouts():
            if not fab.outdated(repo, layout):
                continue
            try:
                written = fab.write_fab(repo, layout)
            except RuntimeError as e:  # no KiCad here, or it failed: say so, write no more
                print(e, file=sys.stderr)
                return 1
            for path in written:
                print(f"wrote {path}")
        _write(guide.generated(repo))
        _write(models(repo))
        return 0
    text = {
        **layouts.generated(repo, args.strip_48_mm),
        **designs.generated(repo),
        **drawings(repo),
        **models(repo),
    }
    old = stale({**text, **fab.generated(repo), **guide.generated(repo)}) + fab.stale(repo)
    for path in old:
        print(f"out of date: {path}", file=sys.stderr)
    return 1 if old else 0


if __name__ == "__main__":
    sys.exit(main())
