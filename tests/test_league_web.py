"""The league's service on a real PostgreSQL: a club that played offline sends its night
when it has a connection (`pegboard club send`, tried again until the league answers;
sent twice, applied once); the admin's changes need the admin's sign-in; the standings
come as a page in the reader's language, as JSON and as CSV."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from pegboard.club.export import export
from pegboard.club.nightfile import canonical
from pegboard.i18n import LANGUAGES, translations
from pegboard.identity import Identity
from tests.club_players import Client, Process, Refused, free_port
from tests.league_nights import club_folder, night_events, night_file, players
from tests.postgres import league_url_fixture, postgres_fixture  # noqa: F401

PIN = "4826"
pytestmark = pytest.mark.slow


@pytest.fixture
def league(league_url: str, tmp_path: Path) -> Any:
    port = free_port()
    args = ["league", "--db", league_url, "--data", str(tmp_path / "league")]
    process = Process(
        [*args, "--host", "127.0.0.1", "--port", str(port), "--pin", PIN], "league at"
    )
    yield f"http://127.0.0.1:{port}", process, args
    process.stop()


def admin(url: str) -> Client:
    client = Client(url)
    client.csrf = client.call("GET", "/api/session")["csrf"]
    client.csrf = client.call("POST", "/api/login", {"pin": PIN})["csrf"]
    return client


def club(tmp_path: Path) -> Path:
    rng = random.Random(21)
    club_folder(tmp_path / "club", night_events(rng, players(rng, 8), rounds=3)).close()
    export(tmp_path / "club", club="Pegtown")  # the director's key made, the name kept
    return tmp_path / "club"


def send(folder: Path, url: str, *more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pegboard.cli", "club", "send", url, "--data", str(folder), *more],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


@pytest.mark.subprocess
def test_a_club_sends_its_night_when_the_league_answers_and_it_is_applied_once(
    league_url: str, tmp_path: Path
) -> None:
    folder = club(tmp_path)
    key = json.loads((folder / "nights" / "night-1.json").read_bytes())["director"]["key"]
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # no league yet: tried, then given up, in one last line
    done = send(folder, url, "--tries", "2", "--wait", "0.1")
    assert done.returncode == 2 and "did not take the night after 2 tries" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "trying again in" in done.stdout
    # sent while the league is away: it takes the night once it is up
    late = subprocess.Popen(
        [sys.executable, "-m", "pegboard.cli", "club", "send", url, "--data", str(folder),
         "--tries", "30", "--wait", "0.5"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    args = ["league", "--db", league_url, "--data", str(tmp_path / "league")]
    subprocess.run(
        [sys.executable, "-m", "pegboard.cli", *args, "club", "Pegtown", key], check=True
    )
    process = Process(
        [*args, "--host", "127.0.0.1", "--port", str(port), "--pin", PIN], "league at"
    )
    try:
        out, err = late.communicate(timeout=300)
        assert late.returncode == 0, err
        assert "stored: the night counts from now on" in out
        again = send(folder, url)  # sent again (an answer lost, a second send): once
        assert again.returncode == 0 and "had this night already" in again.stdout
        standings = Client(url).call("GET", "/league/api/standings")["players"]
        assert len(standings) == 8 and all(s["nights"] == 1 for s in standings)
        # a club the league does not know: refused at once, in one line, not tried again
        stranger = club(tmp_path / "stranger")
        refused = send(stranger, url)
        assert refused.returncode == 2 and "trying again" not in refused.stdout
        assert "the league refused the night: the night file is signed by the key" in refused.stderr
        assert len(refused.stderr.strip().splitlines()) == 1
    finally:
        process.stop()


def test_the_admins_changes_need_the_admins_sign_in(league: Any, tmp_path: Path) -> None:
    url, _, _ = league
    director = Identity.generate()
    watcher = Client(url)
    watcher.csrf = watcher.call("GET", "/api/session")["csrf"]
    for path, body in (("/league/api/clubs", {"name": "Pegtown", "key": director.public.hex()}),
                       ("/league/api/points", {"places": [5, 3]}),
                       ("/league/api/merge", {"keep": 1, "other": 2})):  # fmt: skip
        with pytest.raises(Refused) as refused:
            watcher.call("POST", path, body)
        assert refused.value.status == 401 and "PIN" in refused.value.error
    with pytest.raises(Refused) as refused:
        watcher.call("POST", "/api/login", {"pin": "0000"})
    assert refused.value.status == 401
    signed = admin(url)
    signed.call("POST", "/league/api/clubs", {"name": "Pegtown", "key": director.public.hex()})
    with pytest.raises(Refused) as refused:  # twice: one line, nothing changed
        signed.call("POST", "/league/api/clubs", {"name": "Pegtown", "key": director.public.hex()})
    assert refused.value.status == 400 and "already" in refused.value.error
    assert signed.call("POST", "/league/api/points", {"places": [5, 3], "least": 4})["points"] == {
        "places": [5, 3], "least": 4,
    }  # fmt: skip
    rng = random.Random(5)
    raw = canonical(night_file(director, night_events(rng, players(rng, 6), 3), "Pegtown", "x"))
    # the page's upload is the admin's; a club's own send needs no sign-in (its signature)
    request = urllib.request.Request(url + "/league/api/upload", raw, method="POST")
    with pytest.raises(urllib.error.HTTPError) as failed:
        urllib.request.urlopen(request, timeout=30)
    assert failed.value.code == 403
    uploaded = signed.opener.open(
        urllib.request.Request(url + "/league/api/upload", raw, {"X-CSRF-Token": signed.csrf},
                               method="POST"), timeout=30,
    )  # fmt: skip
    assert json.load(uploaded)["stored"] is True
    with pytest.raises(Refused) as refused:
        watcher.call("POST", "/league/api/nights", {"schema": "pegboard-night"})
    assert refused.value.status == 400 and "night file" in refused.value.error


def test_the_standings_as_a_page_in_every_language_json_and_csv(
    league: Any, tmp_path: Path
) -> None:
    url, _, _ = league
    director = Identity.generate()
    signed = admin(url)
    signed.call("POST", "/league/api/clubs", {"name": "Pegtown", "key": director.public.hex()})
    rng = random.Random(9)
    raw = canonical(night_file(director, night_events(rng, players(rng, 6), 3), "Pegtown", "y"))
    Client(url).opener.open(urllib.request.Request(url + "/league/api/nights", raw, method="POST"))
    rows = Client(url).call("GET", "/league/api/standings")["players"]
    assert [r["place"] for r in rows] == sorted(r["place"] for r in rows) and len(rows) == 6
    for lang in LANGUAGES:
        page = urllib.request.Request(url + "/", headers={"Accept-Language": lang})
        text = urllib.request.urlopen(page, timeout=30).read().decode()
        assert translations(lang).gettext("The league's season") in text
        assert rows[0]["name"] in text and "https://" not in text  # no CDN: every part served here
    history = urllib.request.urlopen(f"{url}/?player={rows[0]['player']}", timeout=30).read()
    assert b"Pegtown" in history
    player = Client(url).call("GET", f"/league/api/players/{rows[0]['player']}")
    assert len(player["nights"]) == 1 and player["nights"][0]["club_name"] == "Pegtown"
    csv = urllib.request.urlopen(url + "/league/standings.csv", timeout=30).read().decode()
    assert csv.splitlines()[0].startswith("place,player,name,acc") and len(csv.splitlines()) == 7
    with pytest.raises(Refused) as refused:
        Client(url).call("GET", "/league/api/standings?club=x")
    assert refused.value.status == 400


def test_without_a_database_url_the_league_runs_on_a_cluster_of_its_own(
    postgres: Any, tmp_path: Path
) -> None:
    """`pegboard league` alone makes a PostgreSQL cluster in its folder, starts it with
    the service and stops it after; what it imported is there when it starts again."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="pegboard-league-"))  # one the postgres user reaches
    folder.chmod(0o755)
    port = free_port()
    args = ["league", "--data", str(folder), "--host", "127.0.0.1", "--port", str(port)]
    director = Identity.generate()
    rng = random.Random(2)
    raw = canonical(night_file(director, night_events(rng, players(rng, 4), 3), "Pegtown", "z"))
    url = f"http://127.0.0.1:{port}"
    try:
        run_twice(args, url, raw, director, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_twice(args: list[str], url: str, raw: bytes, director: Identity, folder: Path) -> None:
    from pegboard.league.cluster import Cluster

    for start in range(2):
        process = Process([*args, "--pin", PIN], "league at")
        try:
            if not start:
                signed = admin(url)
                key = director.public.hex()
                signed.call("POST", "/league/api/clubs", {"name": "Pegtown", "key": key})
                urllib.request.urlopen(
                    urllib.request.Request(url + "/league/api/nights", raw, method="POST")
                )
            rows = Client(url).call("GET", "/league/api/standings")["players"]
            assert len(rows) == 4
        finally:
            process.stop()
        assert not Cluster(folder / "postgres").running()
