"""Where a card's corner index may be: the ink on the cards, and pairs of blobs (a rank glyph
above a suit pip) turned upright into small patches for the classifier.

A photo is scaled to :data:`WORK` pixels on its long side. The cards are what is bright
against the table (Otsu's threshold on each pixel's darkest channel, so red ink is as dark as
black and a colour cast moves nothing); the ink is what is darker than the card white around
it, inside the cards' outline. Each blob of ink that could be a pip is paired with the few
blobs near it that could be its rank glyph; the pair says which way is up (glyph above pip),
so a card at any angle, and an index upside down in a card's far corner, reads the same.
Training (``tools/cards``) cuts its patches with this same code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

WORK = 1000  # pixels on the photo's long side, once scaled
PATCH_W, PATCH_H = 24, 36  # the classifier's patch, upright
# The patch in units of the glyph-to-pip distance d, around the midpoint between them.
SPAN_W, SPAN_H = 1.7, 2.5
NEIGHBOURS = 6
INK = 0.32  # darker than the card white around it by this much is ink
# A card's brightest tenth is this many times the table's median (darkest channel) or more.
PAPER = 1.8

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Blob:
    """One blob of ink: its centre, box (x0, y0, x1, y1), pixels and colour."""

    x: float
    y: float
    box: tuple[int, int, int, int]
    area: int
    red: bool
    axis: tuple[float, float]  # unit vector along the blob's long axis
    length: float  # its extent along that axis (0 for a round blob)

    @property
    def size(self) -> float:
        x0, y0, x1, y1 = self.box
        return float(max(x1 - x0, y1 - y0))


@dataclass(frozen=True, slots=True)
class Proposal:
    """A glyph blob above a pip blob: where a corner index may be, on the worked photo."""

    glyph: int
    pip: int
    centre: tuple[float, float]
    down: tuple[float, float]  # unit vector from glyph to pip
    d: float  # glyph-to-pip distance

    def corners(self) -> npt.NDArray[np.float64]:
        """The patch's four corners on the worked photo (top-left, top-right, bottom-left)."""
        dx, dy = self.down
        rx, ry = -dy, dx  # the patch's "right" is the card's right when the pip is below
        cx, cy = self.centre
        hw, hh = SPAN_W * self.d / 2, SPAN_H * self.d / 2
        return np.array(
            [
                [cx - rx * hw - dx * hh, cy - ry * hw - dy * hh],
                [cx + rx * hw - dx * hh, cy + ry * hw - dy * hh],
                [cx - rx * hw + dx * hh, cy - ry * hw + dy * hh],
                [cx + rx * hw + dx * hh, cy + ry * hw + dy * hh],
            ]
        )

    def box(self) -> tuple[int, int, int, int]:
        pts = self.corners()
        x0, y0 = pts.min(axis=0)
        x1, y1 = pts.max(axis=0)
        return int(x0), int(y0), int(np.ceil(x1)), int(np.ceil(y1))


@dataclass(frozen=True, slots=True)
class Sheet:
    """A photo made ready: scaled, its ink found, its blobs listed, its card outlines."""

    rgb: Image
    scale: float  # worked pixels per photo pixel
    darkness: Floats  # 0 white .. 1 black, against the local card white
    redness: Floats
    cards: npt.NDArray[np.int32]  # label of each pixel's card outline (0 = table)
    blobs: list[Blob]
    sharpness: float
    laid: frozenset[int]  # the outlines that are cards (:func:`laid`)


def _cv2() -> Any:
    import cv2  # lazy: only reading a photo needs OpenCV

    return cv2


