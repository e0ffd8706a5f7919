"""The panel's view of the game: the snapshot every phone draws, in its own language.

Built from what the front door shows (the state, the dials, what the board said);
everything a phone needs to draw is here, worked out once, so the page never works a
rule out for itself (the skunk lines come from the game's own function).
"""

from __future__ import annotations

import secrets
import weakref
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pegboard.board.geometry import Layout
from pegboard.errors import RuleError
from pegboard.i18n import Phrase, phrase_of
from pegboard.keeper import (
    Change,
    Claim,
    Count,
    Phase,
    Scorekeeper,
    State,
    players_allowed,
    skunk_lines,
    standing,
)
from pegboard.keeper.aloud import last_entry
from pegboard.keeper.fit import check_board
from pegboard.keeper.games import Listed
from pegboard.keeper.photo import BoardPhoto
from pegboard.keeper.sayable import CardName
from pegboard.panel.actions import versioned
from pegboard.rules.cards import RANK_NAMES, Card, Suit
from pegboard.rules.play import can_lay, max_play_points
from pegboard.rules.scoring import possible_totals, score_show
from pegboard.rules.speech import show_call

CLUBS = Suit.CLUBS  # any suit: only the rank counts in the play
# Each door's run: its change counter starts again with a restarted board, so a phone
# compares the versions of two snapshots of the same run only.
_RUNS: weakref.WeakKeyDictionary[Scorekeeper, str] = weakref.WeakKeyDictionary()


def run_of(keeper: Scorekeeper) -> str:
    """The run of ``keeper``: the same for every snapshot of it, another for the next."""
    return _RUNS.setdefault(keeper, secrets.token_hex(4))


def snapshot(
    keeper: Scorekeeper,
    lang: str,
    *,
    sim: bool = False,
    camera: bool = False,
    now: Change | None = None,
) -> dict[str, Any]:
    """The board as the panel shows it, its words in ``lang``: the door's snapshot after
    the change ``now`` (by default the last one, :attr:`Scorekeeper.now`), read from it
    alone; ``camera``: the board has a camera of its own. The history is only counted
    here (a long game's would weigh more than all the rest): :func:`history` pages it."""
    now = now or keeper.now
    state, layout = now.state, keeper.layout
    return {
        # The door's run and its change counter: a phone drops a snapshot older than the
        # one it drew (a live stream's first message may be).
        "run": run_of(keeper),
        "version": now.version,
        "sim": sim,
        "camera": camera,
        "layout": layout.name,
        "tracks": len(layout.tracks),
        "players_allowed": list(players_allowed(layout)),
        "capacity": layout.capacity,
        "game_id": now.game_id,
        "game_hole": layout.game,
        "laps": layout.laps,  # more than 1: the board is played round, each peg on a lap
        "brightness": now.brightness,
        "versioned": versioned(),  # the actions sent with the game's version the phone saw
        "message": now.message.say(lang),
        # What the board says aloud of the last entry (the page's live region, and the
        # phone's own voice when it is on), and what of it shows at the action.
        "aloud": [] if state is None else _aloud(state, now.message, lang),
        "pending": [value or None for value in now.dials],
        "game": None if state is None else game_view(state, lang, layout),
        "unshown": None if state is None else unshown(layout, state, lang),
        "board_photo": None if now.photo is None else board_photo(now.photo, lang),
    }


def board_photo(photo: BoardPhoto, lang: str) -> dict[str, Any]:
    """What the board's camera read of the count due (the advance button held), for the
    phones whose pad for it is open: its cards as ``POST /api/cards`` answers them, and
    ``shown`` when all were read sure; or the ``error`` in one line. Never what they
    score. ``number`` tells one photo from the next."""
    out: dict[str, Any] = {
        "number": photo.number,
        "seat": photo.count.seat,
        "kind": str(photo.count.kind),
        "cards": [seen.as_json() for seen in photo.cards],
    }
    if photo.shown is not None:
        out["shown"] = [str(card) for card in photo.shown]
    if photo.error is not None:
        out["error"] = photo.error.say(lang)
    return out


def chain(keeper: Scorekeeper) -> dict[str, Any] | None:
    """The game being played as stored: its entries, its head (the chain value after the
    last) and whether it is over. A club that follows the board keeps each head it is told
    as play goes on, so a log edited later, even chained again, no longer matches what it
    saw. A head is a digest: it tells nothing of the entries."""
    found = keeper.games(only=keeper.game_id) if keeper.game_id is not None else []
    if not found:
        return None
    game = found[0]
    return {
        "game": game.id,
        "versions": game.versions,
        "head": game.head.hex(),
        "over": game.summary.over,
    }


def _aloud(state: State, said: Phrase, lang: str) -> list[dict[str, str | None]]:
    # (its kind too: a phone shows a lesson in a row of its own, not again at the action)
    return [
        {"said": a.say(lang), "shown": a.shown(lang), "event": a.event}
        for a in last_entry(state, said)
    ]


def unshown(layout: Layout, state: State, lang: str) -> str | None:
    """Why this board cannot show the game being played (one left on a board restarted
    with another layout), or None when it can."""
    try:
        check_board(layout, state.settings)
    except RuleError as error:
        return phrase_of(error).say(lang)
    return None


