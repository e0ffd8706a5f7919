"""Each PCB layout's KiCad project and the files a fab needs, in hardware/pcb/NAME/:

- ``NAME.kicad_pro``, ``NAME.kicad_pcb``: the project (the same text for the same layout);
- ``NAME-fab.zip``: the Gerbers and Excellon drill files KiCad plots from the filled
  board, the BOM (``NAME-bom.csv``: manufacturer part numbers and the fab's stock codes)
  and the placement (``NAME-cpl.csv``, from KiCad's position file) for assembly;
- ``NAME-top.png``, ``NAME-bottom.png``: KiCad's own plots of each side, as a picture;
- ``NAME-check.json``: what KiCad's check found and the copper it filled, and the digest
  of the project it was made from: the fab files are out of date when that differs.

KiCad runs as the system python3 with ``pcbnew`` (``PEGBOARD_KICAD_PYTHON`` names another);
:func:`kicad_python` says where, or None when there is none.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

from pegboard.board.layout import Layout, layout_names, load_layout
from tools.pcb import board, kicad, parts

RUNNER = Path(__file__).with_name("kicad_run.py")
SCALE = 5  # picture pixels a mm
SIDES = {  # layer suffix: colour, drawn in this order over the board's green
    "top": (("F_Cu", "#3f9e4d"), ("F_Mask", "#d9c27c"), ("F_Silkscreen", "#ffffff")),
    "bottom": (("B_Cu", "#3f9e4d"), ("B_Mask", "#d9c27c"), ("B_Silkscreen", "#ffffff")),
}
BOARD_GREEN = (22, 84, 44, 255)
FAB_FILES = ("-fab.zip", "-top.png", "-bottom.png", "-check.json")


def pcb_layouts() -> list[Layout]:
    return [layout for name in layout_names() if (layout := load_layout(name)).pcb is not None]


def folder(repo: Path, name: str) -> Path:
    return repo / "hardware" / "pcb" / name


def project(layout: Layout) -> dict[str, str]:
    """The project's files by suffix, and the BOM (written into the fab zip)."""
    pcb = board.build(layout)
    return {
        ".kicad_pro": kicad.project_file(layout.name),
        ".kicad_pcb": kicad.board_file(pcb, layout.title),
        "-bom.csv": bom(pcb),
    }


def digest(files: dict[str, str]) -> str:
    text = "".join(files[k] for k in sorted(files)) + RUNNER.read_text(encoding="utf-8")
    return hashlib.sha256(text.encode()).hexdigest()


def generated(repo: Path) -> dict[Path, str]:
    """The project files of every PCB layout (text, compared whole)."""
    files = {}
    for layout in pcb_layouts():
        base = folder(repo, layout.name) / layout.name
        for suffix, text in project(layout).items():
            if suffix != "-bom.csv":
                files[base.with_name(layout.name + suffix)] = text
    return files


def outputs(repo: Path, layout: Layout) -> list[Path]:
    """The files KiCad makes for a layout."""
    base = folder(repo, layout.name)
    return [base / f"{layout.name}{suffix}" for suffix in FAB_FILES]


def outdated(repo: Path, layout: Layout) -> bool:
    """Whether the fab files were made from another project than the layout's now."""
    check = folder(repo, layout.name) / f"{layout.name}-check.json"
    if not all(path.exists() for path in outputs(repo, layout)):
        return True
    return json.loads(check.read_text(encoding="utf-8")).get("digest") != digest(project(layout))


def stale(repo: Path) -> list[Path]:
    """Every fab file made from a project other than the one its layout gives now."""
    return [
        path for layout in pcb_layouts() if outdated(repo, layout) for path in outputs(repo, layout)
    ]


def kicad_python() -> str | None:
    """A python that has KiCad's ``pcbnew``, or None."""
    python = os.environ.get("PEGBOARD_KICAD_PYTHON", "/usr/bin/python3")
    if not shutil.which(python):
        return None
    found = subprocess.run([python, "-c", "import pcbnew"], capture_output=True, check=False)
    return python if found.returncode == 0 else None


