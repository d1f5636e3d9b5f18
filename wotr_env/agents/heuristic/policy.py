"""The dispatcher: one rule per kind of decision (WD-01 ... WD-38), and the guard that the
answer is always one of the options.

``choose(state, rng)`` reads the pending decision of ``state`` (an engine state as the side to
act sees it: a determinization) and returns one of its options. A rule that has nothing to say
(returns None, or an action not offered) falls back on the first option that is not a bare
"skip"/"pass", so no decision is ever left without an answer.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from wotr_env.engine.decision import WD, Action, Decision
from wotr_env.engine.state import WotrState

from . import armies, battle, cards, dice, fellowship, hunt, muster, politics

Rule = Callable[[WotrState, Decision], Action | None]

RULES: dict[WD, Rule] = {
    WD.DISCARD: cards.discard,
    WD.DECLARE_FELLOWSHIP: fellowship.declare,
    WD.FELLOWSHIP_PATH: fellowship.path_step,
    WD.ENTER_MORDOR: fellowship.enter_mordor,
    WD.CHANGE_GUIDE: fellowship.change_guide,
    WD.HUNT_ALLOCATION: hunt.allocation,
    WD.CHOOSE_DIE: dice.choose_die,
    WD.DIE_ACTION: dice.die_action,
    WD.ARMY_MOVE: armies.army_move,
    WD.SPLIT_ARMY: armies.split_army,
    WD.ATTACK_TARGET: battle.attack_target,
    WD.REARGUARD: battle.rearguard,
    WD.STRONGHOLD_CHOICE: battle.stronghold_choice,
    WD.SIEGE_ADVANCE: battle.siege_advance,
    WD.COMBAT_CARD: battle.combat_card,
    WD.COMBAT_CARD_CHOICE: battle.combat_card_choice,
    WD.CASUALTY: battle.casualty,
    WD.CEASE_OR_CONTINUE: battle.cease_or_continue,
    WD.RETREAT: battle.retreat,
    WD.EXTEND_SIEGE: battle.extend_siege,
    WD.ADVANCE_AFTER_BATTLE: battle.advance_after_battle,
    WD.SEPARATE_COMPANIONS: fellowship.separate,
    WD.MOVE_COMPANIONS: fellowship.move_companions,
    WD.MOVE_MINIONS: muster.move_minions,
    WD.HUNT_TABLE_CARD: hunt.hunt_card,
    WD.HUNT_GUIDE_ABILITY: fellowship.guide_ability,
    WD.HUNT_CASUALTY: fellowship.hunt_casualty,
    WD.MUSTER_COMBINATION: muster.muster_combination,
    WD.MUSTER_PLACEMENT: muster.muster_placement,
    WD.BRING_CHARACTER: muster.bring_character,
    WD.DIPLOMACY: politics.diplomacy,
    WD.PLAY_EVENT: cards.play_event,
    WD.DRAW_CARD: cards.draw_card,
    WD.EVENT_CASUALTY: battle.casualty,
    WD.OVERSTACK: armies.overstack,
    WD.EXTRA_DRAW: cards.extra_draw,
    WD.CHARACTER_ABILITY: dice.character_ability,
}
# Rules that draw at random among options they cannot tell apart.
RANDOM_RULES: dict[WD, Callable[[WotrState, Decision, np.random.Generator], Action]] = {
    WD.EVENT_CHOICE: cards.event_choice,
}


def fallback(d: Decision) -> Action:
    """The first option that does something (not "skip"/"pass"/"none"), else the first."""
    for o in d.options:
        if o not in (("choice", "skip"), ("choice", "pass"), ("action", "skip")):
            return o
    return d.options[0]


def choose(state: WotrState, rng: np.random.Generator) -> Action:
    """One of ``state.pending.options``: the heuristic's answer to the pending decision."""
    d = state.pending
    if d is None:
        raise ValueError("no pending decision: the game is over")
    if len(d.options) == 1:
        return d.options[0]
    if d.kind in RANDOM_RULES:
        action = RANDOM_RULES[d.kind](state, d, rng)
    else:
        rule = RULES.get(d.kind)
        action = rule(state, d) if rule is not None else None
    if action is None or action not in d.options:
        return fallback(d)
    return action


__all__ = ["RULES", "choose", "fallback"]
