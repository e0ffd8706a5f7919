// Keys in a grid of buttons (the pack, the totals pad): one tab stop for the whole grid,
// the arrows move within it, Home and End to its ends, and a key typed jumps to the
// button it names (a rank or a suit in the pack, a total on the pad). Pure: the grid is
// given as its labels and which of them can take the focus.

// Where an arrow leads from ``at`` in a grid ``columns`` wide: the next button that can
// take the focus that way (a row up or down: the same column, or the nearest in that
// row), or ``at`` itself when there is none.
export function step(at, key, columns, focusable) {
  const count = focusable.length;
  const open = (index) => index >= 0 && index < count && focusable[index];
  if (key === "Home" || key === "End") {
    const order = [...Array(count).keys()];
    const found = (key === "Home" ? order : order.reverse()).find(open);
    return found ?? at;
  }
  const along = { ArrowLeft: -1, ArrowRight: 1 }[key];
  if (along) {
    for (let index = at + along; index >= 0 && index < count; index += along) if (open(index)) return index;
    return at;
  }
  const across = { ArrowUp: -1, ArrowDown: 1 }[key];
  if (!across) return at;
  const column = at % columns;
  for (let row = Math.floor(at / columns) + across; row >= 0 && row * columns < count; row += across) {
    const start = row * columns;
    const cells = [...Array(columns).keys()].map((c) => start + c).filter(open);
    if (cells.length) return cells.reduce((best, cell) => (Math.abs((cell % columns) - column) < Math.abs((best % columns) - column) ? cell : best));
  }
  return at;
}

// The rank a key names in the pack: "a", "2".."9", "1", "0" or "t" for the ten, "j", "q", "k".
export function rankKey(key) {
  const rank = key.toUpperCase();
  if (["1", "0", "T"].includes(rank)) return "10";
  return ["A", "J", "Q", "K"].includes(rank) || /^[2-9]$/.test(rank) ? rank : null;
}

// The suit a key names in the pack: its letter ("c", "d", "h", "s") or its sign.
export function suitKey(key) {
  const found = { C: "♣", D: "♦", H: "♥", S: "♠" }[key.toUpperCase()];
  return found ?? (["♣", "♦", "♥", "♠"].includes(key) ? key : null);
}

// Where a rank typed leads in the pack, from the card at ``at``: ``cards`` are [rank, suit,
// open] in the pack's order. That rank in the suit in focus when it can be laid; typed
// again (or not open there), the same rank in the next suit that has it open. -1: none.
export function rankTarget(cards, at, rank) {
  const open = (i) => cards[i][0] === rank && cards[i][2];
  const here = cards.findIndex((c, i) => c[1] === cards[at][1] && open(i));
  if (here >= 0 && cards[at][0] !== rank) return here;
  for (let ahead = 1; ahead <= cards.length; ahead++) {
    const i = (at + ahead) % cards.length;
    if (open(i)) return i;
  }
  return -1;
}

// Where a suit typed leads: the same rank in that suit when it is open, else that suit's
// first open card. -1: none.
export function suitTarget(cards, at, suit) {
  const same = cards.findIndex((c) => c[1] === suit && c[0] === cards[at][0] && c[2]);
  return same >= 0 ? same : cards.findIndex((c) => c[1] === suit && c[2]);
}

// Typing a total on the pad: the digits typed so far (``typed``) and the new one make the
// total to go to, if the pad has it; else the new digit alone. Returns [total, typed].
export function typeTotal(typed, digit, totals) {
  const longer = Number(`${typed}${digit}`);
  if (typed !== "" && totals.includes(longer)) return [longer, `${typed}${digit}`];
  const alone = Number(digit);
  return [totals.includes(alone) ? alone : null, digit];
}

// The rows of a grid of ``count`` buttons ``columns`` wide (for aria and styling).
export const rows = (count, columns) => Math.ceil(count / columns);
