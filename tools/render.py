"""Pictures of the CAD models for the guide: a mesh drawn in PNG with Pillow, seen from
any side, flat shaded, nearest faces last (no GPU, no display).

A model is a list of (mesh, colour) parts, a mesh ``(points, triangles)`` as
``Shape.tessellate`` gives it. The picture is drawn at twice its size and scaled down, for
smooth edges; the same models give the same picture.
"""

from __future__ import annotations

import io
import math

import numpy as np
from PIL import Image, ImageDraw, ImageFont

Mesh = tuple[np.ndarray, np.ndarray]  # points (n, 3), triangles (m, 3)
LIGHT = np.array([-0.3, 0.55, 0.78])  # from the upper left, towards the viewer
SUPER = 2  # drawn at this many times the size, then scaled down


def mesh_of(shape, tolerance: float = 0.2) -> Mesh:
    """A build123d shape as a mesh."""
    points, triangles = shape.tessellate(tolerance, 0.5)
    return (
        np.array([(p.X, p.Y, p.Z) for p in points], dtype=float),
        np.array(triangles, dtype=int).reshape(-1, 3),
    )


def view(azimuth: float, elevation: float) -> np.ndarray:
    """The rotation that looks at the model from ``azimuth`` degrees round the z axis
    (0: from the front, -y) and ``elevation`` degrees above the table (negative: below)."""
    a, e = math.radians(azimuth), math.radians(elevation)
    turn = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    tilt = np.array(
        [[1, 0, 0], [0, math.sin(e), math.cos(e)], [0, -math.cos(e), math.sin(e)]]
    )  # camera: x right, y up on the picture, z towards the viewer
    return tilt @ turn


def picture(
    parts: list[tuple[Mesh, tuple[int, int, int]]],
    azimuth: float,
    elevation: float,
    width: int = 1200,
    labels: list[tuple[np.ndarray, str]] | None = None,
) -> bytes:
    """The parts seen from (``azimuth``, ``elevation``), as PNG ``width`` pixels wide;
    ``labels``: (a point of the model, its words) written beside it with a leader."""
    rotation = view(azimuth, elevation)
    faces, shades = [], []
    for (points, triangles), colour in parts:
        seen = points @ rotation.T
        tri = seen[triangles]  # (m, 3, 3)
        normal = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
        length = np.linalg.norm(normal, axis=1)
        keep = length > 1e-12
        tri, normal = tri[keep], normal[keep] / length[keep, None]
        facing = normal[:, 2] > 0  # the rest face away: hidden behind the front faces
        tri, normal = tri[facing], normal[facing]
        light = np.clip(normal @ (LIGHT / np.linalg.norm(LIGHT)), 0, 1)
        level = 0.45 + 0.55 * light
        faces.append(tri)
        shades.append(np.array(colour)[None, :] * level[:, None])
    tri = np.concatenate(faces)
    shade = np.concatenate(shades)
    lo = tri.reshape(-1, 3).min(axis=0)
    hi = tri.reshape(-1, 3).max(axis=0)
    margin = 0.04 * (hi[0] - lo[0])
    scale = (width * SUPER) / (hi[0] - lo[0] + 2 * margin)
    height = int((hi[1] - lo[1] + 2 * margin) * scale) + 1
    xy = np.empty((*tri.shape[:2], 2))
    xy[..., 0] = (tri[..., 0] - lo[0] + margin) * scale
    xy[..., 1] = height - (tri[..., 1] - lo[1] + margin) * scale
    pixels = _rasterise(xy, tri[..., 2], shade, (height, width * SUPER))
    image = Image.fromarray(pixels, "RGB")
    draw = ImageDraw.Draw(image)

    def at(p: np.ndarray) -> tuple[float, float]:
        return ((p[0] - lo[0] + margin) * scale, height - (p[1] - lo[1] + margin) * scale)

    if labels:
        font = _font(14 * SUPER)
        for point, words in labels:
            x, y = at(rotation @ point)
            draw.line([(x, y), (x + 30 * SUPER, y - 30 * SUPER)], fill=(40, 40, 40), width=SUPER)
            draw.text((x + 32 * SUPER, y - 46 * SUPER), words, fill=(20, 20, 20), font=font)
    image = image.resize((width, height // SUPER), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _rasterise(xy: np.ndarray, z: np.ndarray, shade: np.ndarray, size: tuple[int, int]):
    """Each triangle filled with its shade where it is the nearest (a depth buffer)."""
    height, width = size
    depth = np.full(size, -np.inf)
    pixels = np.full((*size, 3), 255, dtype=np.uint8)
    for (a, b, c), (za, zb, zc), colour in zip(xy, z, shade, strict=True):
        x0, x1 = int(max(0, min(a[0], b[0], c[0]))), int(min(width - 1, max(a[0], b[0], c[0])))
        y0, y1 = int(max(0, min(a[1], b[1], c[1]))), int(min(height - 1, max(a[1], b[1], c[1])))
        if x1 < x0 or y1 < y0:
            continue
        area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        if abs(area) < 1e-9:
            continue
        px, py = np.meshgrid(np.arange(x0, x1 + 1) + 0.5, np.arange(y0, y1 + 1) + 0.5)
        wa = ((b[0] - px) * (c[1] - py) - (b[1] - py) * (c[0] - px)) / area
        wb = ((c[0] - px) * (a[1] - py) - (c[1] - py) * (a[0] - px)) / area
        wc = 1 - wa - wb
        inside = (wa >= -1e-6) & (wb >= -1e-6) & (wc >= -1e-6)
        zs = wa * za + wb * zb + wc * zc
        window = depth[y0 : y1 + 1, x0 : x1 + 1]
        nearer = inside & (zs > window)
        window[nearer] = zs[nearer]
        pixels[y0 : y1 + 1, x0 : x1 + 1][nearer] = colour.astype(np.uint8)
    return pixels


def _font(size: int) -> ImageFont.ImageFont:
    """Pillow's own font at ``size`` (the same on every machine)."""
    return ImageFont.load_default(size)
