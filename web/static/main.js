// pegboard's phone page: follows the board live and (with the PIN) pegs. This module
// starts it and draws each part when what it shows changes; every word comes from the
// page (words.js), every rule and every hole from the board's snapshot (talk.js).

import { html, nothing, render } from "./vendor/lit-html.js";
import { announce, announceEntry, startVoice } from "./aloud.js";
import { fade, redrawWith, said, say } from "./answer.js";
import { drawDials, dialKeys } from "./dials.js";
import { drawBoard, light, toggleWhole } from "./drawing.js";
import { phone } from "./kept.js";
import { mySide } from "./seat.js";
import { rowShown } from "./moments/muggins.js";
import { aimDone, drawNow, revealWith } from "./now.js";
import { keepPicksFor } from "./picks.js";
import { askPin, onSigned } from "./pin.js";
import { drawSheet, onClose, startSheet } from "./sheet.js";
import { colour, sides } from "./sides.js";
import { TABS, onTab, openNow, openTab, tabKeys } from "./tabs.js";
import { act, follow, now, setSession, show, signedIn, watch } from "./talk.js";
import { cardName, setWords, t } from "./words.js";

const $ = (id) => document.getElementById(id);
let entrySeen = null; // the entry whose answer the message shows
let boardSaid = ""; // what the board said at the dials, last shown
let live = null;

// The sentences of the last entry: all heard, those shown at the action seen, but for
// what a row beside what is due shows already (a lesson; the count just claimed, while it
// is open to a Muggins call).
const aloud = (state) => state.aloud.map((line) => line.said);
const inRow = (state, line) => {
  const game = state.game;
  if (!game) return false;
  if (line.event === "muggins") return Boolean(game.lesson);
  return line.event === "counts" && rowShown(game, mySide(state), signedIn());
};
const shown = (state) => state.aloud.filter((line) => !inRow(state, line)).map((line) => line.shown).filter(Boolean);

// A new entry: its answer shows at the action; with no word of its own, the last answer
// fades (it is out of date); its sentences go to the live region once.
function answered(state) {
  const game = state.game;
  const entry = game ? `${state.game_id}/${game.game}/${game.version}` : null;
  announceEntry(entry, aloud(state));
  if (entry === entrySeen) return;
  const first = entrySeen === null;
  entrySeen = entry;
  if (first && !game) return;
  const words = shown(state);
  if (words.length) say("now", words.join(" "));
  else fade("now");
  const message = state.sim && state.message ? t("board_says", { message: state.message }) : "";
  if (message && message !== boardSaid) say("dials", message);
  else fade("dials");
  boardSaid = message;
}

function drawTop(state) {
  document.body.dataset.phase = state.game ? state.game.phase : "none";
  document.body.dataset.version = state.version;
  colour(state.game);
  render(sides(state), $("sides"));
  $("sides").classList.toggle("three", Boolean(state.game && state.game.sides.length > 2));
  render(state.unshown ? html`<p class="unshown">${t("unshown", { why: state.unshown })}</p>` : nothing, $("unshown"));
}

// The views a tab away load when first opened: what is due now loads with the page.
const TAB_VIEWS = {
  "tab-history": () => import("./history.js").then((view) => view.drawHistory()),
  "tab-match": () => import("./match.js").then((view) => view.drawMatch()),
  "tab-advice": () => import("./advice.js").then((view) => view.drawAdvice()),
  "tab-game": () => import("./setup.js").then((view) => view.drawGame(now().game)),
};

function drawTab() {
  const tab = openNow();
  if (tab === "tab-now") drawNow();
  else TAB_VIEWS[tab]();
}

function draw(before) {
  const state = now();
  const game = state.game;
  keepPicksFor(game ? `${state.game_id}/${game.game}/${game.deal}` : null);
  answered(state);
  drawTop(state);
  drawBoard(state);
  drawTab();
  drawDials();
  drawSheet();
  const brightness = $("brightness");
  if (document.activeElement !== brightness) brightness.value = Math.round(state.brightness * 100);
  return before;
}

// Live: a green dot by the board (its word for screen readers); lost: said in words.
function setLive(on) {
  if (live !== null && live !== on) announce([t(on ? "live" : "reconnecting")]); // not the first
  live = on;
  render(html`<span class=${on ? "sr-only" : ""}>${t(on ? "live" : "reconnecting")}</span>`, $("live"));
  $("live").className = `live ${on ? "on" : "off"}`;
}