def prepare(rgb: Image) -> Sheet:
    """Scale the photo and find its cards' ink."""
    cv2 = _cv2()
    h, w = rgb.shape[:2]
    scale = WORK / max(h, w)
    if abs(scale - 1) > 0.01:
        rgb = cv2.resize(
            rgb,
            (round(w * scale), round(h * scale)),
            interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
        )
    red, green, blue = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    low = cv2.min(cv2.min(red, green), blue)
    threshold, bright = cv2.threshold(low, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # The card white around each pixel: the brightest nearby, smoothed.
    small = cv2.resize(low, (low.shape[1] // 8 + 1, low.shape[0] // 8 + 1), cv2.INTER_AREA)
    white = cv2.dilate(small, np.ones((5, 5), np.uint8))
    white = cv2.GaussianBlur(white, (5, 5), 0)
    white = cv2.resize(white, (low.shape[1], low.shape[0]), interpolation=cv2.INTER_LINEAR)
    white_f = np.maximum(white.astype(np.float32), float(threshold) + 1)
    darkness = np.clip(1 - low.astype(np.float32) / white_f, 0, 1)
    redness = np.minimum(cv2.subtract(red, cv2.max(green, blue)).astype(np.float32) / white_f, 1)
    # The cards' outlines: each bright region large enough to be a card, filled to its hull
    # (an index printed near the card's edge may touch its border line).
    closed = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    hh, ww = closed.shape
    nc, regions, cstats, _ = cv2.connectedComponentsWithStats(closed, connectivity=4)
    cards = np.zeros((hh, ww), np.int32)
    for k in range(1, nc):
        if cstats[k, 4] < 0.002 * hh * ww:
            continue
        x, y, w0, h0 = (int(v) for v in cstats[k, :4])
        mask = (regions[y : y + h0, x : x + w0] == k).astype(np.uint8)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(np.concatenate(contours))
        fill = np.zeros_like(mask)
        cv2.fillPoly(fill, [hull], 1)
        cards[y : y + h0, x : x + w0][fill > 0] = k
    ink = ((darkness > INK) & (cards > 0)).astype(np.uint8)
    blobs = _blobs(cv2, ink, redness)
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    sharpness = float(cv2.Laplacian(gray, cv2.CV_32F).var())
    cards = cards.astype(np.int32)
    return Sheet(rgb, scale, darkness, redness, cards, blobs, sharpness, laid(low, cards))


def laid(low: Image, cards: npt.NDArray[np.int32]) -> frozenset[int]:
    """The outlines that are cards, not the table: each wholly inside the photo, and bright
    against the table (its brightest tenth :data:`PAPER` times the table's median, in each
    pixel's darkest channel: a card's paper, a back's border). Otsu's threshold splits any
    photo in two, a bare table too: what it cuts out of the table's own pattern (a stripe of
    the cloth, a plank's grain) runs off the photo's edge, or is not so much brighter.

    >>> table = np.full((40, 60), 50, np.uint8)
    >>> table[10:30, 20:34] = 220  # a card
    >>> table[:, 50:] = 120  # a lighter stripe of the cloth, off the edge
    >>> outlines = np.zeros((40, 60), np.int32)
    >>> outlines[10:30, 20:34], outlines[:, 50:] = 1, 2
    >>> sorted(laid(table, outlines))
    [1]
    """
    counts = np.cumsum(np.bincount(low[cards == 0], minlength=256))
    if not counts[-1]:
        return frozenset()  # no table: no card's edge in sight
    table = max(int(np.searchsorted(counts, counts[-1] / 2)), 1)
    flat = cards.ravel()
    bright = np.bincount(flat, weights=(low >= PAPER * table).ravel())
    share = bright / np.maximum(np.bincount(flat), 1)
    edge = np.concatenate([cards[0], cards[-1], cards[:, 0], cards[:, -1]])
    off = set(np.unique(edge).tolist())
    return frozenset(k for k in range(1, len(share)) if share[k] >= 0.1 and k not in off)


def _blobs(cv2: Any, ink: Image, redness: Floats) -> list[Blob]:
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    limit = WORK / 6
    out = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < 7 or max(w, h) < 4 or max(w, h) > limit:
            continue
        mask = labels[y : y + h, x : x + w] == i
        red = float(redness[y : y + h, x : x + w][mask].mean()) > 0.25
        cx, cy = centroids[i]
        m = cv2.moments(mask.astype(np.uint8), binaryImage=True)
        a, b, c = m["mu20"] / area, m["mu11"] / area, m["mu02"] / area
        root = float(np.sqrt(max(((a - c) / 2) ** 2 + b * b, 0.0)))
        major, minor = (a + c) / 2 + root, max((a + c) / 2 - root, 1e-6)
        theta = 0.5 * float(np.arctan2(2 * b, a - c))
        axis = (float(np.cos(theta)), float(np.sin(theta)))
        length = 4 * float(np.sqrt(major)) if major / minor >= 2.6 else 0.0
        out.append(Blob(float(cx), float(cy), (x, y, x + w, y + h), area, red, axis, length))
    return out


def _could_be_pip(b: Blob) -> bool:
    x0, y0, x1, y1 = b.box
    w, h = x1 - x0, y1 - y0
    return 0.45 <= w / h <= 2.2 and b.area / (w * h) >= 0.3


def proposals(sheet: Sheet) -> list[Proposal]:
    """Every (glyph, pip) pair that could be a corner index, near to each other and alike."""
    blobs = sheet.blobs
    if not blobs:
        return []
    xy = np.array([(b.x, b.y) for b in blobs])
    sizes = np.array([b.size for b in blobs])
    out = []
    for p, pip in enumerate(blobs):
        if not _could_be_pip(pip):
            continue
        dist = np.hypot(*(xy - xy[p]).T)
        near = np.argsort(dist)[1 : NEIGHBOURS + 1]
        for g in near:
            glyph = blobs[g]
            d = float(dist[g])
            big = max(sizes[g], sizes[p])
            clear = glyph.area >= 40 and pip.area >= 40  # a thin glyph's colour is unsure
            if (clear and glyph.red != pip.red) or not 0.35 * big <= d <= 2.2 * big:
                continue
            if not 0.5 <= sizes[g] / sizes[p] <= 3.5:
                continue
            down = ((pip.x - glyph.x) / d, (pip.y - glyph.y) / d)
            centre = ((pip.x + glyph.x) / 2, (pip.y + glyph.y) / 2)
            out.append(Proposal(int(g), p, centre, down, d))
    # A glyph and its pip that touch make one long blob: try it both ways up.
    for i, blob in enumerate(blobs):
        if blob.length:
            d = blob.length * 0.5
            for sign in (1, -1):
                down = (sign * blob.axis[0], sign * blob.axis[1])
                out.append(Proposal(i, i, (blob.x, blob.y), down, d))
    return out


def patches(sheet: Sheet, props: list[Proposal]) -> Floats:
    """Each proposal's patch, upright: (n, 2, PATCH_H, PATCH_W), darkness and redness."""
    cv2 = _cv2()
    out = np.zeros((len(props), 2, PATCH_H, PATCH_W), np.float32)
    dst = np.array([[0, 0], [PATCH_W, 0], [0, PATCH_H]], np.float32)
    for i, prop in enumerate(props):
        src = prop.corners()[:3].astype(np.float32)
        m = cv2.getAffineTransform(src, dst)
        for c, plane in enumerate((sheet.darkness, sheet.redness)):
            out[i, c] = cv2.warpAffine(
                plane, m, (PATCH_W, PATCH_H), flags=cv2.INTER_LINEAR, borderValue=0
            )
    return out
