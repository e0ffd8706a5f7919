"""A night as one signed file, the way a league takes it in (the README's "The night
file" gives the schema): the club, the date, the format, the players, every round, every
table's result with its game's log head, the corrections and who made them, the
standings the director showed, and the director's Ed25519 signature over the whole.

The signature covers the file's canonical JSON without its ``signature`` (keys sorted,
no spaces, UTF-8), so the same night written twice is the same bytes, and its digest
(:func:`digest`) says whether two files hold the same night as it stood.

:func:`read` takes nothing on trust: the signature first (a file changed after it was
signed, or cut short, is refused), then the key that signed it (another than the one
expected: re-signed), then the night itself, replayed through the club's own commands
(a round drawn while the last was being played, a result at a seat nobody sat at) and
its standings recomputed by the club's own standings code: standings that are not what
the results add up to are refused. A board's result carries the board's own signature of
its game's end (:func:`board_signed`), checked with the board's key: a result its board
did not sign, or signed for another night, table or round, is refused, so a league need
not take the club's word for a board's game. Each refusal is one line that names what is
wrong.

>>> from pegboard.identity import Identity
>>> director = Identity.generate()
>>> data = sign(body_of([], [], night="n1", revision=0, club="Pegtown",
...                     date="2026-12-03"), director)
>>> read(canonical(data), "night.json", director.public).club
'Pegtown'
>>> read(canonical({**data, "date": "2026-12-04"}), "night.json")
Traceback (most recent call last):
...
pegboard.club.nightfile.NightFileError: night.json was changed after its director signed it
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date as Date
from typing import Any

from pegboard.club import night as nights
from pegboard.club.endsigned import board_signed, carried
from pegboard.club.format import FORMAT
from pegboard.club.night import (
    BOARD,
    HOSTED,
    Corrected,
    Event,
    GameCounted,
    Night,
    RoundDrawn,
    TableAdded,
)
from pegboard.club.standings import Standing, standings
from pegboard.errors import ClubError, PegboardError
from pegboard.i18n import N_, Phrase, phrase_of
from pegboard.identity import Identity, fingerprint, verify
from pegboard.shape import Source, between, one_of

SCHEMA, VERSION = "pegboard-night", 1
MOST_BYTES = 4 * 1024 * 1024  # a night of 200 players, 30 rounds at boards: under 2 MB

NOT_WHOLE = N_("{source} is not a whole night file: it breaks off or goes wrong {at} characters in")
NOT_OURS = N_("{source} is not a pegboard night file")
TOO_LARGE = N_("{source} is too large for a night file (at most {size})")
NEWER = N_("{source} is a night file of version {found}: this pegboard reads version {version}")
UNSIGNED = N_("{source} is not signed by a club's director")
CHANGED = N_("{source} was changed after its director signed it")
RESIGNED = N_("{source} is signed by the key {found}, not by the club's director ({expected})")
WRONG = N_("{source}: {part}: {error}")
OUT_OF_ORDER = N_("{source}: its rounds, results and corrections are not in the order played")
NUMBERED = N_("{source}: its {what} are not numbered 1, 2, 3 … in order")
SEATED = N_("{source}: round {round} does not seat its players at the night's tables in order")
PLAYER = N_("player {player}")
SEAT = N_("round {round}, table {table}")
ROUND = N_("round {round}")
NOT_THEIRS = N_("not what the club's rules make of it")
STANDINGS = N_("{source}: its standings are not what its results add up to (place {place}: {name})")


class NightFileError(ClubError):
    """A night file that is refused (nothing of it is taken)."""


class Reading(Source):
    """:meth:`Source.value` that hands back a value of the right type as it is (a night's
    file is read once and never changed: no copy of each of its thousands of values)."""

    def value(self, table: Mapping[str, Any], name: str, kind: Any, **given: Any) -> Any:
        found, check = table.get(name), given.get("check")
        if type(found) is kind and (check is None or check(found) is None):
            return found
        return super().value(table, name, kind, **given)


def canonical(value: Any) -> bytes:
    """``value`` as canonical JSON: keys sorted, no spaces, UTF-8.

    >>> canonical({"b": 1, "a": "5♥"})
    b'{"a":"5\\xe2\\x99\\xa5","b":1}'
    """
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def signed_part(data: Mapping[str, Any]) -> bytes:
    """What the director signs: the file without its ``signature``, canonical."""
    return canonical({k: v for k, v in data.items() if k != "signature"})


def digest(data: Mapping[str, Any]) -> str:
    """The night's content digest (SHA-256 of what is signed, hex)."""
    return hashlib.sha256(signed_part(data)).hexdigest()


