"""Muggins: the one home of its rules, as the seeds and the ACC play it.

- **The window.** A count may be mugged once it is pegged, until the next entry that
  pegs or the end of the show: the next claim closes it, and closing needs no entry of
  its own (a play pegged by hand stays open to a call as the show begins). Only another
  side calls, once.
- **The verdict waits.** While the window is open the table hears the count as claimed
  and nothing more (:meth:`State.kept <pegboard.game.state.State.kept>`): spotting the
  miss is the opponents' skill (Dutch seed: the opponent calls "Muggins!" after the count
  is announced, names what was missed and pegs it; Muggins "trains players to count
  carefully"). The call says how many points were missed, with the cards when the count
  was pegged without them; only then does the board say what the cards hold. When the
  window closes without a call, what was missed is shown as a lesson (the ``lessons``
  house rule, on by default).
- **The call (ACC).** The caller pegs the lesser of the call and the points truly missed;
  a false call (nothing missed) gives the mugged side the points called. A call made
  without the cards stands as made, unless the mugged side disputes it by showing them
  before the next count. Heels, penalties and Muggins itself are never mugged.
- **An over-count is the opponents' to catch too** (with Muggins on). The board pegs a
  count as claimed, over or not, and tells nothing more while its window is open: a
  board that took an over-count back at once would tell the table that every other
  claim was not over, and let a player claim 29 every time for an exact count. An
  opponent challenges it within the window by a call with the cards
  (:func:`~pegboard.game.commands.challenge`, or a Muggins call whose cards show it
  over): the over-count rule settles it, not Muggins (the count is taken back to what
  its cards score; under the ``penalise`` rule the caller also pegs the excess), and the
  caller, whom the cards prove right, pays nothing. A challenge the cards do not bear
  out closes the window and costs nothing more. Unchallenged, the count stands when the
  window closes, and the lesson may say what the cards held. With Muggins off the board
  takes a known over-count back at once, and says so.
- **A claim of game** is an over-count too when it is false. With Muggins on its win
  is held until its window closes (the next entry closes it: :mod:`pegboard.game.pegging`),
  and a call with the cards can undo it. Muggins or not, a claim of game made without
  its cards can be shown over with them by an opponent until the next entry.
- **Lowball.** Every score is reversed (Dutch seed: "alle scores zijn omgekeerd"), so
  points hurt: the points a player missed are pegged onto that player when an opponent
  calls them, a false call costs the caller the points called, and an over-count's penalty
  is pegged by the side that over-counted. A miss never pays, an over-claim never helps,
  and a right call never costs the caller.

>>> from dataclasses import replace
>>> from pegboard.game.settings import Settings
>>> state = State(Settings(players=("Ann", "Bob"), muggins=True))
>>> under = Claim(seat=1, side=1, kind="hand", claimed=6, pegged=6, deal=1, actual=8)
>>> settle(state, under, caller=0, called=4)      # Ann pegs the 2 truly missed
(Mugging(seat=0, called=4, side=0, points=2, disputed=False, right=True), 0)
>>> settle(replace(state, settings=Settings(players=("Ann", "Bob"), variant="lowball")),
...        under, caller=0, called=4)              # lowball: onto Bob, who missed them
(Mugging(seat=0, called=4, side=1, points=2, disputed=False, right=True), 1)
"""

from __future__ import annotations

from pegboard.game.state import State
from pegboard.game.values import Claim, Mugging


def settle(state: State, claim: Claim, caller: int, called: int) -> tuple[Mugging, int]:
    """The call of ``called`` points by ``caller`` on ``claim``, settled by its cards
    (or, without them, as made): the Muggins record and the seat that pegs the points.
    An over-count is not settled here (see the module's rules)."""
    missed = called if claim.actual is None else claim.actual - claim.claimed
    right = missed > 0
    points = min(called, missed) if right else called
    to_caller = right != state.settings.variant_rules.lowball
    seat = caller if to_caller else claim.seat
    return Mugging(caller, called, state.side_of(seat), points, right=right), seat


def penalised(state: State, side: int, caller: int | None = None) -> tuple[int, ...]:
    """The sides that peg the excess of ``side``'s over-count under the ``penalise``
    rule: the caller's, when a call showed it (Hoyle: the opponent who caught it), else
    the others; in lowball the side that over-counted."""
    if state.settings.variant_rules.lowball:
        return (side,)
    if caller is not None:
        return (state.side_of(caller),)
    return tuple(other for other in range(state.sides) if other != side)
