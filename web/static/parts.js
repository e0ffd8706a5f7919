// The parts the moments are made of: a card, the pack to tap cards in, the pad of totals,
// a choice of a few, a count's breakdown. Each is a function of what it shows, drawn by
// lit-html; the pack and the pad are one tab stop each, the arrows move within them.

import { live } from "./vendor/directives/live.js";
import { html, nothing } from "./vendor/lit-html.js";
import { rankKey, rankTarget, step, suitKey, suitTarget, typeTotal } from "./keys.js";
import { cardName, isRed, rankOf, suits, t } from "./words.js";

// A card as the table sees it ("7♦"), named as a screen reader says it.
export const card = (name, className = "") =>
  html`<span class="c ${isRed(name) ? "red" : ""} ${className}" role="img" aria-label=${cardName(name)}>${name}</span>`;

export const hint = (text) => html`<p class="hint">${text}</p>`;

// --- grids of keys ------------------------------------------------------------------------

const focusAt = new Map(); // grid name -> the label of the button that is its tab stop

// The next drawing of grid ``name`` has its tab stop at ``key`` (the likely card a photo read).
export const focusOn = (name, key) => focusAt.set(name, key);

// The button in focus becomes its grid's tab stop (Tab leaves the grid, Shift+Tab comes
// back to it): kept for the next drawing, and set on the buttons drawn now.
function rove(name, event) {
  const button = event.target;
  focusAt.set(name, button.dataset.key);
  for (const other of event.currentTarget.querySelectorAll("button")) other.setAttribute("tabindex", other === button ? "0" : "-1");
}

// The columns a grid is drawn in (the stylesheet decides: 7 or 13 cards across).
const columnsOf = (row) => getComputedStyle(row).gridTemplateColumns.split(" ").length;

function moveIn(event, buttons, columns, index) {
  const next = step(index, event.key, columns, buttons.map((b) => b !== null && !b.disabled));
  if (next === index && !["Home", "End"].includes(event.key)) return false;
  buttons[next].focus();
  return true;
}

// The pack: 52 cards by suit. ``how``: {name, tap(card), selected, fixed, blocked(card),
// known (cards seen this deal: {card: whose}), toggles}.
export function pack(how) {
  const selected = new Set(how.selected || []);
  const fixed = new Set(how.fixed || []);
  const known = how.known || {};
  const all = suits().flatMap((suit) => suit.cards.map(([c]) => c));
  const open = (c) => !(fixed.has(c) || (how.blocked && how.blocked(c)));
  let stop = focusAt.get(how.name);
  if (!stop || !open(stop)) stop = all.find(open);
  const keys = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const rows = [...event.currentTarget.querySelectorAll(".suit")];
    const columns = columnsOf(rows[0]);
    const width = Math.ceil(13 / columns) * columns; // cells a suit takes, the gaps too
    const buttons = rows.flatMap((row) => {
      const cells = [...row.querySelectorAll("button")];
      return [...cells, ...Array(width - cells.length).fill(null)];
    });
    const index = buttons.indexOf(event.target.closest("button"));
    if (index < 0) return;
    const rank = rankKey(event.key), suit = suitKey(event.key);
    if (rank || suit) { // a rank typed: that card, in this suit or the next; a suit: that suit
      const cards = buttons.filter(Boolean);
      const named = cards.map((b) => [rankOf(b.dataset.card), b.dataset.card.slice(-1), !b.disabled]);
      const at = cards.indexOf(buttons[index]);
      const found = rank ? rankTarget(named, at, rank) : suitTarget(named, at, suit);
      if (found >= 0) cards[found].focus();
      event.preventDefault();
    } else if (moveIn(event, buttons, columns, index)) {
      event.preventDefault();
    }
  };
  const cardButton = (c) => {
    const mine = selected.has(c) || fixed.has(c);
    const seen = c in known && !mine;
    const className = [seen ? "used" : "", known[c] === null ? "starter" : ""].join(" ").trim();
    return html`<button type="button" data-card=${c} data-key=${c} class=${className}
      tabindex=${live(c === stop ? "0" : "-1")} aria-label=${cardName(c)}
      aria-pressed=${how.toggles ? String(mine) : nothing} ?disabled=${!open(c)}
      @click=${() => how.tap(c)}>${rankOf(c)}<small aria-hidden="true">${c.slice(-1)}</small></button>`;
  };
  return html`<div class="picker" role="group" aria-label=${t("cards_label")} @keydown=${keys}
    @focusin=${(event) => rove(how.name, event)}>
    ${suits().map((suit) => html`<div class="suit ${suit.red ? "red" : ""}" role="group" aria-label=${suit.name}>
      ${suit.cards.map(([c]) => cardButton(c))}</div>`)}</div>`;
}

