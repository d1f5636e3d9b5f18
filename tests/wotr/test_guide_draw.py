"""Gandalf the Grey as Guide draws after an Event die plays an Event card (facts §3.1): in the
2nd edition from the deck of the card's type, in the 1st only after a Character card (facts
§3.6, §8.4 [1E-EX]; ``rules.gandalf_guide_draw``)."""

from __future__ import annotations

import pytest

from wotr_env.engine import WD, build, play
from wotr_env.engine.decision import EVENT, MUSTER

from .helpers import CARDS, card

BILBO = "fp-char-12-bilbos-song"  # Character deck
ELROND = "fp-strat-08-wisdom-of-elrond"  # Strategy deck, Muster icon


def played(ruleset: str, cid: str, face: int = EVENT, guide: str = "gandalf-the-grey"):
    s = build({"ruleset": ruleset, "hands": {"free_peoples": [cid]},
               "dice": {"free_peoples": ["event", "muster"], "shadow": ["event", "event"]},
               "rings": ["gone"] * 3, "fellowship": {"guide": guide, "corruption": 2}})
    play(s, ("die", face))
    if s.pending.kind == WD.DIE_ACTION:
        play(s, ("action", "play-event"))
    if s.pending.kind == WD.PLAY_EVENT:
        play(s, ("card", card(cid)))
    if s.pending.kind == WD.EVENT_CHOICE:  # Wisdom of Elrond's nation
        play(s, s.pending.options[0])
    return s


@pytest.mark.parametrize("ruleset,cid,asked", [
    ("2e", BILBO, True), ("2e", ELROND, True), ("1e", BILBO, True), ("1e", ELROND, False)])
def test_the_guides_draw_follows_the_editions_rule(ruleset: str, cid: str, asked: bool) -> None:
    s = played(ruleset, cid)
    assert (s.pending.kind == WD.EXTRA_DRAW) == asked
    if asked:
        deck = int(CARDS.event_deck[card(cid)])
        assert s.pending.context["deck"] == deck
        size = len(s.decks[deck])
        play(s, ("choice", "yes"))
        assert len(s.decks[deck]) == size - 1 and len(s.hands[0]) == 1


def test_no_draw_without_an_event_die_or_without_gandalf_as_guide() -> None:
    """facts §3.1: the die must be an Event die; the Guide must be Gandalf the Grey."""
    assert played("2e", ELROND, face=MUSTER).pending.kind != WD.EXTRA_DRAW
    assert played("2e", BILBO, guide="strider").pending.kind != WD.EXTRA_DRAW
