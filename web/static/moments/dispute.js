// A Muggins call made without the cards: the mugged side may show them, before the next
// count, and the cards settle it. A row beside what is due; one tap opens it.

import { html, nothing } from "../vendor/lit-html.js";
import { hint } from "../parts.js";
import { countPicks, picked } from "../picks.js";
import { t } from "../words.js";
import { cardsLine, picksOf } from "./cards.js";

export function disputeRow(game, ctx) {
  const dispute = game.dispute;
  if (!dispute || ctx.disputing()) return nothing;
  const said = t("dispute_lead", { caller: dispute.caller, name: dispute.name, called: dispute.called });
  if (!ctx.signedIn) return html`<p class="call-row hint">${said}</p>`;
  return html`<div class="call-row"><span>${said}</span>
    <button type="button" class="quiet" @click=${() => ctx.dispute(true)}>${t("dispute_open")}</button></div>`;
}

export function disputeCall(game, ctx) {
  const dispute = game.dispute;
  const name = countPicks(dispute.seat, dispute.kind);
  const cards = picked(name);
  const all = [...dispute.laid, ...cards];
  const ready = all.length === dispute.size && Boolean(game.starter);
  return {
    title: t("dispute_title"),
    lead: t("dispute_lead", { caller: dispute.caller, name: dispute.name, called: dispute.called }),
    body: html`${hint(t("dispute_hint", { name: game.seats[dispute.seat].name }))}
      ${cardsLine(game, ctx, {
        cards: all, picks: cards,
        pick: picksOf(dispute),
      })}`,
    moves: html`<button type="button" class="due" ?disabled=${!ready}
        @click=${() => ctx.act("dispute", { seat: dispute.seat, cards: all })}>${t("dispute_send")}</button>
      <button type="button" class="quiet" @click=${() => ctx.dispute(false)}>${t("dispute_skip")}</button>`,
    focus: ready ? "button.due" : "button.pick",
  };
}
