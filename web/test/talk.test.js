// Talking to the board: a page the board turns away knocks again later each time, at
// random within the wait, and never waits more than a minute.
import assert from "node:assert/strict";
import { test } from "node:test";
import { backoff, stale } from "../static/talk.js";

test("each refusal in a row doubles the wait, up to a minute", () => {
  const longest = [0, 1, 2, 3, 4, 5, 6, 10].map((n) => backoff(n, 1));
  assert.deepEqual(longest, [2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000]);
});

test("the wait is drawn at random from its second half: phones refused together spread out", () => {
  assert.equal(backoff(0, 0), 1000);
  assert.equal(backoff(3, 0.5), 12000);
  assert.equal(backoff(10, 0), 30000);
});

test("a snapshot of the same run at no later change is stale; a restarted board's is not", () => {
  const seen = { run: "a1", version: 7 };
  assert.equal(stale({ run: "a1", version: 6 }, seen), true);
  assert.equal(stale({ run: "a1", version: 7 }, seen), true);
  assert.equal(stale({ run: "a1", version: 8 }, seen), false);
  assert.equal(stale({ run: "b2", version: 1 }, seen), false); // the board restarted
  assert.equal(stale({ run: "a1", version: 1 }, null), false); // the first
});
