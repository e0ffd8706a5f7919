// pegboard panel: what is due now, one view per moment of a deal (the starter, the play,
// each count, Muggins and its dispute, the end of the show, the win), each fitting a
// phone's screen under the board: its action, and the answer at the action.
"use strict";

// Muggins windows and disputes this phone let go, and the play's Muggins asked for.
let letGo = visit.get("letGo", []);
let askedMuggins = null;
let padPage = 0; // which thirty totals the pad shows (a hand of five or six can score more)
let scoring = { key: null, result: null }; // what the cards picked score (Muggins off)

function momentOf(game) {
  if (!game) return "none";
  if (game.phase === "over") return "over";
  const key = windowKey(game);
  if (game.dispute && !letGo.includes(`d${key}`)) return "dispute";
  const open = game.muggins_open;
  if (open && (open.kind === "play" ? askedMuggins === key : !letGo.includes(`m${key}`))) return "muggins";
  if (game.phase === "discard") return "starter";
  if (game.phase === "play") return "play";
  return game.count ? "count" : "done";
}

// The claim a Muggins window or dispute is about, by the deal and the claim's place.
const windowKey = (game) => `${picks.deal}/${game.claims.length}`;
const countPicks = (seat, kind) => `count/${seat}/${kind}`;

function drawNow() {
  if (!state || tab !== "tab-now") return;
  const game = state.game;
  const moment = momentOf(game);
  const message = $("message");
  $("moment").after(message); // kept while the moment is drawn again
  if (PICKER.closest("#moment")) hidePicker();
  const view = MOMENTS[moment](game);
  if (game && game.lesson && ["count", "muggins", "done"].includes(moment)) view.body.unshift(lessonOf(game.lesson));
  document.body.dataset.moment = moment;
  $("moment-title").textContent = view.title;
  $("moment-lead").replaceChildren(...[].concat(view.lead || []));
  $("moment").replaceChildren(...view.body.filter(Boolean));
  const slot = $("moment").querySelector(".slot");
  if (slot) slot.replaceWith(message);
  $("undo").hidden = !(session.signed_in && game && game.can_undo);
  if (view.picker && !$("cards-dialog").open) usePicker($("moment").querySelector(".cards-host"), view.picker);

}

function hidePicker() {
  picking = null;
  PICKER.hidden = true;
  document.body.append(PICKER);
}

const slot = () => el("div", { className: "slot" });
const host = () => el("div", { className: "cards-host" });
const hint = (text) => el("p", { className: "hint", textContent: text });
const row = (...children) => el("div", { className: "row" }, ...children);
const pinPrompt = () => el("div", { className: "watch" }, hint(t("watching")),
  el("button", { type: "button", id: "pin-prompt", textContent: t("pin_to_peg"), onclick: askPin }));

function dealLead(game) {
  const dealer = game.seats[game.dealer];
  const side = game.sides[dealer.side].name;
  return game.seats.length === 4
    ? t("deal_lead_team", { deal: game.deal, dealer: dealer.name, side })
    : t("deal_lead", { deal: game.deal, dealer: dealer.name });
}

