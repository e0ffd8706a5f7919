// pegboard panel: follows the board live, verifies counts, and (with the PIN) pegs.
// Every word shown comes from the page's #messages block (see index.html).
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
};
const SVG = "http://www.w3.org/2000/svg";
const svgEl = (tag, attrs = {}) => {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
};

let MESSAGES = {};
// A message of the page, its {placeholders} filled in.
const t = (key, vars = {}) =>
  (MESSAGES[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));

const isRed = (card) => /[♦♥]/.test(card);
const cardEl = (card, className = "") =>
  el("span", { className: `c${isRed(card) ? " red" : ""} ${className}`.trim(), textContent: card });
const sameCards = (a, b) => a.length === b.length && a.every((card) => b.includes(card));

let state = null; // the board's latest snapshot
let fresh = true; // the next snapshot is taken whatever its version (after a reconnect)
// This phone's copy of the game's history: the lines as of the live message tagged ``at``.
let history = { at: null, lines: [] };
let reading = null; // the tag whose history is being read page by page
let session = { signed_in: false, csrf: "" };
// The cards picked on this phone (kept over a reload); ``key`` is the deal they belong
// to, ``due`` the count they were picked for.
let picked = { key: null, due: null, starter: null, hand: [], lay: null };
let scored = null; // {key, result} of /api/score for the picked cards
let windowKey = null; // the count last open to Muggins
let phase = null;
let boardLoaded = null;
let lastFrame = { holes: {} };
let setupFilled = false;

// --- talking to the board -------------------------------------------------------------

class Refused extends Error {
  constructor(message, status, data) {
    super(message);
    Object.assign(this, { status, data });
  }
}

async function api(path, options = {}) {
  const { headers = {}, ...rest } = options;
  const response = await fetch(path, {
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf, ...headers },
    ...rest,
  });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Refused(data.error || response.statusText, response.status, data);
  return data;
}

// A new key for each thing a player does (crypto.randomUUID needs HTTPS; this does not).
const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");

// A change sent with its Idempotency-Key: sent again with the same key when the answer is
// lost on the way (the board makes it once), never twice because of a double tap.
async function send(path, body, key = newKey()) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api(path, { method: "POST", body: JSON.stringify(body), headers: { "Idempotency-Key": key } });
    } catch (error) {
      if (error instanceof Refused || attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 300 * 2 ** attempt)); // the network: again
    }
  }
}

// The entries made against what this phone shows: sent with the game's version, so a
// tap on a board that has moved on is refused instead of entered twice.
const AGAINST_VERSION = new Set(["starter", "lay", "go", "claim", "muggins", "dispute", "advance", "next_game", "undo", "redo"]);
const sending = new Set(); // the same entry is not sent again while it is on its way

async function act(action, args = {}) {
  const game = state && state.game;
  const body = AGAINST_VERSION.has(action) && game ? { ...args, version: game.version } : args;
  const what = `${action} ${JSON.stringify(body)}`;
  if (!action.startsWith("sim_") && sending.has(what)) return null;
  sending.add(what);
  try {
    const result = await send(`/api/act/${action}`, body);
    say(result.said || "", true);
    if (result.state) show(result.state);
    return result;
  } catch (error) {
    say(error.message);
    if (error.data && error.data.state) show(error.data.state);
    return null;
  } finally {
    sending.delete(what);
  }
}

function say(text, ok = false) {
  const message = $("message");
  message.textContent = text;
  message.classList.toggle("ok", ok);
}

function follow() {
  const source = new EventSource("/api/events");
  source.addEventListener("state", (event) => {
    const next = JSON.parse(event.data);
    if (next.game) followHistory(next.game.history);
    show(next);
  });
  source.addEventListener("dials", (event) => {
    const dials = JSON.parse(event.data);
    if (!state || dials.version < state.version) return;
    state.pending = dials.pending;
    drawSides();
    drawSim();
  });
  source.addEventListener("frame", (event) => light(JSON.parse(event.data)));
  source.onopen = () => {
    fresh = true; // a restarted board counts its versions from 1 again
    setLive(true);
  };
  source.onerror = () => {
    setLive(false); // EventSource reconnects by itself, unless the board turned it away
    if (source.readyState === EventSource.CLOSED) setTimeout(follow, 5000);
  };
}

// What the history gained, from a live message: applied to this phone's copy when it is
// the copy the message starts from, else the history is read at the message's tag (the
// messages that come meanwhile are applied after it).
let gained = []; // messages that came while the history was being read

