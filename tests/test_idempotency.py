"""No retry pegs twice: a change sent again with its Idempotency-Key is made once, its key
stored with its entry in one transaction; a change made against an older board is a 409."""

from __future__ import annotations

import sqlite3

import pytest
from test_panel import PIN, act, csrf, lines

from pegboard.errors import StoreError
from pegboard.game import Settings, Table
from pegboard.game.acts import Act
from pegboard.game.commands import turn_starter
from pegboard.panel import create_app


def sign_in(client) -> str:
    answer = client.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": csrf(client)})
    return answer.get_json()["csrf"]


@pytest.fixture
def token(client):
    return sign_in(client)


def keyed(client, token, action, key, **args):
    headers = {"X-CSRF-Token": token, "Idempotency-Key": key}
    return client.post(f"/api/act/{action}", json=args, headers=headers)


def show_of_bob(client, token):
    act(client, token, "new_game", players=["Ann", "Bob"], dealer=0)
    act(client, token, "starter", card="5D")
    act(client, token, "advance")


def test_a_claim_sent_twice_with_one_key_is_pegged_once(client, token, keeper):
    show_of_bob(client, token)
    first = keyed(client, token, "claim", "tap-1", seat=1, points=2)
    again = keyed(client, token, "claim", '"tap-1"', seat=1, points=2)  # an sf-string: the same
    assert first.status_code == again.status_code == 200
    assert keeper.state.scores == (0, 2)
    assert [line["points"] for line in lines(client)] == [2]
    assert again.get_json()["said"] == first.get_json()["said"] == "Pegged 2."
    assert again.get_json()["replayed"] is True and "replayed" not in first.get_json()
    # Without a key (or with a new one) it is a new entry.
    assert keyed(client, token, "claim", "tap-2", seat=0, points=2).status_code == 200
    assert keeper.state.scores == (2, 2)


def test_the_same_key_with_another_request_is_a_422(client, token, keeper):
    show_of_bob(client, token)
    keyed(client, token, "claim", "k", seat=1, points=2)
    before = keeper.state
    response = keyed(client, token, "claim", "k", seat=1, points=4)
    assert response.status_code == 422
    assert "another request" in response.get_json()["error"]
    assert keyed(client, token, "undo", "k").status_code == 422
    assert keeper.state == before


@pytest.mark.parametrize("key", ["", "x" * 129, "naïve", "two words"])
def test_a_malformed_key_is_a_400(client, token, keeper, key):
    show_of_bob(client, token)
    before = keeper.state
    response = keyed(client, token, "claim", key, seat=1, points=2)
    assert response.status_code == 400 and "Idempotency-Key" in response.get_json()["error"]
    assert keeper.state == before


def test_a_refused_request_is_not_remembered(client, token, keeper):
    show_of_bob(client, token)
    assert keyed(client, token, "claim", "r", seat=0, points=2).status_code == 409  # Bob's turn
    assert keyed(client, token, "claim", "r", seat=0, points=2).status_code == 409
    assert keeper.state.scores == (0, 0)


def test_a_dial_turn_sent_twice_turns_once(client, token, keeper):
    show_of_bob(client, token)
    for _ in range(2):
        state = keyed(client, token, "sim_turn", "turn-1", seat=1, steps=3).get_json()["state"]
    assert state["pending"][1] == 3 and keeper.dials[1] == 3


def test_undo_sent_twice_with_one_key_undoes_once(client, token, keeper):
    show_of_bob(client, token)
    act(client, token, "claim", seat=1, points=2)
    act(client, token, "claim", seat=0, points=4)
    for _ in range(2):
        answer = keyed(client, token, "undo", "u1").get_json()
    assert answer["said"] == "Undone."
    assert keeper.state.scores == (0, 2)


def test_a_key_is_kept_across_a_restart(tmp_path, board):
    """The retry reaches a board that restarted after it made the entry."""
    token_app = create_app({"PIN": PIN, "SECRET_KEY": "x" * 64}, board.keeper)
    client = token_app.test_client()
    token = sign_in(client)
    show_of_bob(client, token)
    assert keyed(client, token, "claim", "before-restart", seat=1, points=6).status_code == 200
    path = board.keeper._table.path
    board.close()
    from pegboard.service import Board

    with Board(board.config, path.parent, sim=True) as again:
        restarted = create_app({"PIN": PIN, "SECRET_KEY": "x" * 64}, again.keeper)
        client = restarted.test_client()
        token = sign_in(client)
        answer = keyed(client, token, "claim", "before-restart", seat=1, points=6)
        assert answer.status_code == 200 and answer.get_json()["said"] == "Pegged 6."
        assert again.keeper.state.scores == (0, 6)
        assert keyed(client, token, "claim", "before-restart", seat=1, points=5).status_code == 422


def test_the_key_is_stored_in_the_same_transaction_as_its_entry(tmp_path):
    """If the key cannot be stored, the entry is not stored either (and the other way)."""
    path = tmp_path / "games.db"
    with Table(path) as table:
        table.new_game(Settings(players=("Ann", "Bob")), dealer=0)
        spoiler = sqlite3.connect(path)
        spoiler.execute(
            "CREATE TRIGGER no_keys BEFORE INSERT ON requests "
            "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END"
        )
        spoiler.commit()
        with pytest.raises(StoreError):
            table.take(Act.of(turn_starter, "5D"), key=("k", "claim"))
        assert table.state.version == 1
        spoiler.execute("DROP TRIGGER no_keys")
        spoiler.commit()
        spoiler.close()
    with Table(path) as table:
        assert table.state.version == 1 and table.recall("k") is None
        table.take(Act.of(turn_starter, "5D"), key=("k", "starter"))
        receipt = table.recall("k")
        assert (receipt.request, receipt.version) == ("starter", 2)


def test_a_new_game_made_with_a_key_is_made_once(client, token, keeper):
    for _ in range(2):
        response = keyed(client, token, "new_game", "ng", players=["Ann", "Bob"], dealer=1)
        assert response.status_code == 200
    assert len(keeper._table.games()) == 1


def test_a_stale_version_is_a_409_with_the_board_as_it_is(client, token, keeper):
    show_of_bob(client, token)
    seen = client.get("/api/state").get_json()["game"]["version"]
    assert act(client, token, "claim", seat=1, points=2, version=seen).status_code == 200
    response = act(client, token, "claim", seat=1, points=2, version=seen)  # the same tap, later
    assert response.status_code == 409
    body = response.get_json()
    assert "moved on" in body["error"]
    assert body["state"]["game"]["scores"] == [0, 2]
    assert keeper.state.scores == (0, 2)
    advance = act(client, token, "advance", version=seen)
    assert advance.status_code == 409 and keeper.state.scores == (0, 2)
