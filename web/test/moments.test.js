// Each moment of a deal as a phone draws it, from the board's own snapshots (written by
// tests/test_web_js.py from a real game): what is due, what a tap sends, where the focus
// lands, and what a watcher is told.
import "./dom.js";
import assert from "node:assert/strict";
import { test } from "node:test";
import { context, viewOf } from "../static/now.js";
import { momentOf } from "../static/moments/which.js";
import { sides } from "../static/sides.js";
import { setSession, show } from "../static/talk.js";
import { fixture, markup, tap, words } from "./view.js";

const messages = words("en");

// Every part of a view: the title, the rows beside what is due, the lead and body, what is
// due and the moves under it.
const parts = (shown) => [shown.title, shown.rows, shown.lead, shown.body, shown.due, shown.moves];

// The view of ``name``'s snapshot on a phone signed in (or watching), its entries caught.
function view(name, { signedIn = true, calling = false } = {}) {
  const state = fixture(name);
  show(state);
  setSession({ signed_in: signedIn, csrf: "" });
  const sent = [];
  const ctx = { ...context(state.game), act: (action, args) => sent.push([action, args]), calling: () => calling };
  const shown = viewOf(state.game, ctx);
  return { state, shown, sent, text: markup(parts(shown)) };
}

test("each snapshot is the moment it was taken at", () => {
  const moments = ["starter", "play", "count", "claimed", "done", "over"].map((name) => momentOf(fixture(name).game));
  assert.deepEqual(moments, ["starter", "play", "count", "count", "done", "over"]);
});

test("right after a claim the next count's pad is due, the Muggins call beside it", () => {
  const { shown, text, sent } = view("claimed");
  assert.equal(shown.title, "Ann's hand");
  assert.match(text, /class="pad keys"/);
  assert.match(text, /Bob's hand: 8 claimed\./);
  assert.match(text, /class="warn call"/);
  assert.equal(shown.focus, ".pad button[tabindex='0']");
  tap(parts(shown), "16");
  assert.deepEqual(sent, [["claim", { seat: 0, kind: "hand", points: 16, cards: ["5♣", "6♣", "7♣", "8♣"] }]]);
});

test("the call opened: how many were missed, one tap each, and the way back", () => {
  const { shown, sent } = view("claimed", { calling: true });
  assert.equal(shown.title, "Muggins?");
  assert.equal(shown.lead, "Bob's hand: 8 claimed.");
  tap(parts(shown), "Muggins! Ann pegs 2");
  assert.deepEqual(sent, [["muggins", { seat: 0, points: 2, cards: null }]]);
});

test("the show done: the next deal is on the screen, a call on the crib still beside it", () => {
  const { shown, text, sent } = view("done");
  assert.match(text, /Ann's crib: 4 claimed\./);
  assert.equal(shown.focus, "button.due");
  tap(parts(shown), messages.next_deal);
  assert.deepEqual(sent, [["advance", undefined]]);
});

test("a watcher is told whose count it is, and offered no pad", () => {
  const { text } = view("count", { signedIn: false });
  assert.match(text, /Count 1 of 3: Bob's hand is being counted\./);
  assert.doesNotMatch(text, /tap the total/);
  assert.doesNotMatch(text, /class="pad keys"/);
  assert.match(text, /id="pin-prompt"/);
});

test("a total no hand scores is crossed out, and a tap on it says why", () => {
  const { shown, sent, text } = view("count");
  assert.match(text, /aria-disabled="true"\s+aria-label="19: no such count"/);
  const said = [];
  const ctx = { ...context(fixture("count").game), act: () => {}, say: (words_) => said.push(words_) };
  tap(parts(viewOf(fixture("count").game, ctx)), "19: no such count");
  assert.equal(sent.length, 0);
  assert.deepEqual(said, ["No count of 4 cards scores 19. A hand with nothing is called “nineteen”: peg 0."]);
  assert.equal(shown.focus, ".pad button[tabindex='0']");
});

test("the starter and the play: the pack, its cards by name; a card that cannot be laid is blocked", () => {
  const starter = view("starter");
  assert.match(starter.text, /aria-label="five of diamonds"/);
  assert.equal(starter.shown.focus, ".picker button[tabindex='0']");
  const play = view("play");
  assert.match(play.text, /Count 10: Ann lays/);
  const laid = markup(play.shown.due);
  // the 10♥ is laid: its button is disabled; the starter is named in the lead
  assert.match(laid, /data-card="10♥" data-key="10♥" class="used"[\s\S]*?disabled/);
  assert.match(markup(play.shown.lead), /role="img" aria-label="five of diamonds">5♦/);
});

test("the score cards say who leads by how much: +11, in words to a screen reader", () => {
  const state = fixture("claimed");
  const text = markup(sides(state));
  assert.equal(state.game.lead.by, 11); // Bob: 6 in the play and 8 claimed; Ann 3
  assert.match(text, /<span aria-hidden="true">\+11<\/span><span class="sr-only">leads by 11<\/span>/);
});
