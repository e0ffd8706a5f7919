// The show done: the next deal, a tap away (a Muggins call on the crib still beside it).

import { html, nothing } from "../vendor/lit-html.js";
import { t } from "../words.js";
import { disputeRow } from "./dispute.js";
import { dealLead } from "./lead.js";
import { lessonOf } from "./lesson.js";
import { mugginsRow } from "./muggins.js";

export function done(game, ctx) {
  const next = ctx.signedIn
    ? html`<button type="button" class="due" @click=${() => ctx.act("advance")}>${t("next_deal")}</button>`
    : ctx.pinPrompt();
  return {
    title: t("done_title"),
    lead: dealLead(game),
    rows: html`${disputeRow(game, ctx)}${mugginsRow(game, ctx)}${game.lesson ? lessonOf(game.lesson, ctx) : nothing}`,
    due: ctx.signedIn ? nothing : next,
    moves: ctx.signedIn ? next : nothing,
    focus: ctx.signedIn ? "button.due" : "#pin-prompt",
  };
}
