"""How the board speaks cribbage: the traditional call of a show or a play.

>>> number_words(29), number_words(121)
('twenty-nine', 'one hundred twenty-one')
"""

from __future__ import annotations

from collections import Counter
from math import prod
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pegboard.play import Peg
    from pegboard.scoring import Show

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    """English words for 0..999."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    hundreds, rest = divmod(n, 100)
    return f"{_ONES[hundreds]} hundred" + (f" {number_words(rest)}" if rest else "")


_SETS = {2: "a pair", 3: "a pair royal", 4: "a double pair royal"}
# A run with its repeated ranks, called as one: the multiplicities above 1 name it.
_RUN_NAMES = {
    (): "a run of {n}",
    (2,): "a double run of {n}",
    (3,): "a triple run of {n}",
    (2, 2): "a double double run of {n}",
}


def _show_phrases(show: Show) -> list[tuple[str, int]]:
    """The named parts of a show, in calling order, each with its points."""
    from pegboard.scoring import runs_of

    phrases = [("fifteen", 2)] * (show.fifteens // 2)
    ranks = Counter(card.rank for card in (*show.hand, show.starter))
    runs, in_runs = [], set()
    for low, length in runs_of(ranks):
        segment = range(low, low + length)
        repeats = tuple(sorted(ranks[r] for r in segment if ranks[r] > 1))
        if repeats not in _RUN_NAMES:  # too tangled to name: call runs and pairs apart
            runs += [(_RUN_NAMES[()].format(n=number_words(length)), length)] * prod(
                ranks[r] for r in segment
            )
            continue
        in_runs.update(segment)
        points = length * prod(ranks[r] for r in segment) + sum(n * (n - 1) for n in repeats)
        runs.append((_RUN_NAMES[repeats].format(n=number_words(length)), points))
    phrases += [
        (_SETS[n], n * (n - 1))
        for rank, n in sorted(ranks.items())
        if n >= 2 and rank not in in_runs
    ]
    phrases += runs
    if show.flush:
        phrases.append((f"a flush of {number_words(show.flush)}", show.flush))
    if show.nobs:
        phrases.append(("one for his nobs", 1))
    return phrases


def _call(phrases: list[tuple[str, int]]) -> str:
    words, total = [], 0
    for phrase, points in phrases:
        total += points
        if phrase == "fifteen":
            words.append(f"fifteen {number_words(total)}")
        else:
            words.append(("and " if words else "") + f"{phrase} is {number_words(total)}")
    return ", ".join(words)


def show_call(show: Show) -> str:
    """ "fifteen two, fifteen four, and a pair is six"; a zero hand is "nineteen"."""
    return _call(_show_phrases(show)) or "nineteen: nothing to peg"


def play_call(peg: Peg) -> str:
    """What the player says laying the card: "fifteen two", "thirty-one for four"."""
    count = number_words(peg.count)
    if not peg.points:
        return count
    return f"{count} for {number_words(peg.points)}"
