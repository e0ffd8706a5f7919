// pegboard panel: follows the board live, verifies counts, and (with the PIN) pegs.
"use strict";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = ["♣", "♦", "♥", "♠"];
const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) node.append(child);
  return node;
};
const isRed = (card) => /[♦♥]/.test(card);

let state = null;
let session = { signed_in: false, csrf: "" };
let picked = { starter: null, hand: [] };
let boardLoaded = null; // the layout whose SVG is in #board

// --- talking to the board -------------------------------------------------------------

async function api(path, options = {}) {
  const response = await fetch(path, {
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf },
    ...options,
  });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

async function act(action, args = {}) {
  try {
    const result = await api(`/api/act/${action}`, { method: "POST", body: JSON.stringify(args) });
    say(result.said || "", true);
    if (result.state) show(result.state);
    return result;
  } catch (error) {
    say(error.message);
    return null;
  }
}

function say(text, ok = false) {
  const message = $("message");
  message.textContent = text;
  message.classList.toggle("ok", ok);
}

function follow() {
  const source = new EventSource("/api/events");
  source.addEventListener("state", (event) => show(JSON.parse(event.data)));
  source.addEventListener("frame", (event) => light(JSON.parse(event.data)));
  source.onopen = () => setLive(true);
  source.onerror = () => setLive(false); // EventSource reconnects by itself
}

function setLive(on) {
  const live = $("live");
  live.textContent = on ? "live" : "reconnecting…";
  live.className = "live " + (on ? "on" : "off");
}

// --- drawing the state ----------------------------------------------------------------

function show(next) {
  if (state && next.version < state.version) return;
  state = next;
  const game = state.game;
  document.body.dataset.phase = game ? game.phase : "none";
  drawBoard();
  drawSides();
  drawStatus();
  drawPicker();
  drawActions();
  drawHistory();
  drawMatch();
  drawSim();
}

let lastFrame = { holes: {} };

// The board drawing, lit exactly as the LED strips are (frames arrive on the live stream).
async function drawBoard() {
  if (!state.layout || boardLoaded === state.layout) return;
  boardLoaded = state.layout;
  const response = await fetch("/board.svg");
  $("board").innerHTML = await response.text();
  light(lastFrame);
}

function light(frame) {
  lastFrame = frame;
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  svg.querySelectorAll("[data-lit]").forEach((hole) => {
    hole.removeAttribute("data-lit");
    hole.style.fill = "";
  });
  for (const [id, colour] of Object.entries(frame.holes || {})) {
    const hole = svg.getElementById(id);
    if (hole) {
      hole.dataset.lit = "1";
      hole.style.fill = colour;
    }
  }
}

function drawSides() {
  const list = $("sides");
  list.replaceChildren();
  if (!state.game) return;
  state.game.sides.forEach((side, index) => {
    const pending = state.pending.find((p, seat) => p !== null && state.game.seats[seat].side === index);
    const item = el("li", { className: state.game.winner === index ? "winner" : "" },
      el("div", { className: "name", textContent: side.name }),
      el("div", { className: "score", textContent: side.front }),
      el("div", { className: "back", textContent: `back peg ${side.back}` }));
    if (pending !== undefined) {
      item.append(el("div", { className: "pending" }, "dial ", el("b", { textContent: `+${pending}` })));
    }
    item.style.setProperty("--side", side.colour);
    list.append(item);
  });
}

function drawStatus() {
  const game = state.game;
  $("status").textContent = game ? game.summary : "No game yet: start one below.";
}

// --- picking cards --------------------------------------------------------------------

function drawPicker() {
  const picker = $("picker");
  if (!picker.childElementCount) {
    for (const suit of SUITS) {
      for (const rank of RANKS) {
        const card = rank + suit;
        picker.append(el("button", {
          type: "button", textContent: card, className: isRed(card) ? "red" : "",
          onclick: () => pick(card), ariaPressed: "false", ariaLabel: cardName(card),
        }));
      }
    }
  }
  const game = state && state.game;
  if (game && game.starter && picked.starter !== game.starter) picked.starter = game.starter;
  const used = new Set(game ? game.used : []);
  for (const button of picker.children) {
    const card = button.textContent;
    const mine = card === picked.starter || picked.hand.includes(card);
    button.disabled = used.has(card) && !mine;
    button.ariaPressed = String(mine);
    button.classList.toggle("starter", card === picked.starter);
  }
  $("picked-starter").textContent = picked.starter || "–";
  $("picked-hand").textContent = picked.hand.join(" ") || "–";
}