// The pad of totals a count can reach, one tap each. Those no count reaches are shown
// crossed out: a tap on one says why (``why(n)``). ``how``: {name, totals, pick(n),
// label(n), why(n), mark (a total to show as the cards' own)}.
const PAGE = 32; // keys at once: four rows of eight
const typing = { typed: "", at: 0 };

export function pad(how) {
  const { totals } = how;
  if (!totals.length) return nothing;
  const most = Math.max(...totals);
  const pages = Math.ceil((most + 1) / PAGE);
  const page = Math.max(0, Math.min(how.page ?? 0, pages - 1));
  const low = Math.max(totals[0] === 0 ? 0 : 1, page * PAGE);
  const shown = [];
  for (let n = low; n <= Math.min(most, page * PAGE + PAGE - 1); n++) shown.push(n);
  let stop = Number(focusAt.get(how.name));
  if (!shown.includes(stop)) stop = shown[0];
  const keys = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const buttons = [...event.currentTarget.querySelectorAll("button")];
    const index = buttons.indexOf(event.target.closest("button"));
    if (index < 0) return;
    if (/^[0-9]$/.test(event.key)) {
      const fresh = event.timeStamp - typing.at > 1000; // a pause starts a new number
      const [total, typed] = typeTotal(fresh ? "" : typing.typed, event.key, shown);
      Object.assign(typing, { typed, at: event.timeStamp });
      const found = buttons.find((b) => Number(b.dataset.key) === total);
      if (found) found.focus();
      event.preventDefault();
    } else if (moveIn(event, buttons, 8, index)) {
      typing.typed = "";
      event.preventDefault();
    }
  };
  const key = (n) => {
    const possible = totals.includes(n);
    return html`<button type="button" data-key=${n} tabindex=${live(n === stop ? "0" : "-1")}
      class=${n === how.mark ? "key true" : "key"} aria-disabled=${possible ? nothing : "true"}
      aria-label=${possible ? how.label(n) : t("impossible_label", { n })}
      @click=${() => {
        typing.typed = ""; // the next number typed starts afresh
        return possible ? how.pick(n) : how.why(n);
      }}>${n}</button>`;
  };
  const box = html`<div class="pad keys" data-pad=${how.name} role="group" aria-label=${t("totals")} @keydown=${keys}
    @focusin=${(event) => rove(how.name, event)}>${shown.map(key)}</div>`;
  if (pages < 2) return box;
  const choices = Array.from({ length: pages }, (_, p) =>
    [String(p), t("more_totals", { from: p * PAGE, to: Math.min(most, p * PAGE + PAGE - 1) })]);
  return html`${choice(`${how.name}-page`, t("totals"), choices, String(page), (value) => how.turn(Number(value)))}${box}`;
}

// A choice of a few, as big radio buttons.
export function choice(name, label, options, value, onchange) {
  return html`<div class="segments" role="radiogroup" aria-label=${label}>${options.map(([option, text]) => html`
    <label><input type="radio" name=${name} value=${option} .checked=${option === value}
      @change=${() => onchange(option)}><span>${text}</span></label>`)}</div>`;
}

// --- a count's breakdown -------------------------------------------------------------------

const pinned = new Map(); // breakdown (its call) -> the line whose cards are lit

// The call, the cards, a line per item; a tap on a line lights its cards.
export function breakdown(show, { open = false, summary = t("breakdown"), redraw }) {
  const lit = pinned.get(show.call) ?? null;
  const items = show.items.map((item, index) => ({ ...item, index }));
  const lights = (c) => (lit === null ? "" : items[lit].cards.includes(c) ? "lit" : "dim");
  const pin = (index) => {
    pinned.set(show.call, lit === index ? null : index);
    redraw();
  };
  return html`<details class="show" ?open=${open}>
    <summary>${summary}</summary>
    <p class="call">${t("call", { call: show.call })}</p>
    <div class="cards big" role="group" aria-label=${t("show_cards")}>
      ${show.hand.map((c) => card(c, lights(c)))}${card(show.starter, `starter ${lights(show.starter)}`)}</div>
    <ul class="breakdown">${items.map((item) => html`<li><button type="button" aria-pressed=${String(lit === item.index)}
      @click=${() => pin(item.index)}><span class="kind">${t(`kind_${item.kind}${item.cards.length > 2 && item.kind === "pair" ? `_${item.cards.length}` : ""}`)}</span>
      <span class="cards">${item.cards.map((c) => card(c))}</span><span class="pts">${item.points}</span></button></li>`)}</ul>
  </details>`;
}
