// A card per side under the board: its colour, name and score, the points to go, who
// deals (the crib is theirs), who leads and by how much, whose turn it is in the play,
// what a dial shows. Nothing is cut: long names wrap. The dealer, the lead (+5, said in
// words to a screen reader) and a dial share a line of their own, kept whether or not it
// holds anything: the cards keep their height from one entry to the next, and nothing
// under them moves.

import { html, nothing } from "./vendor/lit-html.js";
import { t } from "./words.js";

export function sides(state) {
  const game = state.game;
  if (!game) return nothing;
  const dealerSide = game.seats[game.dealer].side;
  const turn = game.phase === "play" && game.play.turn !== null ? game.seats[game.play.turn].side : null;
  return game.sides.map((side, index) => {
    const lead = game.lead && game.lead.side === index ? game.lead.by : null;
    const dialled = state.pending.find((p, seat) => p !== null && game.seats[seat]?.side === index);
    const classes = [`side-${index}`, game.winner === index ? "winner" : "", turn === index ? "turn" : ""].join(" ");
    return html`<li class=${classes}>
      <span class="name">${side.name}</span>
      <span class="score">${side.front}</span>
      <span class="to-go">${t("to_go", { n: side.to_go })}</span>
      <span class="about">${index === dealerSide
        ? html`<span class="deals" title=${t("deals_label", { name: game.seats[game.dealer].name })}>${t("dealer")}</span>` : nothing}
        ${lead ? html`<span class="lead" title=${t("leads_by", { n: lead })}><span aria-hidden="true">+${lead}</span><span class="sr-only">${t("leads_by", { n: lead })}</span></span>` : nothing}
        ${dialled !== undefined && dialled !== null ? html`<span class="pending">${t("dialled", { n: dialled })}</span>` : nothing}</span>
    </li>`;
  });
}

// Each side's colour, set once for the page (the page's policy allows no inline styles):
// `.side-N` takes `--side-N`.
export function colour(game) {
  const root = document.documentElement.style;
  (game ? game.sides : []).forEach((side, index) => root.setProperty(`--side-${index}`, side.colour));
}
