"""Table scenes: card faces laid spread or fanned on felt, wood or cloth, photographed badly
(tilt, uneven light, colour casts, blur, noise, JPEG), with where every visible index is.

The same scenes, with Debian's decks' faces instead of synthetic ones, are the benchmark's and
the tests' held-out photos (``faces_of_deck``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from tools.cards.faces import JOKER, NONE, Box, Face

Array = np.ndarray


@dataclass
class Truth:
    rank: int
    suit: int
    glyph: Box  # on the photo, axis-aligned
    pip: Box
    card: int  # which card (0-based, in laying order)


@dataclass
class Scene:
    rgb: Array
    truths: list[Truth]  # the visible indices
    cards: list[tuple[int, int]]  # (rank, suit) of each card laid, in order
    boxes: list[Box]  # each card's box on the photo


def _background(rng: random.Random, h: int, w: int) -> Array:
    kind = rng.random()
    nrng = np.random.default_rng(rng.randrange(2**32))
    if kind < 0.4:  # felt
        felt = rng.choice([(20, 90, 40), (25, 60, 110), (110, 25, 30), (40, 40, 45), (70, 50, 90)])
        img = np.ones((h, w, 3), np.float32) * np.array(felt, np.float32)
        img += nrng.normal(0, rng.uniform(3, 12), (h, w, 1)).astype(np.float32)
    elif kind < 0.75:  # wood
        base = np.array(
            rng.choice([(120, 80, 45), (90, 55, 30), (150, 105, 60), (70, 45, 30)]), np.float32
        )
        ys = np.arange(h, dtype=np.float32)[:, None]
        xs = np.arange(w, dtype=np.float32)[None, :]
        angle = rng.uniform(0, math.pi)
        u = xs * math.cos(angle) + ys * math.sin(angle)
        grain = np.sin(u / rng.uniform(3, 12) + 3 * np.sin(u / rng.uniform(40, 120))) * rng.uniform(
            8, 25
        )
        img = base + grain[..., None] + nrng.normal(0, 4, (h, w, 1)).astype(np.float32)
    else:  # cloth: checks or stripes
        a = np.array([rng.randint(30, 160) for _ in range(3)], np.float32)
        b = np.clip(a + np.array([rng.randint(-60, 60) for _ in range(3)], np.float32), 0, 170)
        step = rng.randint(6, 40)
        ys, xs = np.mgrid[0:h, 0:w]
        mask = ((xs // step) + (ys // step if rng.random() < 0.6 else 0)) % 2
        img = np.where(mask[..., None] > 0, a, b).astype(np.float32)
        img += nrng.normal(0, 5, (h, w, 1)).astype(np.float32)
    return img


def _layout(
    rng: random.Random, n: int, fanned: bool, cw: float, ch: float, w: int, h: int
) -> list[tuple[float, float, float]]:
    """(centre x, centre y, angle in degrees) of each card, in laying order."""
    out = []
    if fanned:
        step = cw * rng.uniform(0.42, 0.62)
        turn = rng.uniform(0, 7) * rng.choice([1, -1, 0.3])
        base = rng.uniform(-20, 20)
        length = step * (n - 1)
        cx, cy = w / 2 + rng.uniform(-0.1, 0.1) * w, h / 2 + rng.uniform(-0.1, 0.1) * h
        for i in range(n):
            angle = base + turn * (i - (n - 1) / 2)
            t = i * step - length / 2
            rad = math.radians(base)
            out.append(
                (
                    cx + t * math.cos(rad),
                    cy + t * math.sin(rad) + rng.uniform(-2, 2) * cw / 30,
                    angle,
                )
            )
        return out
    cols = min(n, 3 if rng.random() < 0.3 and n > 3 else n)
    rows = math.ceil(n / cols)
    gap_x, gap_y = cw * rng.uniform(1.1, 1.5), ch * rng.uniform(1.08, 1.3)
    flip_all = rng.random() < 0.15
    for i in range(n):
        r, c = divmod(i, cols)
        x = w / 2 + (c - (cols - 1) / 2) * gap_x + rng.uniform(-0.06, 0.06) * cw
        y = h / 2 + (r - (rows - 1) / 2) * gap_y + rng.uniform(-0.05, 0.05) * ch
        angle = rng.uniform(-12, 12) + (180 if flip_all or rng.random() < 0.08 else 0)
        out.append((x, y, angle))
    return out


def compose(rng: random.Random, faces: list[Face], fanned: bool, size: int = 1000) -> Scene:
    """Lay ``faces`` on a table and photograph them."""
    portrait = rng.random() < 0.4
    h, w = (size, round(size * 0.75)) if portrait else (round(size * 0.75), size)
    img = _background(rng, h, w)
    ids = np.zeros((h, w), np.int16)
    n = len(faces)
    if fanned:
        cw = w * rng.uniform(0.14, 0.28) * min(1.0, 4.5 / max(n, 1)) ** 0.5
    else:
        cw = w * rng.uniform(0.125, max(0.135, min(0.25, 0.85 / (min(n, 6) * 1.3 if n else 1))))
    placed = _layout(rng, n, fanned, cw, cw * 1.45, w, h) if n else []
    mats = []
    light = np.array([1.0, 1.0, 1.0], np.float32)
    for k, (face, (x, y, angle)) in enumerate(zip(faces, placed, strict=True)):
        scale = cw / face.image.width
        fw, fh = face.image.size
        m = cv2.getRotationMatrix2D((fw / 2, fh / 2), -angle, scale)
        m[0, 2] += x - fw / 2
        m[1, 2] += y - fh / 2
        rgba = np.asarray(face.image, np.float32)
        corners = np.array([[0, 0, 1], [fw, 0, 1], [0, fh, 1], [fw, fh, 1]], np.float64) @ m.T
        pad = round(cw / 20) + 2
        x0 = max(0, int(corners[:, 0].min()) - pad)
        y0 = max(0, int(corners[:, 1].min()) - pad)
        x1 = min(w, int(corners[:, 0].max()) + pad)
        y1 = min(h, int(corners[:, 1].max()) + pad)
        mats.append(m.copy())
        if x1 <= x0 or y1 <= y0:
            continue
        m[0, 2] -= x0
        m[1, 2] -= y0
        warped = cv2.warpAffine(rgba, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        alpha = warped[..., 3:4] / 255.0
        roi = img[y0:y1, x0:x1]
        if rng.random() < 0.6:  # a soft shadow beside the card
            shadow = cv2.GaussianBlur(np.asarray(alpha[..., 0], np.float32), (0, 0), cw / 40)
            shadow = np.roll(shadow, (round(cw / 50), round(cw / 60)), axis=(0, 1))
            roi *= 1 - 0.35 * shadow[..., None] * (1 - alpha)
        img[y0:y1, x0:x1] = roi * (1 - alpha) + warped[..., :3] * alpha
        ids[y0:y1, x0:x1][alpha[..., 0] > 0.5] = k + 1
    # The camera: a tilt (a homography), uneven light, a colour cast, blur, noise, JPEG.
    tilt = rng.uniform(0, 0.12)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = src + np.array(
        [[rng.uniform(-1, 1) * tilt * w, rng.uniform(-1, 1) * tilt * h] for _ in range(4)],
        np.float32,
    )
    hom = cv2.getPerspectiveTransform(src, dst)
    img = cv2.warpPerspective(img, hom, (w, h), borderMode=cv2.BORDER_REFLECT)
    ids = np.asarray(cv2.warpPerspective(ids, hom, (w, h), flags=cv2.INTER_NEAREST), np.int16)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)
    field = 1 + gx * (xs / w - 0.5) + gy * (ys / h - 0.5)
    bx, by, br = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.2, 0.7) * w
    field *= 1 - rng.uniform(0, 0.35) * np.exp(-((xs - bx) ** 2 + (ys - by) ** 2) / (2 * br * br))
    field *= rng.uniform(0.65, 1.1)
    light = np.array(
        [rng.uniform(0.82, 1.05), rng.uniform(0.85, 1.05), rng.uniform(0.72, 1.05)], np.float32
    )
    img = img * field[..., None] * light
    sigma = rng.choice([0, 0, rng.uniform(0.3, 1.4)])
    if sigma:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    nrng = np.random.default_rng(rng.randrange(2**32))
    img += nrng.normal(0, rng.uniform(0, 7), img.shape).astype(np.float32)
    rgb = np.clip(img, 0, 255).astype(np.uint8)
    _, jpeg = cv2.imencode(".jpg", rgb[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, rng.randint(40, 95)])
    decoded = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
    assert decoded is not None  # it was encoded just now
    rgb = decoded[..., ::-1].copy()

    def through(box: Box, m: Array) -> Box:
        x0, y0, x1, y1 = box
        pts = np.array([[x0, y0, 1], [x1, y0, 1], [x0, y1, 1], [x1, y1, 1]], np.float64) @ m.T
        pts = cv2.perspectiveTransform(pts[None].astype(np.float64), hom)[0]
        (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
        return float(x0), float(y0), float(x1), float(y1)

    truths, boxes = [], []
    for k, (face, m) in enumerate(zip(faces, mats, strict=True)):
        boxes.append(through((0, 0, face.image.width, face.image.height), m))
        for glyph, pip in face.indices:
            g, p = through(glyph, m), through(pip, m)
            if _seen(ids, g, k + 1) and _seen(ids, p, k + 1):
                truths.append(Truth(face.rank, face.suit, g, p, k))
    return Scene(rgb, truths, [(f.rank, f.suit) for f in faces], boxes)


def _seen(ids: Array, box: Box, k: int) -> bool:
    x0, y0, x1, y1 = (round(v) for v in box)
    h, w = ids.shape
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h or x1 <= x0 or y1 <= y0:
        return False
    return float((ids[y0:y1, x0:x1] == k).mean()) > 0.8


def faces_of_deck(folder: Path) -> dict[tuple[int, int], Face]:
    """A rendered Debian deck's faces whose render is whole, by (rank, suit).

    Each render is cut to its ink first (Standard's ace of spades renders with a clear band
    above the card as tall again); whole is then the deck's modal size, which leaves out a
    render by id that is only part of a card (a court's picture, Dondorf's four of spades a
    quarter the size in a corner of the page). Their indices are not known here (nothing
    trains on them); only what card each is."""
    from tools.cards.decks import RANK_IDS, SUIT_IDS

    def opened(path: Path) -> Image.Image:
        image = Image.open(path).convert("RGBA")
        box = image.getchannel("A").getbbox()
        return image.crop(box) if box else image

    images = {}
    for r, rid in enumerate(RANK_IDS):
        for s, sid in enumerate(SUIT_IDS):
            path = folder / f"{rid}_{sid}.png"
            if path.exists():
                images[(r, s)] = opened(path)
    for name, key in (("back", (NONE, 0)), ("red_joker", (JOKER, 2)), ("black_joker", (JOKER, 3))):
        path = folder / f"{name}.png"
        if path.exists():
            images[key] = opened(path)
    sizes: dict[tuple[int, int], int] = {}
    for im in images.values():
        sizes[im.size] = sizes.get(im.size, 0) + 1
    modal = max(sizes, key=lambda s: sizes[s]) if sizes else (0, 0)
    return {k: Face(im, k[0], k[1], []) for k, im in images.items() if im.size == modal}
