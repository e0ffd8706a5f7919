"""The panel in every language: chosen per phone, the page and everything the board says
(status, history, verdicts, refusals, the call) in that language, no English left."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from html.parser import HTMLParser

import pytest
from test_i18n_calls import english_left

from pegboard.errors import ConfigError
from pegboard.i18n import LANGUAGES, NAMES, SOURCE
from pegboard.panel import LANGUAGE_COOKIE, create_app

PIN = "2468"
TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE]
# Attributes whose words a person hears or reads.
SPOKEN = ("aria-label", "placeholder", "title", "alt", "value")


@pytest.fixture
def app(keeper):
    return create_app({"PIN": PIN, "SIM": True, "SECRET_KEY": "x" * 64, "LANGUAGE": "en"}, keeper)


def phone(app, lang: str | None = None, header: str | None = None):
    """A phone that chose ``lang`` on the page, or asks for ``header`` languages."""
    client = app.test_client()
    if lang is not None:
        client.set_cookie(LANGUAGE_COOKIE, lang)
    if header is not None:
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = header
    return client


def signed_in(client) -> str:
    token = client.get("/api/session").get_json()["csrf"]
    answer = client.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    return answer.get_json()["csrf"]


def act(client, token, action, **args):
    return client.post(f"/api/act/{action}", json=args, headers={"X-CSRF-Token": token})


class Page(HTMLParser):
    """The words of a page a person reads or hears: its text, the attributes a screen
    reader says, the messages its script shows; the card picker's rank letters apart."""

    def __init__(self) -> None:
        super().__init__()
        self.lang, self.words, self.messages, self.options = None, [], {}, []
        self._skip: list[str] = []
        self._messages = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        if tag == "option" and "lang" in attrs:
            self.options.append((attrs["lang"], "selected" in attrs))
        self._messages = attrs.get("id") == "messages"
        shown = [name for name in SPOKEN if attrs.get(name)]
        if not (tag == "input" and attrs.get("type", "text") == "text"):
            shown = [name for name in shown if name != "value"]  # a form's value, not shown
        self.words += [attrs[name] for name in shown if tag != "option"]
        # Not words: scripts, the keys of a keyboard, ranks on the cards, language names.
        if tag in ("script", "style", "kbd") or "data-card" in attrs or "lang" in attrs:
            self._skip.append(tag)

    def handle_endtag(self, tag):
        if self._skip and self._skip[-1] == tag:
            self._skip.pop()

    def handle_data(self, data):
        if self._messages:
            self.messages = json.loads(data)
            self._messages = False
        elif not self._skip and data.strip():
            self.words.append(data.strip())


def read(client) -> Page:
    response = client.get("/")
    assert response.status_code == 200
    page = Page()
    page.feed(response.get_data(as_text=True))
    return page


# --- choosing the language -----------------------------------------------------------------


def test_the_phones_choice_then_its_languages_then_the_boards(keeper):
    app = create_app({"PIN": PIN, "SIM": True, "LANGUAGE": "sv"}, keeper)
    assert read(phone(app)).lang == "sv"  # asks for nothing: the board's own
    assert read(phone(app, header="ja, fi;q=0.8, de;q=0.5")).lang == "fi"
    assert read(phone(app, header="fr-CH, fr")).lang == "sv"  # nothing we speak
    assert read(phone(app, lang="da", header="fi")).lang == "da"  # chosen on the page wins
    assert read(phone(app, lang="klingon", header="de")).lang == "de"  # a bad cookie is no choice


def test_the_language_switch_is_remembered_by_this_phone_only(app):
    mine, other = phone(app, header="de"), phone(app, header="de")
    page = read(mine)
    assert page.options == [(code, code == "de") for code in LANGUAGES]  # each in its own name
    answer = mine.post("/language", data={"lang": "nl"})
    assert (answer.status_code, answer.headers["Location"]) == (303, "/")
    cookie = answer.headers["Set-Cookie"]
    assert f"{LANGUAGE_COOKIE}=nl" in cookie and "Max-Age=" in cookie
    assert read(mine).lang == "nl" and read(other).lang == "de"
    assert mine.get("/api/state").get_json()["game"] is None
    # A language the board does not speak changes nothing.
    answer = mine.post("/language", data={"lang": "xx"})
    assert answer.status_code == 303 and "Set-Cookie" not in answer.headers
    assert read(mine).lang == "nl"