function followHistory(told) {
  if (reading !== null) {
    gained.push(told);
  } else if (told.prev && told.prev === history.at) {
    history = { at: told.at, lines: [...history.lines.slice(0, told.from), ...told.entries] };
  } else if (told.at !== history.at) {
    readHistory(told.at);
  }
}

async function readHistory(at) {
  reading = at;
  gained = [];
  const lines = [];
  try {
    for (let count = 1; lines.length < count;) {
      const page = await api(`/api/history?${new URLSearchParams({ at, start: lines.length })}`);
      lines.push(...page.entries);
      count = page.entries.length ? page.count : 0;
    }
    history = { at, lines };
  } catch {
    history = { at: null, lines: [] }; // gone meanwhile: the latest message tells again
  }
  reading = null;
  const later = gained;
  gained = [];
  for (const told of later) followHistory(told);
  if (state) drawHistory();
}

function setLive(on) {
  const live = $("live");
  live.textContent = t(on ? "live" : "reconnecting");
  live.className = "live " + (on ? "on" : "off");
}

// --- the state ------------------------------------------------------------------------

function show(next) {
  if (state && !fresh && next.version < state.version) return;
  fresh = false;
  state = next;
  const game = state.game;
  document.body.dataset.phase = game ? game.phase : "none";
  announce(game);
  remember(game);
  drawBoard();
  light(lastFrame);
  drawSides();
  $("status").textContent = game ? game.summary : t("no_game");
  drawActions();
  drawPicker();
  rescore();
  drawHistory();
  drawMatch();
  drawSim();
  fillSetup(game);
  const brightness = $("brightness");
  if (document.activeElement !== brightness) brightness.value = Math.round(state.brightness * 100);
}

// What this phone remembers across snapshots: the picked cards of this deal, the count due.
function remember(game) {
  const key = game ? `${state.game_id}/${game.game}/${game.deal}` : null;
  if (key !== picked.key) {
    const kept = loadPicked();
    picked = kept && kept.key === key ? kept : { key, due: null, starter: null, hand: [], lay: null };
    $("claim-points").value = "";
  }
  if (!game) return;
  if (game.starter) picked.starter = game.starter;
  if (game.phase !== phase) {
    phase = game.phase;
    const target = { discard: "starter", play: session.signed_in ? "lay" : "hand", show: "hand" }[phase];
    if (target) setTarget(target);
  }
  const due = game.phase === "show" && game.due ? `${key}/${game.due.seat}/${game.due.kind}` : null;
  if (due !== picked.due) {
    picked.due = due;
    if (due) prefillCount(game);
  }
  picked.lay = game.phase === "play" && !game.used.includes(picked.lay) ? picked.lay : null;
  savePicked();
}

// The count now due: its cards laid in the play are already known.
function prefillCount(game) {
  const { seat, kind } = game.due;
  picked.hand = kind === "hand" ? game.play.laid.filter(([who]) => who === seat).map(([, card]) => card) : [];
  $("claim-crib").checked = kind === "crib";
  $("claim-points").value = "";
}

function loadPicked() {
  try {
    return JSON.parse(localStorage.getItem("pegboard.picked"));
  } catch {
    return null;
  }
}

function savePicked() {
  try {
    localStorage.setItem("pegboard.picked", JSON.stringify(picked));
  } catch {
    // private mode: the picks live as long as the page
  }
}

// --- the board and the scores ---------------------------------------------------------

async function drawBoard() {
  // The drawing is the layout's, with the game's own skunk lines: drawn again when either changes.
  const drawn = `${state.layout} ${state.game ? state.game.skunk_lines : ""}`;
  if (!state.layout || boardLoaded === drawn) return;
  boardLoaded = drawn;
  const response = await fetch("/board.svg");
  $("board").innerHTML = await response.text();
  light(lastFrame);
}

// The board drawing, lit as the LED strips are (frames arrive on the live stream). A
// screen is no LED: each colour is shown at full strength, and its size tells what it
// is: a peg (or anything as bright, like a dialled preview), a back peg, a faint mark.
function light(frame) {
  lastFrame = frame;
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  for (const hole of svg.querySelectorAll("[data-lit]")) {
    delete hole.dataset.lit;
    hole.style.fill = "";
  }
  const roles = {};
  const game = state && state.game;
  (game ? game.sides : []).forEach((side, track) => {
    const [front, lap] = place(svg, side.front, game.target);
    roles[`t${track}h${place(svg, side.back, game.target)[0]}`] = "back";
    roles[`t${track}h${front}`] = "peg";
    for (let mark = 2; mark <= lap; mark += 1) roles[`t${track}l${mark}`] = "lap";
  });
  const holes = Object.entries(frame.holes || {}).map(([id, colour]) => {
    const rgb = [1, 3, 5].map((at) => parseInt(colour.slice(at, at + 2), 16));
    return [id, rgb, Math.max(...rgb)];
  });
  const front = holes.filter(([id]) => roles[id] === "peg").map(([, , level]) => level);
  const bright = front.length ? 0.6 * Math.min(...front) : Infinity;
  for (const [id, rgb, level] of holes) {
    const hole = svg.getElementById(id);
    if (!hole || !level) continue;
    hole.dataset.lit = roles[id] || (level >= bright ? "peg" : "mark");
    hole.style.fill = `rgb(${rgb.map((c) => Math.round((c * 255) / level)).join(",")})`;
  }
}

