// What is due now, one moment of a deal at a time (moments/): its title, where the deal
// stands (``lead``, ``body``), the rows beside it (``rows``: a Muggins call, a lesson,
// right under the title), the answer to the last tap, and its action (``due`` and the
// ``moves`` under it) at the foot of the screen, fitting a phone's screen under the board.
// After each action the focus lands on the next thing to do.

import { html, nothing, render } from "./vendor/lit-html.js";
import { answer, say } from "./answer.js";
import { choice } from "./parts.js";
import { pinPrompt } from "./pin.js";
import { cutForDeal, nameStarter, pickCards } from "./sheet.js";
import { openTab } from "./tabs.js";
import { mySide, noteEntry, sitAt } from "./seat.js";
import { act, api, now, signedIn } from "./talk.js";
import { t } from "./words.js";
import { count } from "./moments/count.js";
import { disputeCall } from "./moments/dispute.js";
import { done } from "./moments/done.js";
import { callable, challengeCall, mugginsCall } from "./moments/muggins.js";
import { none } from "./moments/none.js";
import { over } from "./moments/over.js";
import { play } from "./moments/play.js";
import { starter } from "./moments/starter.js";
import { claimKey, momentOf } from "./moments/which.js";

const MOMENTS = { none, starter, play, count, done, over };

let opened = { call: null, challenge: null, dispute: null }; // the call, challenge or dispute this phone opened
let padPage = 0; // which totals the pad shows (a hand of five or six can score more)
let scoring = { key: null, result: null }; // what the cards picked score (Muggins off)
// This phone just acted: the focus goes to what is due next once the game moved on from
// ``aim.version`` (or at once, for a choice made on this phone alone, and when the page
// opens: the keys start where what is due is).
let aim = { version: undefined, quiet: true }; // (no ring on a phone just opened)
let reveal = () => true;

export const revealWith = (asked) => {
  reveal = asked;
};

// What a count's cards score before it is claimed: never with Muggins on (the board does
// not tell then), and only when this phone asks to see it.
function revealed(game, due, cards) {
  if (game.settings.muggins || !reveal()) return null;
  if (due.show) return due.show;
  if (cards.length !== due.size || !game.starter) return null;
  const key = `${cards.join(",")}|${game.starter}|${due.kind}`;
  if (scoring.key === key) return scoring.result;
  scoring = { key, result: null };
  const query = new URLSearchParams({ hand: cards.join(","), starter: game.starter, crib: due.kind === "crib" ? "1" : "0" });
  api(`api/score?${query}`).then((result) => {
    if (scoring.key === key) {
      scoring.result = result;
      drawNow();
    }
  }).catch((error) => say("now", error.message, "bad"));
  return null;
}

export function context(game) {
  const key = game ? claimKey(game) : null;
  // A call, challenge or dispute opened (``on``: in place of any other) or put away on
  // this phone, for this claim.
  const open = (what, on) => {
    opened = { call: null, challenge: null, dispute: null, [what]: on ? key : null };
    aim = { version: undefined };
    drawNow();
  };
  const entry = (action, args) => {
    aim = { version: game ? game.version : null };
    if (game) noteEntry(now(), action, args);
    return act(action, args, "now");
  };
  return {
    signedIn: signedIn(),
    camera: Boolean(now().camera), // the board has a camera of its own
    boardPhoto: now().board_photo, // what it read of the count due, the advance button held
    run: now().run,
    side: mySide(now()), // the side this phone plays for, when it knows
    sitAt: (side) => sitAt(now(), side),
    game: () => now().game,
    act: entry,
    say: (text, kind) => say("now", text, kind),
    answer: answer("now", "message"),
    redraw: drawNow,
    pinPrompt,
    openTab,
    choice,
    pickCards,
    nameStarter: () => nameStarter(entry),
    cutForDeal: () => cutForDeal(entry),
    revealed,
    padPage: (page) => {
      if (page === undefined) return padPage;
      padPage = page;
      return drawNow();
    },
    calling: () => opened.call === key,
    disputing: () => opened.dispute === key,
    challenging: () => opened.challenge === key,
    call: (on) => open("call", on),
    challenge: (on) => open("challenge", on),
    dispute: (on) => open("dispute", on),
  };
}

// The view of what is due: a call or dispute this phone opened, or the game's moment.
export function viewOf(game, ctx) {
  if (game && game.dispute && ctx.disputing()) return disputeCall(game, ctx);
  if (game && callable(game) && ctx.calling()) return mugginsCall(game, ctx);
  if (game && game.challenge && ctx.challenging()) return challengeCall(game, ctx);
  return MOMENTS[momentOf(game)](game, ctx);
}

export function drawNow() {
  const state = now();
  if (!state) return;
  const game = state.game;
  const host = document.getElementById("moment-host");
  const ctx = context(game);
  const view = viewOf(game, ctx);
  const undo = ctx.signedIn && game && game.can_undo;
  const redo = ctx.signedIn && game && game.can_redo;
  document.body.dataset.moment = momentOf(game);
  const within = host.contains(document.activeElement);
  // The title; under it what the deal stands at and the rows beside what is due (they
  // scroll in their own box when they are many); the answer to the last tap on its own
  // line; and what is due at the foot of the screen, above the tabs, always at the same
  // place: nothing that comes and goes above it moves it under the thumb.
  // The row under it (the moment's moves, Undo and Redo) keeps its place and its height
  // on a phone that can peg, whatever it holds.
  const moves = ctx.signedIn
    ? html`<div class="row moves">${view.moves ?? nothing}
      ${redo ? html`<button id="redo" type="button" class="quiet" @click=${() => ctx.act("redo")}>${t("redo")}</button>` : nothing}
      ${undo ? html`<button id="undo" type="button" class="quiet" @click=${() => ctx.act("undo")}>${t("undo")}</button>` : nothing}</div>`
    : nothing;
  render(html`<h2 id="moment-title">${view.title}</h2>
    <div id="moment" class="moment">
      <div class="info">${view.rows ?? nothing}<div id="moment-lead" class="lead">${view.lead}</div>${view.body ?? nothing}</div>
      ${ctx.answer}
      <div class="due-area">${view.due ?? nothing}${moves}</div>
    </div>`, host);
  // After this phone's action (or when the control in focus went away, or can no longer
  // be used): the next thing to do.
  const active = document.activeElement;
  const lost = within && (!host.contains(active) || active.disabled);
  const moved = aim !== null && (aim.version === undefined || aim.version !== (game ? game.version : null));
  if ((moved || lost) && view.focus) {
    const target = host.querySelector(view.focus);
    if (target && !document.querySelector("dialog[open]")) {
      target.focus({ focusVisible: !aim?.quiet });
      aim = null;
    }
  }
}

// A game started (or taken up) on this phone: the focus on what is due in it.
export function focusDue() {
  aim = { version: undefined };
  drawNow();
}

// This phone's action was refused: the focus stays where it is.
export const aimDone = () => {
  aim = null;
};
