// No game yet: whoever has the PIN starts one.

import { html } from "../vendor/lit-html.js";
import { t } from "../words.js";

export function none(game, ctx) {
  if (!ctx.signedIn) {
    return { title: t("no_game"), lead: t("no_game_watching"), body: html`${ctx.pinPrompt()}${ctx.answer}`, focus: "#pin-prompt" };
  }
  return {
    title: t("no_game"),
    lead: t("no_game_lead"),
    body: html`<button type="button" class="due" @click=${() => ctx.openTab("tab-game")}>${t("start_one")}</button>${ctx.answer}`,
    focus: "button.due",
  };
}
