// The win: by how much, the skunk, the match; the next game, a rematch, or the cut for
// the third game of three. A claim of game made without its cards may be challenged
// beside it until the next entry.

import { html, nothing } from "../vendor/lit-html.js";
import { hint } from "../parts.js";
import { t } from "../words.js";
import { mugginsRow } from "./muggins.js";

export function over(game, ctx) {
  const result = game.result;
  const lead = [t("won_by", { margin: result.margin }), result.skunk ? t(`skunk_${result.skunk}`) : null].filter(Boolean).join(", ");
  const final = html`<ol class="final">${game.sides.map((side, index) => html`
    <li class="side-${index} ${index === result.winner ? "winner" : ""}"><span>${side.name}</span><b>${side.front}</b></li>`)}</ol>`;
  const { match } = game;
  const games = game.settings.match_games;
  const standing = games > 1
    ? html`<p>${t("match_standing", { standing: game.sides.map((side, i) => `${side.name} ${match.points[i]}`).join(" · "), games })}</p>
      ${match.winner !== null ? html`<p class="verdict">${t("match_won", { name: game.sides[match.winner].name })}</p>` : nothing}`
    : nothing;
  const title = t("won_title", { name: result.name });
  if (!ctx.signedIn) return { title, lead, rows: mugginsRow(game, ctx), body: html`${final}${standing}`, due: ctx.pinPrompt(), focus: "#pin-prompt" };
  const next = result.next === "rematch"
    ? html`<button type="button" class="due" @click=${() => ctx.act("advance")}>${t("rematch")}</button>`
    : !result.cut
      ? html`<button type="button" class="due" @click=${() => ctx.act("next_game")}>${t("next_game")}</button>`
      : html`<button type="button" class="due" @click=${ctx.cutForDeal}>${t("cut_title")}</button>`;
  return {
    title,
    lead,
    rows: mugginsRow(game, ctx),
    body: html`${final}${standing}${result.cut && result.next !== "rematch" ? hint(t("cut_hint")) : nothing}`,
    moves: html`${next}<button type="button" class="quiet" @click=${() => ctx.openTab("tab-game")}>${t("new_game")}</button>`,
    focus: "button.due",
  };
}
