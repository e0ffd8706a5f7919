// Which side this phone plays for, once it knows: the side of every seat it pegged for in
// this game (all one side: a phone passed round the table knows none), or of the caller
// it chose for a Muggins call. Kept on the phone (localStorage) for the game.

import { phone } from "./kept.js";

const SEATED = ["claim", "lay", "go", "muggins", "challenge"]; // the entries made for a seat

const gameOf = (state) => (state && state.game ? String(state.game_id) : null);

// This phone made ``action`` with ``args`` on the board ``state``.
export function noteEntry(state, action, args = {}) {
  if (!SEATED.includes(action) || !Number.isInteger(args.seat)) return;
  const seat = state.game.seats[args.seat];
  if (seat) sitAt(state, seat.side);
}

// This phone plays for ``side`` (a choice made on it, or an entry for that side).
export function sitAt(state, side) {
  const game = gameOf(state);
  const kept = phone.get("seat", null);
  const known = kept && kept.game === game ? kept.side : undefined;
  phone.set("seat", { game, side: known === undefined || known === side ? side : "shared" });
}

// The side this phone plays for in ``state``'s game, or null when it does not know.
export function mySide(state) {
  const kept = phone.get("seat", null);
  return kept && kept.game === gameOf(state) && Number.isInteger(kept.side) ? kept.side : null;
}
