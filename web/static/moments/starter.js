// The starter: tap the card turned (or only say whether it is a jack).

import { html } from "../vendor/lit-html.js";
import { pack } from "../parts.js";
import { t } from "../words.js";
import { dealLead } from "./lead.js";

export function starter(game, ctx) {
  const view = { title: t("starter_title"), lead: dealLead(game) };
  if (!ctx.signedIn) return { ...view, due: ctx.pinPrompt(), focus: "#pin-prompt" };
  const turned = (args) => ctx.act("starter", args);
  // The pack, and under it the row the play's Go and end take: the pack stays put.
  return {
    ...view,
    due: pack({ name: "moment", known: game.known, tap: (card) => turned({ card }) }),
    moves: html`<button type="button" class="due" @click=${() => turned({ card: null })}>${t("not_jack")}</button>
      <button type="button" class="quiet" @click=${() => turned({ card: null, heels: true })}>${t("jack")}</button>`,
    focus: ".picker button[tabindex='0']",
  };
}
