// The History tab: every entry of the game, newest first, each card by its name.

import { html, render } from "./vendor/lit-html.js";
import { card } from "./parts.js";
import { act, historyLines, now, signedIn } from "./talk.js";
import { t } from "./words.js";

export function drawHistory() {
  const game = now().game;
  const can = (what) => Boolean(game && game[what] && signedIn());
  const lines = game ? [...historyLines()].reverse() : [];
  const line = (entry) => html`<li class="side-${entry.side}">
    <span class="who">${game.sides[entry.side].name}</span><span class="pts">+${entry.points}</span>
    ${entry.cards.map((c) => card(c))}
    <span class="score">${t("history_score", { score: entry.score })}</span>
    <span class="why">${entry.why}</span></li>`;
  render(html`<h2>${t("history")}</h2>
    <div class="row"><button type="button" ?disabled=${!can("can_undo")} @click=${() => act("undo")}>${t("undo")}</button>
      <button type="button" ?disabled=${!can("can_redo")} @click=${() => act("redo")}>${t("redo")}</button></div>
    <ol class="history" aria-label=${t("history")}>${lines.length ? lines.map(line) : html`<li class="hint">${t("history_empty")}</li>`}</ol>`,
  document.getElementById("history-view"));
}
