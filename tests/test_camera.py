"""The board's own camera (pegboard.camera): ``[camera]`` in the config, the simulated camera
reading a folder of photos (real photos of a held-out deck, laid by the benchmark's scene
maker), the advance button held on gpiozero's mock pins while a count is due, the photo's
reading in the snapshot, and ``POST /api/camera``. What goes wrong is one line, and changes
nothing."""

from __future__ import annotations

import importlib.util
import io
import time

import pytest
from conftest import FAST_PINS, PANEL_PIN, QUIET
from reader_photos import backs_photo, need_decks, photo, render

from pegboard.camera import FolderCamera, open_camera
from pegboard.config import load_config
from pegboard.errors import CameraError, ConfigError
from pegboard.keeper import Count, CountKind

need_decks()
pytestmark = pytest.mark.subprocess  # rsvg-convert draws the deck

STARTER = "5D"
HAND = ["5H", "5C", "5S", "JD"]  # Bob's: with the starter, 29
SHOWN = ["5♥", "5♣", "5♠", "J♦"]
BOBS_HAND = Count(1, CountKind.HAND)
WAIT = 60.0  # seconds at most for a photo to be read on a busy machine


@pytest.fixture(scope="module")
def decks(tmp_path_factory):
    return render(tmp_path_factory.mktemp("decks"), ("svg-standard",), [*HAND, STARTER])


@pytest.fixture(scope="module")
def show(decks):
    """A photo of Bob's hand spread beside the starter (read all sure)."""
    return photo(decks, "svg-standard", [*HAND, STARTER], fanned=False, seed=4)


def one_line(error: object) -> str:
    said = str(error)
    assert said and "\n" not in said
    return said


def camera_config(folder) -> str:
    return f'[camera]\nenabled = true\nfolder = "{folder}"\n'


# --- the config and the simulated camera ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('[camera]\nenabled = "yes"', "camera.enabled must be true or false, not 'yes'"),
        ("[camera]\nfolder = 3", "camera.folder"),
        ('[camera]\nfoldr = "x"', "unknown key 'camera.foldr' (did you mean 'camera.folder'?)"),
    ],
)
def test_a_broken_camera_table_is_one_line_naming_the_key(text, says):
    with pytest.raises(ConfigError) as error:
        load_config(text=text)
    assert one_line(error.value).startswith("config: ") and says in str(error.value)


def test_the_camera_is_off_unless_enabled(tmp_path):
    assert load_config().camera == {"enabled": False, "folder": ""}
    assert open_camera(load_config().camera, sim=True) is None
    assert open_camera({"enabled": False, "folder": str(tmp_path)}, sim=False) is None


def test_each_shot_is_the_next_photo_in_name_order_wrapping(tmp_path):
    (tmp_path / "b.jpg").write_bytes(b"second")
    (tmp_path / "a.png").write_bytes(b"first")
    (tmp_path / "notes.txt").write_bytes(b"no photo")
    camera = open_camera(load_config(text=camera_config(tmp_path)).camera, sim=True)
    assert isinstance(camera, FolderCamera)
    with camera:
        assert [camera.shoot() for _ in range(3)] == [b"first", b"second", b"first"]
        (tmp_path / "c.webp").write_bytes(b"third")  # taken in its turn
        assert camera.shoot() == b"second" and camera.shoot() == b"third"
    with pytest.raises(CameraError, match="closed"):
        camera.shoot()
    camera.close()  # safe twice


@pytest.mark.parametrize(
    ("folder", "says"),
    [
        ("", "the simulated camera reads photos from a folder: set [camera] folder"),
        ("missing", "is no folder"),
        ("empty", "no photos in the camera's folder"),
    ],
)
def test_a_simulated_camera_with_no_photos_is_one_line(tmp_path, folder, says):
    (tmp_path / "empty").mkdir()
    where = str(tmp_path / folder) if folder else ""
    with pytest.raises(CameraError) as error:
        open_camera({"enabled": True, "folder": where}, sim=True)
    assert says in one_line(error.value)


def test_photos_gone_mid_run_fail_the_shot_in_one_line(tmp_path):
    (tmp_path / "a.jpg").write_bytes(b"x")
    camera = FolderCamera(tmp_path)
    (tmp_path / "a.jpg").unlink()
    with pytest.raises(CameraError) as error:
        camera.shoot()
    assert one_line(error.value).startswith("no photos in the camera's folder ")


@pytest.mark.skipif(
    importlib.util.find_spec("picamera2") is not None, reason="picamera2 is installed here"
)
def test_a_pi_camera_without_picamera2_is_one_line():
    with pytest.raises(CameraError) as error:
        open_camera({"enabled": True, "folder": ""}, sim=False)
    said = one_line(error.value)
    assert said.startswith("no camera: picamera2 is not installed")
    assert "sudo apt install python3-picamera2" in said


# --- the board: the advance button held ------------------------------------------------------


