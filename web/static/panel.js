// pegboard panel: follows the board live and (with the PIN) pegs. This file: talking to
// the board, the board drawing and the scores, the views a tab away, the card picker.
// moments.js draws what is due now. Every word shown comes from the page's #messages
// block (see index.html); every rule comes from the board's snapshot.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((child) => child !== null && child !== undefined));
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
const lang = () => document.documentElement.lang;
const list = (items, type = "conjunction") => new Intl.ListFormat(lang(), { type }).format(items.map(String));

const isRed = (card) => /[♦♥]/.test(card);
const rankOf = (card) => card.slice(0, -1);
const cardEl = (card, className = "") =>
  el("span", { className: `c${isRed(card) ? " red" : ""} ${className}`.trim(), textContent: card });

// What this phone keeps: in localStorage across visits, in sessionStorage for this tab.
const kept = (store) => ({
  get(key, fallback) {
    try {
      return JSON.parse(store.getItem(`pegboard.${key}`)) ?? fallback;
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      store.setItem(`pegboard.${key}`, JSON.stringify(value));
    } catch {
      // private mode: kept as long as the page
    }
  },
});
const phone = kept(localStorage);
const visit = kept(sessionStorage);

let state = null; // the board's latest snapshot
let fresh = true; // the next snapshot is taken whatever its version (after a reconnect)
let history = { at: null, lines: [] }; // this phone's copy of the history, as of tag ``at``
let reading = null; // the tag whose history is being read page by page
let session = { signed_in: false, csrf: "" };
let lastFrame = { holes: {} };
let entrySeen = null; // the entry whose answer the message shows

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

const sending = new Set(); // the same entry is not sent again while it is on its way

// Make an entry; its answer (or why it was refused) shows at ``where``.
async function act(action, args = {}, where = null) {
  const game = state && state.game;
  const what = `${action} ${JSON.stringify(args)}`;
  const dial = action.startsWith("sim_");
  if (!dial && sending.has(what)) return null;
  // The entries made against what this phone shows carry the game's version (the board
  // says which): a tap on a game that has moved on is refused, not entered twice.
  const body = game && state.versioned.includes(action) ? { ...args, version: game.version } : args;
  sending.add(what);
  const box = where || (dial ? $("dial-message") : $("message"));
  try {
    const result = await send(`/api/act/${action}`, body);
    if (result.state) show(result.state);
    if (result.said) say(result.said, "", box);
    return result;
  } catch (error) {
    if (error.data && error.data.state) show(error.data.state);
    say(error.message, "bad", box);
    return null;
  } finally {
    sending.delete(what);
  }
}

// A message at the action it answers: ``kind`` "ok", "bad" (a refusal) or "" (what the
// board said of the last entry). It stays while it is true and fades once out of date.
function say(text, kind = "", box = $("message")) {
  box.classList.remove("fading");
  box.replaceChildren(text);
  box.className = `message ${kind}`.trim();
  box.dataset.version = state ? state.version : 0;
}

function fade(box) {
  if (!box.textContent || box.classList.contains("fading")) return;
  box.classList.add("fading");
  box.addEventListener("animationend", () => box.classList.contains("fading") && box.replaceChildren(), { once: true });
}

// The live stream. The board ends each stream after a while and the browser asks again
// at once with the last message's id (the board tells what was missed); refused (the
// board is full, or restarting), the page waits longer each time, at random within it,
// so a room full of phones does not knock at once.
let refusals = 0;

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
  let again = false; // the board said it ends this stream: the browser asks again at once
  source.addEventListener("again", () => { again = true; });
  source.onopen = () => {
    fresh = true; // a restarted board counts its versions from 1 again
    refusals = 0;
    again = false;
    setLive(true);
  };
  source.onerror = () => {
    if (again && source.readyState === EventSource.CONNECTING) return; // still live
    setLive(false); // EventSource reconnects by itself, unless the board turned it away
    if (source.readyState !== EventSource.CLOSED) return;
    const wait = Math.min(60000, 2000 * 2 ** refusals++);
    setTimeout(follow, wait / 2 + Math.random() * wait / 2);
  };
}

// What the history gained, from a live message: applied to this phone's copy when it is
// the copy the message starts from, else the history is read at the message's tag (the
// messages that come meanwhile are applied after it).
let gained = [];

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
  if (state) drawTab();
}

