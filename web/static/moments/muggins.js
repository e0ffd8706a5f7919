// Muggins, beside whatever is due: while a count just claimed is open to a call, a row
// says so and one tap opens the call (how many were missed, who calls, the cards when
// the count was pegged without them). The next claim closes it: nothing waits for it.

import { html, nothing } from "../vendor/lit-html.js";
import { visit } from "../kept.js";
import { choice, hint, pad } from "../parts.js";
import { countPicks, picked } from "../picks.js";
import { t } from "../words.js";
import { cardsLine } from "./cards.js";

// The seats that may call Muggins on ``open`` (another side's).
const callersOf = (game, open) =>
  game.seats.map((seat, index) => ({ ...seat, index })).filter((seat) => seat.side !== open.side);

// Whether a call can be made: the count is open, and not claimed at its most.
export function callable(game) {
  const open = game.muggins_open;
  return Boolean(open && open.missable.length && ["kept", "unchecked"].includes(open.verdict));
}

// Whether the row shows: the count is open to a call, and on another side's claim (a
// phone that knows its side never calls on its own; a watcher is told of every call).
export const rowShown = (game, side, signedIn) => callable(game) && !(signedIn && side === game.muggins_open.side);

export function mugginsRow(game, ctx) {
  if (!rowShown(game, ctx.side, ctx.signedIn) || ctx.calling()) return nothing;
  const open = game.muggins_open;
  const said = t("muggins_lead", { name: open.name, claimed: open.claimed });
  if (!ctx.signedIn) return html`<p class="call-row hint">${said} ${t("muggins_pin")}</p>`;
  return html`<div class="call-row"><span>${said}</span>
    <button type="button" class="warn call" @click=${() => ctx.call(true)}>${t("muggins_title")}</button></div>`;
}

// The call itself, in place of what is due until it is made or put away.
export function mugginsCall(game, ctx) {
  const open = game.muggins_open;
  const callers = callersOf(game, open);
  const name = countPicks(open.seat, open.kind);
  const cards = open.cards ? [] : picked(name);
  const mine = callers.find((seat) => seat.side === ctx.side);
  const caller = callers.find((seat) => seat.index === Number(visit.get("caller", -1))) || mine || callers[0];
  const named = [...open.laid, ...cards];
  const full = open.kind !== "play" && !open.cards && named.length === open.size && game.starter ? named : null;
  const line = open.kind !== "play" && !open.cards
    ? cardsLine(game, ctx, {
      cards: named, picks: cards,
      note: !cards.length ? "" : game.starter ? t("muggins_with_cards") : t("cards_need_starter"),
      pick: () => ctx.pickCards(name, open.size, open.laid, t("cards_for", { name: open.name, size: open.size })),
    })
    : nothing;
  const who = callers.length > 1
    ? choice("caller", t("muggins_caller"), callers.map((seat) => [String(seat.index), seat.name]), String(caller.index), (value) => {
      visit.set("caller", Number(value));
      ctx.sitAt(game.seats[Number(value)].side); // the caller chosen: this phone's side
      ctx.redraw();
    })
    : nothing;
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
    moves: html`<button type="button" class="quiet" @click=${() => ctx.call(false)}>${t("muggins_back")}</button>`,
    focus: ".pad button[tabindex='0']",
  };
}