const MOMENTS = {
  none: () => ({
    title: t("no_game"),
    lead: t(session.signed_in ? "no_game_lead" : "no_game_watching"),
    body: [session.signed_in ? button(t("start_one"), () => openTab("tab-game")) : pinPrompt()],
  }),

  starter: (game) => {
    const view = { title: t("starter_title"), lead: dealLead(game) };
    if (!session.signed_in) return { ...view, body: [pinPrompt(), slot()] };
    return {
      ...view,
      body: [
        row(button(t("not_jack"), () => act("starter", { card: null }), "due"),
          button(t("jack"), () => act("starter", { card: null, heels: true }), "quiet")),
        slot(), host(),
      ],
      picker: { tap: (card) => act("starter", { card }) },
    };
  },

  play: (game) => {
    const play = game.play;
    const mode = play.mode || phone.get("playMode", "cards");
    const turn = play.turn === null ? null : game.seats[play.turn].name;
    const title = mode === "points" ? t("play_title")
      : turn === null ? t("play_count", { count: play.count }) : t("play_turn", { count: play.count, name: turn });
    const view = { title, lead: mode === "points" ? t("play_lead_points") : play.pile.map((card) => cardEl(card)) };
    if (!session.signed_in) return { ...view, body: [pinPrompt(), slot()] };
    const body = [];
    if (play.mode === null) body.push(choice("play-mode", t("play_how"), [["cards", t("by_cards")], ["points", t("by_points")]], mode, (value) => {
      phone.set("playMode", value);
      drawNow();
    }));
    const open = game.muggins_open;
    if (open && open.kind === "play") {
      body.push(row(el("span", { textContent: t("muggins_play", { name: open.name, n: open.claimed }) }),
        button(t("muggins_title"), () => {
          askedMuggins = windowKey(game);
          drawNow();
        }, "quiet")));
    }
    const end = button(t("end_play"), () => act("advance"), "quiet");
    if (mode === "points") return { ...view, body: [...body, slot(), ...chips(game), end] };
    const go = button(t("go", { name: turn ?? "" }), () => act("go", { seat: state.game.play.turn }), "quiet");
    go.disabled = turn === null || !play.pile.length;
    view.lead = [...view.lead, go];
    const fits = new Set(play.fits);
    return {
      ...view,
      body: [...body, slot(), host(), end],
      picker: {
        blocked: (card) => card in game.known || !fits.has(rankOf(card)) || turn === null,
        tap: (card) => act("lay", { seat: state.game.play.turn, card }),
      },
    };
  },

  count: (game) => {
    const count = game.count;
    const name = countPicks(count.seat, count.kind);
    const view = { title: count.name, lead: t("count_lead", { number: count.number, of: count.of }) };
    const cards = [...count.laid, ...picked(name)];
    const known = cards.length === count.size;
    const note = !known ? "" : !game.starter ? t("cards_need_starter")
      : count.laid.length === count.size ? t("count_cards_laid") : t("count_cards_picked");
    const pick = session.signed_in && count.laid.length < count.size
      ? () => pickCards(name, count.size, count.laid, t("cards_for", { name: count.name, size: count.size })) : null;
    const body = [cardsLine(game, cards, count.size, note, pick, picked(name))];
    const show = revealed(game, count, cards);
    if (show) body.push(breakdown(show, false, t("cards_say", { total: show.total })));
    body.push(slot());
    if (!session.signed_in) return { ...view, body: [...body, pinPrompt()] };
    body.push(pad(count.totals, (n) => act("claim", {
      seat: count.seat, kind: count.kind, points: n, cards: known && game.starter ? cards : null,
    }), (n) => t("total_label", { n, name: count.name }), show ? show.total : null), noTotals(count));
    return { ...view, body };
  },

  muggins: (game) => {
    const open = game.muggins_open;
    const claim = game.claims[game.claims.length - 1];
    const key = windowKey(game);
    const view = { title: t("muggins_title"), lead: t("muggins_lead", { name: open.name, claimed: open.claimed }) };
    const body = [];
    const callers = game.seats.map((seat, index) => ({ ...seat, index })).filter((seat) => seat.side !== open.side);
    if (open.verdict !== "unchecked" && open.verdict !== "kept") {
      const verdict = open.verdict === "exact" ? t("exact") : t(open.verdict, { n: Math.abs(claim.difference) });
      body.push(el("p", { className: `verdict ${open.verdict}`, textContent: t("muggins_checked", { total: claim.actual, verdict }) }));
      if (open.missed === null) body.push(hint(t("muggins_none")));
      body.push(slot());
      if (session.signed_in) {
        const calls = row(...(open.missed === null ? [] : callers.map((seat) => button(t("muggins_call", { caller: seat.name, n: open.missed }),
          () => act("muggins", { seat: seat.index, points: open.missed }), "warn due"))));
        calls.classList.add("calls");
        body.push(calls);
      }
    } else if (!open.missable.length) { // claimed the most it can score
      body.push(hint(t("muggins_most", { claimed: open.claimed })), slot());
    } else {
      const name = countPicks(open.seat, open.kind);
      const cards = open.cards ? [] : picked(name);
      body.push(hint(open.verdict === "kept" ? t("muggins_kept") : t("muggins_unchecked")));
      if (open.kind !== "play" && !open.cards && session.signed_in) {
        body.push(cardsLine(game, [...open.laid, ...cards], open.size, !cards.length ? "" : game.starter ? t("muggins_with_cards") : t("cards_need_starter"),
          () => pickCards(name, open.size, open.laid, t("cards_for", { name: open.name, size: open.size })), cards));
      }
      body.push(slot());
      if (session.signed_in) {
        const caller = callers.find((seat) => seat.index === Number(visit.get("caller", -1))) || callers[0];
        if (callers.length > 1) {
          body.push(choice("caller", t("muggins_caller"), callers.map((seat) => [String(seat.index), seat.name]), String(caller.index), (value) => {
            visit.set("caller", Number(value));
            drawNow();
          }));
        }
        const named = [...open.laid, ...cards];
        const full = open.kind !== "play" && !open.cards && named.length === open.size && game.starter ? named : null;
        body.push(pad(open.missable, (n) => act("muggins", { seat: caller.index, points: n, cards: full }),
          (n) => t("muggins_call", { caller: caller.name, n })));
      }
    }
    const skip = button(t("muggins_skip"), () => {
      letGo = [...letGo, `m${key}`];
      askedMuggins = null;
      visit.set("letGo", letGo);
      drawNow();
    }, "quiet");
    if (!session.signed_in) body.push(hint(t("muggins_pin")), pinPrompt());
    const calls = body.find((node) => node.classList && node.classList.contains("calls"));
    if (calls) calls.append(skip);
    else body.push(skip);
    if (claim.show && open.verdict !== "unchecked") body.push(breakdown(claim.show, true));
    return { ...view, body };
  },

  dispute: (game) => {
    const dispute = game.dispute;
    const key = windowKey(game);
    const name = countPicks(dispute.seat, dispute.kind);
    const cards = picked(name);
    const view = { title: t("dispute_title"), lead: t("dispute_lead", { caller: dispute.caller, name: dispute.name, called: dispute.called }) };
    const body = [hint(t("dispute_hint", { name: game.seats[dispute.seat].name }))];
    const all = [...dispute.laid, ...cards];
    const skip = button(t("dispute_skip"), () => {
      letGo = [...letGo, `d${key}`];
      visit.set("letGo", letGo);
      drawNow();
    }, "quiet");
    if (!session.signed_in) return { ...view, body: [...body, slot(), pinPrompt(), skip] };
    body.push(cardsLine(game, all, dispute.size, "",
      () => pickCards(name, dispute.size, dispute.laid, t("cards_for", { name: dispute.name, size: dispute.size })), cards));
    const settle = button(t("dispute_send"), () => act("dispute", { seat: dispute.seat, cards: all }), "due");
    settle.disabled = all.length !== dispute.size || !game.starter;
    body.push(slot(), row(settle, skip));
    return { ...view, body };
  },

  done: (game) => ({
    title: t("done_title"),
    lead: dealLead(game),
    body: [slot(), session.signed_in ? button(t("next_deal"), () => act("advance"), "due") : pinPrompt()],
  }),

  over: (game) => {
    const result = game.result;
    const lead = [t("won_by", { margin: result.margin }), result.skunk ? t(`skunk_${result.skunk}`) : null].filter(Boolean).join(", ");
    const body = [el("ol", { className: "final" }, ...game.sides.map((side, index) =>
      el("li", { className: index === result.winner ? "winner" : "", style: `--side: ${side.colour}` },
        el("span", { textContent: side.name }), el("b", { textContent: side.front }))))];
    const match = game.match;
    if (game.settings.match_games > 1) {
      const standing = game.sides.map((side, index) => `${side.name} ${match.points[index]}`).join(" · ");
      body.push(el("p", { textContent: t("match_standing", { standing, games: game.settings.match_games }) }));
      if (match.winner !== null) body.push(el("p", { className: "verdict", textContent: t("match_won", { name: game.sides[match.winner].name }) }));
    }
    body.push(slot());
    if (!session.signed_in) return { title: t("won_title", { name: result.name }), lead, body: [...body, pinPrompt()] };
    if (result.next === "rematch") body.push(row(button(t("rematch"), () => act("advance"), "due")));
    else if (!result.cut) body.push(row(button(t("next_game"), () => act("next_game"), "due")));
    else body.push(hint(t("cut_hint")), row(button(t("cut_title"), cutForDeal, "due")));
    body.push(button(t("new_game"), () => openTab("tab-game"), "quiet"));
    return { title: t("won_title", { name: result.name }), lead, body };
  },
};