// Live: a green dot on the board (its word for screen readers); lost: said in words.
function setLive(on) {
  const live = $("live");
  live.replaceChildren(el("span", { className: on ? "sr-only" : "", textContent: t(on ? "live" : "reconnecting") }));
  live.className = "live " + (on ? "on" : "off");
}

// --- the state ------------------------------------------------------------------------

function show(next) {
  // A board seen already (the live copy of an answer just drawn) is not drawn again: a
  // button about to be tapped stays where it is.
  if (state && !fresh && next.version <= state.version) return;
  fresh = false;
  const before = state;
  state = next;
  draw(before);
}

function draw(before = state) {
  const game = state.game;
  document.body.dataset.phase = game ? game.phase : "none";
  announce(game);
  keepPicks(game);
  drawBoard(before);
  drawSides();
  answer(game);
  drawNow();
  drawTab();
  drawSim();
  fillSetup(game);
  const brightness = $("brightness");
  if (document.activeElement !== brightness) brightness.value = Math.round(state.brightness * 100);
}

// The answer to the last entry, at the action: what the board said of it. When the game
// moves on without a word, the last answer fades: it is out of date.
function answer(game) {
  const entry = game ? `${state.game_id}/${game.game}/${game.version}` : null;
  if (entry === entrySeen) return;
  const first = entrySeen === null;
  entrySeen = entry;
  const box = $("message");
  if (first && !game) return;
  if (state.aloud.length) say(state.aloud.join(" "), "", box);
  else fade(box);
  const dials = $("dial-message");
  if (state.sim && state.message) say(t("board_says", { message: state.message }), "", dials);
}

// --- the cards picked on this phone -----------------------------------------------------

// Kept over a reload, by the deal they belong to: the cards of a count, a cut, the deal.
let picks = phone.get("picks", { deal: null, sets: {} });

function keepPicks(game) {
  const deal = game ? `${state.game_id}/${game.game}/${game.deal}` : null;
  if (picks.deal !== deal) picks = { deal, sets: {} };
  phone.set("picks", picks);
}
const picked = (name) => picks.sets[name] || [];
function setPicked(name, cards) {
  picks.sets[name] = cards;
  phone.set("picks", picks);
}

// One card picker, moved to the view that needs it. ``use`` gives what a tap does now:
// {selected: [cards], fixed: [cards laid already], blocked(card), tap(card), toggles}.
let picking = null;
let PICKER = null; // the picker's node, wherever it is (set at the start)

function usePicker(host, how) {
  picking = how;
  const picker = PICKER;
  if (picker.parentElement !== host) host.append(picker);
  picker.hidden = false;
  drawPicker();
}

function drawPicker() {
  if (!picking) return;
  const known = (state.game && state.game.known) || {};
  const selected = new Set(picking.selected || []);
  const fixed = new Set(picking.fixed || []);
  for (const button of PICKER.querySelectorAll("button")) {
    const card = button.dataset.card;
    const mine = selected.has(card) || fixed.has(card);
    button.classList.toggle("used", card in known && !mine);
    button.classList.toggle("starter", state.game !== null && known[card] === null);
    if (picking.toggles) button.setAttribute("aria-pressed", String(mine));
    else button.removeAttribute("aria-pressed");
    button.disabled = fixed.has(card) || Boolean(picking.blocked && picking.blocked(card));
  }
}

function tapCard(event) {
  const button = event.target.closest("button[data-card]");
  if (button && picking && !button.disabled) picking.tap(button.dataset.card);
}

// A set of picks toggled by a tap, up to ``most`` cards (``fixed`` ones stay).
function toggle(name, card, most, fixed = []) {
  const cards = picked(name);
  const next = cards.includes(card) ? cards.filter((c) => c !== card) : [...cards, card];
  if (next.length + fixed.length > most) return false;
  setPicked(name, next);
  return true;
}

// --- the board and the scores ---------------------------------------------------------

const ZOOM_WIDTH = 110; // mm of board shown around the pegs, at least
const ZOOM_ASPECT = 4; // width to height of the view near the pegs
let labelled = null;
let seeAll = visit.get("seeAll", false);