// The hole and lap that show a score: Layout.place (pegboard/board/geometry.py), with
// the game hole and the laps the board drawing carries. A board with laps is played
// round it; a score that reached the target sits in the game hole.
function place(svg, score, target) {
  const game = Number(svg.dataset.game);
  const laps = Number(svg.dataset.laps || 1);
  if (laps === 1) return [Math.min(score, game), 1];
  const lapHoles = game - 1;
  const end = Math.min(target || Infinity, laps * lapHoles + 1);
  if (score >= end) return [game, Math.max(1, Math.ceil((end - 1) / lapHoles))];
  if (score <= 0) return [0, 1];
  return [((score - 1) % lapHoles) + 1, Math.floor((score - 1) / lapHoles) + 1];
}

function drawSides() {
  const list = $("sides");
  list.replaceChildren();
  const game = state.game;
  if (!game) return;
  game.sides.forEach((side, index) => {
    const item = el("li", { className: game.winner === index ? "winner" : "" },
      el("div", { className: "name", textContent: side.name }),
      el("div", { className: "score", textContent: side.front }),
      el("div", { className: "back", textContent: t("back_peg", { n: side.back }) }));
    const dialled = state.pending.find((p, seat) => p !== null && game.seats[seat]?.side === index);
    if (dialled !== undefined) {
      item.append(el("div", { className: "pending" }, el("b", { textContent: t("dialled", { n: dialled }) })));
    }
    item.dataset.side = index;
    item.style.setProperty("--side", side.colour);
    list.append(item);
  });
}

// --- entering scores: the starter, the play, moving on ---------------------------------

function button(text, onclick, className = "") {
  return el("button", { type: "button", textContent: text, className, onclick });
}

function drawActions() {
  const box = $("actions");
  box.replaceChildren();
  document.querySelector("#enter .needs-pin").hidden = session.signed_in;
  const game = state.game;
  if (!game || !session.signed_in) return;
  const group = (who, ...children) =>
    box.append(el("div", { className: "group" }, ...(who ? [el("span", { className: "who", textContent: who })] : []), ...children));
  if (game.phase === "over") {
    if (game.match.winner === null) group("", button(t("next_game"), () => act("next_game")));
    else {
      if (game.settings.match_games > 1) box.append(el("p", { textContent: t("match_won", { name: game.sides[game.match.winner].name }) }));
      box.append(el("p", { className: "hint", textContent: t("game_over") }));
    }
  } else if (game.phase === "discard") {
    const turn = button(picked.starter ? t("turn_starter", { card: picked.starter }) : t("pick_starter"),
      () => act("starter", { card: picked.starter }));
    turn.disabled = !picked.starter;
    group("", turn,
      button(t("turned_blank"), () => act("starter", { card: null }), "quiet"),
      button(t("heels_blank"), () => act("starter", { card: null, heels: true }), "quiet"));
    box.append(el("p", { className: "hint", textContent: t("heels_hint") }));
  } else if (game.phase === "play") {
    drawPlay(game, group, box);
  } else if (game.due) {
    group("", el("span", { textContent: t("count_is_due", { name: game.due_name }) }),
      el("a", { href: "#count", textContent: t("go_count_below") }));
  } else {
    group(t("show_done"), button(t("next_deal"), () => act("advance")));
  }
}