def counting(state: State | None) -> bool:
    """True during the show of a deal, when discard advice would help a count."""
    return state is not None and state.phase is Phase.SHOW


def secret(state: State | None) -> bool:
    """True while nothing on the board may score a hand for anyone: with Muggins on,
    from the starter until the show ends (a count's true total is told once it is
    claimed and its window has closed, never before)."""
    return state is not None and state.settings.muggins and state.phase in (Phase.PLAY, Phase.SHOW)


def listed_game(listed: Listed, lang: str) -> dict[str, Any]:
    """A stored game for the panel's list (:meth:`Scorekeeper.games`): who, how they
    stand, open or finished."""
    return {
        "id": listed.id,
        "created": listed.created,
        "updated": listed.updated,
        "current": listed.current,
        "finished": listed.finished,
        "summary": listed.summary.standing.say(lang),
        "sides": [
            {"name": name, "score": score, "colour": colour}
            for name, score, colour in zip(
                listed.summary.sides, listed.summary.scores, listed.summary.colours, strict=True
            )
        ],
        "game": listed.summary.game,
        "deal": listed.summary.deal,
        "over": listed.summary.over,
        "set_aside": None if listed.set_aside is None else listed.set_aside.say(lang),
    }


def game_view(state: State, lang: str, layout: Layout) -> dict[str, Any]:
    """The game for the panel: the counts of this deal only, the history counted (so a
    long game costs no more to show than a short one), and what is due now worked out
    for the page (the count and what it can total, the cards that fit the play, the
    hole and lap of each peg on this board, the rule a wrong count missed)."""
    claims = tuple(claim for claim in state.claims if claim.deal == state.deal)
    view = replace(state, claims=claims, history=()).as_dict()
    known = state.known_cards()
    for said, claim in zip(view["claims"], claims, strict=True):
        if (show := claim.show) is not None:
            said["show"]["call"] = show_call(show, lang)
        said["rule"] = _rule(claim, lang)
    for side in view["sides"]:
        side["to_go"] = max(0, state.target - side["front"])
        for peg in ("front", "back"):
            place = layout.place(side[peg], state.target)
            side[f"{peg}_place"] = {"hole": place.hole, "lap": place.lap}
    view["play"] |= {"most": max_play_points(), "fits": _fits(state)}
    view.update(
        target=state.target,
        seats=[{"name": name, "side": state.side_of(s)} for s, name in enumerate(state.players)],
        summary=standing(state).say(lang),
        due_name=None if state.due is None else state.count_name(state.due).say(lang),
        used=[str(card) for card in known],
        known={str(card): _whose(count) for card, count in known.items()},
        skunk_lines=list(skunk_lines(state.settings)),
        lead=_lead(state),
        count=count_due(state, lang),
        muggins_open=muggins_open(state, lang),
        lesson=lesson(state, lang),
        dispute=dispute(state, lang),
        challenge=challenge(state, lang),
        result=result(state),
        history={"count": len(state.history)},
    )
    return view


def count_due(state: State, lang: str) -> dict[str, Any] | None:
    """The hand or crib to count now: whose, its size, the cards the play showed of it,
    every total it can score; and, with Muggins off and all its cards known, what they
    score. With Muggins on no phone is told a count before it is claimed: the players
    count their own hands, and the others may call Muggins on what they missed."""
    due = state.due
    if state.phase is not Phase.SHOW or due is None:
        return None
    count = _count(state, due, lang)
    laid, crib = _laid(state, due), due.kind == "crib"
    show = None
    if not state.settings.muggins and len(laid) == count["size"] and state.starter is not None:
        scored = score_show(laid, state.starter, crib=crib)
        show = {**scored.as_dict(), "call": show_call(scored, lang)}
    return count | {
        "number": state.shown + 1,
        "of": len(state.order),
        "totals": sorted(possible_totals(count["size"], crib)),
        "show": show,
    }


def _count(state: State, count: Count, lang: str) -> dict[str, Any]:
    """Whose hand or crib ``count`` is, how many cards it has, those the play showed."""
    laid = _laid(state, count)
    return {
        "seat": count.seat,
        "kind": count.kind,
        "name": state.count_name(count).say(lang),
        "size": state.size_of(count.kind),
        "laid": [str(card) for card in laid],
    }


def _laid(state: State, count: Count) -> tuple[Card, ...]:
    """The cards of a hand that the play showed (a crib's: none)."""
    if count.kind != "hand" or count.seat is None:
        return ()
    return state.play.cards_of(count.seat)


def history(
    state: State | None, lang: str, start: int = 0, stop: int | None = None
) -> list[dict[str, Any]]:
    """History lines ``start`` to ``stop`` of the game, each with why in ``lang``."""
    lines = () if state is None else state.history[start:stop]
    return [{**entry.as_dict(), "why": _spoken_cards(entry.said).say(lang)} for entry in lines]


