"""Which proposal is which index: a proposal is an index seen when its centre, its way up and
its size agree with where the scene put that index's glyph and pip."""

from __future__ import annotations

import math

from pegboard.reader.ink import Proposal
from tools.cards.faces import NONE
from tools.cards.scenes import Truth


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def match(prop: Proposal, truths: list[Truth]) -> tuple[int, int, int]:
    """(rank, suit, card) of the index the proposal is, or (NONE, 0, -1)."""
    for t in truths:
        gx, gy = _centre(t.glyph)
        px, py = _centre(t.pip)
        d = math.hypot(px - gx, py - gy)
        if t.glyph == t.pip:  # a joker's column of letters: no pip below it
            x0, y0, x1, y1 = t.glyph
            d = max(x1 - x0, y1 - y0) / 2.5
            if x0 <= prop.centre[0] <= x1 and y0 <= prop.centre[1] <= y1:
                return t.rank, t.suit, t.card
            continue
        if d < 1:
            continue
        mx, my = (gx + px) / 2, (gy + py) / 2
        off = math.hypot(prop.centre[0] - mx, prop.centre[1] - my)
        dot = (prop.down[0] * (px - gx) + prop.down[1] * (py - gy)) / d
        if off < 0.4 * d and dot > 0.8 and 0.6 * d < prop.d < 1.6 * d:
            return t.rank, t.suit, t.card
    return NONE, 0, -1