function drawPlay(game, group, box) {
  const play = game.play;
  const pile = play.pile.length ? t("play_pile", { count: play.count, cards: play.pile.join(" ") }) : t("play_count", { count: play.count });
  box.append(el("p", { className: "pile", textContent: pile }));
  if (play.mode !== "points" && play.turn !== null) {
    const name = game.seats[play.turn].name;
    const turn = () => state.game.play.turn; // whose turn it is when tapped
    const lay = button(picked.lay ? t("lay", { card: picked.lay }) : t("pick_lay", { name }),
      () => act("lay", { seat: turn(), card: picked.lay }));
    lay.disabled = !picked.lay;
    const go = button(t("go"), () => act("go", { seat: turn() }), "quiet");
    go.disabled = !play.pile.length;
    group(t("to_lay", { name }), lay, go);
  }
  if (play.mode !== "cards") {
    box.append(el("p", { className: "hint", textContent: t("play_by_hand") }));
    game.seats.forEach((seat, index) => {
      const chips = [1, 2, 3, 4, 5, 6].map((n) =>
        button(`+${n}`, () => act("claim", { seat: index, points: n, kind: "play" }), "quiet chip"));
      group(seat.name, ...chips);
    });
  }
  group("", button(t("end_play"), () => act("advance")));
}

// --- picking cards --------------------------------------------------------------------

const target = () => document.querySelector("input[name=pick]:checked").value;

function setTarget(value) {
  document.querySelector(`input[name=pick][value=${value}]`).checked = true;
}

function drawPicker() {
  const game = state && state.game;
  const laying = Boolean(game && game.phase === "play" && game.play.mode !== "points" && session.signed_in);
  $("lay-target").hidden = !laying;
  document.querySelectorAll(".lay-only").forEach((node) => { node.hidden = !laying; });
  if (target() === "lay" && !laying) setTarget("hand");
  const known = (game && game.known) || {};
  const due = game && game.phase === "show" ? game.due : null;
  const mine = new Set([picked.starter, ...picked.hand, picked.lay].filter(Boolean));
  for (const button of $("picker").querySelectorAll("button")) {
    const card = button.dataset.card;
    const owner = known[card];
    const used = card in known && !mine.has(card);
    button.classList.toggle("used", used);
    button.classList.toggle("starter", card === picked.starter);
    button.ariaPressed = String(mine.has(card));
    button.disabled = used && (target() !== "hand" || owner === null
      || (due !== null && !(owner.seat === due.seat && owner.kind === due.kind)));
  }
  const row = (id, cards) => $(id).replaceChildren(...(cards.length ? cards.map((c) => cardEl(c, id === "picked-starter" ? "starter" : "")) : [t("nothing_picked")]));
  row("picked-starter", picked.starter ? [picked.starter] : []);
  row("picked-hand", picked.hand);
  row("picked-lay", picked.lay ? [picked.lay] : []);
}

function pick(card) {
  const game = state && state.game;
  const starterFixed = game && game.starter;
  switch (target()) {
    case "starter":
      if (starterFixed) {
        setTarget("hand"); // the game knows the starter: a tap picks the hand
        return pick(card);
      }
      picked.starter = picked.starter === card ? null : card;
      picked.hand = picked.hand.filter((c) => c !== card);
      if (picked.starter) setTarget("hand");
      break;
    case "lay":
      picked.lay = picked.lay === card ? null : card;
      break;
    default:
      if (picked.hand.includes(card)) picked.hand = picked.hand.filter((c) => c !== card);
      else if (picked.hand.length < 7 && card !== picked.starter) picked.hand.push(card);
  }
  savePicked();
  drawPicker();
  drawActions();
  rescore();
}

// --- verifying a count ----------------------------------------------------------------

let scoring = 0;

async function rescore() {
  const key = `${picked.starter}|${picked.hand.join(",")}|${$("claim-crib").checked}`;
  if (scored && scored.key === key) return drawCount();
  if (!picked.starter || picked.hand.length < 3 || picked.hand.length > 6) {
    scored = null;
    return drawCount();
  }
  const query = new URLSearchParams({ hand: picked.hand.join(","), starter: picked.starter, crib: $("claim-crib").checked ? "1" : "0" });
  const ticket = ++scoring;
  try {
    const result = await api(`/api/score?${query}`);
    if (ticket !== scoring) return; // a newer pick is on its way
    scored = { key, result };
  } catch (error) {
    scored = null;
    say(error.message);
  }
  drawCount();
}

const claimed = () => {
  const value = $("claim-points").value;
  return value === "" ? null : Math.max(0, Math.floor(Number(value)));
};

function verdictText(total, claim) {
  const diff = claim - total;
  const [kind, verdict] = diff === 0 ? ["exact", t("exact")] : diff < 0 ? ["under", t("under", { n: -diff })] : ["over", t("over", { n: diff })];
  return el("span", { className: kind, textContent: t("claimed_verdict", { claimed: claim, verdict }) });
}

