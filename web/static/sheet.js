// Picking cards in a sheet: the cards of a count not seen in the play, the starter named
// late, each player's card of a cut. Kept over a reload (see picks.js).

import { html, render } from "./vendor/lit-html.js";
import { answer, say } from "./answer.js";
import { card, pack } from "./parts.js";
import { picked, setPicked, toggle } from "./picks.js";
import { now } from "./talk.js";
import { t } from "./words.js";

let sheet = null; // {name, most, fixed, title, done}
let closed = () => {};

export const onClose = (then) => {
  closed = then;
};

const dialog = () => document.getElementById("cards-dialog");

export function pickCards(name, most, fixed, title, done = null) {
  sheet = { name, most, fixed, title, done };
  say("cards", "");
  drawSheet();
  dialog().showModal();
  dialog().querySelector(".picker button[tabindex='0']")?.focus();
}

export function drawSheet() {
  if (!sheet) return;
  const { name, most, fixed, title } = sheet;
  const cards = picked(name);
  const game = now().game;
  const known = (game && game.known) || {};
  const shown = name === "cut"
    ? cards.map((c, seat) => html`<span class="cut">${t("cut_player", { name: game.seats[seat].name, card: "" })}${card(c)}</span>`)
    : [...fixed, ...cards].map((c) => card(c));
  const tap = (c) => {
    if (!toggle(name, c, most, fixed)) return say("cards", t("cards_full", { size: most }), "bad");
    if (most === 1 && picked(name).length === 1) return closeSheet(); // one card: its tap is the answer
    return drawSheet();
  };
  render(html`<h2 id="cards-title">${title}</h2>
    <div class="cards">${shown.length ? shown : t("nothing_picked")}</div>
    ${pack({
      name: "sheet", selected: cards, fixed, toggles: true, known, tap,
      blocked: (c) => name !== "cut" && c in known && !cards.includes(c) && !fixed.includes(c),
    })}
    ${answer("cards")}
    <menu><button type="button" class="quiet" @click=${clear}>${t("clear")}</button>
      <button type="button" id="cards-done" @click=${closeSheet}>${t("done")}</button></menu>`, dialog());
}

function clear() {
  if (!sheet) return;
  setPicked(sheet.name, []);
  drawSheet();
}

export function closeSheet() {
  const done = sheet && sheet.done;
  sheet = null;
  dialog().close();
  closed();
  if (done) done();
}

// Closed by Escape: nothing more to do.
export function startSheet() {
  dialog().addEventListener("close", () => {
    if (sheet) {
      sheet = null;
      closed();
    }
  });
}

// The starter, named late: its card checks the counts from now on.
export function nameStarter(act) {
  setPicked("starter", []);
  pickCards("starter", 1, [], t("starter_name_title"), () => {
    const [c] = picked("starter");
    if (c) act("name_starter", { card: c });
  });
}

// The third game of three: each player cuts, the lowest deals.
export function cutForDeal(act) {
  setPicked("cut", []);
  const seats = now().game.seats.length;
  pickCards("cut", seats, [], t("cut_title"), () => {
    const cuts = picked("cut");
    if (cuts.length === seats) act("next_game", { cuts });
  });
}
