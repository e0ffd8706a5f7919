// The cards of a count: those known, the starter, a word on them, and the buttons to
// pick the rest (or read them from a photo: the phone's, or the board's own camera's when
// it has one) and to name a starter turned without its card (until then the cards cannot
// be checked, and a count is pegged as claimed).
// ``pick``: the count's picks ({name, size, fixed, title, seat, kind}), or null when
// nothing is left to pick.

import { html, nothing } from "../vendor/lit-html.js";
import { card } from "../parts.js";
import { countPicks } from "../picks.js";
import { boardCamera, readPhoto } from "../photo.js";
import { t } from "../words.js";

function photoChosen(event, pick, ctx) {
  const [file] = event.target.files;
  event.target.value = ""; // the same photo chosen again is read again
  if (file) readPhoto(pick, file, ctx.pickCards);
}

export function cardsLine(game, ctx, { cards, note = "", pick = null, picks = cards }) {
  return html`<div class="cards-line">
    <span class="cards">${cards.map((c) => card(c))}${game.starter ? card(game.starter, "starter") : nothing}
      ${note ? html`<span class="note">${note}</span>` : nothing}</span>
    ${ctx.signedIn && !game.starter ? html`<button type="button" class="quiet" @click=${ctx.nameStarter}>${t("name_starter")}</button>` : nothing}
    ${pick ? html`<button type="button" class="quiet pick" @click=${() => ctx.pickCards(pick.name, pick.size, pick.fixed, pick.title)}>${t(picks.length ? "change_cards" : "pick_cards")}</button>
      <label class="button quiet camera"><input type="file" class="sr-only" accept="image/*" capture="environment"
        @change=${(event) => photoChosen(event, pick, ctx)}>${t("photo_take")}</label>
      ${ctx.camera ? html`<button type="button" class="quiet board-camera" @click=${() => boardCamera(pick, ctx.pickCards)}>${t("camera_take")}</button>` : nothing}` : nothing}
  </div>`;
}

// The picks of the count ``of`` (the count due, a Muggins window's, a dispute's: its seat,
// kind, name and size, the cards the play showed).
export const picksOf = (of) => ({
  name: countPicks(of.seat, of.kind), size: of.size, fixed: of.laid, seat: of.seat, kind: of.kind,
  title: t("cards_for", { name: of.name, size: of.size }),
});