function cardName(card) {
  const names = { A: "ace", J: "jack", Q: "queen", K: "king" };
  const suits = { "♣": "clubs", "♦": "diamonds", "♥": "hearts", "♠": "spades" };
  const rank = card.slice(0, -1);
  return `${names[rank] || rank} of ${suits[card.slice(-1)]}`;
}

function pick(card) {
  const target = document.querySelector("input[name=target]:checked").value;
  if (target === "starter") {
    picked.starter = picked.starter === card ? null : card;
    picked.hand = picked.hand.filter((c) => c !== card);
    if (picked.starter) document.querySelector("input[name=target][value=hand]").checked = true;
  } else if (picked.hand.includes(card)) {
    picked.hand = picked.hand.filter((c) => c !== card);
  } else if (picked.hand.length < 6 && card !== picked.starter) {
    picked.hand.push(card);
  }
  drawPicker();
}

async function verify() {
  const claimed = $("claim-points").value;
  if (!picked.starter || picked.hand.length < 3) {
    return say("Pick the starter and the hand's cards first.");
  }
  const query = new URLSearchParams({
    hand: picked.hand.join(","), starter: picked.starter, crib: $("claim-crib").checked ? "1" : "0",
  });
  try {
    const result = await api(`/api/score?${query}`);
    drawBreakdown(result, claimed === "" ? null : Number(claimed));
    say("");
  } catch (error) {
    say(error.message);
  }
}

function drawBreakdown(result, claimed) {
  const verdict = $("verdict");
  verdict.replaceChildren(el("span", { textContent: `True score: ${result.total}. ` }));
  if (claimed !== null) {
    const diff = claimed - result.total;
    const [kind, text] = diff === 0 ? ["exact", "Exact."]
      : diff < 0 ? ["under", `Under by ${-diff}.`] : ["over", `Over by ${diff}.`];
    verdict.append(el("span", { className: kind, textContent: `Claimed ${claimed}: ${text}` }));
  }
  const list = el("ul");
  for (const item of result.items) {
    const cards = el("span", { className: "cards" });
    for (const card of item.cards) cards.append(el("span", { className: "c" + (isRed(card) ? " red" : ""), textContent: card }));
    list.append(el("li", {}, el("span", { className: "kind", textContent: item.kind }), cards,
      el("span", { textContent: ` ${item.points}` })));
  }
  $("breakdown").replaceChildren(el("p", { className: "call", textContent: `“${result.call}”` }), list);
}

// --- entering scores ------------------------------------------------------------------

function drawActions() {
  const box = $("actions");
  box.replaceChildren();
  document.querySelector("#enter .needs-pin").hidden = session.signed_in;
  const game = state.game;
  if (!game || !session.signed_in) return;
  const group = (label, ...buttons) => box.append(el("div", { className: "group" },
    el("span", { textContent: label }), ...buttons));
  const button = (text, action, args, quiet = false) => el("button", {
    type: "button", textContent: text, className: quiet ? "quiet" : "", onclick: () => act(action, args),
  });
  if (game.phase === "over") {
    if (!game.match.winner && game.match.needed) group("Match", button("Next game", "next_game", {}));
    return;
  }
  if (game.phase === "discard") {
    group("Starter",
      button(picked.starter ? `Turn ${picked.starter}` : "Pick the starter above", "starter",
        { card: picked.starter }),
      button("Turned, not entered", "starter", { card: null }, true));
  }
  if (game.phase === "play") {
    game.seats.forEach((seat, index) => {
      const buttons = [1, 2, 3, 4, 6].map((n) => button(`+${n}`, "claim", { seat: index, points: n, kind: "play" }, true));
      buttons.push(button("Go", "go", { seat: index }, true));
      if (picked.hand.length === 1) buttons.push(button(`Lay ${picked.hand[0]}`, "lay", { seat: index, card: picked.hand[0] }));
      group(seat.name, ...buttons);
    });
    group("", button("End of the play: to the show", "advance", {}));
  }
  if (game.phase === "show" && game.due) {
    const claimed = () => Number($("claim-points").value || 0);
    const cards = () => (picked.hand.length ? picked.hand : null);
    group(game.due.text, el("button", {
      type: "button", textContent: "Peg the claimed count",
      onclick: () => act("claim", { seat: game.due.seat, points: claimed(), kind: game.due.kind, cards: cards() }),
    }));
  }
  if (game.muggins_open) {
    const open = game.muggins_open;
    game.seats.forEach((seat, index) => {
      if (seat.side === open.side) return;
      group(seat.name, el("button", {
        type: "button", textContent: `Muggins! (${open.missed ?? "?"})`,
        onclick: () => act("muggins", { seat: index, points: open.missed ?? claimedMuggins() }),
      }));
    });
  }
  if (game.phase === "show" && !game.due) group("", button("Next deal", "advance", {}));
}

