// Talking to the board: the JSON API, the live stream, the board's latest snapshot and
// this phone's copy of the history. Whatever happens is told to the watchers (the page
// draws from it); nothing here draws.

let state = null; // the board's latest snapshot
let session = { signed_in: false, csrf: "" };
let history = { at: null, lines: [] }; // as of the board tagged ``at``
let reading = null; // the tag whose history is being read page by page
let gained = []; // what the history gained meanwhile
const watchers = new Set();

export const now = () => state;
export const signedIn = () => session.signed_in;
export const historyLines = () => history.lines;

// ``watch((what, detail) => ...)``: "state" (detail: the snapshot before), "dials",
// "frame", "live" (detail: true or false), "history", "session", "answer" and "refused"
// (detail: {action, args, where, said | error, seen}).
export function watch(watcher) {
  watchers.add(watcher);
}

function tell(what, detail) {
  for (const watcher of watchers) watcher(what, detail);
}

export class Refused extends Error {
  constructor(message, status, data) {
    super(message);
    Object.assign(this, { status, data });
  }
}

// Where the board's API and files are: the page names its panel's root ("/" on a board,
// "/table/3/" on a club's hosted table) and every path (written from it: "api/state") is
// resolved against it, so the same page works at either.
export function addressOf(path) {
  const root = new URL(document.documentElement.dataset.root || "/", location.href);
  return new URL(path, root).href;
}

export async function api(path, options = {}) {
  const { headers = {}, ...rest } = options;
  const response = await fetch(addressOf(path), {
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": session.csrf, ...headers },
    ...rest,
  });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Refused(data.error || response.statusText, response.status, data);
  return data;
}

// A new key for each thing a player does (crypto.randomUUID needs HTTPS; this does not).
const newKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");

// A change sent with its Idempotency-Key: sent again with the same key when the answer is
// lost on the way (the board makes it once), never twice because of a double tap.
export async function send(path, body, key = newKey()) {
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

// Make an entry: its answer (or why it was refused) is told to the watchers, for the
// place ``where`` the phone asked from. The entries the board lists as versioned carry
// the game's version this phone saw: a tap on a game that moved on is refused, not
// entered twice.
export async function act(action, args = {}, where = "now") {
  const game = state && state.game;
  const what = `${action} ${JSON.stringify(args)}`;
  const dial = action.startsWith("sim_");
  if (!dial && sending.has(what)) return null;
  const seen = game ? game.version : null;
  const body = game && state.versioned.includes(action) ? { ...args, version: seen } : args;
  sending.add(what);
  try {
    const result = await send(`api/act/${action}`, body);
    if (result.state) show(result.state);
    tell("answer", { action, args, where, said: result.said });
    return result;
  } catch (error) {
    if (error.data && error.data.state) show(error.data.state);
    tell("refused", { action, args, where, error, seen });
    return null;
  } finally {
    sending.delete(what);
  }
}

// Whether snapshot ``next`` is older than ``seen`` or the same: of the same run of the
// board (a restarted board counts its changes from 1 again), at no later change.
export const stale = (next, seen) => Boolean(seen && next.run === seen.run && next.version <= seen.version);

// A snapshot of the board: taken unless this phone has seen it or a later one already (the
// live copy of an answer just drawn is not drawn again: a button about to be tapped stays
// put; a live stream's first message may be older than the board the page came with).
export function show(next) {
  if (stale(next, state)) return;
  const before = state;
  state = next;
  tell("state", before);
}

// The live stream. The board ends each stream after a while and the browser asks again
// at once with the last message's id (the board tells what was missed); refused (the
// board is full, or restarting), the page waits longer each time, at random within it,
// so a room full of phones does not knock at once.
let refusals = 0;

// How long to wait after ``refused`` refusals in a row (ms), ``random`` in [0, 1).
export function backoff(refused, random = Math.random()) {
  const wait = Math.min(60000, 2000 * 2 ** refused);
  return wait / 2 + (random * wait) / 2;
}

export function follow() {
  const source = new EventSource(addressOf("api/events"));
  source.addEventListener("state", (event) => {
    const next = JSON.parse(event.data);
    if (next.game) followHistory(next.game.history);
    show(next);
  });
  source.addEventListener("dials", (event) => {
    const dials = JSON.parse(event.data);
    if (!state || dials.version < state.version) return;
    state.pending = dials.pending;
    tell("dials");
  });
  source.addEventListener("frame", (event) => tell("frame", JSON.parse(event.data)));
  let again = false; // the board said it ends this stream: the browser asks again at once
  source.addEventListener("again", () => {
    again = true;
  });
  source.onopen = () => {
    refusals = 0;
    again = false;
    tell("live", true);
  };
  source.onerror = () => {
    if (again && source.readyState === EventSource.CONNECTING) return; // still live
    tell("live", false); // EventSource reconnects by itself, unless the board turned it away
    if (source.readyState === EventSource.CLOSED) setTimeout(follow, backoff(refusals++));
  };
}

// What the history gained, from a live message: applied to this phone's copy when it is
// the copy the message starts from, else the history is read at the message's tag (the
// messages that come meanwhile are applied after it).
function followHistory(told) {
  if (reading !== null) {
    gained.push(told);
  } else if (told.prev && told.prev === history.at) {
    history = { at: told.at, lines: [...history.lines.slice(0, told.from), ...told.entries] };
    tell("history");
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
      const page = await api(`api/history?${new URLSearchParams({ at, start: lines.length })}`);
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
  tell("history");
}

// --- the PIN ---------------------------------------------------------------------------

export function setSession(next) {
  session = next;
  tell("session");
}

// Sign in with the PIN (the answer of a wrong one is thrown: a Refused).
export async function signIn(pin) {
  setSession(await send("api/login", { pin }));
}

export async function signOut() {
  setSession(await send("api/logout", {}));
}

// A signed-in phone lets another in without the PIN: a link good once, for a minute
// (``{link, qr, seconds}``; a refusal is thrown).
export const invite = () => send("api/invite", {});

// Sign in with such a link's token.
export async function join(token) {
  setSession(await send("api/join", { token }));
}