// The drawing comes with the page; drawn again when the game's skunk lines change.
async function drawBoard(before) {
  const lines = (game) => (game ? game.skunk_lines.join() : "");
  if (before && lines(before.game) !== lines(state.game)) {
    const response = await fetch("/board.svg");
    $("board").innerHTML = await response.text();
    labelled = null;
  }
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  if (labelled !== svg) {
    labelHoles(svg);
    labelled = svg;
  }
  light(lastFrame);
  frameBoard(svg);
}

// Hole numbers every five, beside the first track, on the side with room for them.
function labelHoles(svg) {
  const holes = [...svg.querySelectorAll(".track .hole:not(.lap)")];
  const spots = holes.map((h) => [Number(h.getAttribute("cx")), Number(h.getAttribute("cy"))]);
  const room = (x, y) => Math.min(...spots.map(([hx, hy]) => Math.hypot(hx - x, hy - y)));
  const group = svgEl("g", { class: "numbers", "aria-hidden": "true" });
  for (const hole of svg.querySelectorAll("#t0 .hole:not(.lap)")) {
    const number = Number(hole.dataset.hole);
    if (number % 5 || number === 0 || number === Number(svg.dataset.game)) continue;
    const x = Number(hole.getAttribute("cx")), y = Number(hole.getAttribute("cy"));
    const [, above, below] = [0, y - 6, y + 6];
    const text = svgEl("text", { x, y: room(x, above) >= room(x, below) ? above : below, class: "number" });
    text.textContent = number;
    group.append(text);
  }
  svg.append(group);
}

