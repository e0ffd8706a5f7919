"""A photo in, the cards seen out: each with its box on the photo and how sure the reader is.

Every proposed corner index (:mod:`pegboard.reader.ink`) is classified (:mod:`.net`); what is
an index keeps its likeliest card, sureness the product of the rank's and the suit's
probabilities. The same index read twice (a ten's two digits each paired with its pip) counts
once; a card read in both its corners counts once; a lone card (its outline one card's shape,
its index reading along it) is one card, voted for by the readings where its indices lie. A
lone card where no index was proposed (its ink touching a middle pip or a court's frame) is
looked at where decks print the index, in each corner: sure only if two corners agree. Below
:data:`SURE` a card is *unsure*: the phone asks the player with the picker open at this
likely card. The reader never marks a guess sure.

What lies on a card (:func:`~pegboard.reader.ink.laid`: an outline wholly inside the photo
and bright against the table) is read, sure or unsure; off the cards (the table's pattern, or
a card running off the photo's edge) only a sure reading counts, so a bare table is no cards.
A joker is a joker when read twice on one card (its column of letters paired more than once,
or both its corners); read once, as a court card's picture now and then is, it is no index.

A photo with nothing readable gets one clear line (a :class:`~pegboard.errors.ReaderError`):
no cards, blurred, only card backs, a joker, or more cards than a show holds.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from pegboard.errors import ReaderError
from pegboard.i18n import N_, Phrase
from pegboard.reader.ink import INK, Proposal, Sheet, patches, prepare, proposals
from pegboard.reader.net import Net
from pegboard.reader.seen import SURE, Box, Seen
from pegboard.rules.cards import Card, Suit

INDEX = 0.5  # a proposal is an index when "no index" is less likely than this
BACK = 0.55  # a card outline this much ink is a back (a face, even a court card, is less)
MOST = 6  # cards in a photo: a six-card hand before the discard is the most a count needs
BLURRED = 12.0  # the photo's sharpness (variance of its Laplacian) below which it is blurred
JOKER, NONE = 13, 14  # the rank head's classes past the king
JOKER_READS = 2  # sure joker readings on one card that make it a joker
# Where a corner index lies on a lone card: its centre this far out from the card's middle,
# along the long side and across the short one (half a side = 1). A deck prints its index
# in the corner's margin; the middle pips and the court picture lie inside these.
AT_INDEX = (0.45, 0.55)
# Where to look for an index no blobs proposed, in the card's long side: its glyph-to-pip
# distance, the margin above its glyph; and its column's centre, in the short side.
LOOK_D = (0.075, 0.1, 0.13)
LOOK_TOP = 0.035
LOOK_COLUMN = (0.09, 0.125)


@dataclass(frozen=True, slots=True)
class _Read:
    prop: Proposal
    rank: int  # 0..12, JOKER
    suit: int
    sureness: float


def read_image(rgb: np.ndarray[Any, np.dtype[np.uint8]]) -> tuple[Seen, ...]:
    """The cards in an RGB photo (h, w, 3), left to right; raises ReaderError if none."""
    sheet = prepare(rgb)
    props = proposals(sheet)
    reads = _classify(sheet, props)
    jokers = [r for r in reads if r.rank == JOKER and _region_of(sheet, r.prop) in sheet.laid]
    per_card = Counter(_region_of(sheet, r.prop) for r in jokers)
    if max(per_card.values(), default=0) >= JOKER_READS:
        raise ReaderError(Phrase(N_("A joker is in the photo: cribbage is played without jokers.")))
    # Off the cards (the table, an outline running off the photo) only a sure reading counts.
    kept = [
        r
        for r in reads
        if r.rank != JOKER and (r.sureness >= SURE or _region_of(sheet, r.prop) in sheet.laid)
    ]
    read_on = {_region_of(sheet, r.prop) for r in kept}
    for region in sorted(sheet.laid - read_on):
        if not _back(sheet, region) and (lone := _lone_card(sheet, region)) is not None:
            kept += _looked_for(sheet, lone)
    cards = _cards(sheet, kept, jokers)
    if not cards:
        raise ReaderError(_why_nothing(sheet))
    if not any(seen.sure for seen in cards) and sheet.sharpness < BLURRED:
        raise ReaderError(_BLURRED)
    if len(cards) > MOST:
        raise ReaderError(
            Phrase(N_("More than six cards in the photo: photograph one hand or the crib."))
        )
    return cards


_BLURRED = Phrase(N_("The photo is too blurred to read the cards: hold still and take it again."))


def _classify(sheet: Sheet, props: list[Proposal]) -> list[_Read]:
    if not props:
        return []
    ranks, suits = Net.load()(patches(sheet, props))
    out = []
    for prop, rp, sp in zip(props, ranks, suits, strict=True):
        if rp[NONE] >= INDEX:
            continue
        rank = int(rp[:NONE].argmax())
        suit = int(sp.argmax())
        sureness = float(rp[rank]) * (1.0 if rank == JOKER else float(sp[suit]))
        if rank == JOKER and sureness < SURE:
            continue  # an unsure joker is no index at all
        out.append(_Read(prop, rank, suit, sureness))
    # The same index paired two ways: keep the surer reading.
    out.sort(key=lambda r: -r.sureness)
    kept: list[_Read] = []
    for r in out:
        cx, cy = r.prop.centre
        if all(
            np.hypot(cx - k.prop.centre[0], cy - k.prop.centre[1]) > 0.6 * k.prop.d for k in kept
        ):
            kept.append(r)
    return kept


def _region_of(sheet: Sheet, prop: Proposal) -> int:
    h, w = sheet.cards.shape
    x = min(max(int(prop.centre[0]), 0), w - 1)
    y = min(max(int(prop.centre[1]), 0), h - 1)
    return int(sheet.cards[y, x])


@dataclass(frozen=True, slots=True)
class _Lone:
    """A region whose outline is one card's: its box, and its rectangle to place a reading on."""

    box: Box
    centre: tuple[float, float]
    along: tuple[float, float]  # unit vector along the card's long side
    half: tuple[float, float]  # half its long side, half its short side

    def upright(self, r: _Read) -> bool:
        """Whether ``r`` reads along the card's long side, as an index on it does."""
        return abs(r.prop.down[0] * self.along[0] + r.prop.down[1] * self.along[1]) >= 0.8

    def at_index(self, r: _Read, top: _Read) -> bool:
        """Whether ``r`` lies where a corner index does (near a corner, not among the middle
        pips or the court picture) and is as big as the card's best reading (a flourish of
        the border is smaller)."""
        dx, dy = r.prop.centre[0] - self.centre[0], r.prop.centre[1] - self.centre[1]
        ux, uy = self.along
        long = abs(dx * ux + dy * uy) / self.half[0]
        short = abs(-dx * uy + dy * ux) / self.half[1]
        return long >= AT_INDEX[0] and short >= AT_INDEX[1] and r.prop.d >= 0.6 * top.prop.d