// A show with its verdict, the call, the cards, and one line per item that lights its cards.
function renderShow(box, show, claim) {
  const verdict = el("p", { className: "verdict" }, t("true_score", { total: show.total }));
  if (claim !== null) verdict.append(" · ", verdictText(show.total, claim));
  const cards = el("div", { className: "cards big", role: "group", ariaLabel: t("show_cards") },
    ...show.hand.map((c) => cardEl(c)), cardEl(show.starter, "starter"));
  const light = (lit) => {
    for (const node of cards.children) {
      node.classList.toggle("lit", lit !== null && lit.includes(node.textContent));
      node.classList.toggle("dim", lit !== null && !lit.includes(node.textContent));
    }
  };
  let pinned = null;
  const list = el("ul", { className: "breakdown" });
  for (const item of show.items) {
    const line = el("button", { type: "button", ariaPressed: "false" },
      el("span", { className: "kind", textContent: t(`kind_${item.kind}`) }),
      el("span", { className: "cards" }, ...item.cards.map((c) => cardEl(c))),
      el("span", { className: "pts", textContent: `${item.points}` }));
    line.dataset.cards = item.cards.join(" ");
    line.onpointerenter = line.onfocus = () => light(item.cards);
    line.onpointerleave = line.onblur = () => light(pinned);
    line.onclick = () => {
      pinned = pinned === item.cards ? null : item.cards;
      for (const other of list.querySelectorAll("button")) other.ariaPressed = String(other === line && pinned !== null);
      light(pinned);
    };
    list.append(el("li", {}, line));
  }
  box.replaceChildren(verdict, el("p", { className: "call", textContent: t("call", { call: show.call }) }), cards,
    el("p", { className: "hint", textContent: t("tap_line") }), list);
}

function drawCount() {
  const result = $("result");
  const fits = scored && scored.result.starter === picked.starter && sameCards(scored.result.hand, picked.hand);
  result.hidden = !fits;
  if (fits) renderShow(result, scored.result, claimed());
  drawPegCount();
  drawMuggins();
}

// Pegging the count due, with the cards picked when there are any (the game checks them).
function drawPegCount() {
  const game = state && state.game;
  const due = game && game.phase === "show" ? game.due : null;
  const box = $("peg-count");
  box.hidden = !(due && session.signed_in);
  if (box.hidden) return;
  const points = claimed();
  $("due-text").textContent = t("count_is_due", { name: game.due_name });
  const peg = $("peg-claim");
  peg.textContent = t("peg_count", { n: points ?? "?", name: game.due_name });
  peg.disabled = points === null;
  $("peg-hint").textContent = t(picked.hand.length ? "peg_count_checked" : "peg_count_unchecked");
}

function pegCount() {
  const due = state.game.due;
  act("claim", { seat: due.seat, kind: due.kind, points: claimed(), cards: picked.hand.length ? picked.hand : null });
}

// The last count of this deal, open to Muggins: what the game knows, or what the cards
// picked here say; the opponents call it.
function drawMuggins() {
  const game = state && state.game;
  const open = game && game.muggins_open;
  const box = $("muggins");
  box.hidden = !open;
  if (!open) {
    windowKey = null;
    return;
  }
  const claim = game.claims[game.claims.length - 1];
  const key = `${picked.key}/${game.claims.length}`;
  const points = $("muggins-points");
  let missed = open.missed;
  let text = open.missed !== null ? t("muggins_under", { name: open.name, claimed: open.claimed, n: missed }) : null;
  // Unchecked: the cards picked here tell what was missed; the game checks them too when
  // it knows the starter, else only the points go.
  const fromPicks = open.kind !== "play" && open.cards === null && scored
    && scored.result.starter === picked.starter && sameCards(scored.result.hand, picked.hand);
  if (text === null && fromPicks) {
    missed = scored.result.total - open.claimed;
    const vars = { name: open.name, claimed: open.claimed, total: scored.result.total, n: missed };
    text = t(missed > 0 ? "muggins_picked" : "muggins_exact", vars);
  }
  const unchecked = open.kind === "play" ? "muggins_play" : "muggins_unchecked";
  $("muggins-text").textContent = text ?? t(unchecked, { name: open.name, claimed: open.claimed });
  if (key !== windowKey || (missed > 0 && points.value === "")) {
    windowKey = key;
    points.value = missed > 0 ? missed : "";
  }
  const shown = $("muggins-show");
  shown.hidden = !(claim && claim.show);
  if (claim && claim.show) renderShow(shown, claim.show, claim.claimed);
  const buttons = $("muggins-buttons");
  buttons.replaceChildren();
  $("muggins-row").hidden = !session.signed_in;
  if (!session.signed_in) return buttons.append(el("p", { className: "hint", textContent: t("muggins_pin") }));
  const cards = fromPicks && game.starter ? picked.hand : null;
  game.seats.forEach((seat, index) => {
    if (seat.side === open.side) return;
    const call = button(t("muggins_call", { caller: seat.name, n: points.value || "?" }),
      () => act("muggins", { seat: index, points: Number(points.value), cards }), "warn");
    call.disabled = !(Number(points.value) > 0);
    buttons.append(call);
  });
}

