// A photo of a show, read by the board (POST /api/cards): scaled down on the phone first
// when it is big (its longest side SIDE pixels at most, a JPEG), sent for the count it is of; the cards
// read sure are picked for that count, and each unsure one is asked with the picker open
// at the likely card. The board tells nothing of what the cards score: the claim is the
// player's, as before (with Muggins off the phone may show what they score, when asked).
// The board's own camera fills the pad the same way: asked from the phone (POST
// api/camera), or taken when the advance button is held (the snapshot's board_photo).

import { say } from "./answer.js";
import { focusOn } from "./parts.js";
import { picked, setPicked } from "./picks.js";
import { api, now } from "./talk.js";
import { list, t } from "./words.js";

const SIDE = 1600; // pixels: the reader needs no more (about 300 kB)
const SENT_AS_IS = 1 << 20; // bytes: a photo this small, of a type the board reads, goes as it is
const SENT_TYPES = ["image/jpeg", "image/png", "image/webp"];

async function scaled(file) {
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    throw new Error(t("photo_no_image"));
  }
  const scale = Math.min(1, SIDE / Math.max(bitmap.width, bitmap.height));
  if (scale === 1 && file.size <= SENT_AS_IS && SENT_TYPES.includes(file.type)) {
    bitmap.close();
    return file; // small enough: not made worse by a second JPEG
  }
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", 0.85));
}

// What the board read (``read``: its cards, and ``shown`` when all were sure) picked for
// the count ``how`` picks for ({name, size, fixed, title, seat, kind}); ``pickCards``
// opens the picker for what is left to ask.
function pickRead(how, read, pickCards) {
  const game = now().game;
  const sure = read.shown || read.cards.filter((c) => c.sure).map((c) => c.card);
  const room = how.size - how.fixed.length;
  const mine = sure.filter((c) => c !== game.starter && !how.fixed.includes(c)).slice(0, room);
  const unsure = read.cards.filter((c) => !c.sure).map((c) => c.card);
  setPicked(how.name, mine);
  if (picked(how.name).length < room) {
    if (unsure.length) focusOn("sheet", unsure[0]);
    pickCards(how.name, how.size, how.fixed, how.title);
  }
  const said = !unsure.length ? t("photo_read", { cards: list(sure) })
    : sure.length ? t("photo_unsure", { cards: list(sure), unsure: list(unsure) })
      : t("photo_unsure_all", { unsure: list(unsure) });
  say("now", said, unsure.length ? "" : "ok");
}

// A photo read by the board (``reading``: the photo's way there, saying ``words`` while it
// is on its way) picked for the count ``how`` picks for.
async function readFor(how, words, reading, pickCards) {
  say("now", words);
  try {
    pickRead(how, await reading(new URLSearchParams({ seat: how.seat, kind: how.kind })), pickCards);
  } catch (error) {
    say("now", error.message, "bad");
  }
}

// Read ``file`` (the phone's own photo) for the count ``how`` picks for.
export function readPhoto(how, file, pickCards) {
  return readFor(how, t("photo_reading"), async (query) => {
    const body = await scaled(file);
    const type = body.type || "image/jpeg";
    return api(`api/cards?${query}`, { method: "POST", body, headers: { "Content-Type": type } });
  }, pickCards);
}

// A photo taken by the board's own camera for the count ``how`` picks for.
export function boardCamera(how, pickCards) {
  return readFor(how, t("camera_taking"), (query) => api(`api/camera?${query}`, { method: "POST" }), pickCards);
}

let boardSeen = null; // the board's photo this page picked last: its run and number

// The board's photo of the count due (the advance button held: ``photo``, the snapshot's
// board_photo of the board's run ``run``), picked once for the count ``how`` picks for
// when it is of that count: after this drawing, as a photo the phone took is.
export function pickBoardPhoto(how, photo, run, pickCards) {
  if (!photo || photo.seat !== how.seat || photo.kind !== how.kind) return;
  const key = `${run}/${photo.number}`;
  if (boardSeen === key) return;
  boardSeen = key;
  queueMicrotask(() => {
    if (photo.error) say("now", photo.error, "bad");
    else pickRead(how, photo, pickCards);
  });
}
