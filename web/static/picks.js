// The cards picked on this phone: the cards of a count, a cut, the deal for advice. Kept
// over a reload, by the deal they belong to (a new deal starts with none).

import { phone } from "./kept.js";

let picks = phone.get("picks", { deal: null, sets: {} });

export function keepPicksFor(deal) {
  if (picks.deal !== deal) picks = { deal, sets: {} };
  phone.set("picks", picks);
}

export const picked = (name) => picks.sets[name] || [];

export function setPicked(name, cards) {
  picks.sets[name] = cards;
  phone.set("picks", picks);
}

// A set of picks toggled by a tap, up to ``most`` cards (``fixed`` ones stay): false
// when it is full.
export function toggle(name, card, most, fixed = []) {
  const cards = picked(name);
  const next = cards.includes(card) ? cards.filter((c) => c !== card) : [...cards, card];
  if (next.length + fixed.length > most) return false;
  setPicked(name, next);
  return true;
}

// The cards of a count picked here, by whose count it is.
export const countPicks = (seat, kind) => `count/${seat}/${kind}`;
