"""Combat effects that kill or silence a figure, and the withdrawal before the roll (facts
§6.1): *Black Breath*, *Blade of Westernesse*, *Fateful Strike* (after the Leader re-roll, by
its hits), *Heroic Death* (a sacrifice that cancels hits before casualties), *Words of Power*
(a Companion's Leadership and abilities cancelled) and *Scouts* (retreat or withdraw into the
siege). Each asks its owner which figure, or where (WD-16).

Figures killed by these cards leave as in battle (:mod:`~wotr_env.engine.battle.forces`):
Free Peoples Leaders and every Character for good, Nazgûl back to the reinforcements.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..battle.combat_cards import combat_effect
from ..battle.end import retreat_regions, retreat_to
from ..battle.forces import FIELD, battle_of, eliminate_character, place, role_of
from ..battle.round import round_of
from ..battle.siege import stronghold_choice_applies, withdraw_into_siege
from ..decision import Action, choice
from ..regions import remove_figures
from ..state import FREE_PEOPLES, SHADOW, WotrState, log
from .combat import (
    HOBBITS,
    WITCH_KING,
    CombatChoice,
    add,
    combat_step,
    companions_in,
    fp_leaders,
    give_up_character,
    minions_in,
    named_in,
    nazgul_figures,
    nazgul_in,
)
from .combat_attacks import leader_or_companion
from .combat_rolls import companion_in_battle

if TYPE_CHECKING:
    from ..battle.round import Round
    from ..battle.sequence import Battle


def kill(state: WotrState, side: int, target: Action) -> None:
    """Kill a figure of ``side``'s force: ("unit", nation, kind) or ("character", c)."""
    battle = battle_of(state)
    if target[0] == "character":
        eliminate_character(state, target[1])
        return
    region, box = place(battle, role_of(battle, side))
    remove_figures(state, region, target[1], target[2], 1, box)
    log(state, "figure-killed", side, target[1], target[2])


def level(state: WotrState, c: int) -> int:
    return int(state.ruleset.cards.character_level[c])


# -- after the Leader re-roll ------------------------------------------------------------------

def nazgul_in_battle(state: WotrState, battle: Battle, side: int) -> bool:
    return nazgul_in(state, battle)


@combat_effect("black-breath", nazgul_in_battle)
def black_breath(state: WotrState, battle: Battle, rnd: Round, side: int,
                 part: int) -> None:
    """With a hit in the Leader re-roll, also kill an FP Leader in the battle, or a Companion
    whose Level is at most the re-roll's hits (WD-16: which)."""
    if rnd.reroll_hits[side] >= 1:
        state.stack.append(CombatChoice(side, "black-breath", (rnd.reroll_hits[side],)))


def _black_breath_options(state: WotrState, frame: CombatChoice) -> tuple[Action, ...]:
    battle = battle_of(state)
    return (*fp_leaders(state, battle), *(("character", c) for c in companions_in(state, battle)
                                          if level(state, c) <= frame.data[0]))


@combat_step("black-breath", _black_breath_options)
def _black_breath(state: WotrState, frame: CombatChoice, action: Action) -> None:
    kill(state, FREE_PEOPLES, action)


def hobbit_in_battle(state: WotrState, battle: Battle, side: int) -> bool:
    return bool(named_in(state, battle, FREE_PEOPLES, *HOBBITS))


@combat_effect("blade-of-westernesse", hobbit_in_battle)
def blade_of_westernesse(state: WotrState, battle: Battle, rnd: Round, side: int,
                         part: int) -> None:
    """Spend one hit of the Leader re-roll to kill a Minion in the battle (WD-16: which, or
    none)."""
    if rnd.reroll_hits[side] >= 1 and minions_in(state, battle):
        state.stack.append(CombatChoice(side, "blade-of-westernesse"))


def _blade_options(state: WotrState, frame: CombatChoice) -> tuple[Action, ...]:
    return (*(("character", c) for c in minions_in(state, battle_of(state))), choice("no"))


@combat_step("blade-of-westernesse", _blade_options)
def _blade(state: WotrState, frame: CombatChoice, action: Action) -> None:
    if action == choice("no"):
        return
    rnd = round_of(state)
    add(rnd, "hits", frame.side, -1)
    add(rnd, "reroll_hits", frame.side, -1)
    kill(state, SHADOW, action)


