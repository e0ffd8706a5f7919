// The cards of a count: those known, the starter, a word on them, and the buttons to
// pick the rest and to name a starter turned without its card (until then the cards
// cannot be checked, and a count is pegged as claimed).

import { html, nothing } from "../vendor/lit-html.js";
import { card } from "../parts.js";
import { t } from "../words.js";

export function cardsLine(game, ctx, { cards, note = "", pick = null, picks = cards }) {
  return html`<div class="cards-line">
    <span class="cards">${cards.map((c) => card(c))}${game.starter ? card(game.starter, "starter") : nothing}
      ${note ? html`<span class="note">${note}</span>` : nothing}</span>
    ${ctx.signedIn && !game.starter ? html`<button type="button" class="quiet" @click=${ctx.nameStarter}>${t("name_starter")}</button>` : nothing}
    ${pick ? html`<button type="button" class="quiet pick" @click=${pick}>${t(picks.length ? "change_cards" : "pick_cards")}</button>` : nothing}
  </div>`;
}
