// The answer to a tap, at the action it answers: what the board said of the entry, or
// why it was refused. It stays while it is true and fades once it is out of date.

import { html } from "./vendor/lit-html.js";

const boxes = new Map(); // where -> {text, kind, fading}
let redraw = () => {};

export const redrawWith = (draw) => {
  redraw = draw;
};

// ``kind``: "ok", "bad" (a refusal) or "" (what the board said of the last entry).
export function say(where, text, kind = "") {
  boxes.set(where, { text, kind, fading: false });
  redraw();
}

export function fade(where) {
  const box = boxes.get(where);
  if (box && box.text && !box.fading) {
    box.fading = true;
    redraw();
  }
}

// What the box at ``where`` says now (nothing once it fades).
export const said = (where) => {
  const box = boxes.get(where);
  return box && !box.fading ? box.text : "";
};

export function answer(where, id = `${where}-message`) {
  const box = boxes.get(where) || { text: "", kind: "", fading: false };
  const gone = () => {
    if (boxes.get(where) === box && box.fading) {
      boxes.delete(where);
      redraw();
    }
  };
  return html`<p id=${id} class="message ${box.kind} ${box.fading ? "fading" : ""}" @animationend=${gone}>${box.text}</p>`;
}