// --- history, race chart, match -------------------------------------------------------

function drawHistory() {
  const list = $("history");
  const game = state.game;
  $("undo").disabled = !(game && game.can_undo && session.signed_in);
  $("redo").disabled = !(game && game.can_redo && session.signed_in);
  if (!game) return list.replaceChildren();
  const entries = [...history.lines].reverse().map((entry) => {
    const side = game.sides[entry.side];
    const item = el("li", {},
      el("span", { className: "who", textContent: side.name }),
      el("span", { className: "pts", textContent: `+${entry.points}` }),
      ...entry.cards.map((c) => cardEl(c)),
      el("span", { className: "score", textContent: t("history_score", { score: entry.score }) }),
      el("span", { className: "why", textContent: entry.why }));
    item.style.setProperty("--side", side.colour);
    return item;
  });
  list.replaceChildren(...(entries.length ? entries : [el("li", { className: "hint", textContent: t("history_empty") })]));
  drawRace(game);
}

function drawRace(game) {
  const width = 320, height = 170, left = 30, right = 8, top = 10, bottom = 16;
  const target = game.target;
  const steps = Math.max(1, history.lines.length);
  const x = (i) => left + (i / steps) * (width - left - right);
  const y = (score) => height - bottom - (Math.min(score, target) / target) * (height - top - bottom);
  const svg = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": t("race_label") });
  for (const line of [0, ...game.skunk_lines, target]) {
    svg.append(svgEl("line", { x1: left, x2: width - right, y1: y(line), y2: y(line), stroke: line ? "#bbb" : "#888", "stroke-dasharray": line && line !== target ? "4 3" : "" }));
    const label = svgEl("text", { x: left - 3, y: y(line) + 3, "text-anchor": "end" });
    label.textContent = line;
    svg.append(label);
  }
  game.sides.forEach((side, index) => {
    let score = 0;
    const points = [[x(0), y(0)]];
    history.lines.forEach((entry, i) => {
      if (entry.side === index) score = entry.score;
      points.push([x(i + 1), y(score)]);
    });
    svg.append(svgEl("polyline", { points: points.map((p) => p.join(",")).join(" "), fill: "none", stroke: side.colour, "stroke-width": 2.5, "stroke-linejoin": "round" }));
    const [lastX, lastY] = points[points.length - 1];
    svg.append(svgEl("circle", { cx: lastX, cy: lastY, r: 3.5, fill: side.colour }));
  });
  $("race").replaceChildren(svg);
}

function drawMatch() {
  const table = $("match");
  const game = state.game;
  table.replaceChildren();
  const games = game ? game.settings.match_games : 1;
  $("match-caption").textContent = games > 1 ? t("match_caption", { games, needed: game.match.needed }) : t("match_single");
  if (!game) return;
  table.append(el("tr", {}, el("th", { textContent: t("match_game") }), ...game.sides.map((side) => el("th", { textContent: side.name }))));
  for (const result of game.match.games) {
    table.append(el("tr", {}, el("td", { textContent: result.number }), ...result.scores.map((score, index) =>
      el("td", { textContent: `${score}${index === result.winner ? ` ★${result.points}` : ""}` }))));
  }
  table.append(el("tr", {}, el("th", { textContent: t("match_points") }), ...game.match.points.map((points) => el("th", { textContent: points }))));
}

// --- the simulated board's dials ------------------------------------------------------

