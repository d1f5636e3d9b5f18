"""A combat's winner and casualties (§15.6 6.1 and 6.2, §24 step 5; D-43, AMBIG-18): the final
strengths compared (a tie to the higher on the Fiefdoms track), the casualties each side owes,
and their choice, one unit at a time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardkit.decision import Decision

from ..board import destroy_unit
from ..decision import Action, DecisionKind
from ..state import FIEFDOMS, GameState
from . import tides
from .stages import ATTACKER, DEFENDER, SIDES, CombatStage, Side
from .strength import _ctx, card_value, final_strength, immune_to_casualties

if TYPE_CHECKING:  # (frame.py, which runs this module's handlers, declares the frame)
    from .frame import CombatFrame


def _resolve(state: GameState, frame: CombatFrame) -> None:
    _decide_winner(state, frame)
    frame.stage = CombatStage.AFTER_WINNER
    frame.abilities_done = {}


def _decide_winner(state: GameState, frame: CombatFrame) -> None:
    """§15.6 6.1: higher final strength wins; a tie goes to the higher on Fiefdoms. A side an
    ability made win at once (``won_at_once``, 1e spec 8.2: the other side lost its last unit)
    wins whatever the strengths."""
    att = final_strength(state, frame, ATTACKER)
    dfn = final_strength(state, frame, DEFENDER)
    frame.strength = {ATTACKER: att, DEFENDER: dfn}
    if frame.won_at_once is not None:
        winner = Side(frame.won_at_once)
    elif att != dfn:
        winner = ATTACKER if att > dfn else DEFENDER
    else:
        pos = {s: state.track_position(FIEFDOMS, frame.house(s)) for s in SIDES}
        winner = min(SIDES, key=lambda s: pos[s])
    loser = winner.other
    frame.winner, frame.loser = winner, loser
    swords = card_value(state, frame, winner, "swords") + tides.value(state, frame, winner,
                                                                        "swords")
    forts = card_value(state, frame, loser, "fortifications") + tides.value(state, frame, loser,
                                                                           "fortifications")
    # §15.6 6.2; §24 step 5: each skull costs the opponent one more, whoever won.
    due = {loser: max(0, swords - forts) + tides.value(state, frame, winner, "skulls"),
           winner: tides.value(state, frame, loser, "skulls")}
    frame.casualties = [[side, 0 if immune_to_casualties(state, frame, side) else due[side]]
                        for side in (loser, winner)]


def combat_units(state: GameState, frame: CombatFrame, side: str) -> tuple[int, np.ndarray]:
    """(area where they stand, int[unit type]) of a side's non-routed units in the combat: the
    attackers still wait in the March's area; the defenders stand in the embattled area."""
    if side == ATTACKER:
        return frame.origin, np.array(frame.units)
    area, house = frame.area, frame.defender
    return area, state.units[area, house] - state.routed[area, house]


def _casualty(state: GameState, frame: CombatFrame) -> Decision | None:
    """D-43: one casualty at a time, the loser's first (swords, then the winner's skulls), then
    the winner's (the loser's skulls); the victim picks among his non-routed units in the combat.
    Casualties beyond those units are ignored (AMBIG-18)."""
    for side, left in frame.casualties:
        area, standing = combat_units(state, frame, side)
        if left > 0 and standing.any():
            return Decision(frame.house(side), DecisionKind.CASUALTY,
                            tuple(("unit", area, u) for u in range(4) if standing[u] > 0),
                            context={**_ctx(frame), "left": left})
    frame.stage = CombatStage.RETREAT
    return None


def _act_casualty(state: GameState, frame: CombatFrame, action: Action) -> None:
    _, area, u = action
    entry = next(e for e in frame.casualties
                 if e[1] > 0 and combat_units(state, frame, e[0])[1].any())
    if entry[0] == ATTACKER:
        frame.units[u] -= 1
    destroy_unit(state, area, frame.house(entry[0]), u, routed=False)
    entry[1] -= 1
