// The tabs at the thumb: what is due now, the history, the match, advice, the game.

import { visit } from "./kept.js";

export const TABS = { "tab-now": "now", "tab-history": "history-view", "tab-match": "match-view", "tab-advice": "advice-view", "tab-game": "game-view" };
let tab = visit.get("tab", "tab-now");
const opened = new Set();

export const openNow = () => tab;

export function onTab(then) {
  opened.add(then);
}

export function openTab(id, focus = false) {
  tab = id in TABS ? id : "tab-now";
  visit.set("tab", tab);
  for (const [name, view] of Object.entries(TABS)) {
    const on = name === tab;
    const button = document.getElementById(name);
    button.setAttribute("aria-selected", String(on));
    button.tabIndex = on ? 0 : -1;
    document.getElementById(view).hidden = !on;
    if (on && focus) button.focus();
  }
  window.scrollTo(0, 0);
  for (const then of opened) then(tab);
}

// Left and right between the tabs (one tab stop for all of them).
export function tabKeys(event) {
  const ids = Object.keys(TABS);
  const at = ids.indexOf(event.target.id);
  const step = { ArrowRight: 1, ArrowLeft: -1, Home: -at, End: ids.length - 1 - at }[event.key];
  if (at < 0 || step === undefined) return;
  event.preventDefault();
  openTab(ids[(at + step + ids.length) % ids.length], true);
}
