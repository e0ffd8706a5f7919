"""The panel's view of the game: the snapshot every phone draws, in its own language.

Built from what the front door shows (the state, the dials, what the board said);
everything a phone needs to draw is here, worked out once, so the page never works a
rule out for itself (the skunk lines come from the game's own function).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pegboard.i18n import N_, Phrase
from pegboard.keeper import Count, Phase, Scorekeeper, State, skunk_lines
from pegboard.keeper.aloud import last_entry
from pegboard.rules.speech import show_call


def snapshot(
    keeper: Scorekeeper,
    lang: str,
    *,
    sim: bool = False,
    board: tuple[int, State | None] | None = None,
) -> dict[str, Any]:
    """The board as the panel shows it, its words in ``lang``: now, or ``board`` (a
    version of the door and the state it had). The history is only counted here (a
    long game's would weigh more than all the rest): :func:`history` pages it."""
    version, state = board or (keeper.versions()[0], keeper.state)
    layout = keeper.layout
    dials = keeper.dials
    return {
        "version": version,
        "sim": sim,
        "layout": layout.name,
        "tracks": len(layout.tracks),
        "game_id": keeper.game_id,
        "game_hole": layout.game,
        "brightness": keeper.brightness,
        "message": keeper.message.say(lang),
        # What the board says aloud of the last entry: the page's live region, and the
        # phone's own voice when it is on.
        "aloud": [] if state is None else [a.say(lang) for a in last_entry(state, keeper.message)],
        "pending": [value or None for value in dials],
        "game": None if state is None else game_view(state, lang),
    }


def counting(state: State | None) -> bool:
    """True during the show of a deal, when discard advice would help a count."""
    return state is not None and state.phase is Phase.SHOW


def game_view(state: State, lang: str) -> dict[str, Any]:
    """The game for the panel: the counts of this deal only, the history counted (so a
    long game costs no more to show than a short one)."""
    claims = tuple(claim for claim in state.claims if claim.deal == state.deal)
    view = replace(state, claims=claims, history=()).as_dict()
    known = state.known_cards()
    for said, claim in zip(view["claims"], claims, strict=True):
        if said["show"] is not None:
            said["show"]["call"] = show_call(claim.show, lang)
    view.update(
        target=state.target,
        seats=[{"name": name, "side": state.side_of(s)} for s, name in enumerate(state.players)],
        summary=summary(state).say(lang),
        due_name=None if state.due is None else state.count_name(state.due).say(lang),
        used=[str(card) for card in known],
        known={str(card): _whose(count) for card, count in known.items()},
        skunk_lines=list(skunk_lines(state.settings)),
        muggins_open=muggins_open(state, lang),
        history={"count": len(state.history)},
    )
    return view


def history(state: State | None, lang: str, start: int = 0, stop: int | None = None) -> list:
    """History lines ``start`` to ``stop`` of the game, each with why in ``lang``."""
    lines = () if state is None else state.history[start:stop]
    return [{**entry.as_dict(), "why": entry.said.say(lang)} for entry in lines]


def muggins_open(state: State, lang: str) -> dict[str, Any] | None:
    """The count open to Muggins: whose, what was claimed, and the points it missed
    (None when its cards were not given, so the game cannot tell)."""
    if state.window is None or not state.settings.muggins:
        return None
    claim = state.claims[state.window]
    return {
        "side": claim.side,
        "seat": claim.seat,
        "kind": claim.kind,
        "name": state.count_name(Count(claim.seat, claim.kind)).say(lang),
        "claimed": claim.claimed,
        "cards": None if claim.cards is None else [str(card) for card in claim.cards],
        "verdict": claim.verdict,
        "missed": -claim.difference if claim.verdict == "under" else None,
    }


def _whose(count: Count | None) -> dict[str, Any] | None:
    """A seen card's hand or crib; None for the starter."""
    return None if count is None else {"seat": count.seat, "kind": count.kind}


_WON = (
    N_("{winner} won."),
    N_("{winner} won, with a skunk."),
    N_("{winner} won, with a double skunk."),
    N_("{winner} won, with a triple skunk."),
)


def summary(state: State) -> Phrase:
    """One line for the panel: the deal, the dealer, what is due."""
    if state.over:
        return Phrase.of(_WON[state.skunk], winner=state.settings.side_names[state.winner])
    head = {"deal": state.deal, "dealer": state.players[state.dealer]}
    due = state.due
    if due is None:
        message = N_("Deal {deal}, {dealer} deals. The show is done: move on to the next deal.")
        return Phrase.of(message, **head)
    if due.kind == "starter":
        return Phrase.of(N_("Deal {deal}, {dealer} deals. Turn the starter."), **head)
    if due.kind == "play" and due.seat is None:
        message = N_("Deal {deal}, {dealer} deals. The play: count {count}.")
        return Phrase.of(message, **head, count=state.play.count)
    if due.kind == "play":
        message = N_("Deal {deal}, {dealer} deals. The play: count {count}. {name} to play.")
        return Phrase.of(message, **head, count=state.play.count, name=state.players[due.seat])
    message = N_("Deal {deal}, {dealer} deals. Next count: {due}.")
    return Phrase.of(message, **head, due=state.count_name(due))