function drawSim() {
  const game = state.game;
  const shown = Boolean(state.sim && game && session.signed_in); // the dials peg: PIN first
  $("sim").hidden = !shown;
  const dials = $("dials");
  if (!shown) {
    delete dials.dataset.key;
    return dials.replaceChildren();
  }
  const key = JSON.stringify(game.seats) + game.sides.map((s) => s.colour).join();
  if (dials.dataset.key !== key) {
    dials.dataset.key = key;
    dials.replaceChildren();
    game.seats.forEach((seat, index) => {
      const press = (text, action, args = {}, label = text) => {
        const node = button(text, () => act(action, { seat: index, ...args }), "quiet");
        node.ariaLabel = t("dial_label", { name: seat.name, what: label });
        return node;
      };
      const dial = el("div", { className: "dial" },
        el("div", { className: "name" }, el("span", { textContent: seat.name }), el("span", { className: "value" })),
        el("div", { className: "buttons" },
          press(t("dial_minus"), "sim_turn", { steps: -1 }, t("dial_back")),
          press(t("dial_plus"), "sim_turn", { steps: 1 }, t("dial_on")),
          press(t("dial_peg"), "sim_press"), press(t("dial_undo"), "sim_hold")));
      dial.style.setProperty("--side", game.sides[seat.side].colour);
      dials.append(dial);
    });
    dials.append(button(t("move_on"), () => act("sim_advance"), "move-on"));
  }
  dials.querySelectorAll(".dial .value").forEach((value, seat) => {
    value.textContent = state.pending[seat] ? `+${state.pending[seat]}` : "";
  });
}

const KEYS = { q: [0, "sim_turn", -1], w: [0, "sim_turn", 1], e: [0, "sim_press"], E: [0, "sim_hold"],
  a: [1, "sim_turn", -1], s: [1, "sim_turn", 1], d: [1, "sim_press"], D: [1, "sim_hold"],
  z: [2, "sim_turn", -1], x: [2, "sim_turn", 1], c: [2, "sim_press"], C: [2, "sim_hold"],
  i: [3, "sim_turn", -1], o: [3, "sim_turn", 1], p: [3, "sim_press"], P: [3, "sim_hold"] };

function onKey(event) {
  if (!state || !state.sim || !session.signed_in || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest("input, select, textarea, dialog")) return;
  if (event.key === " ") {
    if (event.target.closest("button")) return; // the focused button's own space
    event.preventDefault();
    act("sim_advance");
    return;
  }
  const key = KEYS[event.key];
  if (!key || !state.game || key[0] >= state.game.seats.length) return;
  act(key[1], key[1] === "sim_turn" ? { seat: key[0], steps: key[2] } : { seat: key[0] });
}

// --- PIN, new game, advice ------------------------------------------------------------

async function refreshSession() {
  session = await api("/api/session");
  $("pin-button").textContent = t(session.signed_in ? "sign_out" : "enter_pin");
  if (state) show(state);
}

async function signIn(pin) {
  try {
    session = await send("/api/login", { pin });
    say(t("signed_in"), true);
  } catch (error) {
    say(error.message);
  }
  await refreshSession();
}

async function signOut() {
  session = await send("/api/logout", {});
  say(t("signed_out"), true);
  await refreshSession();
}

const players = (form) => [...form.querySelectorAll("input[name=player]")].map((i) => i.value.trim()).filter(Boolean);

// Colours are one per side: with four players seats 3 and 4 share those of 1 and 2.
function drawSetup() {
  const form = $("new-game");
  const names = players(form);
  const sides = names.length === 4 ? 2 : names.length;
  form.querySelectorAll(".player").forEach((row, seat) => row.classList.toggle("shared", seat >= sides && names.length === 4));
  [...form.dealer.options].slice(1).forEach((option, seat) => {
    option.textContent = names[seat] || t("seat_default", { n: seat + 1 });
    option.hidden = seat >= Math.max(2, names.length);
  });
}

function fillSetup(game) {
  if (setupFilled || !game) return;
  setupFilled = true;
  const form = $("new-game");
  const rules = game.settings;
  form.querySelectorAll("input[name=player]").forEach((input, seat) => { input.value = rules.players[seat] || ""; });
  const colours = form.querySelectorAll("input[name=colour]");
  rules.colours.forEach((colour, side) => { colours[side].value = colour.toLowerCase(); });
  for (const name of ["variant", "over_count", "skunk", "match_scoring"]) form[name].value = rules[name];
  form.match_games.value = String(rules.match_games);
  form.muggins.checked = rules.muggins;
  form.first_go_ends.checked = rules.first_go_ends;
  drawSetup();
}

function newGame(event) {
  event.preventDefault();
  const form = event.target;
  const names = players(form);
  const sides = names.length === 4 ? 2 : names.length;
  const colours = [...form.querySelectorAll("input[name=colour]")].slice(0, sides).map((i) => i.value.toUpperCase());
  const dealer = form.dealer.value;
  act("new_game", {
    players: names, colours, variant: form.variant.value, target: Number(form.target.value || 0),
    muggins: form.muggins.checked, first_go_ends: form.first_go_ends.checked, over_count: form.over_count.value, skunk: form.skunk.value,
    match_games: Number(form.match_games.value), match_scoring: form.match_scoring.value,
    dealer: dealer === "cut" ? null : Number(dealer),
  });
}

