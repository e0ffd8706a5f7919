// The Match tab: the games of the match, the score race, this game's averages.

import { html, render, svg } from "./vendor/lit-html.js";
import { api, historyLines, now } from "./talk.js";
import { lang, t } from "./words.js";

let statistics = { version: null, players: [] };

async function readStatistics(version) {
  if (statistics.version === version) return;
  statistics = { version, players: statistics.players };
  const { players } = await api("api/statistics");
  statistics = { version, players };
  drawMatch();
}

// Each side's score after every peg of this game.
function race(game) {
  const width = 320, height = 170, left = 30, right = 8, top = 10, bottom = 16;
  const lines = historyLines();
  const steps = Math.max(1, lines.length);
  const x = (i) => left + (i / steps) * (width - left - right);
  const y = (score) => height - bottom - (Math.min(score, game.target) / game.target) * (height - top - bottom);
  const marks = [0, ...game.skunk_lines, game.target].map((line) => svg`
    <line x1=${left} x2=${width - right} y1=${y(line)} y2=${y(line)} class=${line && line !== game.target ? "skunk" : "edge"}></line>
    <text x=${left - 3} y=${y(line) + 3} text-anchor="end">${line}</text>`);
  const paths = game.sides.map((side, index) => {
    let score = 0;
    const points = [[x(0), y(0)], ...lines.map((entry, i) => {
      if (entry.side === index) score = entry.score;
      return [x(i + 1), y(score)];
    })];
    const [lastX, lastY] = points[points.length - 1];
    return svg`<polyline class="side-${index}" points=${points.map((p) => p.join(",")).join(" ")}></polyline>
      <circle class="side-${index}" cx=${lastX} cy=${lastY} r="3.5"></circle>`;
  });
  return html`<svg viewBox="0 0 ${width} ${height}" role="img" aria-label=${t("race_label")}>${marks}${paths}</svg>`;
}

export function drawMatch() {
  const game = now().game;
  const games = game ? game.settings.match_games : 1;
  const number = (value) => (value === null ? "–" : value.toLocaleString(lang(), { maximumFractionDigits: 1 }));
  const rows = [["stat_hand", "hand_average"], ["stat_crib", "crib_average"], ["stat_play", "play_average"],
    ["stat_missed", "missed_points"], ["stat_muggins", "muggins_won"]];
  const table = game ? html`<table class="match">
      <tr><th>${t("match_game")}</th>${game.sides.map((side) => html`<th>${side.name}</th>`)}</tr>
      ${game.match.games.map((result) => html`<tr><td>${result.number}</td>${result.scores.map((score, index) => html`
        <td>${score}${index === result.winner ? ` ★${result.points}` : ""}</td>`)}</tr>`)}
      <tr><th>${t("match_points")}</th>${game.match.points.map((points) => html`<th>${points}</th>`)}</tr></table>` : "";
  const players = statistics.players;
  render(html`<h2>${t("match")}</h2>
    <p id="match-caption" class="hint">${games > 1 ? t("match_caption", { games, needed: game.match.needed }) : t("match_single")}</p>
    ${table}<h3>${t("score_race")}</h3><div class="race">${game ? race(game) : ""}</div>
    <h3>${t("this_game")}</h3><table class="match">
      <tr><td></td>${players.map((player) => html`<th scope="col">${player.name}</th>`)}</tr>
      ${rows.map(([label, field]) => html`<tr><th scope="row">${t(label)}</th>${players.map((player) => html`<td>${number(player[field])}</td>`)}</tr>`)}
    </table>`, document.getElementById("match-view"));
  readStatistics(now().version);
}