const claimedMuggins = () => Number($("claim-points").value || 0);

// --- history, race chart, match -------------------------------------------------------

function drawHistory() {
  const list = $("history");
  list.replaceChildren();
  const game = state.game;
  if (!game) return;
  for (const entry of [...game.history].reverse()) {
    list.append(el("li", {},
      el("span", { textContent: `${game.sides[entry.side].name} ` }),
      el("span", { className: "pts", textContent: `+${entry.points}` }),
      el("span", { textContent: ` ${entry.why}${entry.cards.length ? " · " + entry.cards.join(" ") : ""} → ${entry.score}` })));
  }
  drawRace(game);
}

function drawRace(game) {
  const width = 320, height = 160, target = game.target;
  const svgNs = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNs, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Score race chart");
  const steps = Math.max(1, game.history.length);
  const x = (i) => 20 + (i / steps) * (width - 30);
  const y = (score) => height - 15 - (Math.min(score, target) / target) * (height - 30);
  for (const line of game.skunk_lines) {
    const rule = document.createElementNS(svgNs, "line");
    Object.entries({ x1: 20, x2: width - 10, y1: y(line), y2: y(line), stroke: "#bbb", "stroke-dasharray": "4 3" })
      .forEach(([k, v]) => rule.setAttribute(k, v));
    svg.append(rule);
  }
  game.sides.forEach((side, index) => {
    let score = 0;
    const points = [`${x(0)},${y(0)}`];
    game.history.forEach((entry, i) => {
      if (entry.side === index) score = entry.score;
      points.push(`${x(i + 1)},${y(score)}`);
    });
    const path = document.createElementNS(svgNs, "polyline");
    path.setAttribute("points", points.join(" "));
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", side.colour);
    path.setAttribute("stroke-width", "2.5");
    svg.append(path);
  });
  $("race").replaceChildren(svg);
}

function drawMatch() {
  const table = $("match");
  table.replaceChildren();
  const game = state.game;
  if (!game) return;
  const head = el("tr", {}, el("th", { textContent: "Game" }));
  game.sides.forEach((side) => head.append(el("th", { textContent: side.name })));
  table.append(head);
  for (const result of game.match.games) {
    const row = el("tr", {}, el("td", { textContent: result.number }));
    result.scores.forEach((score, index) => row.append(el("td", {
      textContent: `${score}${index === result.winner ? ` ★${result.points}` : ""}`,
    })));
    table.append(row);
  }
  const total = el("tr", {}, el("th", { textContent: "Points" }));
  game.match.points.forEach((points) => total.append(el("td", { textContent: points })));
  table.append(total);
}

// --- the simulated board's dials ------------------------------------------------------

function drawSim() {
  $("sim").hidden = !state.sim;
  const dials = $("dials");
  if (!state.sim || !state.game) return dials.replaceChildren();
  if (dials.childElementCount === state.game.seats.length) return;
  dials.replaceChildren();
  state.game.seats.forEach((seat, index) => {
    const simButton = (text, action, args = {}) => el("button", {
      type: "button", textContent: text, className: "quiet",
      onclick: () => act(action, { seat: index, ...args }),
    });
    const dial = el("div", { className: "dial" },
      el("div", { className: "name", textContent: seat.name }),
      el("div", { className: "buttons" },
        simButton("−", "sim_turn", { steps: -1 }), simButton("+", "sim_turn", { steps: 1 }),
        simButton("Peg", "sim_press"), simButton("Undo", "sim_hold")));
    dial.style.setProperty("--side", state.game.sides[seat.side].colour);
    dials.append(dial);
  });
  dials.append(el("button", { type: "button", textContent: "Move on", onclick: () => act("sim_advance") }));
}

