"""The requests the front door has answered, so that one sent again is not made twice (a
phone's ``Idempotency-Key`` with a digest of what it asked).

An entry is stored with its request's key (:meth:`Table.recall
<pegboard.game.Table.recall>` finds it after a crash or a restart too); a change that is
no entry (a dial, the brightness) is remembered while the board runs.
"""

from __future__ import annotations

from collections import OrderedDict

from pegboard.errors import PegboardError
from pegboard.game import Table
from pegboard.i18n import N_, Phrase
from pegboard.keeper.said import said_of

ANSWERED = 1024  # keyed requests remembered while the board runs (entries: in the file too)


class KeyReused(PegboardError, ValueError):
    """A request key sent again with another request."""


class Answers:
    """The answers given to keyed requests on ``table``'s games."""

    def __init__(self, table: Table) -> None:
        self._table = table
        self._answered: OrderedDict[str, tuple[str, Phrase]] = OrderedDict()

    def first(self, key: str, request: str) -> Phrase | None:
        """What the change first made for ``key`` said, or None if there was none; the
        same key with another ``request`` raises KeyReused."""
        first = self._answered.get(key) or self._recalled(key)
        if first is None:
            return None
        if first[0] != request:
            message = N_("this request key was used for another request: send a new one")
            raise KeyReused(Phrase(message))
        return first[1]

    def remember(self, key: str, request: str, said: Phrase) -> None:
        """The change made for ``key`` said ``said``."""
        self._answered[key] = (request, said)
        while len(self._answered) > ANSWERED:
            self._answered.popitem(last=False)

    def _recalled(self, key: str) -> tuple[str, Phrase] | None:
        """The request and the words of an entry stored with ``key``, if any."""
        receipt = self._table.recall(key)
        if receipt is None:
            return None
        event = self._table.events(receipt.game)[receipt.version - 1]
        state = self._table.state_of(receipt.game, receipt.version)
        return receipt.request, said_of(event, state.told)