def test_the_switch_names_each_language_in_itself(app):
    text = app.test_client().get("/").get_data(as_text=True)
    for code, name in NAMES.items():
        assert f'<option value="{code}" lang="{code}"' in text and f">{name}</option>" in text


# --- the page ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_page_has_no_english_left(app, lang):
    page = read(phone(app, lang=lang))
    assert page.lang == lang
    english = read(phone(app, lang="en"))
    left = {text: english_left(text, lang) for text in page.words if english_left(text, lang)}
    assert left == {}, f"{lang}: English left on the page"
    left = {k: v for k, v in page.messages.items() if english_left(v, lang)}
    assert left == {}, f"{lang}: English left in the script's messages"
    assert page.messages.keys() == english.messages.keys()
    changed = sum(a != b for a, b in zip(page.words, english.words, strict=False))
    assert changed > 0.8 * len(english.words)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("en", ["ace of clubs", "ten of diamonds", "jack of hearts", "king of spades"]),
        ("nl", ["klaverenaas", "ruitentien", "hartenboer", "schoppenheer"]),
        ("de", ["Kreuz-Ass", "Karo-Zehn", "Herz-Bube", "Pik-König"]),
        ("fi", ["ristiässä", "ruutukymppi", "herttasotamies", "patakuningas"]),
    ],
)
def test_each_card_button_is_named_in_the_language(app, lang, names):
    """The pack the page draws (its buttons, every card shown) names each card."""
    text = phone(app, lang=lang).get("/").get_data(as_text=True)
    block = re.search(r'<script type="application/json" id="cards">(.*?)</script>', text, re.S)
    suits = json.loads(block.group(1))["suits"]
    labels = dict(card for suit in suits for card in suit["cards"])
    assert len(labels) == 52 and len(set(labels.values())) == 52
    assert [labels[card] for card in ("A♣", "10♦", "J♥", "K♠")] == names


# --- what the board says -----------------------------------------------------------------


def play_a_deal(app):
    """A deal seen through one English phone: new game, heels, a play, counts (an
    over-count, a nineteen, Muggins), a refusal; returns the sayings of each step."""
    english = phone(app)
    token = signed_in(english)
    said = [act(english, token, "new_game", players=["Ann", "Bob"], dealer=0, muggins=True)]
    said.append(act(english, token, "starter", card="JD"))
    for card, seat in (("10H", 1), ("5C", 0)):
        said.append(act(english, token, "lay", seat=seat, card=card))
    said.append(act(english, token, "advance"))
    said.append(act(english, token, "claim", seat=1, points=19))  # refused
    said.append(act(english, token, "claim", seat=0, points=2))  # out of order: refused
    said.append(act(english, token, "claim", seat=1, points=6, cards=["10H", "6S", "2C", "3D"]))
    said.append(act(english, token, "muggins", seat=0, points=2))  # the cards show it over
    said.append(act(english, token, "claim", seat=0, points=0))
    return said


def test_every_phone_hears_the_board_in_its_own_language(app):
    said = play_a_deal(app)
    assert [answer.status_code for answer in said] == [200] * 5 + [409, 409] + [200] * 3
    english = [answer.get_json() for answer in said]
    assert english[0]["said"] == "New game: Ann deals first."
    assert english[1]["said"] == "Ann pegs two for his heels."
    assert english[5]["error"].startswith("no hand of 4 cards can score 19")
    assert english[6]["error"] == "out of order: Bob's hand counts now, not Ann's hand"
    assert english[7]["said"] == "Pegged 6."  # Muggins is on: an over-count is kept too
    assert english[8]["said"] == "Muggins!"
    state = english[-1]["state"]["game"]
    english_lines = app.test_client().get("/api/history").get_json()["entries"]
    assert [line["why"] for line in english_lines] == [
        "two for his heels",
        "five of clubs: fifteen for two",  # a card said in words, as a screen reader says it
        "Bob's hand (claimed 6, 2 taken back)",  # taken back once the call showed it
        "Ann's hand",
    ]
    assert state["summary"] == "Deal 1, Ann deals. Next count: Ann's crib."
    assert state["due_name"] == "Ann's crib"
    assert state["claims"][0]["show"]["call"] == "fifteen two, fifteen four"

    for lang in TRANSLATED:
        client = phone(app, lang=lang)
        snapshot = client.get("/api/state").get_json()
        game = snapshot["game"]
        words = [game["summary"], game["due_name"], snapshot["message"]]
        lines = client.get("/api/history").get_json()["entries"]
        words += [line["why"] for line in lines]
        words += [claim["show"]["call"] for claim in game["claims"] if claim["show"]]
        assert all(words) and not any(english_left(w, lang) for w in words), (lang, words)
        assert game["summary"] != state["summary"]
        assert [line["why"] for line in lines][1:] != [line["why"] for line in english_lines][1:]
        token = signed_in(client)
        refused = act(client, token, "claim", seat=1, points=2).get_json()["error"]
        assert refused and not english_left(refused, lang), (lang, refused)
        undone = act(client, token, "undo").get_json()["said"]
        assert undone and not english_left(undone, lang)
        act(client, token, "redo")


