"""What the card tests share: id lookups, a position where a side is to choose a die, and
playing a card through the die, the action and the card decisions."""

from __future__ import annotations

from typing import Any

from wotr_env.data import NATIONS, load_ruleset
from wotr_env.engine import build, play
from wotr_env.engine.decision import EVENT, WD

RS = load_ruleset("2e")
CARDS, BOARD = RS.cards, RS.board


def r(rid: str) -> int:
    return BOARD.region(rid)


def n(nid: str) -> int:
    return NATIONS.index(nid)


def card(cid: str) -> int:
    return CARDS.card(cid)


def char(cid: str) -> int:
    return CARDS.character(cid)


def position(side: str, hand: list[str], dice: list[str] | None = None, **spec: object):
    """Phase 5 with ``side`` to choose a die (default one Event die); the other side holds two
    Event dice so that the turn goes on; no Elven Ring; the game stops after turn 1."""
    other = "shadow" if side == "free_peoples" else "free_peoples"
    hands = {side: hand, **spec.pop("hands", {})}  # type: ignore[dict-item]
    base = {"hands": hands, "dice": {side: dice or ["event"], other: ["event", "event"]},
            "to_act": side, "rings": ["gone"] * 3, "max_turns": 1}
    state = build({**base, **spec})
    assert state.pending.kind in (WD.CHOOSE_DIE, WD.DIE_ACTION)
    return state


def die(state, face: int) -> None:
    """Choose a die of ``face`` (played without asking when every die shows it)."""
    if state.pending.kind == WD.CHOOSE_DIE:
        play(state, ("die", face))


def play_card(state, cid: str, face: int = EVENT) -> None:
    """Choose the die, play-event and the card where each is asked; decline the Guide's draw."""
    die(state, face)
    if state.pending.kind == WD.DIE_ACTION:
        play(state, ("action", "play-event"))
    if state.pending.kind == WD.PLAY_EVENT:
        play(state, ("card", card(cid)))
    if state.pending is not None and state.pending.kind == WD.EXTRA_DRAW:
        play(state, ("choice", "no"))


def events(state, name: str) -> list[tuple]:
    return [e for e in state.log if e[1] == name]


def answer_private(state: Any) -> None:
    """Play the private questions that have one option left (the engine asks them anyway, so
    that how often a side is asked tells nothing of its hand: boardkit Decision.private)."""
    from wotr_env.engine import play as _play

    while (d := state.pending) is not None and d.private and len(d.options) == 1:
        _play(state, d.options[0])