def bobs_hand_due(keeper, muggins=True):
    keeper.new_game({"players": ["Ann", "Bob"], "muggins": muggins}, dealer=0)
    keeper.turn_starter(STARTER)
    keeper.press_advance()  # the play, pegged by nobody
    assert keeper.state.due == BOBS_HAND


def read_photo(keeper, number=1):
    """The board's photo ``number``, once the door has it."""
    deadline = time.monotonic() + WAIT
    while keeper.now.photo is None or keeper.now.photo.number < number:
        assert time.monotonic() < deadline, "no photo read"
        keeper.wait(keeper.versions(), 1.0)
    return keeper.now.photo


@pytest.fixture
def camera_board(tmp_path, show, decks):
    from pegboard.service import Board

    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "1-show.jpg").write_bytes(show)
    (photos / "2-backs.jpg").write_bytes(backs_photo(decks))
    config = load_config(text=FAST_PINS + QUIET + camera_config(photos))
    with Board(config, tmp_path / "data", sim=True) as running:
        yield running


def test_holding_advance_while_a_hand_is_due_reads_it_and_never_advances(camera_board):
    keeper = camera_board.keeper
    bobs_hand_due(keeper)
    before = keeper.state.version
    camera_board.controls.sim_advance(hold=True)  # the mock pin held past hold_time
    got = read_photo(keeper)
    assert got.count == BOBS_HAND and got.error is None
    assert [str(card) for card in got.shown] == SHOWN  # the starter in the photo set aside
    assert keeper.state.version == before and keeper.state.due == BOBS_HAND  # no advance
    # The next hold: the next photo, only card backs: one line, the game as it was.
    camera_board.controls.sim_advance(hold=True)
    backs = read_photo(keeper, number=2)
    assert backs.shown is None and "back" in str(backs.error) and "\n" not in str(backs.error)
    assert keeper.state.version == before
    keeper.claim(1, 29)  # the game moves on: the photo was of the count due before
    assert keeper.now.photo is None and keeper.state.due != BOBS_HAND


def test_holding_advance_with_no_count_due_repeats_the_announcement(camera_board):
    keeper = camera_board.keeper
    keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0)
    heard = []
    keeper.subscribe(lambda change: heard.append(change.what))
    camera_board.controls.sim_advance(hold=True)
    keeper.settle(10)
    assert "repeat" in heard and keeper.now.photo is None


def test_the_phones_see_the_reading_and_nothing_of_the_score(camera_board):
    from pegboard.panel import create_app

    keeper = camera_board.keeper
    app = create_app({"PIN": PANEL_PIN, "SIM": True}, keeper, camera=camera_board.camera.shoot)
    client = app.test_client()
    bobs_hand_due(keeper, muggins=True)
    state = client.get("/api/state").get_json()
    assert state["camera"] is True and state["board_photo"] is None
    keeper.repeat()  # the on-screen advance held: the same control
    read_photo(keeper)
    seen = client.get("/api/state").get_json()["board_photo"]
    assert (seen["seat"], seen["kind"], seen["shown"]) == (1, "hand", SHOWN)
    assert set(seen) == {"number", "seat", "kind", "cards", "shown"}  # no count, no score
    assert all(set(card) == {"card", "sure", "box"} for card in seen["cards"])


def test_a_board_whose_camera_cannot_open_runs_on_without_it(tmp_path):
    from pegboard.service import Board

    config = load_config(text=FAST_PINS + QUIET + "[camera]\nenabled = true\n")
    with Board(config, tmp_path, sim=True) as board:
        assert board.camera is None and board.camera_problem is not None
        assert "set [camera] folder" in board.camera_problem.say()
        bobs_hand_due(board.keeper)
        board.controls.sim_advance(hold=True)
        board.keeper.settle(10)
        state = board.keeper.state
        assert board.keeper.now.photo is None and state is not None and state.due == BOBS_HAND


# --- POST /api/camera ------------------------------------------------------------------


def test_the_board_says_what_its_camera_saw_and_why_it_saw_nothing(keeper, show, decks):
    from pegboard.keeper.aloud import announcements
    from pegboard.keeper.photo import board_photo

    bobs_hand_due(keeper)
    keeper.show_photo(board_photo(keeper.state, BOBS_HAND, lambda: show))
    said = [a.say() for a in announcements(keeper.now, cards=True)]
    assert said == [
        "The board's camera saw Bob's hand: five of hearts, five of clubs, five of spades,"
        " jack of diamonds, and five of diamonds."
    ]
    (german,) = announcements(keeper.now, cards=True)
    assert german.say("de").startswith("Die Kamera des Bretts sah Bobs Hand: Herz-Fünf")
    assert announcements(keeper.now) == ()  # the cards by name only when the voice says them
    # Only card backs: the player holding the button hears why, whatever the voice says.
    keeper.show_photo(board_photo(keeper.state, BOBS_HAND, lambda: backs_photo(decks)))
    (why,) = announcements(keeper.now)
    assert why.event == "refusals" and "back" in why.say()


