"""Skunk lines for every variant and skunk setting, as the seeds decide them, and the
skunk a finished game records on either side of each line."""

import pytest
from game_bot import open_table, peg_play

from pegboard.game import Settings, skunk_lines

# (variant, skunk setting) -> the lines that count, highest first. A line every 30 holes
# below the target, never below 31; none in lowball.
EXPECTED = {
    ("standard", "none"): (),
    ("standard", "single"): (91,),
    ("standard", "double"): (91, 61),
    ("standard", "triple"): (91, 61, 31),
    ("five-card", "single"): (31,),
    ("five-card", "double"): (31,),
    ("five-card", "triple"): (31,),
    ("seven-card", "double"): (151, 121),
    ("seven-card", "triple"): (151, 121, 91),
    ("shotgun", "double"): (91, 61),
    ("lowball", "triple"): (),
}


@pytest.mark.parametrize(("variant", "skunk"), EXPECTED)
def test_the_lines_of_every_variant(variant, skunk):
    assert skunk_lines(Settings(variant=variant, skunk=skunk)) == EXPECTED[variant, skunk]


@pytest.mark.parametrize(("variant", "skunk"), [k for k in EXPECTED if k[0] != "lowball"])
def test_a_loser_just_below_a_line_is_skunked_that_deep(variant, skunk):
    settings = Settings(players=("Ann", "Bob"), variant=variant, skunk=skunk)
    lines = EXPECTED[variant, skunk]
    for depth, line in enumerate(lines, start=1):
        for loser, level in ((line, depth - 1), (line - 1, depth)):
            with open_table() as table:
                table.new_game(settings, dealer="Ann")
                peg_play(table, 1, loser - table.state.scores[1])
                state = peg_play(table, 0, settings.target)
            assert (state.winner, state.scores[1], state.skunk) == (0, loser, level)


@pytest.mark.parametrize("board", ["two-track-61"], indirect=True)  # round 3 times: up to 181
def test_every_phone_draws_the_lines_the_rules_use(board):
    """Through the panel's own API: a new game of each variant and setting, then the
    lines in the state every phone draws."""
    from pegboard.panel import create_app

    client = create_app({"PIN": "2468", "SECRET_KEY": "k" * 64}, board.keeper)
    client = client.test_client()
    token = client.get("/api/session").get_json()["csrf"]
    token = client.post("/api/login", json={"pin": "2468"}, headers={"X-CSRF-Token": token})
    headers = {"X-CSRF-Token": token.get_json()["csrf"]}
    for (variant, skunk), lines in EXPECTED.items():
        players = ["Ann", "Bob"]
        answer = client.post(
            "/api/act/new_game",
            json={"players": players, "variant": variant, "skunk": skunk, "dealer": 0},
            headers=headers,
        )
        assert answer.status_code == 200, answer.get_json()
        game = client.get("/api/state").get_json()["game"]
        assert tuple(game["skunk_lines"]) == lines, (variant, skunk)
        drawing = client.get("/board.svg").get_data(as_text=True)
        tracks = len(board.keeper.layout.tracks)
        assert drawing.count('class="skunk-line"') == tracks * len(lines), (variant, skunk)
