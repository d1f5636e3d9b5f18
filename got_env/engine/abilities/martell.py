"""Martell cards with text: Arianne Martell, Nymeria Sand, Doran Martell (facts §7; D-36)."""

from __future__ import annotations

from ..cards import Ability, combat_frame, register
from ..decision import Action, Decision, DecisionKind
from ..flow import on_action, pop, step
from ..frames import CombatFrame
from ..state import GameState
from ..tracks import move_to_bottom
from .base import ctx, effect_step, other, step_name


@effect_step("arianne-martell")
def arianne_martell(state: GameState, combat: CombatFrame, side: str) -> None:
    """After the winner: Arianne defended and lost, so the attacking units do not enter the
    embattled area; they stay, standing, in the area they marched from."""
    if side == "defender" and combat.loser == side:
        combat.attackers_stay = True


def nymeria_swords(state: GameState, combat: CombatFrame, owner: str, side: str) -> int:
    """Static: one sword when her player attacks ..."""
    return 1 if side == owner == "attacker" else 0


def nymeria_fortifications(state: GameState, combat: CombatFrame, owner: str, side: str) -> int:
    """... one fortification when he defends."""
    return 1 if side == owner == "defender" else 0


DORAN = step_name("doran-martell")


@step(DORAN)
def run_doran(state: GameState, frame: dict) -> Decision:
    """At the reveal: Doran's player picks an influence track (D-36)."""
    combat = combat_frame(state)
    tracks = tuple(("track", t) for t in range(state.tracks.shape[0]))
    return Decision(combat[frame["side"]], DecisionKind.DORAN_TRACK, tracks, ctx(combat))


@on_action(DORAN)
def act_doran(state: GameState, frame: dict, action: Action) -> None:
    """The opponent goes to the last position; the houses below him move up, a dominance token
    follows position 1 (R21.1-R21.2)."""
    combat = combat_frame(state)
    pop(state)
    move_to_bottom(state, action[1], combat[other(frame["side"])])


register(Ability("arianne-martell", after_winner=step_name("arianne-martell")))
register(Ability("nymeria-sand", swords=nymeria_swords, fortifications=nymeria_fortifications))
register(Ability("doran-martell", reveal=DORAN))
