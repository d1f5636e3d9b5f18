"""The Political Track: which nation a diplomatic action moves (WD-31), the priority of the
nations (also for a Companion's ability, WD-38, :func:`.dice.character_ability`), and how much
a step is worth to the dice.

A nation must be At War before it recruits, and the Shadow's must be At War before their Armies
leave their own lands: the Shadow brings Sauron first, then Isengard, then the Southrons; the
Free Peoples the nations that face the Shadow's Armies first (Gondor, Rohan).
"""

from __future__ import annotations

from wotr_env.data import NATIONS
from wotr_env.engine.decision import Action, Decision
from wotr_env.engine.politics import diplomacy_targets
from wotr_env.engine.state import SHADOW, WotrState

PRIORITY = {SHADOW: ("sauron", "isengard", "southrons"),
            0: ("gondor", "rohan", "elves", "dwarves", "the-north")}


def rank(side: int, nation: int) -> int:
    order = PRIORITY[side]
    name = NATIONS[nation]
    return order.index(name) if name in order else len(order)


def diplomacy(state: WotrState, d: Decision) -> Action:
    """WD-31: the nation nearest At War first (one step makes it so), then by priority."""
    nations = [o for o in d.options if o[0] == "nation"]
    if not nations:
        return d.options[0]
    return min(nations, key=lambda o: (int(state.politics[o[1]]), rank(d.player, o[1])))


def diplomacy_value(state: WotrState, side: int) -> float:
    """How much a diplomatic step is worth now: a lot for the Shadow's nations not At War,
    little for the Free Peoples (their nations go to war when attacked)."""
    nations = diplomacy_targets(state, side)
    if not nations:
        return -1.0
    if side == SHADOW:
        best = min(nations, key=lambda n: rank(side, n))
        return 95.0 - 5 * rank(side, best) - 2 * int(state.politics[best])
    return 12.0 if any(int(state.politics[n]) <= 1 for n in nations) else 6.0


__all__ = ["diplomacy", "diplomacy_value", "rank"]
