// The Advice tab: the cards dealt, picked here; the board works out every discard.

import { html, render } from "./vendor/lit-html.js";
import { answer, say } from "./answer.js";
import { card, pack } from "./parts.js";
import { picked, toggle } from "./picks.js";
import { api, now } from "./talk.js";
import { cardName, lang, t } from "./words.js";

let advice = [];

// One way to lay away, seen ("keep 5♥ 5♣ …") and heard ("keep five of hearts, …").
function row(option, points) {
  const said = (name, join) => t("advice_row", {
    keep: option.keep.map(name).join(join), discard: option.discard.map(name).join(join),
    hand: points(option.hand), crib: points(option.crib), net: points(option.net),
  });
  return html`<span aria-hidden="true">${said((c) => c, " ")}</span><span class="sr-only">${said(cardName, ", ")}</span>`;
}
let role = "dealer";

async function advise() {
  advice = [];
  const cards = picked("advice");
  if (cards.length < 5) return say("advice", t("advice_pick"), "bad");
  const game = now().game;
  const players = game ? game.seats.length : 2;
  try {
    const result = await api(`api/advice?${new URLSearchParams({ cards: cards.join(","), role, players })}`);
    advice = result.advice;
    say("advice", "");
  } catch (error) {
    say("advice", error.message, "bad");
  }
  return drawAdvice();
}

export function drawAdvice() {
  const cards = picked("advice");
  // Points to two decimals, written the way the page's language writes them (1,50).
  const points = (x) => x.toLocaleString(lang(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const choose = (value) => () => {
    role = value;
  };
  render(html`<h2>${t("advice_title")}</h2><p class="hint">${t("advice_hint")}</p>
    <div class="row"><div class="segments" role="radiogroup" aria-label=${t("whose_crib")}>
      <label><input type="radio" name="role" value="dealer" .checked=${role === "dealer"} @change=${choose("dealer")}><span>${t("role_dealer")}</span></label>
      <label><input type="radio" name="role" value="pone" .checked=${role === "pone"} @change=${choose("pone")}><span>${t("role_pone")}</span></label></div>
      <button id="advise" type="button" @click=${advise}>${t("advise")}</button></div>
    ${answer("advice")}
    <ol id="advice" class="advice">${advice.map((option) => html`<li>${row(option, points)}</li>`)}</ol>
    <div class="cards">${cards.length ? cards.map((c) => card(c)) : t("nothing_picked")}</div>
    ${pack({ name: "advice", selected: cards, toggles: true, tap: (c) => { toggle("advice", c, 7); drawAdvice(); } })}`,
  document.getElementById("advice-view"));
}
