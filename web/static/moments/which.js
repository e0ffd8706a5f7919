// Which moment of a deal a game is at, and the claim a Muggins window or a dispute is
// about (the deal and the claim's place): pure, from the board's snapshot.

export function momentOf(game) {
  if (!game) return "none";
  if (game.phase === "over") return "over";
  if (game.phase === "discard") return "starter";
  if (game.phase === "play") return "play";
  return game.count ? "count" : "done";
}

export const claimKey = (game) => `${game.deal}/${game.claims.length}`;
