"""POST /api/cards and `pegboard cards`: a photo in, the object of the cards seen out; what is
no photo, too big, or read as nothing gets one clear line (4xx JSON, or stderr and exit 2)."""

from __future__ import annotations

import json

import pytest
from conftest import PANEL_PIN
from reader_photos import backs_photo, need_decks, photo, render

from pegboard.cli import main
from pegboard.panel.cards import PHOTO_BYTES

need_decks()
pytestmark = pytest.mark.subprocess  # the decks' faces are drawn by rsvg-convert

SHOW = "5H 5C 5S JD".split()  # with the starter 5D: 29


@pytest.fixture(scope="module")
def decks(tmp_path_factory):
    return render(tmp_path_factory.mktemp("decks"), ("svg-standard",), [*SHOW, "5D"])


@pytest.fixture
def signed_in(client):
    token = client.get("/api/session").get_json()["csrf"]
    response = client.post("/api/login", json={"pin": PANEL_PIN}, headers={"X-CSRF-Token": token})
    assert response.status_code == 200
    return response.get_json()["csrf"]


def post(client, token, body, kind="image/jpeg", query=""):
    headers = {"X-CSRF-Token": token, "Content-Type": kind}
    return client.post(f"/api/cards{query}", data=body, headers=headers)


def test_a_photo_posted_answers_the_cards_and_the_count(client, signed_in, decks):
    body = photo(decks, "svg-standard", [*SHOW, "5D"], fanned=False, seed=4)
    answer = post(client, signed_in, body, query="?starter=5D&name=bob.jpg")
    assert answer.status_code == 200, answer.get_json()
    got = answer.get_json()
    assert got["photo"] == "bob.jpg" and got["starter"] == "5♦"
    assert sorted(c["card"] for c in got["cards"]) == sorted(["5♥", "5♣", "5♠", "J♦", "5♦"])
    assert all(c["sure"] and len(c["box"]) == 4 for c in got["cards"])
    assert got["count"] == 29  # 5-5-5-5 and the jack of the starter's suit


def test_only_a_signed_in_phone_may_post_a_photo(client, decks):
    token = client.get("/api/session").get_json()["csrf"]
    assert post(client, token, b"x").status_code == 401
    assert post(client, "wrong", b"x").status_code == 403


def test_what_is_no_photo_is_refused_with_one_line(client, signed_in, decks):
    answer = post(client, signed_in, b"hello", kind="text/plain")  # what a form could send
    assert answer.status_code == 415
    answer = post(client, signed_in, b"hello", kind="application/pdf")
    assert (answer.status_code, answer.get_json()) == (
        415,
        {"error": "send the photo as a JPEG, PNG or WebP image"},
    )
    answer = post(client, signed_in, b"not a jpeg at all")
    assert (answer.status_code, answer.get_json()["error"]) == (
        400,
        "That is not a photo: send a JPEG, PNG or WebP image.",
    )
    answer = post(client, signed_in, b"\xff" * (PHOTO_BYTES + 1))
    assert answer.status_code == 413
    assert answer.get_json()["error"] == "the photo is too big: 2048 kB at most"
    answer = post(client, signed_in, backs_photo(decks))
    assert answer.get_json() == {"error": "Only card backs in the photo: turn the cards face up."}


def test_the_command_reads_photos_as_json_with_the_count(tmp_path, decks, capsys):
    show = tmp_path / "show.jpg"
    show.write_bytes(photo(decks, "svg-standard", SHOW, fanned=True, seed=5))
    assert main(["cards", str(show), "--json", "--starter", "5D"]) == 0
    [got] = json.loads(capsys.readouterr().out)
    assert got["photo"] == str(show) and got["count"] == 29
    assert sorted(c["card"] for c in got["cards"]) == sorted(["5♥", "5♣", "5♠", "J♦"])
    assert main(["cards", str(show)]) == 0
    assert capsys.readouterr().out.startswith(f"{show}: ")


def test_the_command_refuses_a_bad_photo_with_one_line_and_exit_2(tmp_path, capsys):
    text = tmp_path / "notes.txt"
    text.write_text("no photo")
    assert main(["cards", str(text)]) == 2
    err = capsys.readouterr().err
    assert err == f"pegboard: {text}: That is not a photo: send a JPEG, PNG or WebP image.\n"
    assert main(["cards", str(tmp_path / "gone.jpg")]) == 2
    assert capsys.readouterr().err.startswith("pegboard: cannot open ")