def sign(body: Mapping[str, Any], director: Identity) -> dict[str, Any]:
    """``body`` with the director's key and signature."""
    keyed = {
        **body,
        "director": {"key": director.public.hex(), "fingerprint": director.fingerprint},
    }
    return {**keyed, "signature": director.sign(signed_part(keyed)).hex()}


Logged = tuple[Event, str, str]  # an event of the night, who made it, when (UTC)


def body_of(
    logged: Sequence[Logged],
    kept: Sequence[Mapping[str, Any] | None],
    *,
    night: str,
    revision: int,
    club: str,
    date: str,
) -> dict[str, Any]:
    """The file of the night made by ``logged`` (in order), unsigned; ``kept`` is the
    board's signature of each event's log head, as the club keeps it (None: none)."""
    folded = nights.fold(event for event, _, _ in logged)
    rounds, results, corrections = [], [], []
    for seq, ((event, _, at), signature) in enumerate(zip(logged, kept, strict=True), start=1):
        match event:
            case RoundDrawn():
                seats = [{"table": t, "players": [a, b]} for t, a, b in event.seats]
                rounds.append({"seq": seq, "round": event.round, "seats": seats})
                rounds[-1]["byes"] = list(event.byes)
            case GameCounted():
                results.append({"seq": seq, **_result(event), "board_signature": signature})
                results[-1]["at"] = at
            case Corrected():
                corrections.append({"seq": seq, **_correction(event), "at": at})
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "night": night,
        "revision": revision,
        "club": {"name": club},
        "date": date,
        "format": folded.format.as_dict(),
        "players": [
            {"player": p.number, "name": p.name, "acc": p.acc or None}
            for p in sorted(folded.players.values(), key=lambda p: p.number)
        ],
        "tables": [{"table": n, "kind": t.kind} for n, t in sorted(folded.tables.items())],
        "rounds": rounds,
        "results": results,
        "corrections": corrections,
        "standings": [s.as_dict() for s in standings(folded)],
    }


def _result(event: GameCounted) -> dict[str, Any]:
    return {
        "round": event.round,
        "table": event.table,
        "game": event.game,
        "winner": event.winner,
        "loser": event.loser,
        "margin": event.margin,
        "skunk": event.skunk,
        "scores": list(event.scores),
        "hands": [{"player": p, "total": t, "cards": c} for p, t, c in event.hands],
        "head": event.head,
    }


def _correction(event: Corrected) -> dict[str, Any]:
    keys = ("round", "table", "winner", "margin", "skunk", "why", "by")
    return {key: getattr(event, key) for key in keys}


@dataclass(frozen=True)
class Signed:
    """A night file whose director's signature holds (its night not replayed yet):
    its data, the public key that signed it, its content digest, its name to people."""

    data: dict[str, Any]
    key: bytes
    digest: str
    name: str

    @property
    def id(self) -> str:
        return str(self.data.get("night"))

    @property
    def revision(self) -> int:
        return int(self.data["revision"])

    @property
    def club(self) -> str:
        club = self.data.get("club")
        return str(club.get("name", "")) if isinstance(club, dict) else ""

    @property
    def date(self) -> str:
        return str(self.data["date"])


@dataclass(frozen=True)
class Checked(Signed):
    """A night file that passed every check, with the night it replays to and the
    standings recomputed from it."""

    night: Night
    standings: list[Standing]


