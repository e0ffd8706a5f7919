"""The table as the service uses it: from several threads, followed by the panel and the
LEDs, fed whole events as JSON."""

import json
import threading

import pytest
from game_bot import open_table, refuse, stored_rows

from pegboard.errors import ConflictError, RuleError
from pegboard.game import Count, CountKind, Settings, Table, from_dict, replay, to_dict
from pegboard.game.acts import Act
from pegboard.game.commands import claim
from pegboard.game.events import (
    Claimed,
    GameStarted,
    MugginsDisputed,
    NextGame,
    StarterTurned,
)
from pegboard.rules.cards import parse_cards

WAIT = 10  # seconds: only a broken test waits that long


@pytest.fixture
def table():
    with open_table() as table:
        table.new_game(Settings(players=("Ann", "Bob")), dealer="Ann")
        table.turn_starter("5D")
        yield table


def run_threads(n, work):
    """Run ``work(i)`` on ``n`` threads released together; return what each raised or gave."""
    start = threading.Barrier(n)
    results: list[object] = [None] * n

    def run(i):
        start.wait(WAIT)
        try:
            results[i] = work(i)
        except Exception as error:
            results[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    return results


def test_entries_from_many_threads_are_all_kept_in_order(table):
    results = run_threads(8, lambda i: table.claim(i % 2, 1 + i % 3))
    assert not [r for r in results if isinstance(r, Exception)]
    rows = stored_rows(table.path)
    assert [version for _, version, _, _ in rows] == list(range(1, 11))
    assert table.state.scores == (1 + 3 + 2 + 1, 2 + 1 + 3 + 2)
    assert replay(table.events()) == table.state


def test_a_button_and_a_phone_at_once_one_wins(table):
    seen = table.version
    results = run_threads(6, lambda i: table.take(Act.of(claim, i % 2, 2), version=seen))
    won = [r for r in results if not isinstance(r, Exception)]
    lost = [r for r in results if isinstance(r, Exception)]
    assert len(won) == 1 and len(lost) == 5
    assert all(isinstance(e, ConflictError) and "moved on" in str(e) for e in lost)
    assert table.version == seen + 1 and len(stored_rows(table.path)) == seen + 1


def test_the_state_as_json_for_the_panel_and_the_leds(table):
    table.claim("Bob", 2)
    picture = json.loads(json.dumps(table.state.as_dict()))
    assert picture["scores"] == [0, 2] and picture["pone"] == 1
    assert picture["sides"][1] == {"name": "Bob", "colour": "#E69F00", "front": 2, "back": 0}
    assert picture["due"] == {"seat": None, "kind": "play"} and picture["phase"] == "play"
    assert picture["settings"]["colours"] == ["#0072B2", "#E69F00"]
    # Data only: whoever knows the hearer's language says why (the panel's view does).
    assert picture["history"][0] == {
        "side": 1,
        "seat": 1,
        "points": 2,
        "kind": "play",
        "cards": [],
        "deal": 1,
        "score": 2,
    }
    assert picture["match"]["needed"] == 1 and picture["can_undo"] is True


def test_whole_events_as_json(table):
    state = table.submit({"type": "Claimed", "seat": 1, "kind": "play", "points": 3})
    assert state.scores == (0, 3)
    assert table.submit(to_dict(Claimed(0, "play", 2))).scores == (2, 3)
    assert table.submit({"type": "PlayEnded"}).due == Count(1, CountKind.HAND)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"type": "Teleported"}, "'Teleported' is not an event type"),
        (["Claimed"], "malformed event: .* is not an event$"),
        ({"type": "Claimed", "seat": 1}, "kind is missing"),
        (
            {"type": "Claimed", "seat": 1, "kind": "play", "points": "3"},
            "points must be a whole number",
        ),
        ({"type": "Claimed", "seat": 1, "kind": "play", "points": 3, "bonus": 1}, "key 'bonus'"),
        ({"type": "CardLaid", "seat": 1, "card": "11H"}, "'11' is not a rank"),
        ({"type": "CardLaid", "seat": True, "card": "JH"}, "seat must be a whole number, not True"),
        ({"type": "StarterTurned", "card": "JH"}, "the starter is turned already"),
        ({"type": "GameStarted", "settings": {}, "dealer": 0}, "not an entry of this one"),
        ({"type": "ShowEnded"}, "the play is not over: end it before the show"),
        ({"type": "Go", "seat": 0}, "it is Bob's turn to lay"),
    ],
)
def test_malformed_events_are_refused_and_change_nothing(table, event, message):
    refuse(table, "submit", event, match=message)


def test_events_round_trip_through_json():
    for event in (
        GameStarted(Settings(players=("Ann", "Bob", "Cat"), muggins=True), 2),
        StarterTurned(None, True),
        Claimed(1, "crib", 12, ()),
        NextGame(1, tuple(parse_cards(["9H", "4C"]))),
        MugginsDisputed(0, tuple(parse_cards("5H 10D QS KC".split()))),
    ):
        assert from_dict(json.loads(json.dumps(to_dict(event)))) == event


def test_no_game_yet(tmp_path):
    with Table(tmp_path / "games.db") as table:
        with pytest.raises(RuleError, match="no game yet"):
            table.claim("Ann", 2)
        with pytest.raises(RuleError, match="no game yet"):
            table.reload()
