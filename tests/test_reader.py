"""The card reader reads photos of decks it never saw (Debian's decks: none trained it), spread
and fanned, and refuses what it cannot read with one clear line."""

from __future__ import annotations

import io

import pytest
from reader_photos import backs_photo, need_decks, photo, render

from pegboard.errors import ReaderError
from pegboard.reader import MAX_BYTES, read
from pegboard.rules.cards import Card

need_decks()
pytestmark = pytest.mark.subprocess  # the decks' faces are drawn by rsvg-convert

SPREAD = "5H 5C 5S JD 4S".split()  # a hand and its starter
FANNED = "AS 7D 8C 9H KC".split()


@pytest.fixture(scope="module")
def decks(tmp_path_factory):
    """Two held-out decks, only the faces these tests lay."""
    return render(
        tmp_path_factory.mktemp("decks"), ("svg-standard", "svg-nicu-white"), SPREAD + FANNED
    )


def sure_cards(reading):
    return sorted(str(s.card) for s in reading.cards if s.sure)


@pytest.mark.parametrize("deck", ["svg-standard", "svg-nicu-white"])
def test_a_spread_show_of_a_deck_never_seen_reads_sure(decks, deck):
    reading = read(photo(decks, deck, SPREAD, fanned=False, seed=1), photo="show.jpg")
    assert sure_cards(reading) == sorted(str(Card.parse(c)) for c in SPREAD)
    assert all(s.box[0] < s.box[2] and s.box[1] < s.box[3] for s in reading.cards)


@pytest.mark.parametrize("deck", ["svg-standard", "svg-nicu-white"])
def test_a_fanned_show_reads_by_its_corners(decks, deck):
    reading = read(photo(decks, deck, FANNED, fanned=True, seed=2))
    assert sure_cards(reading) == sorted(str(Card.parse(c)) for c in FANNED)


def test_no_card_is_marked_sure_that_is_not_there(decks):
    for seed in range(4):
        for fanned in (False, True):
            reading = read(photo(decks, "svg-standard", SPREAD, fanned, seed=10 + seed))
            wrong = [
                str(s.card)
                for s in reading.cards
                if s.sure and str(s.card) not in {str(Card.parse(c)) for c in SPREAD}
            ]
            assert wrong == []


def test_card_backs_are_refused_with_one_line(decks):
    with pytest.raises(
        ReaderError, match=r"^Only card backs in the photo: turn the cards face up\.$"
    ):
        read(backs_photo(decks))


def test_a_blank_table_is_refused_with_one_line(decks):
    with pytest.raises(ReaderError, match=r"^No cards in the photo"):
        read(backs_photo(decks, n=0))


def test_what_is_no_photo_is_refused_before_it_is_read():
    from PIL import Image

    with pytest.raises(ReaderError, match=r"That is not a photo: send a JPEG, PNG or WebP image\."):
        read(b"GIF89a not really")
    with pytest.raises(ReaderError, match="That is not a photo"):
        read(b"\xff\xd8\xff\xe0" + b"\x00" * 100)  # a JPEG's head, no body
    with pytest.raises(ReaderError, match=r"The photo is too big: 12 MB at most\."):
        read(b"\xff" * (MAX_BYTES + 1))
    for side in (7_000, 10_000):  # 49 and 100 MP of one colour, in a few kB each
        bomb = io.BytesIO()
        Image.new("1", (side, side)).save(bomb, "PNG")
        assert len(bomb.getvalue()) < 100_000
        with pytest.raises(ReaderError, match="too many pixels: 40 million at most"):
            read(bomb.getvalue())


def test_a_blurred_photo_is_refused_with_one_line(decks):
    from PIL import Image, ImageFilter

    sharp = Image.open(io.BytesIO(photo(decks, "svg-standard", SPREAD, fanned=False, seed=1)))
    blurred = io.BytesIO()
    sharp.filter(ImageFilter.GaussianBlur(5)).save(blurred, "JPEG")
    with pytest.raises(ReaderError, match=r"^The photo is too blurred to read the cards"):
        read(blurred.getvalue())


def test_two_cards_side_by_side_are_two_cards(decks):
    # Touching, their outline is one rectangle of a card's shape on its side: a lone card's
    # outline, but its indices read across it, not along it.
    from PIL import Image

    faces = decks["svg-standard"]
    left, right = (
        face.resize((110, round(face.height * 110 / face.width)), Image.Resampling.LANCZOS)
        for face in (faces[(c.rank - 1, c.suit)].image for c in map(Card.parse, ["5H", "JD"]))
    )  # as far from the camera as a show on the table often is
    table = Image.new("RGB", (1000, 750), (40, 90, 50))
    x, y = 500 - left.width, 375 - left.height // 2
    table.paste(left, (x, y), left)
    table.paste(right, (x + left.width - 2, y), right)
    out = io.BytesIO()
    table.save(out, "JPEG", quality=90)
    assert sure_cards(read(out.getvalue())) == ["5♥", "J♦"]


def test_an_index_whose_ink_runs_into_the_middle_pips_is_still_read(decks):
    # A line from each rank glyph into the middle pips, as a court's frame or a middle pip
    # touches the index in some decks: no rank glyph beside a pip of its own to pair.
    from PIL import Image, ImageDraw

    face = decks["svg-standard"][(7, Card.parse("8C").suit)].image.copy()
    w, h = face.size
    for _ in range(2):  # the far corner's index too, the card turned
        face = face.rotate(180)
        line = [(0.05 * w, 0.15 * h), (0.6 * w, 0.15 * h)]
        ImageDraw.Draw(face).line(line, fill=(0, 0, 0, 255), width=max(2, w // 60))
    face = face.resize((130, round(h * 130 / w)), Image.Resampling.LANCZOS)
    table = Image.new("RGB", (1000, 750), (40, 90, 50))
    table.paste(face, (430, 270), face)
    out = io.BytesIO()
    table.save(out, "JPEG", quality=90)
    assert sure_cards(read(out.getvalue())) == ["8♣"]