// A tap on a game another phone moved on: what happened instead, in words.
function raced({ action, args, error, seen }) {
  const state = now();
  const game = state && state.game;
  if (!game || seen === null || game.version === seen || !state.versioned.includes(action)) return error.message;
  const laid = action === "lay" && game.play.laid.find(([, c]) => c === args.card);
  if (laid) return t("raced_lay", { name: game.seats[laid[0]].name, card: cardName(args.card) });
  const words = shown(state);
  return words.length ? t("raced", { said: words.join(" ") }) : t("raced_plain");
}

function heard(what, detail) {
  if (what === "state") draw(detail);
  else if (what === "dials") {
    render(sides(now()), $("sides"));
    drawDials();
  } else if (what === "frame") light(now(), detail);
  else if (what === "live") setLive(detail);
  else if (what === "history") {
    if (now()) drawTab();
  } else if (what === "session") {
    if (now()) draw();
    $("pin-button").textContent = t(signedIn() ? "sign_out" : "enter_pin");
    $("invite-button").hidden = !signedIn();
  } else if (what === "answer") {
    // An entry's own words show already (they say whose count it was); else, and for
    // what is no entry of the game (a new game, one taken up again), what the board said.
    const entry = detail.where === "now" && now().versioned.includes(detail.action) && said("now");
    if (detail.said && !entry) say(detail.where, detail.said);
  } else if (what === "refused") {
    aimDone();
    const message = raced(detail);
    say(detail.where, message, "bad");
    announce([message]);
  }
}

// Letting another phone in, and joining by such a link: loaded when first needed.
const invited = () => import("./invite.js");
const joining = () => location.hash.includes("join=") && invited().then((link) => link.joinWithLink());

// The second tap of a double tap on what is due is the thumb's, not the player's: dropped,
// whatever it lands on (the first may have been answered already, and what is due drawn
// again under the thumb). The simulated dials repeat: a dial turns as fast as it likes.
function doubleTap(event) {
  const control = event.target.closest("#now button, #now summary");
  if (control && !control.dataset.repeats && event.detail > 1) {
    event.stopImmediatePropagation();
    event.preventDefault();
  }
}

// The top's height (the board and the scores): what is due fills the screen under it.
function measureTop() {
  const top = $("top");
  const set = () => document.documentElement.style.setProperty("--top", `${Math.ceil(top.getBoundingClientRect().height)}px`);
  new ResizeObserver(set).observe(top);
  set();
}

function start() {
  setWords(JSON.parse($("messages").textContent), JSON.parse($("cards").textContent), document.documentElement.lang);
  const first = JSON.parse($("first").textContent);
  setSession(first.session);
  watch(heard);
  redrawWith(() => {
    if (!now()) return;
    drawTab();
    drawDials();
    drawSheet();
  });
  onSigned((text, kind) => {
    say("now", text, kind);
    announce([text]);
  });
  onClose(() => drawNow());
  onTab((tab) => {
    if (!now()) return;
    drawTab();
    if (tab === "tab-game") import("./setup.js").then((view) => view.readGames());
  });
  revealWith(() => $("reveal").checked);
  $("board").addEventListener("click", () => now() && toggleWhole(now()));
  matchMedia("(orientation: landscape)").addEventListener("change", () => now() && drawBoard(now()));
  for (const id of Object.keys(TABS)) {
    $(id).addEventListener("click", () => openTab(id));
    $(id).addEventListener("keydown", tabKeys);
  }
  $("brightness").addEventListener("change", (event) => act("brightness", { level: Number(event.target.value) / 100 }, "game"));
  $("pin-button").addEventListener("click", askPin);
  $("invite-button").addEventListener("click", () => invited().then((link) => link.letIn()));
  // The language switch: the board remembers this phone's choice, and the page reloads in it.
  $("language-choice").addEventListener("change", () => $("language").submit());
  $("reveal").checked = phone.get("reveal", true);
  $("reveal").addEventListener("change", () => {
    phone.set("reveal", $("reveal").checked);
    drawNow();
  });
  measureTop();
  startSheet();
  startVoice();
  document.addEventListener("keydown", dialKeys);
  document.addEventListener("click", doubleTap, true);
  $("live").replaceChildren(); // the page's "connecting…", drawn by the script from now on
  render(html`<span>${t("connecting")}</span>`, $("live"));
  $("live").className = "live off";
  openTab(openNow());
  show(first.state);
  follow();
  joining();
  window.addEventListener("hashchange", joining); // the link opened in this tab
}

start();
