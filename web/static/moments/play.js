// The play: one tap per card laid (the board scores it), or one chip per score pegged.

import { html, nothing } from "../vendor/lit-html.js";
import { phone } from "../kept.js";
import { card, choice, pack } from "../parts.js";
import { rankOf, t } from "../words.js";
import { mugginsRow } from "./muggins.js";

// Each side's chips in a play pegged by hand: from +1 to the most one card can score. With
// three sides a row of seven each (the rest a tap away, until the next entry), so that all
// of them and the end of the play fit above the tabs.
const FEW = 7;
let allAt = null; // the version the rest of the chips were asked for at

function chips(game, ctx) {
  const most = game.play.most;
  const few = game.sides.length > 2 && most > FEW + 1 && allAt !== game.version;
  const shown = few ? FEW : most;
  return game.sides.map((side, index) => {
    const seat = game.seats.findIndex((s) => s.side === index);
    const keys = Array.from({ length: shown }, (_, i) => html`<button type="button" class="quiet chip"
      aria-label=${t("chip_label", { name: side.name, n: i + 1 })}
      @click=${() => ctx.act("claim", { seat, points: i + 1, kind: "play" })}>+${i + 1}</button>`);
    const more = few ? html`<button type="button" class="quiet chip more" @click=${() => {
      allAt = game.version;
      ctx.redraw();
    }}>${t("more_totals", { from: FEW + 1, to: most })}</button>` : nothing;
    return html`<div class="chips side-${index}"><span class="who">${side.name}</span><div class="keys">${keys}${more}</div></div>`;
  });
}

export function play(game, ctx) {
  const laying = game.play;
  const mode = laying.mode || phone.get("playMode", "cards");
  const turn = laying.turn === null ? null : game.seats[laying.turn].name;
  const title = mode === "points" ? t("play_title")
    : turn === null ? t("play_count", { count: laying.count }) : t("play_turn", { count: laying.count, name: turn });
  const starter = game.starter ? html`<span class="starter-is">${t("starter_is")} ${card(game.starter, "starter")}</span>` : nothing;
  const pile = mode === "points" ? html`<span>${t("play_lead_points")}</span>` : laying.pile.map((c) => card(c));
  if (!ctx.signedIn) {
    return { title, lead: html`${starter}${pile}`, rows: mugginsRow(game, ctx), due: ctx.pinPrompt(), focus: "#pin-prompt" };
  }
  const how = laying.mode === null
    ? choice("play-mode", t("play_how"), [["cards", t("by_cards")], ["points", t("by_points")]], mode, (value) => {
      phone.set("playMode", value);
      ctx.redraw();
    })
    : nothing;
  const end = html`<button type="button" class="quiet end" @click=${() => ctx.act("advance")}>${t("end_play")}</button>`;
  if (mode === "points") {
    return { title, lead: html`${starter}${pile}`, rows: mugginsRow(game, ctx), body: how, due: chips(game, ctx), moves: end, focus: ".chips button" };
  }
  const go = html`<button type="button" class="quiet go" ?disabled=${turn === null || !laying.pile.length}
    aria-label=${t("go", { name: turn ?? "" })}
    @click=${() => ctx.act("go", { seat: ctx.game().play.turn })}>${t("go_button")}</button>`;
  const fits = new Set(laying.fits);
  const laid = pack({
    name: "moment",
    known: game.known,
    blocked: (c) => c in game.known || !fits.has(rankOf(c)) || turn === null,
    tap: (c) => ctx.act("lay", { seat: ctx.game().play.turn, card: c }),
  });
  // Go and the end share the row under the pack. Before the first entry, the choice of how
  // stands there instead (no Go yet; a play not laid card by card ends by points).
  return {
    title,
    lead: html`${starter}${pile}`,
    rows: mugginsRow(game, ctx),
    due: laid,
    moves: laying.mode === null ? how : html`${go}${end}`,
    focus: ".picker button[tabindex='0']",
  };
}