// --- the parts of a moment ---------------------------------------------------------------

// A choice of a few, as big radio buttons; remembered by whoever asks.
function choice(name, label, options, value, onchange) {
  return el("div", { className: "segments", role: "radiogroup", ariaLabel: label },
    ...options.map(([option, text]) => el("label", {},
      el("input", { type: "radio", name, value: option, checked: option === value, onchange: () => onchange(option) }),
      el("span", { textContent: text }))));
}

// The cards of a count: those known, the starter, a word on them, a button to pick the rest
// (and one to name the starter, when it was turned without its card being entered: until
// then the cards cannot be checked, and a count is pegged as claimed).
function cardsLine(game, cards, size, note, onpick, picks = cards) {
  const line = el("div", { className: "cards-line" },
    el("span", { className: "cards" }, ...cards.map((c) => cardEl(c)),
      game.starter ? cardEl(game.starter, "starter") : null,
      note ? el("span", { className: "note", textContent: note }) : null));
  if (session.signed_in && !game.starter) line.append(button(t("name_starter"), nameStarter, "quiet"));
  if (onpick) line.append(button(t(picks.length ? "change_cards" : "pick_cards"), onpick, "quiet"));
  return line;
}

// The starter, named late: its card checks the counts from now on.
function nameStarter() {
  setPicked("starter", []);
  pickCards("starter", 1, [], t("starter_name_title"), () => {
    const [card] = picked("starter");
    if (card) act("name_starter", { card });
  });
}

