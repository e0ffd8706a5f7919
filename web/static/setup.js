// The Game tab: a new game (the form offers only what this board can show), the games
// kept and taking one up again, this phone's choices, the board's brightness.

import { html, render } from "./vendor/lit-html.js";
import { answer, say } from "./answer.js";
import { focusDue } from "./now.js";
import { openTab } from "./tabs.js";
import { act, api, now, signedIn } from "./talk.js";
import { lang, list, t } from "./words.js";

const $ = (id) => document.getElementById(id);
const form = () => $("new-game");
const rows = () => [...form().querySelectorAll(".player")];
const shownRows = () => rows().filter((row) => !row.hidden);
// A name field left empty is the seat's own name ("Player 1"), its placeholder.
const names = () => shownRows().map((row) => {
  const input = row.querySelector("input[name=player]");
  return input.value.trim() || input.placeholder;
});

// The form offers what this board can show: the numbers of players its tracks take (four
// play as two teams), the variants its holes reach; the first dealer by name.
export function drawSetup() {
  const state = now();
  const allowed = state ? state.players_allowed : [2, 3, 4];
  const radios = [...form().querySelectorAll("input[name=players]")];
  for (const input of radios) input.disabled = !allowed.includes(Number(input.value));
  let count = Number(form().querySelector("input[name=players]:checked").value);
  if (!allowed.includes(count)) {
    count = allowed[0];
    radios.find((input) => Number(input.value) === count).checked = true;
  }
  const hint = state ? t("players_board", { layout: state.layout, tracks: state.tracks, allowed: list(allowed, "disjunction") }) : "";
  $("players-hint").textContent = count === 4 ? `${hint} ${t("players_teams")}` : hint;
  rows().forEach((row, seat) => {
    row.hidden = seat >= count;
    row.classList.toggle("shared", count === 4 && seat >= 2);
  });
  for (const option of form().variant.options) option.disabled = !option.dataset.players.split(" ").includes(String(count));
  if (form().variant.selectedOptions[0].disabled) form().variant.value = "standard";
  const seated = names();
  [...form().dealer.options].slice(1).forEach((option, seat) => {
    option.textContent = seated[seat] ?? t("seat_default", { n: seat + 1 });
    option.hidden = seat >= count;
  });
  if (form().dealer.selectedOptions[0].hidden) form().dealer.value = "cut";
}

let filled = false;

// The form starts as the game on the board was set up.
function fillSetup(game) {
  drawSetup();
  if (filled || !game) return;
  filled = true;
  const rules = game.settings;
  form().querySelector(`input[name=players][value="${rules.players.length}"]`).checked = true;
  form().querySelectorAll("input[name=player]").forEach((input, seat) => {
    const name = rules.players[seat];
    input.value = name && name !== input.placeholder ? name : "";
  });
  const colours = form().querySelectorAll("input[name=colour]");
  rules.colours.forEach((colour, side) => { colours[side].value = colour.toLowerCase(); });
  for (const name of ["variant", "over_count", "skunk", "match_scoring"]) form()[name].value = rules[name];
  form().match_games.value = String(rules.match_games);
  form().muggins.checked = rules.muggins;
  form().lessons.checked = rules.lessons;
  form().first_go_ends.checked = rules.first_go_ends;
  drawSetup();
}

// New game: asked first when a game is on (it is kept, and can be taken up again), and
// offered back right after.
function newGame(event) {
  event.preventDefault();
  const target = form().target.value.trim() || "0";
  if (!/^\d{1,3}$/.test(target)) return say("form", t("target_whole", { most: 999 }), "bad");
  const seated = names();
  const sides = seated.length === 4 ? 2 : seated.length;
  const colours = [...form().querySelectorAll("input[name=colour]")].slice(0, sides).map((input) => input.value.toUpperCase());
  const dealer = form().dealer.value;
  const args = {
    players: seated, colours, variant: form().variant.value, target: Number(target),
    muggins: form().muggins.checked, lessons: form().lessons.checked, first_go_ends: form().first_go_ends.checked,
    over_count: form().over_count.value, skunk: form().skunk.value,
    match_games: Number(form().match_games.value), match_scoring: form().match_scoring.value,
    dealer: dealer === "cut" ? null : Number(dealer),
  };
  const state = now();
  const game = state && state.game;
  if (!game || game.over) return startGame(args, null);
  const scores = game.sides.map((side) => `${side.name} ${side.front}`).join(" · ");
  return confirmFirst(t("confirm_new", { names: list(game.sides.map((side) => side.name)), scores }),
    t("keep_playing"), t("confirm_start"), () => startGame(args, state.game_id));
}

async function startGame(args, before) {
  const result = await act("new_game", args, "form");
  if (!result) return;
  openTab("tab-now", false);
  focusDue(); // the starter's pack
  const back = before === null ? "" : html` <button type="button" class="quiet" @click=${() => act("resume", { game: before })}>${t("take_back")}</button>`;
  say("now", html`${result.said}${back}`);
}

function confirmFirst(text, cancel, ok, then) {
  const dialog = $("confirm-dialog");
  render(html`<p id="confirm-text">${text}</p><menu>
    <button id="confirm-cancel" type="button" class="quiet" @click=${() => dialog.close()}>${cancel}</button>
    <button id="confirm-ok" type="button" @click=${() => { dialog.close(); then(); }}>${ok}</button></menu>`, dialog);
  dialog.showModal();
}

// --- the games kept ------------------------------------------------------------------------

export async function readGames() {
  try {
    const { games } = await api("api/games");
    drawGames(games);
  } catch (error) {
    say("form", error.message, "bad");
  }
}

function drawGames(games) {
  const when = (created) => new Date(`${created.replace(" ", "T")}Z`).toLocaleString(lang(), { dateStyle: "medium", timeStyle: "short" });
  const resume = async (id) => {
    if (!(await act("resume", { game: id }, "form"))) return;
    openTab("tab-now");
    focusDue();
  };
  const item = (game) => html`<li class=${game.finished ? "finished" : ""}>
    <span class="scores">${game.sides.map((side) => html`<span class="side"><svg class="swatch" viewBox="0 0 10 10" aria-hidden="true"><circle cx="5" cy="5" r="5" fill=${side.colour}></circle></svg>${side.name} ${side.score}</span>`)}</span>
    <span class="summary">${game.summary}</span><span class="hint">${t("started", { when: when(game.created) })}</span>
    ${game.set_aside ? html`<span class="set-aside" role="note">${game.set_aside}</span>` : ""}
    ${game.current ? html`<strong class="now">${t("playing_now")}</strong>`
      : !game.finished && !game.set_aside && signedIn() ? html`<button type="button" class="quiet" @click=${() => resume(game.id)}>${t("resume")}</button>` : ""}</li>`;
  render(html`${games.map(item)}${games.every((game) => game.current) ? html`<li class="hint">${t("games_empty")}</li>` : ""}`, $("games"));
}

let started = false;

// The Game tab drawn: the form (its listeners set once), the answer at it.
export function drawGame(game) {
  if (!started) {
    started = true;
    form().addEventListener("submit", newGame);
    form().addEventListener("input", drawSetup);
  }
  fillSetup(game);
  render(answer("form", "form-message"), $("form-answer"));
}