def _spoken_cards(said: Phrase) -> Phrase:
    """``said`` with its cards in words ("five of clubs: fifteen for two"), as a screen
    reader should hear them, and the phrases in it likewise."""
    params = []
    for name, value in said.params:
        if isinstance(value, Phrase):
            value = _spoken_cards(value)
        elif name == "card" and isinstance(value, str):
            value = CardName.of(value)
        params.append((name, value))
    return Phrase(said.message, tuple(params))


def muggins_open(state: State, lang: str) -> dict[str, Any] | None:
    """The count open to Muggins: whose, what was claimed, the points it missed (None
    when its cards were not given, so the game cannot tell), what a call may name
    without the cards (the points that make it a total some hand can score), and the
    cards a caller may name (how many; those the play showed)."""
    if state.window is None or not state.settings.muggins:
        return None
    claim = state.claims[state.window]
    count = _count(state, Count(claim.seat, claim.kind), lang)
    missable: Sequence[int]
    if claim.kind == "play":
        missable = range(1, max_play_points() - claim.claimed + 1)
    else:
        totals = possible_totals(count["size"], claim.kind == "crib")
        missable = sorted(total - claim.claimed for total in totals if total > claim.claimed)
    return count | {
        "side": claim.side,
        "claimed": claim.claimed,
        "cards": None if claim.cards is None else [str(card) for card in claim.cards],
        "verdict": claim.verdict,
        "missed": -claim.difference if claim.verdict == "under" else None,
        "missable": list(missable),
    }


def lesson(state: State, lang: str) -> dict[str, Any] | None:
    """With Muggins on, what the last count of this deal whose window closed without a
    call held, when it was short or over (and stood): whose, what was claimed, what its
    cards held and how they score, the points missed or over (``state`` is as the table
    may know it: a kept verdict is no lesson)."""
    if not state.settings.muggins:
        return None
    for claim in reversed(state.claims):
        if claim.deal != state.deal:
            return None
        if claim.verdict in ("under", "over") and claim.muggins is None:
            show = claim.show
            assert show is not None  # a count held short or over: its cards were given
            return _count(state, Count(claim.seat, claim.kind), lang) | {
                "claimed": claim.claimed,
                "actual": claim.actual,
                "missed": max(0, -claim.difference),
                "over": max(0, claim.difference),
                "show": {**show.as_dict(), "call": show_call(show, lang)},
                "rule": _rule(claim, lang),
            }
    return None


def _rule(claim: Claim, lang: str) -> str | None:
    """The rule a count told as wrong most likely missed (:attr:`Claim.rule`), in ``lang``."""
    rule = claim.rule
    return None if rule is None else rule.say(lang)


def dispute(state: State, lang: str) -> dict[str, Any] | None:
    """A Muggins call made without the cards, which the mugged side may dispute by
    showing them: on whose count, by whom, for how much."""
    if state.disputable is None:
        return None
    claim = state.claims[state.disputable]
    call = claim.muggins
    assert call is not None  # a count mugged without its cards
    return _count(state, Count(claim.seat, claim.kind), lang) | {
        "side": claim.side,
        "caller": state.players[call.seat],
        "called": call.called,
    }


def challenge(state: State, lang: str) -> dict[str, Any] | None:
    """The count a call with the cards may show over now (:attr:`State.challengeable`:
    with Muggins on, the hand or crib just claimed; Muggins or not, a claim of game made
    without its cards): whose, what was claimed, its cards when they are known (else the
    caller names them: how many, those the play showed), whether the starter is known,
    and who may call (the other sides' seats)."""
    index = state.challengeable
    if index is None:
        return None
    claim = state.claims[index]
    return _count(state, Count(claim.seat, claim.kind), lang) | {
        "side": claim.side,
        "claimed": claim.claimed,
        "cards": None if claim.cards is None else [str(card) for card in claim.cards],
        "starter": state.starter is not None,
        "callers": [
            seat for seat in range(len(state.players)) if state.side_of(seat) != claim.side
        ],
    }


def result(state: State) -> dict[str, Any] | None:
    """The game won: by whom, by how much, how deep the skunk; what comes next (the next
    game of the match, cut for when that is the custom, or a rematch)."""
    if not state.over:
        return None
    game = state.results[-1]
    return {
        "winner": game.winner,
        "name": state.settings.side_names[game.winner],
        "margin": game.margin,
        "skunk": game.skunk,
        "next": "next_game" if state.match.winner is None else "rematch",
        "cut": state.cut_customary,
    }


def _lead(state: State) -> dict[str, int] | None:
    """The side ahead and by how much (None when level)."""
    ranked = sorted(range(state.sides), key=lambda side: -state.scores[side])
    ahead = state.scores[ranked[0]] - state.scores[ranked[1]]
    return {"side": ranked[0], "by": ahead} if ahead else None


def _fits(state: State) -> list[str]:
    """The ranks that can be laid on the count of the play (no card takes it past 31)."""
    pile = state.play.pile
    return [name for rank, name in enumerate(RANK_NAMES, 1) if can_lay(pile, Card(rank, CLUBS))]


def _whose(count: Count | None) -> dict[str, Any] | None:
    """A seen card's hand or crib; None for the starter."""
    return None if count is None else {"seat": count.seat, "kind": count.kind}
