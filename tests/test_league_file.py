"""The night file: `pegboard club export` writes the club's night signed by its director;
`pegboard club check FILE` recomputes the standings from the file alone and refuses a
file changed, cut short or signed again by another key, in one line, exit 2."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pegboard.club.export import export
from pegboard.club.nightfile import canonical, digest, read, sign, signed_part
from pegboard.club.standings import standings
from pegboard.club.store import ClubStore
from pegboard.identity import Identity
from tests.league_nights import club_folder, night_events, players

pytestmark = pytest.mark.slow  # each test runs pegboard in subprocesses


def pegboard(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pegboard.cli", *args], capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """A club's folder with one whole night of 12 players in its file."""
    rng = random.Random(35)
    club_folder(tmp_path / "club", night_events(rng, players(rng, 12), corrections=2)).close()
    return tmp_path / "club"


def shown(folder: Path) -> list[dict[str, Any]]:
    """The standings the director's program shows for the night (from the club's file)."""
    store = ClubStore(folder / "club.db")
    try:
        night = store.night()
        from pegboard.club.night import fold

        return [s.as_dict() for s in standings(fold(e for e, _, _ in store.events(night)))]
    finally:
        store.close()


@pytest.mark.subprocess
def test_export_writes_the_night_signed_and_check_recomputes_the_directors_standings(
    club: Path,
) -> None:
    done = pegboard("club", "export", "--data", str(club), "--club", "Pegtown Crib Club")
    assert done.returncode == 0, done.stderr
    path = club / "nights" / "night-1.json"
    data = json.loads(path.read_bytes())
    assert data["schema"] == "pegboard-night" and data["version"] == 1
    assert data["club"] == {"name": "Pegtown Crib Club"}
    assert data["standings"] == shown(club)
    assert len(data["results"]) == 9 * 6 and len(data["corrections"]) == 2
    assert all(c["by"] == "Dana" for c in data["corrections"])
    kinds = {t["table"]: t["kind"] for t in data["tables"]}
    assert all(len(r["head"]) == 64 for r in data["results"])
    signed = {kinds[r["table"]]: r["board_signature"] for r in data["results"]}
    assert signed == {"hosted": None, "board": {"algorithm": "hmac-sha256", "signature": None}}
    assert [p["acc"] for p in data["players"]][:5] == ["1", "2", "3", "4", None]
    key = Identity.read(club / "director-key")
    assert key is not None and data["director"]["key"] == key.public.hex()
    assert data["director"]["key"] in done.stdout
    # written again: the same bytes (canonical, no time of writing), the club's name kept
    first = path.read_bytes()
    assert pegboard("club", "export", "--data", str(club)).returncode == 0
    assert path.read_bytes() == first
    checked = pegboard("club", "check", str(path), "--data", str(club))
    assert checked.returncode == 0, checked.stderr
    best = data["standings"][0]
    assert best["name"] in checked.stdout and best["card"] in checked.stdout


def refused(path: Path, *more: str) -> str:
    done = pegboard("club", "check", str(path), *more)
    assert done.returncode == 2, done.stdout
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
    return done.stderr.strip()


@pytest.mark.subprocess
def test_check_refuses_a_changed_truncated_or_re_signed_file_naming_what_is_wrong(
    club: Path, tmp_path: Path
) -> None:
    path, data = export(club, club="Pegtown")
    raw = path.read_bytes()
    bad = tmp_path / "bad.json"
    # one result changed: the winner's margin
    changed = json.loads(raw)
    changed["results"][3]["margin"] += 10
    bad.write_bytes(canonical(changed))
    assert "bad.json was changed after its director signed it" in refused(bad)
    # cut short
    bad.write_bytes(raw[: len(raw) // 2])
    assert "bad.json is not a whole night file" in refused(bad)
    # changed and signed again by another key
    other = Identity.generate()
    bad.write_bytes(canonical(sign(changed, other)))
    said = refused(bad, "--data", str(club))
    assert f"signed by the key {other.fingerprint}, not by the club's director" in said
    # ... which with no key to compare says its standings are not what its results add up to
    said = refused(bad, "--data", str(tmp_path / "elsewhere"))
    assert "its standings are not what its results add up to" in said
    # a signature taken away
    unsigned = {k: v for k, v in data.items() if k != "signature"}
    bad.write_bytes(canonical(unsigned))
    assert "bad.json is not signed by a club's director" in refused(bad)
    # not a night file at all
    bad.write_text('{"hello": 1}')
    assert "bad.json is not a pegboard night file" in refused(bad)


def test_a_night_replays_through_the_clubs_own_rules(club: Path) -> None:
    """A file signed by a director's key but holding what the club never allows (a
    round drawn while the last one is being played) is refused, named."""
    _, data = export(club, club="Pegtown")
    key = Identity.generate()
    broken = json.loads(json.dumps(data))
    round_two = next(r for r in broken["rounds"] if r["round"] == 2)
    second = [r for r in broken["results"] if r["round"] == 1][1]
    round_two["seq"], second["seq"] = second["seq"], round_two["seq"]  # drawn a game early
    with pytest.raises(Exception, match="round 2: round 1 is still being played"):
        read(canonical(sign(broken, key)), "night.json")


def test_the_digest_is_of_what_is_signed(club: Path) -> None:
    _, data = export(club, club="Pegtown")
    assert digest(data) == digest({**data, "signature": "00"})
    assert data["signature"].encode() not in signed_part(data)
