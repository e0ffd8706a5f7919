"""With Muggins on, what a count missed is the opponents' to spot: played through the real
`pegboard serve --sim` (its panel on a real port, its voice writing WAV notes), a watcher's
state, history and live stream and the voice hold no verdict of an under-claim until a
call or the next count; nothing scores a hand for anyone from the starter to the show's end."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
import urllib.error

import pytest
from test_serve import Phone
from waiting import eventually

from pegboard.rules.cards import parse_cards
from pegboard.rules.scoring import score_show

BOBS = ["5H", "5C", "JS", "4D"]  # with 5♦: fifteen six, a pair royal: fourteen
CLAIMED = 8
TELLS = ("under", "missed", "held", "exact")  # words of a verdict, in English


@pytest.fixture
def board(tmp_path):
    """`pegboard serve --sim` with its voice writing WAV files and notes."""
    voice = tmp_path / "voice"
    config = tmp_path / "config.toml"
    config.write_text(f'[board]\npin = "1357"\n[voice]\nout = "files"\nfolder = "{voice}"\n')
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "pegboard.cli", "serve", "--sim", "--port", "0"),
            *("--data", str(tmp_path / "data"), "--config", str(config)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    port = int(line.split("panel at http://")[1].split("/")[0].rsplit(":", 1)[1])
    yield port, voice
    process.kill()
    process.wait()


class Stream(threading.Thread):
    """A watcher's live stream: every state message, in order."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.states: list[dict] = []
        self.start()

    def run(self) -> None:
        self.connection.request("GET", "/api/events")
        response = self.connection.getresponse()
        event = None
        while line := response.fp.readline().decode():
            if line.startswith("event: "):
                event = line[7:].strip()
            elif line.startswith("data: ") and event == "state":
                self.states.append(json.loads(line[6:]))

    def saw(self, version: int) -> bool:
        return any((s["game"] or {}).get("version", 0) >= version for s in self.states)


def status(phone: Phone, path: str) -> tuple[int, dict]:
    """A GET that may be refused: its status and its JSON."""
    try:
        return 200, phone.call("GET", path)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def notes(folder) -> list[str]:
    return [json.loads(path.read_text())["text"] for path in sorted(folder.glob("*.json"))]


def table_of(port: int):
    """A signed-in player's entries (each answering its game), the player, a watcher who
    is not signed in, and a live stream, on the board at ``port``."""
    player, watcher = Phone(port), Phone(port)
    player.call("POST", "/api/login", {"pin": "1357"})
    player.csrf = player.call("GET", "/api/session")["csrf"]

    def act(action, **args):
        return player.call("POST", f"/api/act/{action}", args)["state"]["game"]

    return act, player, watcher, Stream(port)


@pytest.mark.slow
@pytest.mark.subprocess
def test_an_under_claim_keeps_its_verdict_from_everyone_until_the_window_closes(board):
    port, voice = board
    act, player, watcher, stream = table_of(port)

    act("new_game", players=["Ann", "Bob"], dealer=0, muggins=True)
    act("starter", card="5D")
    # From the starter on, nothing scores a hand for anyone: watcher or player.
    for phone in (watcher, player):
        code, body = status(phone, "/api/score?hand=5H,5C,JS,4D&starter=5D")
        assert code == 409 and "Muggins is on" in body["error"]
        assert status(phone, "/api/advice?cards=5H,5C,JS,4D,2C,9H&role=pone")[0] == 409
    act("advance")
    claimed = act("claim", seat=1, points=CLAIMED, cards=BOBS)
    true = score_show(parse_cards(BOBS), parse_cards(["5D"])[0]).total
    assert true > CLAIMED  # an under-claim
    version = claimed["version"]
    eventually(lambda: stream.saw(version), timeout=30)

    seen = watcher.call("GET", "/api/state")
    game = seen["game"]
    assert (game["claims"][-1]["verdict"], game["claims"][-1]["actual"]) == ("kept", None)
    assert game["claims"][-1]["show"] is None and game["lesson"] is None
    assert game["muggins_open"]["missed"] is None and game["muggins_open"]["verdict"] == "kept"
    assert not any(word in seen["message"] for word in TELLS)
    lines = watcher.call("GET", "/api/history")["entries"]
    assert [line["why"] for line in lines] == ["Bob's hand"]
    for state in stream.states:
        claims = (state["game"] or {}).get("claims", [])
        assert all(claim["actual"] is None for claim in claims), claims
        assert not any(word in json.dumps(state["aloud"]) for word in TELLS)
    statistics = watcher.call("GET", "/api/statistics")["players"]
    assert all(player["missed_points"] == 0 for player in statistics)
    eventually(lambda: any("Bob's hand" in text for text in notes(voice)), timeout=60)
    assert not any(word in text for text in notes(voice) for word in TELLS)

    # The next count closes the window: now the cards are told, as a lesson.
    game = act("claim", seat=0, points=0)
    told = game["claims"][0]
    assert (told["verdict"], told["actual"]) == ("under", true)
    assert game["lesson"]["missed"] == true - CLAIMED
    missed = "Bob's hand held fourteen: six missed."
    eventually(lambda: missed in notes(voice), timeout=60)


