// The board drawing at the top: the board's own SVG (it comes with the page), lit as the
// LED strips are, numbered every five holes, each front peg tagged with its score (and
// its lap, on a board played round), near the pegs or whole. Where each peg stands comes
// from the board's snapshot (its own geometry): nothing of the board is worked out here.

import { visit } from "./kept.js";
import { addressOf } from "./talk.js";
import { t } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const ZOOM_WIDTH = 110; // mm of board shown around the pegs, at least
const ZOOM_ASPECT = 6.2; // width to height of the view near the pegs
const TAG_PX = 11; // the height of a peg's tag on the screen, whatever the zoom
const TAG_MM = [4.4, 9]; // ... between these, on the board (it must sit between two rows)

let lastFrame = { holes: {} };
let seeAll = visit.get("seeAll", false);
let drawn = null; // the svg numbered already
let lines = null; // the skunk lines the drawing was made with

const board = () => document.getElementById("board");
const drawing = () => board().querySelector("svg");

const make = (element, attrs = {}) => {
  const node = document.createElementNS(SVG, element);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  return node;
};

const spot = (hole) => [Number(hole.getAttribute("cx")), Number(hole.getAttribute("cy"))];

// How far (x, y) is from the nearest hole: the side of a hole with room for a label (of
// ``height``), within the part of the board in view (``top`` to ``bottom``).
function roomer(svg, top = -Infinity, bottom = Infinity) {
  const spots = [...svg.querySelectorAll(".track .hole")].map(spot);
  const room = (x, y) => Math.min(...spots.map(([hx, hy]) => Math.hypot(hx - x, hy - y)));
  return (x, y, gap, height = 0) => {
    const [first, second] = room(x, y - gap) >= room(x, y + gap) ? [y - gap, y + gap] : [y + gap, y - gap];
    const fits = (at) => at - height / 2 >= top && at + height / 2 <= bottom;
    return fits(first) || !fits(second) ? first : second;
  };
}

// Hole numbers every five, beside the first track, on the side with room for them.
function number(svg) {
  svg.setAttribute("aria-hidden", "true"); // the board's button says what it shows
  const side = roomer(svg);
  const group = make("g", { class: "numbers", "aria-hidden": "true" });
  for (const hole of svg.querySelectorAll("#t0 .hole:not(.lap)")) {
    const n = Number(hole.dataset.hole);
    if (n % 5 || n === 0 || n === Number(svg.dataset.game)) continue;
    const [x, y] = spot(hole);
    const text = make("text", { x, y: side(x, y, 6), class: "number" });
    text.textContent = n;
    group.append(text);
  }
  svg.append(group, make("g", { class: "tags", "aria-hidden": "true" }));
}

const holeOf = (svg, track, place) => svg.getElementById(`t${track}h${place.hole}`);

// Each front peg's score beside it, and its lap on a board played round: "75 · lap 2",
// as big on the screen at every zoom.
function tagPegs(svg, state) {
  const group = svg.querySelector(".tags");
  group.replaceChildren();
  const game = state.game;
  if (!game || state.unshown) return;
  const view = svg.viewBox.baseVal;
  const side = roomer(svg, view.y, view.y + view.height);
  const perMm = svg.getBoundingClientRect().width / view.width || 1;
  const size = Math.min(Math.max(TAG_PX / perMm, TAG_MM[0]), TAG_MM[1]);
  game.sides.forEach((peg, track) => {
    const hole = holeOf(svg, track, peg.front_place);
    if (!hole) return;
    const [x, y] = spot(hole);
    const words = state.laps > 1 ? t("peg_lap", { score: peg.front, lap: peg.front_place.lap }) : String(peg.front);
    const label = make("g", { class: `tag side-${track}` });
    const text = make("text", { x, y: side(x, y, size * 0.6 + 2.6, size * 1.2), "font-size": size.toFixed(2) });
    text.textContent = words;
    label.append(text);
    group.append(label);
    const box = text.getBBox();
    label.prepend(make("rect", { x: box.x - 1, y: box.y - 0.4, width: box.width + 2, height: box.height + 0.8, rx: 1.2 }));
  });
}

// The board as the snapshot stands: drawn again when the game's skunk lines change.
export async function drawBoard(state) {
  const now = state.game ? state.game.skunk_lines.join() : "";
  if (lines !== null && lines !== now) {
    const response = await fetch(addressOf("board.svg"));
    board().innerHTML = await response.text();
  }
  lines = now;
  const svg = drawing();
  if (!svg) return;
  if (drawn !== svg) {
    number(svg);
    drawn = svg;
  }
  light(state, lastFrame);
  frame(svg, state);
}

// Near the pegs (a phone held upright), or the whole board (held sideways, or tapped).
export function frame(svg, state) {
  svg.dataset.width ??= svg.viewBox.baseVal.width;
  svg.dataset.height ??= svg.viewBox.baseVal.height;
  const W = Number(svg.dataset.width), H = Number(svg.dataset.height);
  const game = state.game;
  const whole = seeAll || !game || state.unshown || matchMedia("(orientation: landscape)").matches;
  let box = [0, 0, W, H];
  if (!whole) {
    const points = game.sides.flatMap((side, track) => [side.front_place, side.back_place].map((place) => {
      const hole = holeOf(svg, track, place);
      return hole ? spot(hole) : null;
    })).filter(Boolean);
    const xs = points.map(([x]) => x), ys = points.map(([, y]) => y);
    let w = Math.max(ZOOM_WIDTH, Math.max(...xs) - Math.min(...xs) + 34);
    const h = Math.max(w / ZOOM_ASPECT, Math.max(...ys) - Math.min(...ys) + 2 * TAG_MM[1]);
    w = Math.max(w, h * ZOOM_ASPECT);
    if (w < W && h < H) {
      const cx = (Math.max(...xs) + Math.min(...xs)) / 2, cy = (Math.max(...ys) + Math.min(...ys)) / 2;
      box = [Math.min(Math.max(cx - w / 2, 0), W - w), Math.min(Math.max(cy - h / 2, 0), H - h), w, h];
    }
  }
  svg.setAttribute("viewBox", box.map((n) => n.toFixed(1)).join(" "));
  tagPegs(svg, state);
  const zoomed = box[2] < W;
  board().classList.toggle("near", zoomed);
  board().ariaLabel = t(zoomed ? "board_near" : "board_all");
}

export function toggleWhole(state) {
  seeAll = !seeAll;
  visit.set("seeAll", seeAll);
  if (drawing()) frame(drawing(), state);
}

// The drawing lit as the LED strips are (frames come on the live stream). A screen is no
// LED: each colour is shown at full strength, and its size tells what it is: a peg (or
// anything as bright, like a dialled preview), a back peg, a lap mark, a faint mark.
export function light(state, given) {
  lastFrame = given;
  const svg = drawing();
  if (!svg) return;
  for (const hole of svg.querySelectorAll("[data-lit]")) {
    delete hole.dataset.lit;
    hole.style.fill = "";
  }
  const roles = {};
  const game = state && state.game;
  (game && !state.unshown ? game.sides : []).forEach((side, track) => {
    roles[`t${track}h${side.back_place.hole}`] = "back";
    roles[`t${track}h${side.front_place.hole}`] = "peg";
    for (let mark = 2; mark <= side.front_place.lap; mark += 1) roles[`t${track}l${mark}`] = "lap";
  });
  const holes = Object.entries(given.holes || {}).map(([id, colour]) => {
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
