"""``pegboard club export``, ``check`` and ``send``: a night of the club's file as a
signed night file (:mod:`pegboard.club.nightfile`), checked again from the file alone,
and sent to a league when the hall has a connection.

What the file holds is read through the club's own modules, in one place
(:func:`logged`): the night's events as the club's file keeps them, with who made each
and when. What a board signed of its game's end is :func:`board_signature` (one place
too).

The director's key pair is made once and kept in the club's folder (``director-key``):
the league knows the club by its public key, registered once by the league's admin.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from hashlib import sha256
from pathlib import Path
from typing import Any

from pegboard.club.endsigned import written
from pegboard.club.night import BOARD, Event, GameCounted, TableAdded
from pegboard.club.nightfile import (
    Checked,
    Logged,
    body_of,
    canonical,
    read,
    sign,
)
from pegboard.club.store import ClubStore
from pegboard.errors import ClubError
from pegboard.i18n import N_, Phrase
from pegboard.identity import Identity

STORE = "club.db"  # as pegboard.club.serve keeps it
DIRECTOR_KEY = "director-key"  # the director's Ed25519 key pair, in the club's folder
CLUB_NAME = "club-name"  # the club's name, given once with --club
NIGHTS = "nights"  # where the files are written, in the club's folder

NO_CLUB = N_("{folder} holds no club's nights: give the club's folder with --data")
NO_NIGHT = N_("the club has no night {night}")
NO_NAME = N_("give the club's name once with --club (it is kept for the nights after)")
NOT_SENT = N_("the league at {url} did not take the night after {tries} tries: {error}")
AGAIN = N_("the league did not take the night ({error}): trying again in {seconds} s")
REFUSED = N_("the league refused the night: {error}")


def logged(store: ClubStore, night: int) -> list[Logged]:
    """The adapter: ``night``'s events as the club keeps them, with who made each and when."""
    return store.events(night)


def board_signature(event: Event, kinds: Mapping[int, str]) -> dict[str, Any] | None:
    """The board's signature of ``event``'s game as the night file carries it (``kinds``:
    each table's kind). A hosted table is the club's own: no board signs it (None). A
    board signs each game's end with its Ed25519 identity; the club checks it against the
    board's key pinned at pairing when it counts the game
    (:func:`pegboard.club.results.checked`) and keeps it with the result, so a league
    checks it too (``ed25519``: the key, the signature and what of the signed end the
    result does not hold already, :func:`pegboard.club.endsigned.board_signed`). A result
    the club counted before it kept them gives the old form, which proves nothing to a
    league: ``{"algorithm": "hmac-sha256", "signature": null}``."""
    if not isinstance(event, GameCounted) or kinds.get(event.table) != BOARD:
        return None
    return written(event)


def director(folder: Path) -> Identity:
    """The club's director's key pair, made at the first export and kept."""
    return Identity.made(folder / DIRECTOR_KEY)


def night_file(
    store: ClubStore, night: int, key: Identity, club: str, date: str | None = None
) -> dict[str, Any]:
    """The signed file of the club's ``night`` (``date``: the day it was opened, here)."""
    opened = dict(store.nights()).get(night)
    if opened is None:
        raise ClubError(Phrase.of(NO_NIGHT, night=night))
    events = logged(store, night)
    kinds = {e.table: e.kind for e, _, _ in events if isinstance(e, TableAdded)}
    made = f"{key.public.hex()} {night} {opened}"  # the same night of the same club, always
    body = body_of(
        events,
        [board_signature(event, kinds) for event, _, _ in events],
        night=sha256(made.encode()).hexdigest()[:32],
        revision=len(events),
        club=club,
        date=date or _local_date(opened),
    )
    return sign(body, key)


def _local_date(opened: str) -> str:
    at = datetime.strptime(opened, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)
    return at.astimezone().date().isoformat()


def club_name(folder: Path, given: str | None) -> str:
    """The club's name: ``given`` (kept from now on), else the one kept."""
    path = folder / CLUB_NAME
    if given is not None and " ".join(given.split()):
        name = " ".join(given.split())[:80]
        path.write_text(name + "\n", encoding="utf-8")
        return name
    if path.is_file():
        return path.read_text(encoding="utf-8").strip()
    raise ClubError(Phrase(NO_NAME))


def export(
    folder: Path,
    night: int | None = None,
    out: Path | None = None,
    club: str | None = None,
    date: str | None = None,
) -> tuple[Path, dict[str, Any]]:
    """Write the night file of the club in ``folder`` (its latest night by default):
    where it went, and what it holds."""
    if not (folder / STORE).is_file():
        raise ClubError(Phrase.of(NO_CLUB, folder=str(folder)))
    name = club_name(folder, club)
    store = ClubStore(folder / STORE)
    try:
        number = night if night is not None else max((n for n, _ in store.nights()), default=1)
        data = night_file(store, number, director(folder), name, date)
    finally:
        store.close()
    path = out or folder / NIGHTS / f"night-{number}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    written = path.with_name(path.name + ".part")
    written.write_bytes(canonical(data) + b"\n")
    written.replace(path)
    return path, data


def check(path: Path, folder: Path | None, key: str | None) -> Checked:
    """The night file ``path`` checked from the file alone; signed with ``key`` (hex),
    else with the director's key kept in ``folder`` (if it has one)."""
    expected = bytes.fromhex(key) if key else None
    if expected is None and folder is not None and (folder / DIRECTOR_KEY).is_file():
        expected = director(folder).public
    try:
        raw = path.read_bytes()
    except OSError as error:
        said = N_("the file {path} cannot be read ({error})")
        raise ClubError(Phrase.of(said, path=str(path), error=error.strerror or "")) from None
    return read(raw, path.name, expected)


def send(
    url: str,
    data: Mapping[str, Any],
    tries: int = 8,
    wait: float = 1.0,
    say: Callable[[Phrase], None] = lambda said: None,
    sleep: Callable[[float], None] = time.sleep,
) -> dict[str, Any]:
    """Send the night file ``data`` to the league at ``url`` until it answers (at most
    ``tries`` times, waiting ``wait`` seconds, then twice as long each time): the
    league's answer. The league applies a night once (by its id and digest), so a
    retry after a lost answer changes nothing."""
    import json

    target = url.rstrip("/") + "/league/api/nights"
    body, error = canonical(dict(data)), ""
    for attempt in range(1, tries + 1):
        request = urllib.request.Request(
            target, body, {"Content-Type": "application/json"}, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                answered: dict[str, Any] = json.loads(answer.read())
                return answered
        except urllib.error.HTTPError as refused:
            said = _said(refused)
            if refused.code < 500 and refused.code != 429:
                raise ClubError(Phrase.of(REFUSED, error=Phrase.as_is(said))) from None
            error = f"{refused.code} {said}"
        except (OSError, ValueError) as failed:
            error = str(getattr(failed, "reason", failed))
        if attempt < tries:
            seconds = min(wait * 2 ** (attempt - 1), 60.0)
            say(Phrase.of(AGAIN, error=Phrase.as_is(error), seconds=f"{seconds:g}"))
            sleep(seconds)
    raise ClubError(Phrase.of(NOT_SENT, url=url, tries=tries, error=Phrase.as_is(error)))


def _said(error: urllib.error.HTTPError) -> str:
    import json

    try:
        return str(json.loads(error.read()).get("error", error.reason))
    except (ValueError, AttributeError, OSError):
        return str(error.reason)
