// The page's words: placeholders filled, lists in the language, cards by their names.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cardName, list, setWords, t } from "../static/words.js";
import { words } from "./view.js";

test("a message's placeholders are filled in; an unknown key shows as itself", () => {
  setWords({ to_go: "{n} to go" });
  assert.equal(t("to_go", { n: 7 }), "7 to go");
  assert.equal(t("nothing_here"), "nothing_here");
});

test("lists and card names come in the page's language", () => {
  words("de");
  assert.equal(list(["Ann", "Bob", "Cat"]), "Ann, Bob und Cat");
  assert.equal(list([2, 4], "disjunction"), "2 oder 4");
  assert.equal(cardName("J♥"), "Herz-Bube");
  words("en");
  assert.equal(cardName("7♦"), "seven of diamonds");
});
