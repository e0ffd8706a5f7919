// A card per side under the board: its colour, name and score, the points to go, who
// deals (the crib is theirs), who leads and by how much, whose turn it is in the play,
// what a dial shows. Nothing is cut: long names wrap.

import { html, nothing } from "./vendor/lit-html.js";
import { t } from "./words.js";

export function sides(state) {
  const game = state.game;
  if (!game) return nothing;
  const dealerSide = game.seats[game.dealer].side;
  const turn = game.phase === "play" && game.play.turn !== null ? game.seats[game.play.turn].side : null;
  const three = game.sides.length > 2; // three across: the dealer goes by the score
  return game.sides.map((side, index) => {
    const lead = game.lead && game.lead.side === index ? game.lead.by : null;
    const deals = index === dealerSide
      ? html`<span class="deals" title=${t("deals_label", { name: game.seats[game.dealer].name })}>${t("dealer")}</span>`
      : nothing;
    const dialled = state.pending.find((p, seat) => p !== null && game.seats[seat]?.side === index);
    const classes = [`side-${index}`, game.winner === index ? "winner" : "", turn === index ? "turn" : ""].join(" ");
    return html`<li class=${classes}>
      <div class="line"><span class="name">${side.name}</span>${three ? nothing : deals}</div>
      <div class="line"><span class="score">${side.front}</span>${three ? deals : nothing}<span class="more">
        <span class="to-go">${t("to_go", { n: side.to_go })}</span>
        ${lead ? html`<span class="lead">${t("leads_by", { n: lead })}</span>` : nothing}
        ${dialled !== undefined && dialled !== null ? html`<span class="pending">${t("dialled", { n: dialled })}</span>` : nothing}</span></div>
    </li>`;
  });
}

// Each side's colour, set once for the page (the page's policy allows no inline styles):
// `.side-N` takes `--side-N`.
export function colour(game) {
  const root = document.documentElement.style;
  (game ? game.sides : []).forEach((side, index) => root.setProperty(`--side-${index}`, side.colour));
}