@pytest.mark.parametrize(
    ("lang", "call"),
    [
        ("en", "fifteen two, fifteen four, and a pair is six"),
        ("de", "fünfzehn zwei, fünfzehn vier und ein Paar macht sechs"),
        ("sv", "femton två, femton fyra och ett par är sex"),
    ],
)
def test_the_verify_breakdown_calls_in_the_phones_language(app, lang, call):
    answer = phone(app, lang=lang).get("/api/score?hand=4H,4C,7D,8S&starter=KD").get_json()
    assert answer["call"] == call
    assert [item["kind"] for item in answer["items"]] == ["fifteen", "fifteen", "pair"]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_panels_own_refusals_are_said_in_the_language(app, lang):
    client = phone(app, lang=lang)
    token = client.get("/api/session").get_json()["csrf"]
    errors = [
        client.post("/api/login", json={"pin": "0000"}, headers={"X-CSRF-Token": token}),
        client.post("/api/act/undo", json={}, headers={"X-CSRF-Token": token}),
        client.post("/api/act/undo", json={}, headers={"X-CSRF-Token": "forged"}),
        client.get("/api/advice?cards=5H,5C&role=dealer"),
        client.get("/api/score?hand=5H,5X,5S,JD&starter=5D"),
    ]
    said = [answer.get_json()["error"] for answer in errors]
    assert [answer.status_code for answer in errors] == [401, 401, 403, 400, 400]
    assert all(said) and not any(english_left(text, lang) for text in said), said


def test_the_live_stream_speaks_the_language_of_the_phone_that_opened_it(app):
    english, finnish = phone(app), phone(app, lang="fi")
    token = signed_in(english)
    act(english, token, "new_game", players=["Ann", "Bob"], dealer=1)

    def first_state(client) -> dict:
        """The first board with the game the stream tells (the broadcaster may tell the
        board of a moment before first: the game follows)."""
        response = client.get("/api/events", buffered=False)
        try:
            for chunk in response.response:
                text = chunk.decode() if isinstance(chunk, bytes) else chunk
                for block in text.split("\nevent: state\ndata: ")[1:]:
                    board = json.loads(block.split("\n", 1)[0])
                    if board["game"] is not None:
                        return board
        finally:
            response.close()
        raise AssertionError("the stream ended")

    assert first_state(english)["game"]["summary"] == "Deal 1, Bob deals. Turn the starter."
    assert first_state(finnish)["game"]["summary"] == "Jako 1, Bob jakaa. Käännä aloituskortti."
    assert first_state(finnish)["message"] == "Uusi peli: Bob jakaa ensin."


@pytest.mark.slow
@pytest.mark.subprocess
def test_the_boards_language_comes_from_its_config(tmp_path):
    """`pegboard serve` with ``[board] language = "nl"``: a phone that asks for no
    language reads Dutch; one that asks for German reads German."""
    config = tmp_path / "config.toml"
    config.write_text(f'[board]\npin = "{PIN}"\nlanguage = "nl"\n')
    command = [sys.executable, "-m", "pegboard.cli", "serve", "--sim", "--port", "0"]
    command += ["--data", str(tmp_path / "data"), "--config", str(config)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = re.search(r"panel at (http://\S+/)", server.stdout.readline()).group(1)

        def lang_of(**headers) -> str:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as page:
                return re.search(r'<html lang="(\w+)"', page.read().decode()).group(1)

        assert lang_of() == "nl"
        assert lang_of(**{"Accept-Language": "de-AT"}) == "de"
    finally:
        server.terminate()
        server.wait(timeout=15)


def test_a_board_language_it_does_not_speak_is_refused(keeper):
    with pytest.raises(ConfigError, match="'xx' is not one of en, nl, da, de, fi, sv"):
        create_app({"PIN": PIN, "SIM": True, "LANGUAGE": "xx"}, keeper)