def read(raw: bytes, name: str, expected: bytes | None = None) -> Checked:
    """The night file ``raw`` (called ``name`` to people), checked (see the module's
    words); ``expected``: the director's key it must be signed with. Raises
    NightFileError."""
    return replayed(signed(raw, name, expected))


def signed(raw: bytes, name: str, expected: bytes | None = None) -> Signed:
    """The night file ``raw`` if it is whole and signed (by ``expected``, if given)."""

    def fail(message: str, **params: Any) -> NightFileError:
        return NightFileError(Phrase.of(message, source=name, **params))

    if len(raw) > MOST_BYTES:
        raise fail(TOO_LARGE, size=f"{MOST_BYTES // 1024 // 1024} MB")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise fail(NOT_WHOLE, at=error.start) from None
    except json.JSONDecodeError as error:
        raise fail(NOT_WHOLE, at=error.pos) from None
    except RecursionError:
        raise fail(NOT_OURS) from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        raise fail(NOT_OURS)
    if data.get("version") != VERSION:
        raise fail(NEWER, found=repr(data.get("version")), version=VERSION)
    key, signature = _hex(data.get("director"), "key"), _hex(data, "signature")
    if key is None or signature is None:
        raise fail(UNSIGNED)
    part = signed_part(data)
    if not verify(key, signature, part):
        raise fail(CHANGED)
    if expected is not None and key != expected:
        raise fail(RESIGNED, found=fingerprint(key), expected=fingerprint(expected))
    return Signed(data, key, hashlib.sha256(part).hexdigest(), name)


def replayed(found: Signed) -> Checked:
    """``found``'s night replayed and its standings recomputed; NightFileError if it
    does not replay or its standings are not what its results add up to."""
    data, name = found.data, found.name
    night = replay(data, Reading(name, NightFileError))
    recomputed = standings(night)
    shown = _list(data, "standings", name)
    for mine, theirs in zip(recomputed, shown, strict=False):
        if mine.as_dict() != theirs:
            raise _failed(name, STANDINGS, place=mine.place, name=mine.name)
    if len(recomputed) != len(shown):
        raise _failed(name, STANDINGS, place=len(recomputed) + 1, name="-")
    return Checked(data, found.key, found.digest, name, night, recomputed)


def _failed(source: str, message: str, **params: Any) -> NightFileError:
    return NightFileError(Phrase.of(message, source=source, **params))