const KEYS = { q: [0, "sim_turn", -1], w: [0, "sim_turn", 1], e: [0, "sim_press"], E: [0, "sim_hold"],
  a: [1, "sim_turn", -1], s: [1, "sim_turn", 1], d: [1, "sim_press"], D: [1, "sim_hold"],
  z: [2, "sim_turn", -1], x: [2, "sim_turn", 1], c: [2, "sim_press"], C: [2, "sim_hold"],
  i: [3, "sim_turn", -1], o: [3, "sim_turn", 1], p: [3, "sim_press"], P: [3, "sim_hold"] };

function onKey(event) {
  if (!state || !state.sim || event.target.closest("input, select, textarea, dialog")) return;
  if (event.key === " ") {
    event.preventDefault();
    return act("sim_advance");
  }
  const key = KEYS[event.key];
  if (!key || !state.game || key[0] >= state.game.seats.length) return;
  act(key[1], key[1] === "sim_turn" ? { seat: key[0], steps: key[2] } : { seat: key[0] });
}

// --- PIN, new game, advice ------------------------------------------------------------

async function refreshSession() {
  session = await api("/api/session");
  $("pin-button").textContent = session.signed_in ? "Sign out" : "Enter PIN";
  if (state) drawActions();
}

async function signIn(pin) {
  try {
    session = await api("/api/login", { method: "POST", body: JSON.stringify({ pin }) });
    say("Signed in: you can peg from this phone.", true);
  } catch (error) {
    say(error.message);
  }
  await refreshSession();
}

function newGame(event) {
  event.preventDefault();
  const form = event.target;
  const players = [...form.querySelectorAll("input[name=player]")].map((i) => i.value.trim()).filter(Boolean);
  const dealer = form.dealer.value;
  act("new_game", {
    players, variant: form.variant.value, target: Number(form.target.value || 0),
    muggins: form.muggins.checked, over_count: form.over_count.value, skunk: form.skunk.value,
    match: Number(form.match.value || 1), match_scoring: form.match_scoring.value,
    dealer: dealer === "cut" ? null : Number(dealer),
  });
}

async function advise() {
  const list = $("advice");
  list.replaceChildren();
  if (state && state.game && state.game.phase === "show") return say("No advice during a count.");
  const role = document.querySelector("input[name=role]:checked").value;
  const players = state && state.game ? state.game.seats.length : 2;
  const query = new URLSearchParams({ cards: picked.hand.join(","), role, players });
  try {
    const result = await api(`/api/advice?${query}`);
    for (const option of result.advice) {
      list.append(el("li", { textContent: `keep ${option.keep.join(" ")} · throw ${option.discard.join(" ")} · hand ${option.hand.toFixed(2)} · crib ${option.crib.toFixed(2)} · net ${option.net.toFixed(2)}` }));
    }
    say("");
  } catch (error) {
    say(error.message);
  }
}

function start() {
  $("verify").onclick = verify;
  $("clear-cards").onclick = () => { picked = { starter: state?.game?.starter || null, hand: [] }; drawPicker(); };
  $("undo").onclick = () => act("undo");
  $("redo").onclick = () => act("redo");
  $("advise").onclick = advise;
  $("new-game").onsubmit = newGame;
  $("brightness").onchange = (event) => act("brightness", { level: Number(event.target.value) / 100 });
  $("pin-button").onclick = async () => {
    if (session.signed_in) {
      session = await api("/api/logout", { method: "POST", body: "{}" });
      return refreshSession();
    }
    $("pin").value = "";
    $("pin-dialog").showModal();
  };
  $("pin-cancel").onclick = () => $("pin-dialog").close();
  $("pin-form").onsubmit = () => signIn($("pin").value);
  document.addEventListener("keydown", onKey);
  drawPicker();
  refreshSession().then(() => api("/api/state")).then(show).catch((error) => say(error.message));
  follow();
}

document.addEventListener("DOMContentLoaded", start);
