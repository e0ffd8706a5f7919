"""The voice: says what the front door announces, from its own thread, never in the way.

The door's callback only notes the change (the button-to-LED path waits for nothing
here); the voice's thread works out what to say (:mod:`pegboard.keeper.aloud`), lets the
LEDs show the change first (up to :data:`LEDS_FIRST`: ``shown`` says when they have, as
the LED painter does), makes the speech and hands it to the output. Sentences wait their
turn in a queue:

- a fleeting one (a go, a refusal) is dropped unsaid once a later entry is made: play
  has moved on; but a score is never dropped: scores of the play that pile up are said
  together in one short sentence that names who scored ("Ann two, Bob three");
- an undo cancels what the entry taken back made true, even mid-sentence;
- :meth:`Voice.repeat` (a long press on the advance button) says the last one again.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pegboard.errors import PegboardError
from pegboard.i18n import check_language
from pegboard.keeper import Change, Scorekeeper, State
from pegboard.keeper.aloud import CARDS, EVENTS, SAID, Announcement, announcements, merged, undone
from pegboard.keeper.follower import Follower
from pegboard.voice.engine import Engine, Espeak, VoiceError
from pegboard.voice.out import Output, Silent, open_output

log = logging.getLogger(__name__)

KEPT = 50  # sentences kept in Voice.spoken
LEDS_FIRST = 0.05  # seconds the voice waits for the LEDs to show a change before speaking
QUIET = ("lit", "dial", "brightness", "photo")  # changes with nothing to say


@dataclass(frozen=True, slots=True)
class Spoken:
    """A sentence the voice said: its kind, its words, whether it was said whole (not
    cut short by an undo, nor failed), and the scores of the play it named."""

    event: str
    text: str
    whole: bool
    scores: tuple[tuple[str | None, int], ...] = ()


@dataclass(slots=True)
class _Turn:
    """An announcement waiting its turn: ``state`` is the state its change left (an undo
    of it cancels it), ``version`` the change's (the LEDs show it first)."""

    announcement: Announcement
    state: State | None
    version: int
    cut: bool = False


