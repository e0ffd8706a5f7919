// No game yet: whoever has the PIN starts one.

import { html } from "../vendor/lit-html.js";
import { t } from "../words.js";

export function none(game, ctx) {
  if (!ctx.signedIn) {
    return { title: t("no_game"), lead: t("no_game_watching"), due: ctx.pinPrompt(), focus: "#pin-prompt" };
  }
  return {
    title: t("no_game"),
    lead: t("no_game_lead"),
    moves: html`<button type="button" class="due" @click=${() => ctx.openTab("tab-game")}>${t("start_one")}</button>`,
    focus: "button.due",
  };
}