KINGS = ["2H", "3S", "9D", "QC"]  # with the starter K♣: four
# What would tell an over-claim or a claim of game, in the words a watcher sees or hears.
OVER_TELLS = ("over", "taken back", "exact", "held", "four", "wins", "won", "ended")


def told_words(state: dict, lines: list[dict]) -> str:
    """Every word the board tells a watcher in a state message or its history."""
    game = state["game"] or {}
    return json.dumps(
        [state["message"], state["aloud"], game.get("summary"), [line["why"] for line in lines]]
    )


def held_claim(state: dict) -> dict:
    game = state["game"] or {}
    return {key: game.get(key) for key in ("winner", "result", "margin", "lesson")} | {
        "phase": game.get("phase"),
        "verdicts": [claim["verdict"] for claim in game.get("claims", [])],
        "actuals": [claim["actual"] for claim in game.get("claims", [])],
    }


@pytest.mark.slow
@pytest.mark.subprocess
def test_an_over_claim_and_a_claim_of_game_tell_nothing_more_until_called(board):
    """Bob claims 29 on a hand worth 4, with its cards: the board pegs 29 and tells no
    one it is over; then, at 5-10 of a game to 21, Bob claims 12 without the cards: no
    win anywhere while its window is open, and Ann's call with the cards undoes it."""
    port, voice = board
    act, _, watcher, stream = table_of(port)

    def nothing_told(version: int, words: tuple[str, ...], since: int) -> None:
        eventually(lambda: stream.saw(version), timeout=30)
        seen = watcher.call("GET", "/api/state")
        lines = watcher.call("GET", "/api/history")["entries"]
        assert not any(word in told_words(seen, lines) for word in words), told_words(seen, lines)
        this_game = [s for s in stream.states[since:] if s["game_id"] == seen["game_id"]]
        for state in [seen, *this_game]:
            held = held_claim(state)
            assert held["winner"] is None and held["result"] is None and held["lesson"] is None
            assert held["phase"] != "over" and all(a is None for a in held["actuals"]), held
            assert "over" not in held["verdicts"] and "exact" not in held["verdicts"]
            assert not any(word in json.dumps(state["aloud"]) for word in words)

    act("new_game", players=["Ann", "Bob"], dealer=0, muggins=True)
    act("starter", card="KC")
    act("advance")
    game = act("claim", seat=1, points=29, cards=KINGS)
    assert game["scores"] == [0, 29] and game["claims"][-1]["verdict"] == "kept"
    nothing_told(game["version"], OVER_TELLS, since=0)
    eventually(lambda: any("Bob's hand: twenty-nine." in text for text in notes(voice)), 60)
    assert not any(word in text for text in notes(voice) for word in OVER_TELLS)
    game = act("challenge", seat=0)  # the cards were given: the board counts them
    assert game["scores"] == [0, 4] and game["claims"][-1]["verdict"] == "over"

    eventually(lambda: stream.saw(game["version"]), timeout=30)  # the call, streamed
    since = len(stream.states)  # the first game's messages, told once it was called
    act("new_game", players=["Ann", "Bob"], dealer=0, muggins=True, target=21)
    act("starter", card="KC")
    act("claim", seat=0, points=5)
    act("claim", seat=1, points=10)
    act("advance")
    game = act("claim", seat=1, points=12)  # into 21, without its cards
    assert game["scores"] == [5, 21] and game["winner"] is None
    nothing_told(game["version"], ("wins", "won", "ended", "game over"), since)
    eventually(lambda: any("Bob's hand: twelve." in text for text in notes(voice)), 60)
    assert not any("wins" in text for text in notes(voice))
    assert watcher.call("GET", "/api/state")["game"]["challenge"]["claimed"] == 12
    game = act("challenge", seat=0, cards=KINGS)
    assert game["scores"] == [5, 14] and game["winner"] is None and game["phase"] == "show"