class Voice(Follower):
    """Speaks ``keeper``'s changes in ``lang`` through ``engine`` and ``out`` until
    :meth:`close`; ``events`` are the kinds of announcement said (all by default).
    ``shown(version, timeout)`` waits until the LEDs show the door's change ``version``
    (None: no LEDs to wait for)."""

    def __init__(
        self,
        keeper: Scorekeeper,
        engine: Engine,
        out: Output,
        *,
        lang: str = "en",
        events: Collection[str] = SAID,
        shown: Callable[[int, float], bool] | None = None,
    ) -> None:
        self.engine, self.out, self._shown = engine, out, shown
        self.lang = check_language(lang)
        unknown = set(events) - set(EVENTS)
        if unknown:
            raise ValueError(f"no such announcements: {', '.join(sorted(unknown))}")
        self.events = frozenset(events)
        self.spoken: deque[Spoken] = deque(maxlen=KEPT)
        self._changes: deque[Change] = deque()
        self._queue: list[_Turn] = []
        self._current: _Turn | None = None
        self._last: _Turn | None = None
        self._said = 0  # sentences finished, for waiters
        super().__init__(keeper, "voice")

    def __repr__(self) -> str:
        return f"<Voice {self.lang} {self.engine!r} {self.out!r} said={self._said}>"

    @property
    def sentences(self) -> int:
        """How many sentences the voice has finished (or cut short) so far."""
        return self._said

    # --- the door's side: note and return -------------------------------------------

    def heard(self, change: Change) -> None:
        if change.what == "repeat":
            self.repeat()
            return
        if change.what in QUIET:
            return
        with self._cond:
            self._changes.append(change)
            self._cond.notify_all()

    def repeat(self) -> bool:
        """Say the last announcement again (False: nothing said yet)."""
        with self._cond:
            if self._last is None or self._closed:
                return False
            self._queue.append(replace(self._last, cut=False))
            self._cond.notify_all()
            return True

    # --- waiting on it (tests, the doctor) ------------------------------------------------

    def wait_quiet(self, timeout: float) -> bool:
        """Wait until everything announced so far has been said; False on timeout."""
        with self._cond:
            return self._cond.wait_for(self._quiet, timeout)

    def _quiet(self) -> bool:
        return not (self._changes or self._queue or self._current) or self._closed

    def close(self, timeout: float = 5.0) -> None:
        """Stop speaking (mid-sentence too) and end the thread. Safe twice."""
        super().close(timeout)
        self.out.close()

    # --- the voice's own thread ------------------------------------------------------------

    def _absorb(self) -> None:
        """Turn the changes heard into turns in the queue (holding the lock)."""
        while self._changes:
            change = self._changes.popleft()
            if undone(change):
                taken_back = change.before
                for turn in (*self._queue, self._current):
                    if turn is not None and (turn.state is taken_back or turn.state == taken_back):
                        turn.cut = True
                self._queue = [turn for turn in self._queue if not turn.cut]
            elif change.what == "game":  # play has moved on: what it scored stays
                self._queue = [t for t in self._queue if _kept(t.announcement)]
            else:  # a refusal says why, so the one before it is stale
                self._queue = [t for t in self._queue if t.announcement.event != "refusals"]
            self._queue += [
                _Turn(said, change.state, change.version)
                for said in announcements(change, cards=CARDS in self.events)
                if said.event in self.events
            ]
            self._queue = _merged(self._queue)

    def run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._changes or self._queue or self._closed)
                if self._closed:
                    return
                self._absorb()
                if not self._queue:
                    self._cond.notify_all()
                    continue
                turn = self._current = self._last = self._queue.pop(0)
            if self._shown is not None:  # a press lights the board before the voice takes
                self._shown(turn.version, LEDS_FIRST)  # its share of the machine
            self._speak(turn)
            with self._cond:
                self._current = None
                self._said += 1
                self._cond.notify_all()

    def _speak(self, turn: _Turn) -> None:
        said = turn.announcement
        text = said.say(self.lang)
        whole = True
        if self.out.wants_audio:
            try:
                speech = self.engine.speak(text, self.lang)
                whole = self.out.play(speech, said.event, lambda: self._cut(turn))
            except PegboardError as error:
                log.warning("voice: %s", error)
                whole = False
        self.spoken.append(Spoken(said.event, text, whole and not turn.cut, said.scores))

    def _cut(self, turn: _Turn) -> bool:
        """True once ``turn`` must stop: an undo took back what it says, or the voice closes."""
        with self._cond:
            self._absorb()
            return turn.cut or self._closed


def _kept(said: Announcement) -> bool:
    """Whether ``said`` is still worth saying once play has moved on: all but a go or a
    refusal (a score stays true, said late)."""
    return not said.fleeting or said.points > 0


def _merged(queue: list[_Turn]) -> list[_Turn]:
    """``queue`` with each run of waiting scores of the play said as one sentence."""
    out: list[_Turn] = []
    for turn in queue:
        last = out[-1] if out else None
        if last is not None and last.announcement.points and turn.announcement.points:
            both = merged([last.announcement, turn.announcement])
            out[-1] = replace(turn, announcement=both)
        else:
            out.append(turn)
    return out


def open_voice(
    keeper: Scorekeeper,
    settings: Mapping[str, Any],
    lang: str,
    folder: Path,
    *,
    shown: Callable[[int, float], bool] | None = None,
) -> Voice | None:
    """The voice the config's [voice] table asks for (None when it is off), speaking
    ``lang`` once ``shown`` says the LEDs show each change; ``folder`` holds its WAV files
    when it writes them and names none. With ``out = "auto"`` a computer without
    espeak-ng or audio gets a silent voice."""
    if not settings["enabled"]:
        return None
    engine = Espeak(rate=settings["rate"], volume=settings["volume"])
    out = open_output(settings["out"], Path(settings["folder"] or folder))
    if out.wants_audio:
        try:
            engine.check()
        except VoiceError as error:
            if settings["out"] != "auto":
                raise
            log.warning("voice: %s", error)
            out = Silent()
    return Voice(keeper, engine, out, lang=lang, events=settings["events"], shown=shown)