def run_kicad(pcb_file: Path, out: Path, fab: bool = True) -> dict:
    """KiCad's fill, check (and plots): its JSON report."""
    python = kicad_python()
    if python is None:
        raise RuntimeError(
            "KiCad's pcbnew is not installed: apt-get install --no-install-recommends kicad"
        )
    command = [python, str(RUNNER), str(pcb_file), str(out), *(["--fab"] if fab else [])]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=600)
    if done.returncode:
        raise RuntimeError(f"KiCad failed on {pcb_file.name}: {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def write_fab(repo: Path, layout: Layout) -> list[Path]:
    """Make the project's fab files with KiCad and write them into the checkout."""
    files = project(layout)
    target = folder(repo, layout.name)
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "project"
        work.mkdir()
        for suffix in (".kicad_pro", ".kicad_pcb"):
            (work / (layout.name + suffix)).write_text(files[suffix], encoding="utf-8")
        out = Path(tmp) / "out"
        report = run_kicad(work / f"{layout.name}.kicad_pcb", out)
        name = layout.name
        archive = io.BytesIO()
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
            for path in sorted(out.glob(f"{name}-*.gbr")) + sorted(out.glob(f"{name}-*.drl")):
                z.write(path, path.name)
            z.writestr(f"{name}-bom.csv", files["-bom.csv"])
            position = (out / f"{name}-pos.csv").read_text(encoding="utf-8")
            z.writestr(f"{name}-cpl.csv", cpl(position, board.build(layout)))
        written = {f"{name}-fab.zip": archive.getvalue()}
        x0, y0, x1, y1 = layout.pcb.outline
        rail = board.RAIL_MM  # the board as the fab delivers it: its rails on
        for side in SIDES:
            written[f"{name}-{side}.png"] = picture(out, name, (x0, y0 - rail, x1, y1 + rail), side)
    report["digest"] = digest(files)
    written[f"{name}-check.json"] = (json.dumps(report, indent=1, sort_keys=True) + "\n").encode()
    for file, content in written.items():
        (target / file).write_bytes(content)
    return [target / file for file in written]


def bom(pcb: board.Board) -> str:
    """What the fab assembles, one row a part: JLCPCB's columns first."""
    rows: dict[str, list] = {}
    for placed in pcb.parts:
        part = placed.part
        if part.fab:
            rows.setdefault(part.mpn, [part, []])[1].append(placed.ref)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(
        [
            "Comment",
            "Designator",
            "Footprint",
            "LCSC Part #",
            "Manufacturer",
            "MPN",
            "Quantity",
            "Side",
        ]
    )
    for part, refs in rows.values():
        sides = {"bottom" if pcb.part(r).bottom else "top" for r in refs}
        footprint = part.land.name.split(":", 1)[1]
        w.writerow(
            [
                part.value,
                ",".join(refs),
                footprint,
                part.lcsc,
                part.manufacturer,
                part.mpn,
                len(refs),
                "+".join(sorted(sides)),
            ]
        )
    return out.getvalue()


def cpl(position: str, pcb: board.Board) -> str:
    """KiCad's position file as an assembly service reads it: mm from the board's origin,
    y up, bottom parts as seen from the top (KiCad mirrors their x), each angle turned
    from KiCad's to the assembler's by :data:`tools.pcb.parts.ASSEMBLER_TURN`."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["Designator", "Mid X", "Mid Y", "Layer", "Rotation"])
    for row in csv.DictReader(io.StringIO(position)):
        bottom = row["Side"] == "bottom"
        x = -float(row["PosX"]) if bottom else float(row["PosX"])
        land = pcb.part(row["Ref"]).part.land
        w.writerow(
            [
                row["Ref"],
                f"{x:.4f}",
                f"{float(row['PosY']):.4f}",
                "Bottom" if bottom else "Top",
                f"{parts.assembler_rotation(land, float(row['Rot']), bottom):g}",
            ]
        )
    return out.getvalue()


def picture(out: Path, name: str, outline: tuple[float, float, float, float], side: str) -> bytes:
    """KiCad's SVG plots of one side, coloured and laid over each other, as PNG (the
    bottom seen from below: mirrored)."""
    import cairosvg  # a test dependency: only --write draws pictures
    from PIL import Image, ImageDraw, ImageOps

    x0, y0, x1, y1 = outline
    m = 2.0
    w, h = round((x1 - x0 + 2 * m) * SCALE), round((y1 - y0 + 2 * m) * SCALE)
    box = " ".join(f"{v * 1e6:.0f}" for v in (x0 - m, y0 - m, x1 - x0 + 2 * m, y1 - y0 + 2 * m))
    image = Image.new("RGBA", (w, h), (255, 255, 255, 255))
    ImageDraw.Draw(image).rectangle(
        [m * SCALE, m * SCALE, w - m * SCALE, h - m * SCALE], fill=BOARD_GREEN
    )
    for suffix, colour in SIDES[side]:
        svg = (
            (out / f"{name}-render-{suffix}.svg")
            .read_text(encoding="utf-8")
            .replace("#000000", colour)
        )
        svg = re.sub(
            r'width="[^"]+" height="[^"]+" viewBox="[^"]+"',
            f'width="{w}" height="{h}" viewBox="{box}"',
            svg,
            count=1,
        )
        layer = Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg.encode()))).convert("RGBA")
        image = Image.alpha_composite(image, layer)
    if side == "bottom":
        image = ImageOps.mirror(image)
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "PNG", optimize=True)
    return buffer.getvalue()
