// A signed-in phone lets another in without the PIN: a one-time link, shown as a QR code
// to scan; the other phone opened on it signs in. Loaded when first needed.

import { html, render } from "./vendor/lit-html.js";
import { tell } from "./pin.js";
import { invite, join } from "./talk.js";
import { t } from "./words.js";

// The link a signed-in phone shows another, as a QR code to scan: good once, for a minute.
export async function letIn() {
  let made;
  try {
    made = await invite();
  } catch (error) {
    tell(error.message, "bad");
    return;
  }
  const invited = document.getElementById("invite-dialog");
  render(html`<h2 id="invite-title">${t("let_in")}</h2>
    <p>${t("let_in_how")}</p>
    <img id="invite-qr" src=${made.qr} alt=${t("let_in_code")} width="220" height="220">
    <p><a id="invite-link" class="link" href=${made.link}>${made.link}</a></p>
    <menu><button type="button" id="invite-close" @click=${() => invited.close()}>${t("done")}</button></menu>`, invited);
  invited.showModal();
}

// Opened from such a link: sign in with it (once: it leaves the address bar at once).
export async function joinWithLink() {
  const token = new URLSearchParams(location.hash.slice(1)).get("join");
  if (!token) return;
  window.history.replaceState(null, "", location.pathname + location.search);
  try {
    await join(token);
    tell(t("joined"), "ok");
  } catch (error) {
    tell(error.message, "bad");
  }
}
