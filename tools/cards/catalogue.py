"""The reader's words in the five catalogues (run after ``pybabel update``, before compile):
``python -m tools.cards.catalogue``. Kept here so a merge of the .po files loses none."""

from __future__ import annotations

from pathlib import Path

LOCALE = Path(__file__).resolve().parents[2] / "pegboard" / "locale"

WORDS: dict[str, dict[str, str]] = {
    "{cards} seen twice in one photo: one deck holds each card once": {
        "nl": "{cards} twee keer gezien op één foto: een spel heeft elke kaart één keer",
        "da": "{cards} set to gange på ét foto: et spil har hvert kort én gang",
        "de": "{cards} zweimal auf einem Foto: ein Spiel hat jede Karte nur einmal",
        "fi": "{cards} näkyy kahdesti samassa kuvassa: pakassa on jokainen kortti kerran",
        "sv": "{cards} syns två gånger på ett foto: en kortlek har varje kort en gång",
    },
    "the starter is {starter}, and it is not in the photo: {cards}": {
        "nl": "de starterkaart is {starter}, en die ligt niet op de foto: {cards}",
        "da": "starterkortet er {starter}, og det er ikke på fotoet: {cards}",
        "de": "die Startkarte ist {starter}, und sie ist nicht auf dem Foto: {cards}",
        "fi": "aloituskortti on {starter}, eikä se ole kuvassa: {cards}",
        "sv": "startern är {starter}, och den finns inte på fotot: {cards}",
    },
    "send the photo as a JPEG, PNG or WebP image": {
        "nl": "stuur de foto als JPEG-, PNG- of WebP-afbeelding",
        "da": "send fotoet som et JPEG-, PNG- eller WebP-billede",
        "de": "schicke das Foto als JPEG-, PNG- oder WebP-Bild",
        "fi": "lähetä kuva JPEG-, PNG- tai WebP-muodossa",
        "sv": "skicka fotot som en JPEG-, PNG- eller WebP-bild",
    },
    "the photo is too big: {kb} kB at most": {
        "nl": "de foto is te groot: hoogstens {kb} kB",
        "da": "fotoet er for stort: højst {kb} kB",
        "de": "das Foto ist zu groß: höchstens {kb} kB",
        "fi": "kuva on liian suuri: enintään {kb} kt",
        "sv": "fotot är för stort: högst {kb} kB",
    },
    "the board is reading another photo: try again": {
        "nl": "het bord leest al een andere foto: probeer het opnieuw",
        "da": "brættet læser et andet foto: prøv igen",
        "de": "das Brett liest gerade ein anderes Foto: versuche es noch einmal",
        "fi": "lauta lukee toista kuvaa: yritä uudelleen",
        "sv": "brädet läser ett annat foto: försök igen",
    },
    "The photo is too big: {mb} MB at most.": {
        "nl": "De foto is te groot: hoogstens {mb} MB.",
        "da": "Fotoet er for stort: højst {mb} MB.",
        "de": "Das Foto ist zu groß: höchstens {mb} MB.",
        "fi": "Kuva on liian suuri: enintään {mb} Mt.",
        "sv": "Fotot är för stort: högst {mb} MB.",
    },
    "That is not a photo: send a JPEG, PNG or WebP image.": {
        "nl": "Dat is geen foto: stuur een JPEG-, PNG- of WebP-afbeelding.",
        "da": "Det er ikke et foto: send et JPEG-, PNG- eller WebP-billede.",
        "de": "Das ist kein Foto: schicke ein JPEG-, PNG- oder WebP-Bild.",
        "fi": "Tämä ei ole kuva: lähetä JPEG-, PNG- tai WebP-kuva.",
        "sv": "Det är inget foto: skicka en JPEG-, PNG- eller WebP-bild.",
    },
    "The photo has too many pixels: {mp} million at most.": {
        "nl": "De foto heeft te veel pixels: hoogstens {mp} miljoen.",
        "da": "Fotoet har for mange pixels: højst {mp} millioner.",
        "de": "Das Foto hat zu viele Pixel: höchstens {mp} Millionen.",
        "fi": "Kuvassa on liikaa pikseleitä: enintään {mp} miljoonaa.",
        "sv": "Fotot har för många pixlar: högst {mp} miljoner.",
    },
    "read the cards in photos of a show": {
        "nl": "lees de kaarten op foto's van een hand of de crib",
        "da": "læs kortene på fotos af en hånd eller cribben",
        "de": "die Karten auf Fotos eines Blatts oder der Krippe lesen",
        "fi": "lue kortit käden tai kribin kuvista",
        "sv": "läs korten på foton av en hand eller krubban",
    },
    "photo": {"nl": "foto", "da": "foto", "de": "Foto", "fi": "kuva", "sv": "foto"},
    "JPEG, PNG or WebP photos": {
        "nl": "JPEG-, PNG- of WebP-foto's",
        "da": "JPEG-, PNG- eller WebP-fotos",
        "de": "JPEG-, PNG- oder WebP-Fotos",
        "fi": "JPEG-, PNG- tai WebP-kuvat",
        "sv": "JPEG-, PNG- eller WebP-foton",
    },
    "the starter card, e.g. 5D: also count the hand": {
        "nl": "de starterkaart, bv. 5D: tel ook de hand",
        "da": "starterkortet, f.eks. 5D: tæl også hånden",
        "de": "die Startkarte, z. B. 5D: auch das Blatt zählen",
        "fi": "aloituskortti, esim. 5D: laske myös käsi",
        "sv": "startern, t.ex. 5D: räkna också handen",
    },
    "cannot open {photo}: {reason}": {
        "nl": "kan {photo} niet openen: {reason}",
        "da": "kan ikke åbne {photo}: {reason}",
        "de": "{photo} lässt sich nicht öffnen: {reason}",
        "fi": "tiedostoa {photo} ei voi avata: {reason}",
        "sv": "kan inte öppna {photo}: {reason}",
    },
    "? unsure: check these cards": {
        "nl": "? onzeker: controleer deze kaarten",
        "da": "? usikker: tjek disse kort",
        "de": "? unsicher: prüfe diese Karten",
        "fi": "? epävarma: tarkista nämä kortit",
        "sv": "? osäker: kontrollera de här korten",
    },
    "no count: four cards besides the starter must be read, all sure": {
        "nl": "geen telling: vier kaarten naast de starterkaart moeten zeker gelezen zijn",
        "da": "ingen tælling: fire kort ud over starterkortet skal læses, alle sikkert",
        "de": "keine Zählung: vier Karten außer der Startkarte müssen sicher gelesen sein",
        "fi": "ei laskua: neljä korttia aloituskortin lisäksi on luettava varmasti",
        "sv": "ingen räkning: fyra kort utöver startern måste läsas, alla säkert",
    },
    "with the starter {starter}: {count}": {
        "nl": "met de starterkaart {starter}: {count}",
        "da": "med starterkortet {starter}: {count}",
        "de": "mit der Startkarte {starter}: {count}",
        "fi": "aloituskortilla {starter}: {count}",
        "sv": "med startern {starter}: {count}",
    },
    "A joker is in the photo: cribbage is played without jokers.": {
        "nl": "Er ligt een joker op de foto: cribbage speel je zonder jokers.",
        "da": "Der er en joker på fotoet: cribbage spilles uden jokere.",
        "de": "Ein Joker ist auf dem Foto: Cribbage wird ohne Joker gespielt.",
        "fi": "Kuvassa on jokeri: cribbagea pelataan ilman jokereita.",
        "sv": "Det finns en joker på fotot: cribbage spelas utan jokrar.",
    },
    "More than six cards in the photo: photograph one hand or the crib.": {
        "nl": "Meer dan zes kaarten op de foto: fotografeer één hand of de crib.",
        "da": "Mere end seks kort på fotoet: fotografér én hånd eller cribben.",
        "de": "Mehr als sechs Karten auf dem Foto: fotografiere ein Blatt oder die Krippe.",
        "fi": "Kuvassa on yli kuusi korttia: kuvaa yksi käsi tai kribi.",
        "sv": "Fler än sex kort på fotot: fotografera en hand eller krubban.",
    },
    "The photo is too blurred to read the cards: hold still and take it again.": {
        "nl": "De foto is te wazig om de kaarten te lezen: houd stil en maak hem opnieuw.",
        "da": "Fotoet er for sløret til at læse kortene: hold stille og tag det igen.",
        "de": "Das Foto ist zu unscharf, um die Karten zu lesen: halte still und mach es neu.",
        "fi": "Kuva on liian epätarkka korttien lukemiseen: pidä kamera paikallaan ja ota uusi.",
        "sv": "Fotot är för suddigt för att läsa korten: håll stilla och ta det igen.",
    },
    "No cards in the photo: lay the cards face up and take it again.": {
        "nl": "Geen kaarten op de foto: leg de kaarten open en maak hem opnieuw.",
        "da": "Ingen kort på fotoet: læg kortene med billedsiden op og tag det igen.",
        "de": "Keine Karten auf dem Foto: lege die Karten offen hin und mach es neu.",
        "fi": "Kuvassa ei ole kortteja: käännä kortit kuvapuoli ylös ja ota uusi.",
        "sv": "Inga kort på fotot: lägg korten med framsidan upp och ta det igen.",
    },
    "Only card backs in the photo: turn the cards face up.": {
        "nl": "Alleen ruggen van kaarten op de foto: draai de kaarten om.",
        "da": "Kun kortenes bagsider på fotoet: vend kortene med billedsiden op.",
        "de": "Nur Kartenrücken auf dem Foto: dreh die Karten um.",
        "fi": "Kuvassa on vain korttien selkiä: käännä kortit kuvapuoli ylös.",
        "sv": "Bara kortens baksidor på fotot: vänd upp korten.",
    },
    "No card's corner could be read: take the photo from above, corners in sight.": {
        "nl": "Geen hoek van een kaart was leesbaar: fotografeer van boven, de hoeken in beeld.",
        "da": "Intet korts hjørne kunne læses: tag fotoet oppefra med hjørnerne synlige.",
        "de": "Keine Kartenecke war lesbar: fotografiere von oben, die Ecken im Bild.",
        "fi": "Yhdenkään kortin kulmaa ei voitu lukea: kuvaa ylhäältä, kulmat näkyvissä.",
        "sv": "Inget korts hörn gick att läsa: ta fotot uppifrån med hörnen synliga.",
    },
}


