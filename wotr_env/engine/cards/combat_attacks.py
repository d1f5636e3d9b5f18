"""Combat effects that attack apart from the Combat roll, or take hits to gain (facts §6.1):
extra attacks before the roll (*Charge*, *Sudden Strike*, *Durin's Bane*) or after casualties
(*We Come to Kill*, *Onslaught*), an automatic hit (*Great Host*), and hits taken on one's own
units (*Relentless Assault*, *Onslaught*: WD-16, how many).

An extra attack (:func:`~wotr_env.engine.battle.round.extra_attack`) has no Leader re-roll,
ignores the opponent's card modifiers, and its casualties are removed at once (facts §6.1).
*Durin's Bane* is also played from the table by *Balrog of Moria* (Shadow Character #17): its
effect and condition are this module's :func:`durins_bane` and :func:`near_moria`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from boardkit.frames import Frame

from ..battle.casualties import Casualties, push_casualties
from ..battle.combat_cards import combat_effect
from ..battle.forces import battle_of, role_of
from ..battle.round import MAX_DICE, extra_attack, round_of, with_side
from ..decision import Action
from ..state import WotrState, log
from .combat import (
    CombatChoice,
    add,
    combat_step,
    companions_in,
    elites_of,
    fp_leaders,
    hit_room,
    leadership_left,
    units_of,
)
from .combat_rolls import own_elite

if TYPE_CHECKING:
    from ..battle.round import Round
    from ..battle.sequence import Battle

MORIA_REACH = 2  # Durin's Bane: the defending Army within 2 regions of Moria


@dataclass
class CardAttack(Frame):
    """An extra attack made after other frames (*Onslaught*: once its hits are taken)."""

    side: int
    dice: int
    to_hit: int

    def run(self, state: WotrState) -> None:
        state.stack.pop()
        if self.dice > 0:
            extra_attack(state, self.side, self.dice, self.to_hit)


def take_own_hits(state: WotrState, side: int, hits: int) -> None:
    """The side removes ``hits`` casualties from its own force now (WD-17, one at a time)."""
    if hits > 0:
        log(state, "own-hits", side, hits)
        state.stack.append(Casualties(role_of(battle_of(state), side), hits))


# -- before the Combat roll --------------------------------------------------------------------

def leader_or_companion(state: WotrState, battle: Battle, side: int) -> bool:
    """A Free Peoples Leader or Companion in the battle."""
    return bool(fp_leaders(state, battle) or companions_in(state, battle))


@combat_effect("charge", own_elite)
def charge(state: WotrState, battle: Battle, rnd: Round, side: int,
           part: int) -> None:
    """An extra attack of 1 die per own Elite in the battle (at most 5)."""
    dice = min(elites_of(state, battle, side), MAX_DICE)
    if dice:
        extra_attack(state, side, dice)


@combat_effect("sudden-strike", leader_or_companion)
def sudden_strike(state: WotrState, battle: Battle, rnd: Round, side: int,
                  part: int) -> None:
    """An extra attack of as many dice as the side's Leadership (at most 5)."""
    dice = min(leadership_left(state, battle, rnd, side), MAX_DICE)
    if dice:
        extra_attack(state, side, dice)


def moria_distance(state: WotrState, region: int) -> int:
    """Regions between ``region`` and Moria (0 in Moria), by the board's borders."""
    board = state.ruleset.board
    moria = board.region("moria")
    seen, frontier, steps = {moria}, [moria], 0
    while frontier and region not in seen:
        steps += 1
        frontier = [int(n) for r in frontier for n in board.neighbours[r] if int(n) not in seen]
        seen.update(frontier)
    return steps if region in seen else len(board.regions)


def near_moria(state: WotrState, battle: Battle, side: int) -> bool:
    """The defending Army is within 2 regions of Moria."""
    return moria_distance(state, battle.dst) <= MORIA_REACH


@combat_effect("durins-bane", near_moria)
def durins_bane(state: WotrState, battle: Battle, rnd: Round, side: int,
                part: int) -> None:
    """An extra attack of 3 dice hitting on 4+."""
    extra_attack(state, side, 3, to_hit=4)


@combat_effect("relentless-assault")
def relentless_assault(state: WotrState, battle: Battle, rnd: Round, side: int,
                       part: int) -> None:
    """Take up to 2 hits on one's own units (WD-16): +1 to the Combat roll per hit taken."""
    state.stack.append(CombatChoice(side, "relentless-assault"))


def _hits_options(most: int):
    def options(state: WotrState, frame: CombatChoice) -> tuple[Action, ...]:
        room = hit_room(state, battle_of(state), frame.side)
        return tuple(("count", n) for n in range(min(most, room) + 1))
    return options


@combat_step("relentless-assault", _hits_options(2))
def _relentless(state: WotrState, frame: CombatChoice, action: Action) -> None:
    add(round_of(state), "roll_mod", frame.side, action[1])
    take_own_hits(state, frame.side, action[1])


# -- after casualties --------------------------------------------------------------------------

def shadow_elite(state: WotrState, battle: Battle, side: int) -> bool:
    return own_elite(state, battle, side)


@combat_effect("we-come-to-kill", shadow_elite)
def we_come_to_kill(state: WotrState, battle: Battle, rnd: Round, side: int,
                    part: int) -> None:
    """An extra attack of 1 die per own Elite in the battle (at most 5), hitting on 5+."""
    dice = min(elites_of(state, battle, side), MAX_DICE)
    if dice:
        extra_attack(state, side, dice, to_hit=5)


@combat_effect("great-host")
def great_host(state: WotrState, battle: Battle, rnd: Round, side: int,
               part: int) -> None:
    """With at least twice the opponent's units in the battle, one automatic hit."""
    if units_of(state, battle, side) >= 2 * units_of(state, battle, 1 - side):
        log(state, "automatic-hit", side, 1)
        push_casualties(state, with_side((0, 0), side, 1))


@combat_effect("onslaught")
def onslaught(state: WotrState, battle: Battle, rnd: Round, side: int,
              part: int) -> None:
    """Take up to 4 hits on one's own units (WD-16), then roll a die per hit taken: each 4+
    hits the enemy."""
    state.stack.append(CombatChoice(side, "onslaught"))


@combat_step("onslaught", _hits_options(4))
def _onslaught(state: WotrState, frame: CombatChoice, action: Action) -> None:
    if action[1] > 0:
        state.stack.append(CardAttack(frame.side, action[1], 4))
        take_own_hits(state, frame.side, action[1])


__all__ = ["MORIA_REACH", "CardAttack", "durins_bane", "leader_or_companion", "moria_distance",
           "near_moria", "take_own_hits"]