async function advise() {
  const list = $("advice");
  list.replaceChildren();
  if (picked.hand.length < 5) return say(t("advice_pick"));
  const role = document.querySelector("input[name=role]:checked").value;
  const seats = state && state.game ? state.game.seats.length : 2;
  const query = new URLSearchParams({ cards: picked.hand.join(","), role, players: seats });
  try {
    const result = await api(`/api/advice?${query}`);
    // Points to two decimals, written the way the page's language writes them (1,50).
    const points = (x) => x.toLocaleString(document.documentElement.lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    for (const option of result.advice) {
      list.append(el("li", { textContent: t("advice_row", {
        keep: option.keep.join(" "), discard: option.discard.join(" "),
        hand: points(option.hand), crib: points(option.crib), net: points(option.net),
      }) }));
    }
    say("");
  } catch (error) {
    say(error.message);
  }
}

function step(input, by) {
  const value = Number(input.value || 0) + by;
  input.value = Math.max(Number(input.min || 0), Math.min(Number(input.max || 99), value));
  input.dispatchEvent(new Event("input"));
}

function start() {
  MESSAGES = JSON.parse($("messages").textContent);
  $("picker").addEventListener("click", (event) => {
    const card = event.target.closest("button[data-card]");
    if (card) pick(card.dataset.card);
  });
  document.querySelectorAll("input[name=pick]").forEach((input) => { input.onchange = () => state && drawPicker(); });
  $("claim-points").oninput = drawCount;
  $("claim-down").onclick = () => step($("claim-points"), -1);
  $("claim-up").onclick = () => step($("claim-points"), 1);
  $("claim-crib").onchange = rescore;
  $("muggins-points").oninput = drawMuggins;
  $("peg-claim").onclick = pegCount;
  $("clear-cards").onclick = () => {
    picked = { ...picked, starter: state?.game?.starter || null, hand: [], lay: null };
    $("claim-points").value = "";
    savePicked();
    drawPicker();
    rescore();
  };
  $("board").onclick = () => $("board").classList.toggle("zoom");
  $("undo").onclick = () => act("undo");
  $("redo").onclick = () => act("redo");
  $("advise").onclick = advise;
  $("new-game").onsubmit = newGame;
  $("new-game").oninput = drawSetup;
  $("brightness").onchange = (event) => act("brightness", { level: Number(event.target.value) / 100 });
  $("pin-button").onclick = () => {
    if (session.signed_in) return signOut();
    $("pin").value = "";
    $("pin-dialog").showModal();
  };
  $("pin-cancel").onclick = () => $("pin-dialog").close();
  // The language switch: the board remembers this phone's choice, and the page reloads in it.
  $("language-choice").onchange = () => $("language").submit();
  $("pin-form").onsubmit = () => signIn($("pin").value);
  document.addEventListener("keydown", onKey);
  drawSetup();
  refreshSession().then(() => api("/api/state")).then(show).catch((error) => say(error.message));
  follow();
}

document.addEventListener("DOMContentLoaded", start);

// --- announcements: what the board says aloud, for screen readers and this phone's voice ---

const ALOUD_KEPT = 20; // sentences kept in the live region
let announced; // the entry last announced (undefined: none seen yet on this page)

// A new entry's sentences go into the live region (a screen reader reads them) and, when
// this phone speaks, to the browser's own voice in the page's language.
function announce(game) {
  const entry = game ? `${state.game_id}/${game.game}/${game.version}` : null;
  const first = announced === undefined;
  if (entry === announced) return;
  announced = entry;
  if (first || !state.aloud.length) return; // what was said before the page opened is not news
  const log = $("aloud");
  for (const text of state.aloud) log.append(el("p", { textContent: text }));
  while (log.childElementCount > ALOUD_KEPT) log.firstElementChild.remove();
  if (!$("speak").checked) return;
  speechSynthesis.cancel(); // the play has moved on: nothing older is worth hearing
  for (const text of state.aloud) {
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = document.documentElement.lang;
    speechSynthesis.speak(utterance);
  }
}

// The phone's own voice: offered where the browser has one, remembered per phone.
function setUpSpeaking() {
  if (!("speechSynthesis" in window)) return;
  const speak = $("speak");
  speak.checked = localStorage.getItem("pegboard.speak") === "on";
  speak.addEventListener("change", () => {
    localStorage.setItem("pegboard.speak", speak.checked ? "on" : "off");
    if (!speak.checked) speechSynthesis.cancel();
  });
  $("speak-choice").hidden = false;
}
document.addEventListener("DOMContentLoaded", setUpSpeaking);