def _lone_card(sheet: Sheet, region: int) -> _Lone | None:
    """The region as one card, if its outline is a rectangle of a card's proportions."""
    import cv2

    ys, xs = np.nonzero(sheet.cards == region)
    if len(xs) < 50:
        return None
    (cx, cy), (a, b), angle = cv2.minAreaRect(np.stack([xs, ys], axis=1).astype(np.float32))
    long, short = max(a, b), max(min(a, b), 1.0)
    if len(xs) / (a * b + 1) < 0.9 or not 1.2 <= long / short <= 1.75:
        return None
    theta = np.radians(angle if a >= b else angle + 90)
    box = int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1
    return _Lone(
        box,
        (float(cx), float(cy)),
        (float(np.cos(theta)), float(np.sin(theta))),
        (long / 2, short / 2),
    )


def _looked_for(sheet: Sheet, lone: _Lone) -> list[_Read]:
    """A lone card's index where no pair of blobs proposed one (its pip touching a middle
    pip or a court's frame makes one blob of the two): patches cut where a deck prints an
    index (:data:`LOOK_D`, :data:`LOOK_COLUMN`), in each corner. Its likeliest reading, sure
    only if another corner reads the same card sure."""
    (cx, cy), (ux, uy), (half_long, half_short) = lone.centre, lone.along, lone.half
    props = []
    for way in (1, -1):  # which end of the card
        for side in (1, -1):  # which side of it
            for size in LOOK_D:
                d = size * 2 * half_long
                along = half_long - (LOOK_TOP * 2 * half_long + 0.95 * d)
                for column in LOOK_COLUMN:
                    across = half_short - column * 2 * half_short
                    centre = (
                        cx - way * ux * along + side * uy * across,
                        cy - way * uy * along - side * ux * across,
                    )
                    props.append(Proposal(-1, -1, centre, (way * ux, way * uy), d))
    reads = [r for r in _classify(sheet, props) if r.rank != JOKER]
    if not reads:
        return []
    best = reads[0]  # the surest (:func:`_classify` sorts them)
    agreed = any(
        (r.rank, r.suit) == (best.rank, best.suit)
        and r.sureness >= SURE
        and np.hypot(r.prop.centre[0] - best.prop.centre[0], r.prop.centre[1] - best.prop.centre[1])
        > half_long
        for r in reads[1:]
    )
    return [best if agreed else replace(best, sureness=min(best.sureness, SURE - 0.01))]


