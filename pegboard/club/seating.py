"""Each round's seating: players paired at random, no one against an opponent met
before in the night while the numbers allow it, and a bye for one player when they are
odd.

While the players are those of the first round, the night follows a round robin (the
circle method) over them in an order drawn at random for the night: everyone meets
everyone else once before anyone meets anyone twice (8 players: 7 rounds of new
opponents), and with an odd number each has one bye before anyone has two. A player who
comes or goes later makes each round a search instead: pairs of players who met the
fewest times, in random order, and the bye to one of those with the fewest byes.

>>> import random
>>> rng, met, order = random.Random(7), {}, ()
>>> for number in range(7):
...     pairs, bye, order = draw([1, 2, 3, 4, 5, 6, 7, 8], met, {}, rng, order, number)
...     for a, b in pairs:
...         met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
>>> len(met), max(met.values())  # everyone met everyone else once
(28, 1)
>>> pairs, bye, order = draw([1, 2, 3], {}, {1: 1, 2: 0, 3: 1}, rng, (4, 1, 2), 3)
>>> bye, order  # another field than the round robin's: searched
(2, ())
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

Pair = tuple[int, int]
STEPS = 20_000  # tries of one search before a repeat is allowed once more


def draw(
    players: Sequence[int],
    met: Mapping[frozenset[int], int],
    byes: Mapping[int, int],
    rng: random.Random,
    order: Sequence[int] = (),
    drawn: int = 0,
) -> tuple[list[Pair], int | None, tuple[int, ...]]:
    """Pairs for a round of ``players`` in random order (``met``: how often two have
    met; ``byes``: how many byes each has had), who has the bye (None when they are
    even), and the round robin's order followed (``order``, or a new one when ``drawn``,
    the rounds drawn so far, is 0; () when the round was searched)."""
    if not drawn:
        order = list(players)
        rng.shuffle(order)
    if sorted(order) == sorted(players) and order:
        pairs, bye = circle(order, drawn)
        rng.shuffle(pairs)
        return pairs, bye, tuple(order)
    pairs, bye = searched(players, met, byes, rng)
    return pairs, bye, ()


def circle(order: Sequence[int], number: int) -> tuple[list[Pair], int | None]:
    """Round ``number`` (from 0) of the circle method over ``order``: the first seat
    stays, the rest turn one place a round; with an odd number, whoever meets the empty
    seat has the bye.

    >>> circle([1, 2, 3, 4], 0), circle([1, 2, 3, 4], 1), circle([1, 2, 3], 0)
    (([(1, 4), (2, 3)], None), ([(1, 3), (4, 2)], None), ([(2, 3)], 1))
    """
    seats: list[int | None] = [*order, None] if len(order) % 2 else list(order)
    n = len(seats)
    turned = seats[1:]
    shift = number % (n - 1)
    turned = turned[n - 1 - shift :] + turned[: n - 1 - shift]
    ring = [seats[0], *turned]
    pairs: list[Pair] = []
    bye = None
    for i in range(n // 2):
        a, b = ring[i], ring[n - 1 - i]
        if a is None or b is None:
            bye = b if a is None else a
        else:
            pairs.append((a, b))
    return pairs, bye


def searched(
    players: Sequence[int],
    met: Mapping[frozenset[int], int],
    byes: Mapping[int, int],
    rng: random.Random,
) -> tuple[list[Pair], int | None]:
    """A round found by search (see the module's words)."""
    waiting = list(players)
    rng.shuffle(waiting)
    bye = None
    if len(waiting) % 2:
        fewest = min(byes.get(player, 0) for player in waiting)
        bye = rng.choice([player for player in waiting if byes.get(player, 0) == fewest])
        waiting.remove(bye)
    repeats = 0
    while True:
        found = _pairs(waiting, met, repeats, rng)
        if found is not None:
            return found, bye
        repeats += 1


def _pairs(
    players: list[int], met: Mapping[frozenset[int], int], repeats: int, rng: random.Random
) -> list[Pair] | None:
    """Pairs of ``players`` none of whom met more than ``repeats`` times, found by a
    search in random order within STEPS tries (None: none found)."""
    steps = [0]
    chosen: list[Pair] = []

    def search(left: list[int]) -> bool:
        if not left:
            return True
        steps[0] += 1
        if steps[0] > STEPS:
            return False
        first, rest = left[0], left[1:]
        partners = [p for p in rest if met.get(frozenset((first, p)), 0) <= repeats]
        rng.shuffle(partners)
        partners.sort(key=lambda p: met.get(frozenset((first, p)), 0))  # fewest meetings first
        for partner in partners:
            chosen.append((first, partner))
            if search([p for p in rest if p != partner]):
                return True
            chosen.pop()
        return False

    return chosen if search(players) else None