// Each side's chips in a play pegged by hand: one tap pegs, from 1 to the most one card
// can score (the board says how much that is).
function chips(game) {
  return game.sides.map((side, index) => {
    const seat = game.seats.findIndex((s) => s.side === index);
    const keys = Array.from({ length: game.play.most }, (_, i) => {
      const chip = button(`+${i + 1}`, () => act("claim", { seat, points: i + 1, kind: "play" }), "quiet chip");
      chip.ariaLabel = t("chip_label", { name: side.name, n: i + 1 });
      return chip;
    });
    const block = el("div", { className: "chips" }, el("span", { className: "who", textContent: side.name }), el("div", { className: "keys" }, ...keys));
    block.style.setProperty("--side", side.colour);
    return block;
  });
}

// The totals a count can reach, one tap each; those no hand reaches are shown, disabled.
// None to reach: no pad.
const PAGE = 32; // keys on the pad at once: four rows of eight
function pad(totals, onpick, label, mark = null) {
  if (!totals.length) return null;
  const most = Math.max(...totals);
  const pages = Math.ceil((most + 1) / PAGE);
  padPage = Math.max(0, Math.min(padPage, pages - 1));
  const low = totals[0] === 0 ? 0 : 1;
  const keys = [];
  for (let n = Math.max(low, padPage * PAGE); n <= Math.min(most, padPage * PAGE + PAGE - 1); n++) {
    const key = button(String(n), () => onpick(n), n === mark ? "key true" : "key");
    key.ariaLabel = totals.includes(n) ? label(n) : t("impossible_label", { n });
    key.disabled = !totals.includes(n);
    keys.push(key);
  }
  const box = el("div", { className: "pad keys" }, ...keys);
  if (pages < 2) return box;
  const pageKeys = Array.from({ length: pages }, (_, page) => [String(page), t("more_totals", { from: page * PAGE, to: Math.min(most, page * PAGE + PAGE - 1) })]);
  return el("div", {}, choice("pad-page", t("totals"), pageKeys, String(padPage), (value) => {
    padPage = Number(value);
    drawNow();
  }), box);
}

function noTotals(count) {
  const most = Math.max(...count.totals);
  const missing = Array.from({ length: most }, (_, n) => n).filter((n) => !count.totals.includes(n));
  if (!missing.length) return null;
  const totals = list(missing, "disjunction");
  return hint(count.kind === "crib" ? t("no_total_crib", { totals }) : t("no_total", { size: count.size, totals }));
}

// What a count's cards score, before it is claimed: never with Muggins on (the board
// does not tell then), and on this phone only when it asks to see it.
function revealed(game, count, cards) {
  if (game.settings.muggins || !$("reveal").checked) return null;
  if (count.show) return count.show;
  if (cards.length !== count.size || !game.starter) return null;
  const key = `${cards.join(",")}|${game.starter}|${count.kind}`;
  if (scoring.key === key) return scoring.result;
  scoring = { key, result: null };
  const query = new URLSearchParams({ hand: cards.join(","), starter: game.starter, crib: count.kind === "crib" ? "1" : "0" });
  api(`/api/score?${query}`).then((result) => {
    if (scoring.key === key) {
      scoring.result = result;
      drawNow();
    }
  }).catch((error) => say(error.message, "bad"));
  return null;
}

