// The simulated board's dials and buttons, on the screen (with the PIN): they act exactly
// like the board's. Their keys work only while one of them has the focus, so a stray key
// never makes an entry.

import { html, nothing, render } from "./vendor/lit-html.js";
import { answer } from "./answer.js";
import { act, now, signedIn } from "./talk.js";
import { t } from "./words.js";

const KEYS = { q: [0, "sim_turn", -1], w: [0, "sim_turn", 1], e: [0, "sim_press"], E: [0, "sim_hold"],
  a: [1, "sim_turn", -1], s: [1, "sim_turn", 1], d: [1, "sim_press"], D: [1, "sim_hold"],
  z: [2, "sim_turn", -1], x: [2, "sim_turn", 1], c: [2, "sim_press"], C: [2, "sim_hold"],
  i: [3, "sim_turn", -1], o: [3, "sim_turn", 1], p: [3, "sim_press"], P: [3, "sim_hold"] };

const press = (action, args = {}) => act(action, args, "dials");

export function drawDials() {
  const state = now();
  const game = state.game;
  const shown = Boolean(state.sim && signedIn()); // the dials peg: PIN first
  const host = document.getElementById("sim");
  host.hidden = !shown;
  if (!shown) return;
  const button = (text, label, action, args) => html`<button type="button" class="quiet" data-repeats="yes"
    aria-label=${label} @click=${() => press(action, args)}>${text}</button>`;
  const dial = (seat, index) => {
    const say = (what) => t("dial_label", { name: seat.name, what });
    return html`<div class="dial side-${seat.side}">
      <div class="name"><span>${seat.name}</span><span class="value">${state.pending[index] ? `+${state.pending[index]}` : ""}</span></div>
      <div class="buttons">
        ${button(t("dial_minus"), say(t("dial_back")), "sim_turn", { seat: index, steps: -1 })}
        ${button(t("dial_plus"), say(t("dial_on")), "sim_turn", { seat: index, steps: 1 })}
        ${button(t("dial_peg"), say(t("dial_peg")), "sim_press", { seat: index })}
        ${button(t("dial_undo"), say(t("dial_undo")), "sim_hold", { seat: index })}</div></div>`;
  };
  render(html`${answer("dials", "dial-message")}
    <div id="dials" class="dials">${game ? game.seats.map(dial) : nothing}
      <button type="button" class="move-on" data-repeats="yes" @click=${() => press("sim_advance")}>${t("move_on")}</button>
      <button type="button" class="quiet say-again" data-repeats="yes" @click=${() => press("sim_repeat")}>${t("say_again")}</button></div>`,
  document.getElementById("dials-host"));
}

export function dialKeys(event) {
  const state = now();
  if (!state || !state.sim || !signedIn() || event.ctrlKey || event.metaKey || event.altKey) return;
  if (!event.target.closest("#sim")) return; // the board's keys: only with a board control in focus
  if (event.key === " ") {
    if (event.target.closest("button")) return; // the focused button's own space
    event.preventDefault();
    press("sim_advance");
    return;
  }
  const key = KEYS[event.key];
  if (!key || !state.game || key[0] >= state.game.seats.length) return;
  event.preventDefault();
  press(key[1], key[1] === "sim_turn" ? { seat: key[0], steps: key[2] } : { seat: key[0] });
}
