"""What the reader saw of one card: the card, its box on the photo, how sure (no numpy here:
the panel and the command line may import this before any photo comes)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pegboard.rules.cards import Card

SURE = 0.9  # sureness at or above which a card is marked sure

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Seen:
    """One card seen: where (x0, y0, x1, y1 on the photo as given), and how sure."""

    card: Card
    box: Box
    sureness: float

    @property
    def sure(self) -> bool:
        return self.sureness >= SURE

    def as_json(self) -> dict[str, Any]:
        return {"card": str(self.card), "sure": self.sure, "box": list(self.box)}
