"""The Hunt: how many Shadow dice hunt (WD-06) and the table cards that act inside a Hunt
(WD-25, both sides).

The Shadow puts one die in the Hunt Box (Eyes rolled add to it for free); two once the
Fellowship nears Mordor or walks the Mordor Track, where every die counts for an Eye tile and the
Ring's last steps are the Free Peoples' only way to win; more on the Track when the Corruption
is close to the end. Dice put in the Hunt Box are dice the armies do not get, and the armies win
the Shadow's games against a Fellowship that does not walk.
"""

from __future__ import annotations

from wotr_env.engine.decision import Action, Decision, choice
from wotr_env.engine.state import OFF_MORDOR, WotrState

from .common import gate_distance


def allocation(state: WotrState, d: Decision) -> Action:
    counts = sorted(o[1] for o in d.options)
    want = 1
    if state.mordor_step != OFF_MORDOR:
        want = 2 + (state.corruption >= 7)
    elif gate_distance(state, state.fellowship_region) <= 3 or state.progress >= 5:
        want = 2
    want = max(counts[0], min(want, counts[-1]))
    return ("count", want)


def hunt_card(state: WotrState, d: Decision) -> Action:
    """Use the card at the first moment it is offered, except for a small damage: *Axe and
    Bow* and the like wait for two or more, *Mithril Coat* for three or more."""
    when = d.context.get("when")
    cards = [o for o in d.options if o[0] == "card"]
    if not cards:
        return choice("no")
    if when == "damage":
        damage = int(d.context.get("damage", 0))
        names = state.ruleset.cards.events
        for o in cards:
            cid = names[o[1]].id
            need = 3 if "mithril" in cid else 2
            if damage >= need or (damage >= 1 and state.corruption + damage >= 10):
                return o
        return choice("no")
    return cards[0]


__all__ = ["allocation", "hunt_card"]