// Near the pegs (a phone held upright), or the whole board (held sideways, or tapped).
function frameBoard(svg) {
  const width = Number(svg.viewBox.baseVal.width), height = Number(svg.viewBox.baseVal.height);
  svg.dataset.width ??= width;
  svg.dataset.height ??= height;
  const W = Number(svg.dataset.width), H = Number(svg.dataset.height);
  const game = state.game;
  const whole = seeAll || !game || matchMedia("(orientation: landscape)").matches;
  let box = [0, 0, W, H];
  if (!whole) {
    const points = game.sides.flatMap((side, track) => [side.front, side.back].map((score) => {
      const hole = svg.getElementById(`t${track}h${place(svg, score, game.target)[0]}`);
      return hole ? [Number(hole.getAttribute("cx")), Number(hole.getAttribute("cy"))] : null;
    })).filter(Boolean);
    const xs = points.map(([x]) => x), ys = points.map(([, y]) => y);
    let w = Math.max(ZOOM_WIDTH, Math.max(...xs) - Math.min(...xs) + 30);
    let h = Math.max(w / ZOOM_ASPECT, Math.max(...ys) - Math.min(...ys) + 24);
    w = Math.max(w, h * ZOOM_ASPECT);
    if (w < W && h < H) {
      const cx = (Math.max(...xs) + Math.min(...xs)) / 2, cy = (Math.max(...ys) + Math.min(...ys)) / 2;
      const x = Math.min(Math.max(cx - w / 2, 0), W - w), y = Math.min(Math.max(cy - h / 2, 0), H - h);
      box = [x, y, w, h];
    }
  }
  svg.setAttribute("viewBox", box.map((n) => n.toFixed(1)).join(" "));
  const zoomed = box[2] < W;
  $("board").classList.toggle("near", zoomed);
  $("board").ariaLabel = t(zoomed ? "board_near" : "board_all");
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

// A card per side: its colour, name, score, points to go; the dealer (whose crib it is),
// the lead, whose turn it is in the play, what a dial shows. Three cards across keep the
// whole name on its line: the dealer and the lead go beside the score.
function drawSides() {
  const list = $("sides");
  const game = state.game;
  const three = Boolean(game && game.sides.length > 2);
  list.classList.toggle("three", three);
  if (!game) return list.replaceChildren();
  const dealerSide = game.seats[game.dealer].side;
  const turn = game.phase === "play" && game.play.turn !== null ? game.seats[game.play.turn].side : null;
  list.replaceChildren(...game.sides.map((side, index) => {
    const dealer = index === dealerSide;
    const dealerName = game.seats[game.dealer].name;
    const lead = game.lead && game.lead.side === index ? game.lead.by : null;
    const badges = [
      lead ? el("span", { className: "lead", textContent: t("leads_by", { n: lead }), title: t("leads_label", { name: side.name, n: lead }) }) : null,
      dealer ? el("span", { className: "deals", title: t("deals_label", { name: dealerName }), textContent: t("dealer") }) : null,
    ];
    const item = el("li", { className: [game.winner === index ? "winner" : "", turn === index ? "turn" : ""].join(" ").trim() },
      el("div", { className: "line" },
        el("span", { className: "name", textContent: side.name }), ...(three ? [] : badges)),
      el("div", { className: "line" },
        el("span", { className: "score", textContent: side.front }), ...(three ? badges : []),
        el("span", { className: "to-go", textContent: t("to_go", { n: side.to_go }) })));
    const dialled = state.pending.find((p, seat) => p !== null && game.seats[seat]?.side === index);
    if (dialled !== undefined && dialled !== null) item.lastChild.append(el("span", { className: "pending", textContent: t("dialled", { n: dialled }) }));
    item.style.setProperty("--side", side.colour);
    return item;
  }));
}

// --- the views a tab away -------------------------------------------------------------

const TABS = { "tab-now": "now", "tab-history": "history-view", "tab-match": "match-view", "tab-advice": "advice-view", "tab-game": "game-view" };
let tab = visit.get("tab", "tab-now");

function openTab(id, focus = false) {
  tab = id in TABS ? id : "tab-now";
  visit.set("tab", tab);
  for (const [name, view] of Object.entries(TABS)) {
    const on = name === tab;
    const button = $(name);
    button.setAttribute("aria-selected", String(on));
    button.tabIndex = on ? 0 : -1;
    $(view).hidden = !on;
    if (on && focus) button.focus();
  }
  window.scrollTo(0, 0);
  if (state) {
    drawNow();
    drawTab();
  }
  if (tab === "tab-game") readGames();
}

function tabKeys(event) {
  const ids = Object.keys(TABS);
  const at = ids.indexOf(event.target.id);
  const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
  if (at < 0 || !step) return;
  event.preventDefault();
  openTab(ids[(at + step + ids.length) % ids.length], true);
}

function drawTab() {
  if (tab === "tab-history") drawHistory();
  else if (tab === "tab-match") drawMatch();
  else if (tab === "tab-advice") drawAdvice();
}

function drawHistory() {
  const list = $("history");
  const game = state.game;
  $("history-undo").disabled = !(game && game.can_undo && session.signed_in);
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
}

function drawMatch() {
  const table = $("match");
  const game = state.game;
  table.replaceChildren();
  const games = game ? game.settings.match_games : 1;
  $("match-caption").textContent = games > 1 ? t("match_caption", { games, needed: game.match.needed }) : t("match_single");
  if (!game) return $("race").replaceChildren();
  table.append(el("tr", {}, el("th", { textContent: t("match_game") }), ...game.sides.map((side) => el("th", { textContent: side.name }))));
  for (const result of game.match.games) {
    table.append(el("tr", {}, el("td", { textContent: result.number }), ...result.scores.map((score, index) =>
      el("td", { textContent: `${score}${index === result.winner ? ` ★${result.points}` : ""}` }))));
  }
  table.append(el("tr", {}, el("th", { textContent: t("match_points") }), ...game.match.points.map((points) => el("th", { textContent: points }))));
  drawRace(game);
  readStatistics();
}

// What each player did in this game: read when the Match tab shows a board not yet read.
let statisticsRead = null;

async function readStatistics() {
  if (statisticsRead === state.version) return;
  statisticsRead = state.version;
  const { players } = await api("/api/statistics");
  const number = (x) => (x === null ? "–" : x.toLocaleString(lang(), { maximumFractionDigits: 1 }));
  const rows = [["stat_hand", "hand_average"], ["stat_crib", "crib_average"], ["stat_play", "play_average"],
    ["stat_missed", "missed_points"], ["stat_muggins", "muggins_won"]];
  $("statistics").replaceChildren(
    el("tr", {}, el("td"), ...players.map((player) => el("th", { scope: "col", textContent: player.name }))),
    ...rows.map(([label, field]) => el("tr", {}, el("th", { scope: "row", textContent: t(label) }),
      ...players.map((player) => el("td", { textContent: number(player[field]) })))));
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

// Discard advice: the cards dealt, picked here; the board works out every discard.
function drawAdvice() {
  const cards = picked("advice");
  $("advice-picked").replaceChildren(...(cards.length ? cards.map((c) => cardEl(c)) : [t("nothing_picked")]));
  usePicker($("advice-host"), {
    selected: cards, toggles: true,
    tap: (card) => {
      toggle("advice", card, 7);
      drawAdvice();
    },
  });
}

async function advise() {
  const list = $("advice");
  list.replaceChildren();
  const cards = picked("advice");
  if (cards.length < 5) return say(t("advice_pick"), "bad", $("advice-message"));
  const role = document.querySelector("input[name=role]:checked").value;
  const seats = state && state.game ? state.game.seats.length : 2;
  try {
    const result = await api(`/api/advice?${new URLSearchParams({ cards: cards.join(","), role, players: seats })}`);
    // Points to two decimals, written the way the page's language writes them (1,50).
    const points = (x) => x.toLocaleString(lang(), { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    for (const option of result.advice) {
      list.append(el("li", { textContent: t("advice_row", {
        keep: option.keep.join(" "), discard: option.discard.join(" "),
        hand: points(option.hand), crib: points(option.crib), net: points(option.net),
      }) }));
    }
    say("", "", $("advice-message"));
  } catch (error) {
    say(error.message, "bad", $("advice-message"));
  }
}

// --- the games kept, a new game -------------------------------------------------------

async function readGames() {
  try {
    const { games } = await api("/api/games");
    drawGames(games);
  } catch (error) {
    say(error.message, "bad", $("form-message"));
  }
}

function drawGames(games) {
  const when = (created) => new Date(`${created.replace(" ", "T")}Z`).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });
  const items = games.map((game) => {
    const scores = el("span", { className: "scores" }, ...game.sides.map((side) =>
      el("span", { className: "side", textContent: `${side.name} ${side.score}`, style: `--side: ${side.colour}` })));
    const item = el("li", { className: game.finished ? "finished" : "" }, scores,
      el("span", { className: "summary", textContent: game.summary }),
      el("span", { className: "hint", textContent: t("started", { when: when(game.created) }) }));
    if (game.current) item.append(el("strong", { className: "now", textContent: t("playing_now") }));
    else if (!game.finished && session.signed_in) item.append(button(t("resume"), () => resume(game.id), "quiet"));
    return item;
  });
  if (games.every((game) => game.current)) items.push(el("li", { className: "hint", textContent: t("games_empty") }));
  $("games").replaceChildren(...items);
}

async function resume(id) {
  const result = await act("resume", { game: id });
  if (result) openTab("tab-now");
}

// The second tap of a double tap on what is due is the thumb's, not the player's: dropped,
// whatever it lands on (the first may have been answered already, and what is due drawn
// again under the thumb). The browser counts the taps of one double tap (event.detail).
// The simulated dials repeat: a dial turns as fast as it likes.
function doubleTap(event) {
  const control = event.target.closest("#now button");
  if (control && !control.dataset.repeats && event.detail > 1) {
    event.stopImmediatePropagation();
    event.preventDefault();
  }
}

function button(text, onclick, className = "", repeats = false) {
  const node = el("button", { type: "button", textContent: text, className, onclick });
  if (repeats) node.dataset.repeats = "yes";
  return node;
}

const players = (form) => [...form.querySelectorAll(".player:not([hidden]) input[name=player]")].map((i) => i.value.trim());

// The new-game form offers what this board can show: the numbers of players its tracks
// take (four play as two teams), the variants its holes reach.
function drawSetup() {
  const form = $("new-game");
  const allowed = state ? state.players_allowed : [2, 3, 4];
  for (const input of form.querySelectorAll("input[name=players]")) input.disabled = !allowed.includes(Number(input.value));
  let count = Number(form.querySelector("input[name=players]:checked").value);
  if (!allowed.includes(count)) {
    count = allowed[0];
    form.querySelector(`input[name=players][value="${count}"]`).checked = true;
  }
  $("players-hint").textContent = state ? t("players_board", { layout: state.layout, tracks: state.tracks, allowed: list(allowed, "disjunction") }) : "";
  if (count === 4) $("players-hint").append(" ", t("players_teams"));
  form.querySelectorAll(".player").forEach((row, seat) => {
    row.hidden = seat >= count;
    row.classList.toggle("shared", count === 4 && seat >= 2);
  });
  for (const option of form.variant.options) {
    option.disabled = !option.dataset.players.split(" ").includes(String(count));
  }
  if (form.variant.selectedOptions[0].disabled) form.variant.value = "standard";
  const names = players(form);
  [...form.dealer.options].slice(1).forEach((option, seat) => {
    option.textContent = names[seat] || t("seat_default", { n: seat + 1 });
    option.hidden = seat >= count;
  });
  if (form.dealer.selectedOptions[0].hidden) form.dealer.value = "cut";
}

let setupFilled = false;

function fillSetup(game) {
  drawSetup();
  if (setupFilled || !game) return;
  setupFilled = true;
  const form = $("new-game");
  const rules = game.settings;
  form.querySelector(`input[name=players][value="${rules.players.length}"]`).checked = true;
  form.querySelectorAll("input[name=player]").forEach((input, seat) => { input.value = rules.players[seat] || t("seat_default", { n: seat + 1 }); });
  const colours = form.querySelectorAll("input[name=colour]");
  rules.colours.forEach((colour, side) => { colours[side].value = colour.toLowerCase(); });
  for (const name of ["variant", "over_count", "skunk", "match_scoring"]) form[name].value = rules[name];
  form.match_games.value = String(rules.match_games);
  form.muggins.checked = rules.muggins;
  form.lessons.checked = rules.lessons;
  form.first_go_ends.checked = rules.first_go_ends;
  drawSetup();
}

// New game: asked first when a game is on (it is kept, and can be taken up again), and
// offered back right after.
function newGame(event) {
  event.preventDefault();
  const form = event.target;
  const target = form.target.value.trim() || "0";
  if (!/^\d{1,3}$/.test(target)) return say(t("target_whole", { most: 999 }), "bad", $("form-message"));
  const names = players(form);
  const sides = names.length === 4 ? 2 : names.length;
  const colours = [...form.querySelectorAll("input[name=colour]")].slice(0, sides).map((i) => i.value.toUpperCase());
  const dealer = form.dealer.value;
  const args = {
    players: names, colours, variant: form.variant.value, target: Number(target),
    muggins: form.muggins.checked, lessons: form.lessons.checked, first_go_ends: form.first_go_ends.checked, over_count: form.over_count.value, skunk: form.skunk.value,
    match_games: Number(form.match_games.value), match_scoring: form.match_scoring.value,
    dealer: dealer === "cut" ? null : Number(dealer),
  };
  const game = state && state.game;
  if (!game || game.over) return startGame(args, null);
  const scores = game.sides.map((side) => `${side.name} ${side.front}`).join(" · ");
  confirmFirst(t("confirm_new", { names: list(game.sides.map((side) => side.name)), scores }),
    t("keep_playing"), t("confirm_start"), () => startGame(args, state.game_id));
}

async function startGame(args, before) {
  const result = await act("new_game", args, $("form-message"));
  if (!result) return;
  openTab("tab-now");
  say(result.said);
  if (before !== null) $("message").append(" ", button(t("take_back"), () => act("resume", { game: before }), "quiet"));
}

function confirmFirst(text, cancel, ok, then) {
  const dialog = $("confirm-dialog");
  $("confirm-text").textContent = text;
  $("confirm-cancel").textContent = cancel;
  $("confirm-ok").textContent = ok;
  $("confirm-cancel").onclick = () => dialog.close();
  $("confirm-ok").onclick = () => {
    dialog.close();
    then();
  };
  dialog.showModal();
}

// --- the simulated board's dials ------------------------------------------------------

// With no game yet, only the advance button: as on the board, it starts the house game.
function drawSim() {
  const game = state.game;
  const shown = Boolean(state.sim && session.signed_in); // the dials peg: PIN first
  $("sim").hidden = !shown;
  const dials = $("dials");
  if (!shown) {
    delete dials.dataset.key;
    return dials.replaceChildren();
  }
  const key = game ? JSON.stringify(game.seats) + game.sides.map((s) => s.colour).join() : "none";
  if (dials.dataset.key !== key) {
    dials.dataset.key = key;
    dials.replaceChildren();
    (game ? game.seats : []).forEach((seat, index) => {
      const press = (text, action, args = {}, label = text) => {
        const node = button(text, () => act(action, { seat: index, ...args }), "quiet", true);
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
    dials.append(button(t("move_on"), () => act("sim_advance"), "move-on", true),
      button(t("say_again"), () => act("sim_repeat"), "quiet say-again", true)); // a long press on the board
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
  if (event.target.closest("input, select, textarea, dialog, [role=tab]")) return;
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

// --- the PIN ----------------------------------------------------------------------------

function setSession(next) {
  session = next;
  $("pin-button").textContent = t(session.signed_in ? "sign_out" : "enter_pin");
  $("invite-button").hidden = !session.signed_in;
  if (state) draw();
}

function askPin() {
  if (session.signed_in) return signOut();
  $("pin").value = "";
  $("pin-dialog").showModal();
}

async function signIn(pin) {
  try {
    setSession(await send("/api/login", { pin }));
    say(t("signed_in"), "ok");
  } catch (error) {
    say(error.message, "bad");
  }
}

async function signOut() {
  setSession(await send("/api/logout", {}));
  say(t("signed_out"), "ok");
}

// A signed-in phone lets another in without the PIN: a link good once, for a minute,
// shown as a QR code to scan.
async function invite() {
  try {
    const made = await send("/api/invite", {});
    $("invite-qr").src = made.qr;
    $("invite-link").href = made.link;
    $("invite-link").textContent = made.link;
    $("invite-dialog").showModal();
  } catch (error) {
    say(error.message, "bad");
  }
}

// Opened from such a link: sign in with it (once: it leaves the address bar at once).
async function joinWithLink() {
  const token = new URLSearchParams(location.hash.slice(1)).get("join");
  if (!token) return;
  window.history.replaceState(null, "", location.pathname + location.search); // (history: ours)
  try {
    setSession(await send("/api/join", { token }));
    say(t("joined"), "ok");
  } catch (error) {
    say(error.message, "bad");
  }
}

// --- starting ---------------------------------------------------------------------------

function start() {
  MESSAGES = JSON.parse($("messages").textContent);
  const first = JSON.parse($("first").textContent);
  setSession(first.session);
  PICKER = $("picker");
  PICKER.addEventListener("click", tapCard);
  $("board").onclick = () => {
    seeAll = !seeAll;
    visit.set("seeAll", seeAll);
    if (state) frameBoard($("board").querySelector("svg"));
  };
  matchMedia("(orientation: landscape)").addEventListener("change", () => state && drawBoard(state));
  for (const id of Object.keys(TABS)) {
    $(id).onclick = () => openTab(id);
    $(id).onkeydown = tabKeys;
  }
  $("undo").onclick = () => act("undo");
  $("history-undo").onclick = () => act("undo", {}, $("message"));
  $("redo").onclick = () => act("redo");
  $("advise").onclick = advise;
  $("new-game").onsubmit = newGame;
  $("new-game").oninput = drawSetup;
  $("brightness").onchange = (event) => act("brightness", { level: Number(event.target.value) / 100 });
  $("pin-button").onclick = askPin;
  $("pin-cancel").onclick = () => $("pin-dialog").close();
  $("pin-form").onsubmit = () => signIn($("pin").value);
  $("invite-button").onclick = invite;
  $("invite-close").onclick = () => $("invite-dialog").close();
  // The language switch: the board remembers this phone's choice, and the page reloads in it.
  $("language-choice").onchange = () => $("language").submit();
  $("reveal").checked = phone.get("reveal", true);
  $("reveal").onchange = () => {
    phone.set("reveal", $("reveal").checked);
    drawNow();
  };
  startMoments();
  document.addEventListener("keydown", onKey);
  document.addEventListener("click", doubleTap, true);
  openTab(tab);
  show(first.state);
  follow();
  joinWithLink();
  window.addEventListener("hashchange", joinWithLink); // the link opened in this tab
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
    utterance.lang = lang();
    speechSynthesis.speak(utterance);
  }
}

// The phone's own voice: offered where the browser has one, remembered per phone.
function setUpSpeaking() {
  if (!("speechSynthesis" in window)) return;
  const speak = $("speak");
  speak.checked = phone.get("speak", false);
  speak.addEventListener("change", () => {
    phone.set("speak", speak.checked);
    if (!speak.checked) speechSynthesis.cancel();
  });
  $("speak-choice").hidden = false;
}
document.addEventListener("DOMContentLoaded", setUpSpeaking);