@pytest.fixture
def camera_app(keeper, tmp_path, show):
    from pegboard.panel import create_app

    photos = tmp_path / "photos"
    photos.mkdir()
    (photos / "show.jpg").write_bytes(show)
    camera = FolderCamera(photos)
    app = create_app({"PIN": PANEL_PIN, "SIM": True}, keeper, camera=camera.shoot)
    yield app, photos
    camera.close()


def signed_in(client):
    token = client.get("/api/session").get_json()["csrf"]
    answer = client.post("/api/login", json={"pin": PANEL_PIN}, headers={"X-CSRF-Token": token})
    assert answer.status_code == 200
    return answer.get_json()["csrf"]


def test_the_board_camera_answers_as_a_phones_photo_does(camera_app, keeper, show):
    app, _ = camera_app
    client = app.test_client()
    token = signed_in(client)
    bobs_hand_due(keeper, muggins=False)
    headers = {"X-CSRF-Token": token}
    got = client.post("/api/camera?seat=1&kind=hand", headers=headers)
    assert got.status_code == 200, got.get_json()
    phone = client.post(
        "/api/cards?seat=1&kind=hand", data=show, headers={**headers, "Content-Type": "image/jpeg"}
    )
    assert phone.status_code == 200
    assert {**got.get_json(), "photo": "photo"} == phone.get_json()  # the same photo, the same
    assert got.get_json()["shown"] == SHOWN and "count" not in got.get_json()


def test_the_board_camera_refuses_with_one_line_and_changes_nothing(camera_app, keeper):
    app, photos = camera_app
    client = app.test_client()
    assert client.post("/api/camera", headers={"X-CSRF-Token": "x"}).status_code in (401, 403)
    token = signed_in(client)
    headers = {"X-CSRF-Token": token}
    bobs_hand_due(keeper)
    before = keeper.now.version
    wrong = client.post("/api/camera?seat=1&kind=crib", headers=headers)  # Ann deals
    assert wrong.status_code == 400 and "name a count of this deal" in wrong.get_json()["error"]
    for photo_file in photos.iterdir():  # the camera fails mid-run
        photo_file.unlink()
    failed = client.post("/api/camera?seat=1&kind=hand", headers=headers)
    assert failed.status_code == 409
    assert failed.get_json()["error"].startswith("no photos in the camera's folder")
    assert keeper.now.version == before and keeper.state.due == BOBS_HAND


def test_a_board_without_a_camera_has_no_board_camera(client, keeper):
    token = signed_in(client)
    assert client.get("/api/state").get_json()["camera"] is False
    got = client.post("/api/camera?seat=1&kind=hand", headers={"X-CSRF-Token": token})
    assert got.status_code == 404
    assert got.get_json() == {"error": "this board has no camera: see [camera] in its config"}


# --- pegboard doctor ---------------------------------------------------------------------


@pytest.fixture
def one_card(tmp_path, decks):
    """A folder holding a photo of one card held under the camera (the five of hearts)."""
    folder = tmp_path / "card"
    folder.mkdir()
    (folder / "card.jpg").write_bytes(photo(decks, "svg-standard", ["5H"], fanned=False, seed=6))
    return folder


def doctor_says(text: str) -> tuple[int, str]:
    from pegboard.maker import doctor

    out = io.StringIO()
    code = doctor.run(load_config(text=FAST_PINS + QUIET + text), sim=True, out=out)
    return code, out.getvalue()


def test_the_doctor_reads_a_card_held_under_the_camera(one_card):
    code, text = doctor_says(camera_config(one_card))
    assert "hold a card under the camera" in text
    line = next(
        line for line in text.splitlines() if line.startswith(("PASS  camera", "FAIL  camera"))
    )
    assert line.startswith("PASS  camera: read 5♥") and str(one_card) in line, text
    assert code == 0, text


def test_the_doctor_says_what_is_wrong_with_the_camera_in_one_line(tmp_path, decks):
    from pegboard.maker.camera_check import check_camera

    def check(text):
        result = check_camera(load_config(text=text), True, io.StringIO(), "en")
        assert result is not None and result.status == "FAIL"
        return one_line(result.line())

    backs = tmp_path / "backs"
    backs.mkdir()
    (backs / "backs.jpg").write_bytes(backs_photo(decks))
    assert check(camera_config(backs)) == (
        "FAIL  camera: Only card backs in the photo: turn the cards face up."
    )
    assert "set [camera] folder" in check("[camera]\nenabled = true\n")
    assert check_camera(load_config(), True, io.StringIO(), "en") is None  # no camera: nothing said
    code, text = doctor_says("[camera]\nenabled = true\n")
    assert code == 1 and "FAIL  camera: the simulated camera reads photos from a folder" in text
