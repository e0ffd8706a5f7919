// Reading what a view draws without a browser: a lit-html template as the text of its
// markup (its parts filled in), its event handlers kept by the text around them.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setWords } from "../static/words.js";

const isTemplate = (value) => value && typeof value === "object" && "strings" in value && "values" in value;

// The markup of ``value``: strings and their values interleaved (a handler: "[fn]").
export function markup(value) {
  if (value === null || value === undefined || value === false) return "";
  if (Array.isArray(value)) return value.map(markup).join("");
  if (isTemplate(value)) {
    return value.strings.reduce((text, part, i) => {
      if (i >= value.values.length) return text + part;
      const shown = markup(value.values[i]);
      return text + part + (/[\w-]=$/.test(part) ? `"${shown}"` : shown); // attributes in quotes
    }, "");
  }
  if (typeof value === "function") return "[fn]";
  if (typeof value === "symbol") return "";
  return String(value);
}

// Every ``@click`` handler in ``value``, with the markup of the template it is bound in
// (a button drawn on its own is its own template: see tap below).
export function clicks(value, found = []) {
  if (Array.isArray(value)) value.forEach((v) => clicks(v, found));
  else if (isTemplate(value)) {
    value.values.forEach((v, i) => {
      if (typeof v === "function" && /@click=$/.test(value.strings[i])) found.push({ markup: markup(value), run: v });
      else clicks(v, found);
    });
  }
  return found;
}

// Tap the button that says ``label`` (its text or its aria-label): the smallest template
// that does holds it.
export function tap(value, label) {
  const says = (text) => text.includes(`aria-label="${label}"`) || new RegExp(`>\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*</button>`).test(text);
  const found = clicks(value).filter((click) => says(click.markup)).sort((a, b) => a.markup.length - b.markup.length);
  if (!found.length) throw new Error(`no button says ${label}`);
  found[0].run();
}

// The fixtures the suite wrote (tests/test_web_js.py): the page's words in a language,
// and the board's snapshots at each moment of a deal.
const FIXTURES = process.env.PEGBOARD_FIXTURES;
if (!FIXTURES) throw new Error("run by tests/test_web_js.py: PEGBOARD_FIXTURES names the board's snapshots");

export const fixture = (name) => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), "utf8"));

export function words(lang = "en") {
  const page = fixture(`words-${lang}`);
  setWords(page.messages, page.cards, lang);
  return page.messages;
}
