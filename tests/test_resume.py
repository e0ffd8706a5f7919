"""Games kept and taken up again through the front door: the list of open and finished
games, resume, and what the board says and shows of it."""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from game_bot import Bot

from pegboard.board.layout import load_layout
from pegboard.errors import RuleError
from pegboard.game import Table
from pegboard.game.summary import summarise
from pegboard.keeper import Scorekeeper
from pegboard.keeper.aloud import announcements


def test_a_game_replaced_by_a_new_one_is_listed_and_taken_up_again(keeper):
    first = keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0).state
    keeper.turn_starter("JH")  # two for his heels
    heard = []
    keeper.subscribe(heard.append)
    keeper.new_game({"players": ["Cat", "Dan"]}, dealer=1)
    keeper.turn_dial(0, 2)
    listed = keeper.games()
    assert [(g.summary.sides, g.summary.scores, g.current, g.finished) for g in listed] == [
        (("Cat", "Dan"), (0, 0), True, False),
        (("Ann", "Bob"), (2, 0), False, False),
    ]
    change = keeper.resume(listed[1].id)
    assert str(change.said) == "Back to the game of Ann and Bob."
    assert [str(said) for said in announcements(change)] == [str(change.said)]  # aloud too
    assert keeper.state.players == first.players and keeper.state.scores == (2, 0)
    assert keeper.dials == (0, 0, 0, 0)  # nothing dialled carries over
    assert heard[-1].what == "game" and heard[-1].state == keeper.state
    # The game left at once holds nothing to go back to: it is not listed.
    assert [g.summary.sides for g in keeper.games()] == [("Ann", "Bob")]


def test_the_game_taken_up_again_is_the_one_played_after_a_restart(tmp_path):
    path, layout = tmp_path / "games.db", load_layout("two-track-121")
    with Table(path) as table:
        keeper = Scorekeeper(table, layout)
        old = keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0).state
        keeper.turn_starter("JH")
        old_id = keeper.game_id
        keeper.new_game({"players": ["Cat", "Dan"]}, dealer=1)
        keeper.resume(old_id)
    with Table(path) as table:  # the board restarts
        assert table.game_id == old_id and table.state.players == old.players
        assert table.state.scores == (2, 0)
        Scorekeeper(table, layout).new_game({"players": ["Eve", "Fay"]}, dealer=0)
    with Table(path) as table:  # a new game is the one played next
        assert table.state.players == ("Eve", "Fay")


def test_a_won_game_is_listed_as_finished(keeper):
    keeper.new_game({"players": ["Ann", "Bob"], "target": 5}, dealer=0)
    keeper.turn_starter(None)
    keeper.claim(1, 6, kind="play")
    (only,) = keeper.games()
    assert only.finished and only.summary.winner == 1


def test_resuming_what_is_not_there_or_what_the_board_cannot_show_is_refused(tmp_path):
    path = tmp_path / "games.db"
    with Table(path) as table:
        three = Scorekeeper(table, load_layout("three-track-121"))
        three.new_game({"players": ["Ann", "Bob", "Cat"]}, dealer=0)
        three.turn_starter("JH")
        game = three.game_id
        three.new_game({"players": ["Ann", "Bob"]}, dealer=0)
    with Table(path) as table:  # the same games, on a board of two tracks
        two = Scorekeeper(table, load_layout("two-track-121"))
        before = two.state
        heard = []
        two.subscribe(heard.append)
        with pytest.raises(RuleError, match=r"this board \(two-track-121\) has 2 tracks"):
            two.resume(game)
        with pytest.raises(RuleError, match="there is no game 99 on this board"):
            two.resume(99)
        assert two.state == before and two.game_id == game + 1
        assert [change.what for change in heard] == ["refused", "refused"]


@pytest.mark.slow
def test_each_games_summary_is_kept_in_the_file_as_it_changes(tmp_path):
    """The list is read from the summaries the file keeps: each is the one a replay of its
    game gives, after undos and redos too, and after a restart."""
    path = tmp_path / "games.db"
    with Table(path) as table:
        bot = Bot(table, random.Random(11), undo=0.1)
        while len(table.games()) < 3:  # matches: each a stored game
            bot.step()
        bot.step()
        for record in table.games():
            assert record.summary == summarise(table.state_of(record.id))
    with Table(path) as table:
        records = table.games()
        assert len(records) == 3 and all(record.summary is not None for record in records)
        assert [r.summary for r in records] == [summarise(table.state_of(r.id)) for r in records]


def test_a_game_stored_before_summaries_is_replayed_once_for_the_list(tmp_path):
    path = tmp_path / "games.db"
    with closing(sqlite3.connect(path)) as db:
        db.executescript((Path(__file__).parent / "data" / "games-schema-1.sql").read_text())
    with Table(path) as table:
        (record,) = table.games()
        assert record.summary is None  # upgraded: no summary yet
        (listed,) = Scorekeeper(table, load_layout("two-track-121")).games()
        assert listed.finished and listed.summary == summarise(table.state)
    with Table(path) as table:
        assert table.games()[0].summary == listed.summary  # kept


def test_the_list_of_games_follows_every_entry_in_each_phones_language(client):
    token = client.get("/api/session").get_json()["csrf"]
    client.post("/api/login", json={"pin": "2468"}, headers={"X-CSRF-Token": token})
    token = client.get("/api/session").get_json()["csrf"]

    def act(action, **args):
        answer = client.post(f"/api/act/{action}", json=args, headers={"X-CSRF-Token": token})
        assert answer.status_code == 200, answer.get_json()

    def listed(lang="en"):
        answer = client.get("/api/games", headers={"Accept-Language": lang})
        return [(g["sides"][0]["score"], g["summary"]) for g in answer.get_json()["games"]]

    act("new_game", players=["Ann", "Bob"], dealer=0)
    assert listed() == [(0, "Deal 1, Ann deals. Turn the starter.")]
    act("starter", card="JC")  # two for his heels
    assert listed()[0][0] == 2
    assert listed("de") == [(2, "Runde 1, Ann gibt. Auslegen: Stand 0. Bob ist dran.")]
    assert listed()[0] == (2, "Deal 1, Ann deals. The play: count 0. Bob to play.")


def test_the_list_made_again_part_by_part_is_the_list_made_whole(keeper):
    """The panel's list of games keeps each game's part and makes again only what a
    change changed: after every kind of change it reads as a list made from nothing."""
    from pegboard.panel.api import GameList

    kept = GameList()
    steps = [
        lambda: keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0),
        lambda: keeper.turn_starter("JC"),
        lambda: keeper.claim(1, 2),
        lambda: keeper.new_game({"players": ["Cat", "Dan"]}, dealer=1),
        lambda: keeper.turn_starter(None),
        lambda: keeper.resume(1),
        lambda: keeper.claim(0, 3),
        lambda: keeper.undo(),
        lambda: keeper.turn_dial(0, 2),
        lambda: keeper.redo(),
        lambda: keeper.resume(2),
        lambda: keeper.claim(1, 5),
    ]
    for step in steps:
        step()
        for lang in ("en", "fi"):
            assert kept.text(keeper, lang) == GameList().text(keeper, lang)
