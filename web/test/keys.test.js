// The pack and the pad by keys: one tab stop, the arrows within, a key typed jumps.
import assert from "node:assert/strict";
import { test } from "node:test";
import { rankKey, rankTarget, step, suitKey, suitTarget, typeTotal } from "../static/keys.js";

// A suit as the phone draws it: 7 across, two rows (the 14th cell a gap).
const suit = (open = () => true) => [...Array(14).keys()].map((i) => i < 13 && open(i));

test("the arrows move along a row and on to the next, stopping at the ends", () => {
  const cells = suit();
  assert.equal(step(0, "ArrowRight", 7, cells), 1);
  assert.equal(step(6, "ArrowRight", 7, cells), 7);
  assert.equal(step(0, "ArrowLeft", 7, cells), 0);
  assert.equal(step(12, "ArrowRight", 7, cells), 12); // the gap takes no focus
  assert.equal(step(3, "End", 7, cells), 12);
  assert.equal(step(9, "Home", 7, cells), 0);
});

test("up and down keep the column, or take the nearest open card in that row", () => {
  const pack = [...suit(), ...suit(), ...suit(), ...suit()];
  assert.equal(step(2, "ArrowDown", 7, pack), 9);
  assert.equal(step(9, "ArrowDown", 7, pack), 16);
  assert.equal(step(6, "ArrowDown", 7, pack), 13 - 1); // the gap: its neighbour
  assert.equal(step(2, "ArrowUp", 7, pack), 2);
  const laid = [...suit((i) => i !== 9), ...suit()]; // 3 of the second row laid
  assert.equal(step(2, "ArrowDown", 7, laid), 8);
});

test("cards that cannot be laid are passed over", () => {
  const fits = suit((i) => i < 4); // only ace to four fit the count
  assert.equal(step(3, "ArrowRight", 7, fits), 3);
  assert.equal(step(3, "ArrowDown", 7, fits), 3);
  assert.equal(step(0, "End", 7, fits), 3);
});

test("a rank typed names its card; other keys name none", () => {
  assert.deepEqual(["a", "5", "t", "1", "0", "J", "q", "k"].map(rankKey), ["A", "5", "10", "10", "10", "J", "Q", "K"]);
  assert.equal(rankKey("d"), null);
  assert.equal(rankKey("Enter"), null);
});

test("digits typed in a row make a total, when the pad has it", () => {
  const totals = [0, 1, 2, 3, 12, 16, 20, 29];
  assert.deepEqual(typeTotal("", "1", totals), [1, "1"]);
  assert.deepEqual(typeTotal("1", "6", totals), [16, "16"]);
  assert.deepEqual(typeTotal("2", "9", totals), [29, "29"]);
  assert.deepEqual(typeTotal("29", "3", totals), [3, "3"]); // no 293: a new number
  assert.deepEqual(typeTotal("1", "9", totals), [null, "9"]); // no 19 on the pad
});

// The pack as [rank, suit, open], suit by suit.
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const pack = (open = () => true) => ["♣", "♦", "♥", "♠"].flatMap((s) => RANKS.map((r) => [r, s, open(r, s)]));
const at = (cards, name) => cards.findIndex(([r, s]) => `${r}${s}` === name);
const name = (cards, i) => (i < 0 ? null : `${cards[i][0]}${cards[i][1]}`);

test("a rank typed goes to it in the suit in focus, typed again to the next suit that has it", () => {
  const cards = pack();
  assert.equal(name(cards, rankTarget(cards, at(cards, "8♣"), "5")), "5♣");
  assert.equal(name(cards, rankTarget(cards, at(cards, "5♣"), "5")), "5♦");
  assert.equal(name(cards, rankTarget(cards, at(cards, "5♠"), "5")), "5♣"); // round again
  const laid = pack((r, s) => !(r === "K" && (s === "♣" || s === "♦"))); // two kings seen
  assert.equal(name(laid, rankTarget(laid, at(laid, "3♣"), "K")), "K♥");
  assert.equal(rankTarget(pack(() => false), 0, "K"), -1);
});

test("a suit typed keeps the rank, or takes the suit's first open card", () => {
  const cards = pack();
  assert.equal(name(cards, suitTarget(cards, at(cards, "K♣"), "♥")), "K♥");
  const laid = pack((r, s) => !(r === "K" && s === "♠"));
  assert.equal(name(laid, suitTarget(laid, at(laid, "K♣"), "♠")), "A♠");
  assert.deepEqual(["h", "S", "♦", "x"].map(suitKey), ["♥", "♠", "♦", null]);
});
