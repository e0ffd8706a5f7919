"""Skunks: the one home of where the skunk lines lie and how deep a loser is skunked.

The board, the LEDs, the panel, the statistics and the win message all read these
two functions; nothing else knows a skunk line.

What a skunk is, from the seeds (Dutch: "geskunked bij minder dan 91 of dubbel
geskunked bij minder dan 61"; triple below 31 as a house rule):

- A skunk line lies every 30 holes below the target: 91, 61 and 31 in the game to
  121. A loser who did not reach a line is skunked that deep: below 91 a skunk,
  below 61 a double, below 31 a triple skunk, as far as the ``skunk`` setting
  counts (none, single, double, triple).
- No line lies below 31: a line must leave a whole street of 30 holes behind it.
  So the five-card game to 61 has one line, at 31 (the old "lurch": a loser who
  did not get half-way round), and no double or triple skunk; the seven-card game
  to 181 has its lines at 151, 121 and 91.
- Lowball has no skunk: the first side to the target loses, so the rest won.

>>> from pegboard.game.settings import Settings
>>> skunk_lines(Settings()), skunk_lines(Settings(skunk="triple"))
((91, 61), (91, 61, 31))
>>> skunk_lines(Settings(variant="five-card")), skunk_lines(Settings(variant="seven-card"))
((31,), (151, 121))
>>> skunk_lines(Settings(skunk="none")), skunk_lines(Settings(variant="lowball"))
((), ())
>>> [skunk_level(Settings(skunk="triple"), s) for s in (91, 90, 61, 60, 31, 30, 0)]
[0, 1, 1, 2, 2, 3, 3]
>>> skunk_level(Settings(variant="five-card"), 0)
1
"""

from __future__ import annotations

from pegboard.game.settings import SKUNK_RULES, Settings

STREET = 30  # holes between two skunk lines, and below the lowest


def skunk_lines(settings: Settings) -> tuple[int, ...]:
    """The skunk lines that count in a game, highest first: a loser below the first
    is skunked, below the second double skunked, below the third triple."""
    if settings.variant_rules.lowball:
        return ()
    counted = SKUNK_RULES.index(settings.skunk)  # none 0, single 1, double 2, triple 3
    lines = (settings.target - STREET * k for k in range(1, counted + 1))
    return tuple(line for line in lines if line > STREET)


def skunk_level(settings: Settings, score: int) -> int:
    """How deep a loser with ``score`` is skunked: 0 none, 1 skunk, 2 double, 3 triple."""
    return sum(1 for line in skunk_lines(settings) if score < line)