@combat_effect("fateful-strike", leader_or_companion)
def fateful_strike(state: WotrState, battle: Battle, rnd: Round, side: int,
                   part: int) -> None:
    """With a hit in the Leader re-roll, also kill a Nazgûl in the battle (the Witch-king
    counts); with 2 or more, a Minion instead if the FP wishes (WD-16: which)."""
    if rnd.reroll_hits[side] >= 1:
        state.stack.append(CombatChoice(side, "fateful-strike", (rnd.reroll_hits[side],)))


def _fateful_options(state: WotrState, frame: CombatChoice) -> tuple[Action, ...]:
    battle = battle_of(state)
    targets = set(named_in(state, battle, SHADOW, WITCH_KING))
    if frame.data[0] >= 2:
        targets |= set(minions_in(state, battle))
    return (*nazgul_figures(state, battle), *(("character", c) for c in sorted(targets)))


@combat_step("fateful-strike", _fateful_options)
def _fateful(state: WotrState, frame: CombatChoice, action: Action) -> None:
    kill(state, SHADOW, action)


# -- before casualties -------------------------------------------------------------------------

@combat_effect("heroic-death", leader_or_companion)
def heroic_death(state: WotrState, battle: Battle, rnd: Round, side: int,
                 part: int) -> None:
    """Kill one of one's Leaders to cancel 1 hit, or a Companion to cancel hits up to his
    Level (WD-16: whom, or none)."""
    if rnd.hits[1 - side] > 0:
        state.stack.append(CombatChoice(side, "heroic-death"))


def _heroic_options(state: WotrState, frame: CombatChoice) -> tuple[Action, ...]:
    battle = battle_of(state)
    return (*fp_leaders(state, battle),
            *(("character", c) for c in companions_in(state, battle)), choice("none"))


@combat_step("heroic-death", _heroic_options)
def _heroic(state: WotrState, frame: CombatChoice, action: Action) -> None:
    if action == choice("none"):
        return
    rnd = round_of(state)
    cancels = 1 if action[0] == "unit" else level(state, action[1])
    add(rnd, "hits", 1 - frame.side, -min(cancels, rnd.hits[1 - frame.side]))
    kill(state, frame.side, action)


# -- before the Combat roll --------------------------------------------------------------------

@combat_effect("words-of-power", nazgul_in_battle)
def words_of_power(state: WotrState, battle: Battle, rnd: Round, side: int,
                   part: int) -> None:
    """A Companion in the battle (WD-16: which) loses his Leadership and abilities this
    round."""
    state.stack.append(CombatChoice(side, "words-of-power"))


def _words_options(state: WotrState, frame: CombatChoice) -> tuple[Action, ...]:
    rnd = round_of(state)
    return tuple(("character", c) for c in companions_in(state, battle_of(state))
                 if c not in rnd.silenced)


@combat_step("words-of-power", _words_options)
def _words(state: WotrState, frame: CombatChoice, action: Action) -> None:
    rnd = round_of(state)
    give_up_character(state, rnd, 1 - frame.side, action[1])
    rnd.abilities_cancelled = (*rnd.abilities_cancelled, action[1])
    log(state, "companion-silenced", 1 - frame.side, action[1])


def defending_in_field(state: WotrState, battle: Battle, side: int) -> bool:
    """The side's Army defends in a field battle."""
    return battle.kind == FIELD and battle.side != side


@combat_effect("scouts", defending_in_field)
def scouts(state: WotrState, battle: Battle, rnd: Round, side: int,
           part: int) -> None:
    """Before the Combat roll: retreat into an adjacent free region, or withdraw into the
    siege of one's own Stronghold there, or stay (WD-16)."""
    state.stack.append(CombatChoice(side, "scouts"))


def _scouts_options(state: WotrState, frame: CombatChoice) -> tuple[Action, ...]:
    siege = (choice("into-siege"),) if stronghold_choice_applies(state) else ()
    return (*(("region", r) for r in retreat_regions(state)), *siege, choice("stay"))


@combat_step("scouts", _scouts_options)
def _scouts(state: WotrState, frame: CombatChoice, action: Action) -> None:
    if action[0] == "region":
        retreat_to(state, action[1])
    elif action == choice("into-siege"):
        withdraw_into_siege(state)


__all__ = ["companion_in_battle", "defending_in_field", "hobbit_in_battle", "kill", "level",
           "nazgul_in_battle"]
