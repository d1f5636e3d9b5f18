"""Play conditions (facts §6's condition column) shared by the cards of several modules."""

from __future__ import annotations

from ..events import Condition
from ..state import WotrState
from .common import nation


def progress(state: WotrState, side: int) -> bool:
    """The Fellowship has Progress (Shadow Character cards #9-#11)."""
    return state.progress >= 1


def all_shadow_at_war(state: WotrState, side: int) -> bool:
    return bool((state.politics[5:] == 0).all())


def in_play(character_id: str) -> Condition:
    def condition(state: WotrState, side: int) -> bool:
        return bool(state.char_at[state.ruleset.cards.character(character_id)] >= 0)
    return condition


def at_war(nation_id: str) -> Condition:
    def condition(state: WotrState, side: int) -> bool:
        return bool(state.politics[nation(state, nation_id)] == 0)
    return condition


__all__ = ["all_shadow_at_war", "at_war", "in_play", "progress"]
