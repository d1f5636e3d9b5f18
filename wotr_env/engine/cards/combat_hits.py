"""Combat effects that change the hits once dice are rolled (facts §6.1): misses turned into
hits before the Leader re-roll (*Andúril*, *Mighty Attack*), natural 1s that hit their own
Army (*Confusion*), extra hits after the re-roll (*Mûmakil*, *No Quarter*, *Nameless Wood*) and
a hit cancelled before casualties (*Shield-wall*).

Hits are the round's ``hits`` (what the other side removes as casualties); the roll's own
``roll_hits``/``reroll_hits`` stay those of the dice, so that "the Combat roll or the re-roll
scores a hit" reads the dice (a miss turned into a hit counts as a die of the roll that hit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...data.model import NATIONS
from ..battle.combat_cards import combat_effect
from ..battle.forces import battle_of
from ..battle.round import round_of
from ..decision import Action
from ..state import WotrState
from .combat import (
    CombatChoice,
    add,
    combat_step,
    companions_in,
    figures_of,
    give_up_character,
    named_in,
    turn_misses_into_hits,
)
from .combat_rolls import companion_in_battle, in_rohan_or_forest, plus

if TYPE_CHECKING:
    from ..battle.round import Round
    from ..battle.sequence import Battle

SOUTHRONS = NATIONS.index("southrons")  # the Southrons & Easterlings


def misses(rnd: Round, side: int) -> int:
    """The side's Combat roll dice that missed and may still be re-rolled or turned."""
    return len(rnd.rolled[side]) - rnd.roll_hits[side] - rnd.locked[side]


def dice_hits(rnd: Round, side: int) -> int:
    """Hits of the side's Combat roll and Leader re-roll dice."""
    return rnd.roll_hits[side] + rnd.reroll_hits[side]


# -- before the Leader re-roll -----------------------------------------------------------------

def strider_or_aragorn(state: WotrState, battle: Battle, side: int) -> bool:
    return bool(named_in(state, battle, side, "strider", "aragorn"))


@combat_effect("anduril", strider_or_aragorn)
def anduril(state: WotrState, battle: Battle, rnd: Round, side: int,
            part: int) -> None:
    """Give up Strider's Leadership to turn 1 miss into a hit, or Aragorn's for up to 2
    (always done when a miss is there: a sure hit is worth more than a re-rolled die)."""
    for c in named_in(state, battle, side, "strider", "aragorn"):
        if c in rnd.silenced or misses(rnd, side) == 0:
            continue
        most = 2 if state.ruleset.cards.characters[c].id == "aragorn" else 1
        give_up_character(state, rnd, side, c)
        turn_misses_into_hits(rnd, side, most)


@combat_effect("mighty-attack", companion_in_battle)
def mighty_attack(state: WotrState, battle: Battle, rnd: Round, side: int,
                  part: int) -> None:
    """Give up one Companion's Leadership (WD-16: which) to turn 1 miss into a hit."""
    if misses(rnd, side) > 0:
        state.stack.append(CombatChoice(side, "mighty-attack"))


def _mighty_options(state: WotrState, frame: CombatChoice) -> tuple[Action, ...]:
    rnd = round_of(state)
    return tuple(("character", c) for c in companions_in(state, battle_of(state))
                 if c not in rnd.silenced)


@combat_step("mighty-attack", _mighty_options)
def _mighty(state: WotrState, frame: CombatChoice, action: Action) -> None:
    rnd = round_of(state)
    give_up_character(state, rnd, frame.side, action[1])
    turn_misses_into_hits(rnd, frame.side, 1)


@combat_effect("confusion")
def confusion(state: WotrState, battle: Battle, rnd: Round, side: int,
              part: int) -> None:
    """Each natural 1 of the Shadow's Combat roll is a hit on the Shadow's Army; those dice may
    not be re-rolled."""
    ones = sum(1 for d in rnd.rolled[1 - side] if d == 1)
    add(rnd, "hits", side, ones)
    add(rnd, "locked", 1 - side, ones)


# -- after the Leader re-roll ------------------------------------------------------------------

def southron_elite(state: WotrState, battle: Battle, side: int) -> bool:
    return bool(figures_of(state, battle, side)[SOUTHRONS, 1] > 0)


@combat_effect("mumakil", southron_elite)
def mumakil(state: WotrState, battle: Battle, rnd: Round, side: int,
            part: int) -> None:
    """Part 0 (initiative 3): +1 to the Combat roll. Part 1 (5): with more hits in total than
    the opponent (his Combat card's extra attacks counted), one hit more."""
    if part == 0:
        plus(rnd, side, 1)
        return
    mine = rnd.hits[side] + rnd.extra_hits[side]
    theirs = rnd.hits[1 - side] + rnd.extra_hits[1 - side]
    if mine > theirs:
        add(rnd, "hits", side, 1)


@combat_effect("no-quarter")
def no_quarter(state: WotrState, battle: Battle, rnd: Round, side: int,
               part: int) -> None:
    """One hit more if the Combat roll or the re-roll scored one."""
    if dice_hits(rnd, side) >= 1:
        add(rnd, "hits", side, 1)


@combat_effect("nameless-wood", in_rohan_or_forest)
def nameless_wood(state: WotrState, battle: Battle, rnd: Round, side: int,
                  part: int) -> None:
    """Two hits more if the Combat roll or the re-roll scored one."""
    if dice_hits(rnd, side) >= 1:
        add(rnd, "hits", side, 2)


@combat_effect("shield-wall")
def shield_wall(state: WotrState, battle: Battle, rnd: Round, side: int,
                part: int) -> None:
    """Before casualties: of 2 or more hits the opponent scored, 1 is cancelled."""
    if rnd.hits[1 - side] >= 2:
        add(rnd, "hits", 1 - side, -1)


__all__ = ["dice_hits", "misses", "southron_elite", "strider_or_aragorn"]