// What a count missed, told once its Muggins window closed without a call.
function lessonOf(lesson) {
  const said = t("lesson", { name: lesson.name, actual: lesson.actual, missed: lesson.missed });
  return el("div", { className: "lesson" }, hint(said), breakdown(lesson.show, false));
}

// A count's breakdown: the call, the cards, a line per item that lights its cards.
function breakdown(show, open = false, summary = t("breakdown")) {
  const cards = el("div", { className: "cards big", role: "group", ariaLabel: t("show_cards") },
    ...show.hand.map((c) => cardEl(c)), cardEl(show.starter, "starter"));
  const light = (lit) => {
    for (const node of cards.children) {
      node.classList.toggle("lit", lit !== null && lit.includes(node.textContent));
      node.classList.toggle("dim", lit !== null && !lit.includes(node.textContent));
    }
  };
  let pinned = null;
  const lines = el("ul", { className: "breakdown" });
  for (const item of show.items) {
    const line = el("button", { type: "button", ariaPressed: "false" },
      el("span", { className: "kind", textContent: t(`kind_${item.kind}`) }),
      el("span", { className: "cards" }, ...item.cards.map((c) => cardEl(c))),
      el("span", { className: "pts", textContent: `${item.points}` }));
    line.onclick = () => {
      pinned = pinned === item.cards ? null : item.cards;
      for (const other of lines.querySelectorAll("button")) other.ariaPressed = String(other === line && pinned !== null);
      light(pinned);
    };
    lines.append(el("li", {}, line));
  }
  return el("details", { className: "show", open },
    el("summary", { textContent: summary }),
    el("p", { className: "call", textContent: t("call", { call: show.call }) }), cards, lines);
}

// --- picking cards in a sheet ---------------------------------------------------------

let sheet = null; // {name, most, fixed, title, done}

function pickCards(name, most, fixed, title, done = null) {
  sheet = { name, most, fixed, title, done };
  $("cards-title").textContent = title;
  say("", "", $("cards-message"));
  drawSheet();
  $("cards-dialog").showModal();
}

function drawSheet() {
  if (!sheet) return;
  const cards = picked(sheet.name);
  const shown = sheet.name === "cut"
    ? cards.map((card, seat) => el("span", { className: "cut", textContent: t("cut_player", { name: state.game.seats[seat].name, card }) }))
    : [...sheet.fixed, ...cards].map((c) => cardEl(c));
  $("cards-picked").replaceChildren(...(shown.length ? shown : [t("nothing_picked")]));
  const known = (state.game && state.game.known) || {};
  usePicker($("cards-host"), {
    selected: cards, fixed: sheet.fixed, toggles: true,
    blocked: (card) => sheet.name !== "cut" && card in known && !cards.includes(card) && !sheet.fixed.includes(card),
    tap: (card) => {
      if (!toggle(sheet.name, card, sheet.most, sheet.fixed)) return say(t("cards_full", { size: sheet.most }), "bad", $("cards-message"));
      if (sheet.most === 1 && picked(sheet.name).length === 1) return closeSheet(); // one card: its tap is the answer
      drawSheet();
    },
  });
}

function closeSheet() {
  const done = sheet && sheet.done;
  sheet = null;
  $("cards-dialog").close();
  hidePicker();
  drawNow();
  if (done) done();
}

// The third game of three: each player cuts, the lowest deals.
function cutForDeal() {
  setPicked("cut", []);
  const game = state.game;
  pickCards("cut", game.seats.length, [], t("cut_title"), () => {
    const cuts = picked("cut");
    if (cuts.length === state.game.seats.length) act("next_game", { cuts });
  });
}

function startMoments() {
  $("cards-done").onclick = closeSheet;
  $("cards-clear").onclick = () => {
    if (!sheet) return;
    setPicked(sheet.name, []);
    drawSheet();
  };
  $("cards-dialog").addEventListener("close", () => {
    if (sheet) {
      sheet = null;
      hidePicker();
      drawNow();
    }
  });
}
