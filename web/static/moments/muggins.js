// Muggins and the challenge, beside whatever is due: while a count just claimed is open
// to a call, a row says so, and one tap opens the call (how many were missed, who calls,
// the cards when the count was pegged without them). While the cards can show a count
// over (with Muggins on, the hand or crib just claimed; Muggins or not, a claim of game
// made without its cards) the call offers that too (the row, when nothing is left to
// mug): the cards decide. The next claim closes both: nothing waits for them.

import { html, nothing } from "../vendor/lit-html.js";
import { visit } from "../kept.js";
import { choice, hint, pad } from "../parts.js";
import { countPicks, picked } from "../picks.js";
import { t } from "../words.js";
import { cardsLine, picksOf } from "./cards.js";

// Whether a call can be made: the count is open, and not claimed at its most.
export function callable(game) {
  const open = game.muggins_open;
  return Boolean(open && open.missable.length && ["kept", "unchecked"].includes(open.verdict));
}

// The count the row is about: open to a call, or to a challenge.
const openCount = (game) => (callable(game) ? game.muggins_open : game.challenge);

// Whether the row shows: a count is open to a call or a challenge, and on another side's
// claim (a phone that knows its side never calls on its own; a watcher is told of every
// call).
export function rowShown(game, side, signedIn) {
  const open = openCount(game);
  return Boolean(open) && !(signedIn && side === open.side);
}

// The challenge opened: from the row when nothing is left to mug, else from the call.
const overButton = (ctx) => html`<button type="button" class="quiet over" @click=${() => ctx.challenge(true)}>${t("challenge_open")}</button>`;

export function mugginsRow(game, ctx) {
  if (!rowShown(game, ctx.side, ctx.signedIn) || ctx.calling() || ctx.challenging()) return nothing;
  const open = openCount(game);
  const said = t("muggins_lead", { name: open.name, claimed: open.claimed });
  if (!ctx.signedIn) return html`<p class="call-row hint">${said} ${callable(game) ? t("muggins_pin") : nothing}</p>`;
  return html`<div class="call-row"><span>${said}</span>
    ${callable(game) ? html`<button type="button" class="warn call" @click=${() => ctx.call(true)}>${t("muggins_title")}</button>`
      : overButton(ctx)}</div>`;
}

// Who may call on ``open`` (another side's seats), the one calling (chosen on this
// phone, else this phone's side, else the first), and the choice between them.
function callers(game, ctx, open) {
  const seats = game.seats.map((seat, index) => ({ ...seat, index })).filter((seat) => seat.side !== open.side);
  const mine = seats.find((seat) => seat.side === ctx.side);
  const caller = seats.find((seat) => seat.index === Number(visit.get("caller", -1))) || mine || seats[0];
  const who = seats.length > 1
    ? choice("caller", t("muggins_caller"), seats.map((seat) => [String(seat.index), seat.name]), String(caller.index), (value) => {
      visit.set("caller", Number(value));
      ctx.sitAt(game.seats[Number(value)].side); // the caller chosen: this phone's side
      ctx.redraw();
    })
    : nothing;
  return { caller, who };
}

// The cards of ``open``: its own when they were given, else those the play showed and
// those picked here; and the line that shows them (with the picker for the rest).
function namedCards(game, ctx, open, note) {
  const name = countPicks(open.seat, open.kind);
  const picks = open.cards ? [] : picked(name);
  const cards = open.cards || [...open.laid, ...picks];
  const pick = open.cards ? null : picksOf(open);
  return { cards, line: cardsLine(game, ctx, { cards, picks, pick, note: picks.length ? note : "" }) };
}

// The call itself, in place of what is due until it is made or put away.
export function mugginsCall(game, ctx) {
  const open = game.muggins_open;
  const { caller, who } = callers(game, ctx, open);
  const counted = open.kind !== "play";
  const { cards, line } = counted ? namedCards(game, ctx, open, game.starter ? t("muggins_with_cards") : t("cards_need_starter")) : { cards: [], line: nothing };
  const full = counted && !open.cards && cards.length === open.size && game.starter ? cards : null;
  return {
    title: t("muggins_title"),
    lead: t("muggins_lead", { name: open.name, claimed: open.claimed }),
    body: html`${hint(t(open.verdict === "kept" ? "muggins_kept" : "muggins_unchecked"))}${line}${who}`,
    due: html`${pad({
        name: "muggins", totals: open.missable,
        pick: (n) => ctx.act("muggins", { seat: caller.index, points: n, cards: full }),
        label: (n) => t("muggins_call", { caller: caller.name, n }),
        why: () => {},
      })}
`,
    moves: html`${game.challenge ? overButton(ctx) : nothing}
      <button type="button" class="quiet" @click=${() => ctx.call(false)}>${t("muggins_back")}</button>`,
    focus: ".pad button[tabindex='0']",
  };
}

// The challenge: the count is over, and its cards (given, or named here) decide.
export function challengeCall(game, ctx) {
  const open = game.challenge;
  const { caller, who } = callers(game, ctx, open);
  const { cards, line } = namedCards(game, ctx, open, game.starter ? "" : t("cards_need_starter"));
  const ready = cards.length === open.size && Boolean(game.starter);
  return {
    title: t("challenge_title"),
    lead: t("muggins_lead", { name: open.name, claimed: open.claimed }),
    body: html`${hint(t(game.settings.over_count === "penalise" ? "challenge_hint_penalise" : "challenge_hint"))}${line}${who}`,
    moves: html`<button type="button" class="due" ?disabled=${!ready}
        @click=${() => ctx.act("challenge", { seat: caller.index, cards: open.cards ? null : cards })}>${t("challenge_send", { caller: caller.name })}</button>
      <button type="button" class="quiet" @click=${() => ctx.challenge(false)}>${t("challenge_back")}</button>`,
    focus: ready ? "button.due" : "button.pick",
  };
}