def _cards(sheet: Sheet, reads: list[_Read], jokers: list[_Read]) -> tuple[Seen, ...]:
    # A lone card is one card: the readings where its indices lie vote (sureness summed), the
    # best one is it; an index that disagrees, or one read as a joker, leaves it unsure.
    by_region: dict[int, list[_Read]] = {}
    for r in reads:
        by_region.setdefault(_region_of(sheet, r.prop), []).append(r)
    chosen: list[tuple[_Read, Box]] = []
    for region, rs in by_region.items():
        lone = _lone_card(sheet, region) if region else None
        surest = max(rs, key=lambda r: r.sureness)
        # Not upright on it: two cards side by side, their outline a card's shape.
        if lone is None or not lone.upright(surest):
            chosen.extend((r, r.prop.box()) for r in rs)
            continue
        rs = [r for r in rs if lone.at_index(r, surest)] or rs
        votes: dict[tuple[int, int], float] = {}
        for r in rs:
            votes[(r.rank, r.suit)] = votes.get((r.rank, r.suit), 0.0) + r.sureness
        best = max(votes, key=lambda k: votes[k])
        top = max((r for r in rs if (r.rank, r.suit) == best), key=lambda r: r.sureness)
        rivals = sum(v for k, v in votes.items() if k != best)
        joker = any(
            _region_of(sheet, j.prop) == region and lone.at_index(j, surest) for j in jokers
        )
        doubt = rivals >= 0.5 or joker
        sureness = min(top.sureness, SURE - 0.01) if doubt else top.sureness
        chosen.append((_Read(top.prop, top.rank, top.suit, sureness), lone.box))
    # A card read in more than one place is one card (a deck holds each once).
    merged: dict[Card, tuple[float, Box]] = {}
    for r, box in chosen:
        card = Card(r.rank + 1, Suit(r.suit))
        if card in merged:
            was, old = merged[card]
            box = (
                min(box[0], old[0]),
                min(box[1], old[1]),
                max(box[2], old[2]),
                max(box[3], old[3]),
            )
            merged[card] = (max(was, r.sureness), box)
        else:
            merged[card] = (r.sureness, box)
    scale = sheet.scale
    seen = [
        Seen(card, tuple(round(v / scale) for v in box), round(s, 4))  # type: ignore[arg-type]
        for card, (s, box) in merged.items()
    ]
    return tuple(sorted(seen, key=lambda s: (s.box[0], s.box[1])))


def _why_nothing(sheet: Sheet) -> Phrase:
    if not sheet.laid:  # a bare table, however blurred
        return Phrase(N_("No cards in the photo: lay the cards face up and take it again."))
    if sheet.sharpness < BLURRED:
        return _BLURRED
    if any(_back(sheet, k) for k in sorted(sheet.laid)):
        return Phrase(N_("Only card backs in the photo: turn the cards face up."))
    return Phrase(
        N_("No card's corner could be read: take the photo from above, corners in sight.")
    )


def _back(sheet: Sheet, region: int) -> bool:
    """Whether the card outline ``region`` is a card's back (inked all over)."""
    return float((sheet.darkness[sheet.cards == region] > INK).mean()) > BACK