def fill(text: str, lang: str) -> str:
    """``text`` (a .po file) with the reader's words in ``lang``, their fuzzy marks gone."""
    blocks = text.split("\n\n")
    for i, block in enumerate(blocks):
        lines = block.split("\n")
        ids = [line for line in lines if line.startswith("msgid ")]
        if not ids:
            continue
        msgid = ids[0][len('msgid "') : -1].replace('\\"', '"')
        if msgid not in WORDS:
            continue
        word = WORDS[msgid][lang].replace('"', '\\"')
        kept = []
        for line in lines:
            if line.startswith("#|"):
                continue
            if line.startswith("#,"):
                flags = [f.strip() for f in line[2:].split(",") if f.strip() != "fuzzy"]
                if not flags:
                    continue
                line = "#, " + ", ".join(flags)
            if line.startswith("msgstr "):
                line = f'msgstr "{word}"'
            kept.append(line)
        blocks[i] = "\n".join(kept)
    return "\n\n".join(blocks)


def main() -> None:
    for lang in ("nl", "da", "de", "fi", "sv"):
        path = LOCALE / lang / "LC_MESSAGES" / "messages.po"
        path.write_text(fill(path.read_text(encoding="utf-8"), lang), encoding="utf-8")
        print(path)


if __name__ == "__main__":
    main()
