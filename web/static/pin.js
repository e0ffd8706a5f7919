// The PIN: watching is open, pegging needs it once per phone. A wrong PIN keeps the
// dialog open and says so in it.

import { html, render } from "./vendor/lit-html.js";
import { signedIn, signIn, signOut } from "./talk.js";
import { t } from "./words.js";

const dialog = () => document.getElementById("pin-dialog");
let refusal = "";
let told = () => {};

// ``then(text, kind)``: what to tell the phone once signed in or out.
export const onSigned = (then) => {
  told = then;
};
export const tell = (text, kind) => told(text, kind);

function drawPin() {
  const submit = async (event) => {
    event.preventDefault();
    const input = dialog().querySelector("#pin");
    try {
      await signIn(input.value);
      refusal = "";
      dialog().close();
      told(t("signed_in"), "ok");
    } catch (error) {
      refusal = error.message;
      drawPin();
      input.select();
    }
  };
  render(html`<form id="pin-form" @submit=${submit}>
    <label id="pin-label">${t("pin_label")} <input id="pin" type="password" inputmode="numeric" autocomplete="off"
      maxlength="8" aria-invalid=${refusal ? "true" : "false"} aria-describedby="pin-message"></label>
    <p id="pin-message" class="message bad">${refusal}</p>
    <menu><button type="button" id="pin-cancel" class="quiet" @click=${() => dialog().close()}>${t("cancel")}</button>
      <button id="pin-ok">${t("sign_in")}</button></menu></form>`, dialog());
}

export async function askPin() {
  if (signedIn()) {
    await signOut();
    told(t("signed_out"), "ok");
    return;
  }
  refusal = "";
  drawPin();
  dialog().querySelector("#pin").value = "";
  dialog().showModal();
}

export const pinPrompt = () => html`<div class="watch"><p class="hint">${t("watching")}</p>
  <button type="button" id="pin-prompt" @click=${askPin}>${t("pin_to_peg")}</button></div>`;

