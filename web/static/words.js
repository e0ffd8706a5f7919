// The page's words: every one comes from the page itself (index.html's #messages and
// #cards blocks, in the phone's language), never from a script. Placeholders in {braces}.

let messages = {};
let pack = []; // the suits: [{symbol, name, red, cards: [[card, its name], ...]}]
let cards = {}; // "5♥" -> "five of hearts", in the page's language
let language = "en";

// Set the words: the page's messages, its pack ({suits}) and language (or a test's).
export function setWords(given, named = { suits: [] }, lang = "en") {
  messages = given;
  pack = named.suits;
  cards = Object.fromEntries(pack.flatMap((suit) => suit.cards));
  language = lang;
}

export const suits = () => pack;

export const lang = () => language;

// A message of the page, its {placeholders} filled in.
export const t = (key, vars = {}) =>
  (messages[key] ?? key).replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));

export const has = (key) => key in messages;

// "Ann, Bob and Cat" (or "2 or 4"), the way the page's language lists things.
export const list = (items, type = "conjunction") =>
  new Intl.ListFormat(language, { type }).format(items.map(String));

// A card in words, as a screen reader says it: "seven of diamonds".
export const cardName = (card) => cards[card] ?? card;

export const isRed = (card) => /[♦♥]/.test(card);
export const rankOf = (card) => card.slice(0, -1);
