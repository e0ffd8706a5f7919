// A count of the show: one tap on the totals that count can reach. The cards the play
// showed are filled in, the rest can be picked; with Muggins off and the cards known, a
// phone that asks sees what they score before it is pegged.

import { html, nothing } from "../vendor/lit-html.js";
import { breakdown, hint, pad } from "../parts.js";
import { pickBoardPhoto } from "../photo.js";
import { countPicks, picked } from "../picks.js";
import { list, t } from "../words.js";
import { cardsLine, picksOf } from "./cards.js";
import { disputeRow } from "./dispute.js";
import { lessonOf } from "./lesson.js";
import { mugginsRow } from "./muggins.js";

// The totals no count of these cards reaches, said once under the pad.
export function gaps(due) {
  const most = Math.max(...due.totals);
  return Array.from({ length: most }, (_, n) => n).filter((n) => !due.totals.includes(n));
}

const noTotal = (due, totals) => t(due.kind === "crib" ? "no_total_crib" : "no_total", { size: due.size, totals });

export function count(game, ctx) {
  const due = game.count;
  const name = countPicks(due.seat, due.kind);
  const cards = [...due.laid, ...picked(name)];
  const known = cards.length === due.size;
  const lead = t(ctx.signedIn ? "count_lead" : "count_watching", { number: due.number, of: due.of, name: due.name });
  const note = !known ? "" : !game.starter ? t("cards_need_starter")
    : due.laid.length === due.size ? t("count_cards_laid") : t("count_cards_picked");
  const pick = ctx.signedIn && due.laid.length < due.size ? picksOf(due) : null;
  if (pick) pickBoardPhoto(pick, ctx.boardPhoto, ctx.run, ctx.pickCards); // the advance button held
  const show = ctx.revealed(game, due, cards);
  const missing = gaps(due);
  const top = html`${disputeRow(game, ctx)}${mugginsRow(game, ctx)}${game.lesson ? lessonOf(game.lesson, ctx) : nothing}`;
  const line = cardsLine(game, ctx, { cards, note, pick, picks: picked(name) });
  const scored = show ? breakdown(show, { summary: t("cards_say", { total: show.total }), redraw: ctx.redraw }) : nothing;
  if (!ctx.signedIn) return { title: due.name, lead, rows: top, body: html`${line}${scored}`, due: ctx.pinPrompt(), focus: "#pin-prompt" };
  const keys = pad({
    name: "count", totals: due.totals, page: ctx.padPage(), turn: ctx.padPage,
    pick: (n) => ctx.act("claim", { seat: due.seat, kind: due.kind, points: n, cards: known && game.starter ? cards : null }),
    label: (n) => t("total_label", { n, name: due.name }),
    why: (n) => ctx.say(noTotal(due, n), "bad"),
    mark: show ? show.total : null,
  });
  return {
    title: due.name,
    lead,
    rows: top,
    body: html`${line}${scored}${missing.length ? hint(noTotal(due, list(missing, "disjunction"))) : nothing}`,
    due: keys,
    focus: ".pad button[tabindex='0']",
  };
}
