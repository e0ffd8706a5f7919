// The page's one live region: each entry's sentences once (what the board says of it, in
// this phone's language: the card laid, the count, whose turn, each claim), a refusal, the
// link lost and found. A screen reader reads it whichever tab is open; this phone's own
// voice (the Web Speech API) says the entries too, when asked.

import { phone } from "./kept.js";
import { lang } from "./words.js";

const KEPT = 20; // sentences kept in the region
let heard = undefined; // the entry last announced (undefined: none seen yet on this page)

const log = () => document.getElementById("aloud");

// Sentences into the region (and ``spoken`` ones to the phone's voice).
export function announce(texts, spoken = false) {
  const region = log();
  for (const text of texts) {
    const line = document.createElement("p");
    line.textContent = text;
    region.append(line);
  }
  while (region.childElementCount > KEPT) region.firstElementChild.remove();
  if (!spoken || !texts.length || !voiced()) return;
  speechSynthesis.cancel(); // the play has moved on: nothing older is worth hearing
  for (const text of texts) {
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = lang();
    speechSynthesis.speak(utterance);
  }
}

// A new entry's sentences, once: ``entry`` names it (what was said before the page
// opened is not news).
export function announceEntry(entry, sentences) {
  const first = heard === undefined;
  if (entry === heard) return;
  heard = entry;
  if (!first) announce(sentences, true);
}

const speak = () => document.getElementById("speak");
const voiced = () => "speechSynthesis" in window && speak().checked;

// The phone's own voice: offered where the browser has one, remembered per phone.
export function startVoice() {
  if (!("speechSynthesis" in window)) return;
  speak().checked = phone.get("speak", false);
  speak().addEventListener("change", () => {
    phone.set("speak", speak().checked);
    if (!speak().checked) speechSynthesis.cancel();
  });
  document.getElementById("speak-choice").hidden = false;
}