def _hex(table: object, name: str) -> bytes | None:
    value = table.get(name) if isinstance(table, dict) else None
    try:
        return bytes.fromhex(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _list(data: Mapping[str, Any], name: str, file: str) -> list[Any]:
    return list(Reading(file, NightFileError).value(data, name, list))


def replay(data: Mapping[str, Any], read: Source) -> Night:
    """The night ``data`` holds, made again event by event through the club's own
    commands (each refusal named with the part of the file it is in)."""
    read.value(data, "night", str)
    read.value(data, "revision", int)
    club = read.value(data, "club", dict)
    read.value(club, "name", str, key="club.name")
    when = read.value(data, "date", str)
    try:
        Date.fromisoformat(when)
    except ValueError:
        raise read.fail(WRONG, part="date", error=Phrase.as_is(repr(when))) from None
    night = Night()

    def apply(part: str | Phrase, make: Any, *args: Any) -> Event:
        try:
            event: Event | None = make(night, *args)
        except PegboardError as error:
            raise read.fail(WRONG, part=part, error=phrase_of(error)) from None
        if event is None:  # a result given twice
            raise read.fail(OUT_OF_ORDER)
        night.apply(event)
        return event

    apply(FORMAT, nights.set_format, read.value(data, "format", dict))
    for number, player in enumerate(_records(read, data, "players"), start=1):
        if read.value(player, "player", int) != number:
            raise read.fail(NUMBERED, what="players")
        name, acc = read.value(player, "name", str), read.value(player, "acc", str, default="")
        apply(Phrase.of(PLAYER, player=number), nights.add_player, name, acc)
    for number, table in enumerate(_records(read, data, "tables"), start=1):
        if read.value(table, "table", int) != number:
            raise read.fail(NUMBERED, what="tables")
        kind = read.value(table, "kind", str, check=one_of(HOSTED, BOARD))
        night.apply(TableAdded(number, kind, ""))
    played = [
        (part, record)
        for part in ("rounds", "results", "corrections")
        for record in _records(read, data, part)
    ]
    seqs = [read.value(record, "seq", int) for _, record in played]
    kept: dict[str, Any] = {}  # the night the boards' games were asked for: one
    if len(set(seqs)) != len(seqs) or max(seqs, default=0) > read.value(data, "revision", int):
        raise read.fail(OUT_OF_ORDER)
    for _, (part, record) in sorted(zip(seqs, played, strict=True), key=lambda p: p[0]):
        if part == "rounds":
            _round(read, night, record, apply)
        elif part == "results":
            result = _counted(read, record)
            board_signed(read, result, kept)
            seat = Phrase.of(SEAT, round=result.round, table=result.table)
            apply(seat, nights.count, result)
        else:
            _corrected(read, night, record, apply)
    return night


def _records(read: Source, data: Mapping[str, Any], part: str) -> Iterable[dict[str, Any]]:
    for record in read.value(data, part, list):
        if not isinstance(record, dict):
            raise read.fail(WRONG, part=part, error=Phrase.as_is(repr(record)[:40]))
        yield record


def _numbers(read: Source, value: Any, key: str, size: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in value
    ):
        raise read.fail(WRONG, part=key, error=Phrase.as_is(repr(value)[:40]))
    if size is not None and len(value) != size:
        raise read.fail(WRONG, part=key, error=Phrase.as_is(repr(value)[:40]))
    return tuple(value)


def _round(read: Source, night: Night, record: dict[str, Any], apply: Any) -> None:
    number = read.value(record, "round", int)
    seats = [
        (read.value(seat, "table", int), *_numbers(read, seat.get("players"), "seats", 2))
        for seat in _records(read, record, "seats")
    ]
    byes = _numbers(read, record.get("byes", []), "byes")
    seated = [p for _, a, b in seats for p in (a, b)] + list(byes)
    if len(byes) > 1 or len(set(seated)) != len(seated) or not set(seated) <= set(night.players):
        raise read.fail(SEATED, round=number)
    drawn = apply(
        Phrase.of(ROUND, round=number),
        nights.draw,
        [(a, b) for _, a, b in seats],
        byes[0] if byes else None,
    )
    if drawn.round != number or drawn.seats != tuple(seats):
        raise read.fail(SEATED, round=number)


def _counted(read: Source, record: dict[str, Any]) -> GameCounted:
    hands = tuple(
        (
            read.value(hand, "player", int),
            read.value(hand, "total", int, check=between(0, 29)),
            read.value(hand, "cards", str),
        )
        for hand in _records(read, record, "hands")
    )
    return GameCounted(
        round=read.value(record, "round", int),
        table=read.value(record, "table", int),
        game=read.value(record, "game", int),
        winner=read.value(record, "winner", int),
        loser=read.value(record, "loser", int),
        margin=read.value(record, "margin", int, check=between(1, 121)),
        skunk=read.value(record, "skunk", bool),
        scores=_numbers(read, record.get("scores"), "scores", 2),  # type: ignore[arg-type]
        hands=hands,
        head=read.value(record, "head", str, default=""),
        **carried(read, record),
    )


def _corrected(read: Source, night: Night, record: dict[str, Any], apply: Any) -> None:
    round, table = read.value(record, "round", int), read.value(record, "table", int)
    values = [read.value(record, key, int) for key in ("winner", "margin")]
    why, by = read.value(record, "why", str), read.value(record, "by", str)
    seat = Phrase.of(SEAT, round=round, table=table)
    made = apply(seat, nights.correct, round, table, *values, why, by)
    if made.skunk != read.value(record, "skunk", bool) or made.why != why:
        raise read.fail(WRONG, part=seat, error=Phrase(NOT_THEIRS))
