"""Combat effects that change the rolls (facts §6.1): modifiers to the Combat roll and the
Leader re-roll, fewer or capped Combat dice, the Nazgûl's Leadership given up for them, and the
two cards that cancel the other side's card.

Each acts at its initiative (3 before the Combat roll, 4 before the re-roll, 0 first of all)
by changing the round's per-side values (:class:`~wotr_env.engine.battle.round.Round`). The
text's "Shadow"/"FP" is the other side/the card's own: each card is in one side's deck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...data.model import NATIONS
from ..battle.combat_cards import combat_effect
from ..battle.forces import battle_of
from ..battle.round import round_of, with_side
from ..regions import STRONGHOLD
from ..state import OFF_MORDOR, SHADOW, WotrState, log
from .combat import (
    CombatChoice,
    add,
    cap_dice,
    combat_step,
    companions_in,
    elites_of,
    figures_of,
    give_up_character,
    leadership_left,
    named_in,
    nazgul_in,
    nazgul_leadership,
)

if TYPE_CHECKING:
    from ..battle.round import Round
    from ..battle.sequence import Battle

ROHAN, ISENGARD = NATIONS.index("rohan"), NATIONS.index("isengard")
FOREST_REGIONS = ("fangorn", "orthanc")  # with the Rohan regions: the Ents' and Huorns' cards


# -- conditions --------------------------------------------------------------------------------

def in_fp_nation(state: WotrState, battle: Battle, side: int) -> bool:
    """The defending Army is inside a Free Peoples nation's borders."""
    return 0 <= int(state.ruleset.board.region_nation[battle.dst]) < ROHAN + 1


def in_fellowship_region(state: WotrState, battle: Battle, side: int) -> bool:
    """The defending Army stands in the Fellowship's region (not on the Mordor Track)."""
    return state.mordor_step == OFF_MORDOR and battle.dst == state.fellowship_region


def in_rohan_or_forest(state: WotrState, battle: Battle, side: int) -> bool:
    """The defender is in a Rohan region, Fangorn or Orthanc."""
    board = state.ruleset.board
    return int(board.region_nation[battle.dst]) == ROHAN or board.regions[
        battle.dst].id in FOREST_REGIONS


def own_elite(state: WotrState, battle: Battle, side: int) -> bool:
    return elites_of(state, battle, side) > 0


def companion_in_battle(state: WotrState, battle: Battle, side: int) -> bool:
    return bool(companions_in(state, battle))


def gandalf_in_battle(state: WotrState, battle: Battle, side: int) -> bool:
    return bool(named_in(state, battle, side, "gandalf-the-grey", "gandalf-the-white"))


def isengard_at_stronghold(state: WotrState, battle: Battle, side: int) -> bool:
    """An Isengard unit in the battle, and the defender holds the Stronghold it stands in."""
    board = state.ruleset.board
    return bool(figures_of(state, battle, SHADOW)[ISENGARD, :2].sum()) and int(
        board.settlement[battle.dst]) == STRONGHOLD and int(
        state.control[battle.dst]) == 1 - battle.side


def nazgul_leading(points: int):
    """Nazgûl Leadership at least ``points`` in the battle."""
    def condition(state: WotrState, battle: Battle, side: int) -> bool:
        return nazgul_in(state, battle) and nazgul_leadership(state, battle) >= points
    return condition


# -- modifiers ---------------------------------------------------------------------------------

def plus(rnd: Round, side: int, roll: int, reroll: int = 0) -> None:
    add(rnd, "roll_mod", side, roll)
    add(rnd, "reroll_mod", side, reroll)


@combat_effect("advantageous-position", in_fp_nation)
def advantageous_position(state: WotrState, battle: Battle, rnd: Round, side: int,
                          part: int) -> None:
    """−1 to every die of the Shadow's Combat roll (a natural 6 still hits)."""
    plus(rnd, 1 - side, -1)


@combat_effect("valour", own_elite)
def valour(state: WotrState, battle: Battle, rnd: Round, side: int,
           part: int) -> None:
    plus(rnd, side, 1)


@combat_effect("servant-of-the-secret-fire", gandalf_in_battle)
def servant_of_the_secret_fire(state: WotrState, battle: Battle, rnd: Round, side: int,
                               part: int) -> None:
    plus(rnd, side, 1)


@combat_effect("devilry-of-orthanc", isengard_at_stronghold)
def devilry_of_orthanc(state: WotrState, battle: Battle, rnd: Round, side: int,
                       part: int) -> None:
    plus(rnd, side, 1)


@combat_effect("ents-rage", in_rohan_or_forest)
def ents_rage(state: WotrState, battle: Battle, rnd: Round, side: int,
              part: int) -> None:
    plus(rnd, side, 2)


@combat_effect("it-is-a-gift", in_fellowship_region)
def it_is_a_gift(state: WotrState, battle: Battle, rnd: Round, side: int,
                 part: int) -> None:
    plus(rnd, side, 1, 1)


@combat_effect("one-for-the-dark-lord", in_fellowship_region)
def one_for_the_dark_lord(state: WotrState, battle: Battle, rnd: Round, side: int,
                          part: int) -> None:
    plus(rnd, side, 1, 1)


@combat_effect("desperate-battle")
def desperate_battle(state: WotrState, battle: Battle, rnd: Round, side: int,
                     part: int) -> None:
    """Both Armies +1 on the Combat roll and the Leader re-roll."""
    for s in (0, 1):
        plus(rnd, s, 1, 1)


@combat_effect("deadly-strife")
def deadly_strife(state: WotrState, battle: Battle, rnd: Round, side: int,
                  part: int) -> None:
    """Both Armies +2 on the Combat roll and the Leader re-roll."""
    for s in (0, 1):
        plus(rnd, s, 2, 2)


@combat_effect("daylight")
def daylight(state: WotrState, battle: Battle, rnd: Round, side: int,
             part: int) -> None:
    cap_dice(rnd, 1 - side, 3)


@combat_effect("huorn-dark", in_rohan_or_forest)
def huorn_dark(state: WotrState, battle: Battle, rnd: Round, side: int,
               part: int) -> None:
    cap_dice(rnd, 1 - side, 2)


@combat_effect("brave-stand", companion_in_battle)
def brave_stand(state: WotrState, battle: Battle, rnd: Round, side: int,
                part: int) -> None:
    """The Shadow rolls one die fewer per Companion in the battle (at least one)."""
    add(rnd, "dice_delta", 1 - side, -len(companions_in(state, battle)))


# -- the Nazgûl's Leadership -------------------------------------------------------------------

@combat_effect("cruel-as-death", nazgul_leading(2))
def cruel_as_death(state: WotrState, battle: Battle, rnd: Round, side: int,
                   part: int) -> None:
    """Give up 2 Nazgûl Leadership: +1 to every die of the Combat roll."""
    if nazgul_leadership(state, battle, rnd) >= 2:
        add(rnd, "forfeit", side, 2)
        plus(rnd, side, 1)


@combat_effect("they-are-terrible", nazgul_leading(1))
def they_are_terrible(state: WotrState, battle: Battle, rnd: Round, side: int,
                      part: int) -> None:
    """Give up 1 Nazgûl Leadership: +1 to every die of the Leader re-roll."""
    if nazgul_leadership(state, battle, rnd) >= 1:
        add(rnd, "forfeit", side, 1)
        plus(rnd, side, 0, 1)


@combat_effect("foul-stench", nazgul_leading(1))
def foul_stench(state: WotrState, battle: Battle, rnd: Round, side: int,
                part: int) -> None:
    """With Nazgûl Leadership at least the Free Peoples' Leadership, no FP Leader re-roll."""
    if nazgul_leadership(state, battle, rnd) >= leadership_left(state, battle, rnd, 1 - side):
        rnd.no_reroll = with_side(rnd.no_reroll, 1 - side, True)
        log(state, "reroll-cancelled", 1 - side)


@combat_effect("dread-and-despair", nazgul_leading(1))
def dread_and_despair(state: WotrState, battle: Battle, rnd: Round, side: int,
                      part: int) -> None:
    """Give up 1 or more Nazgûl Leadership (WD-16): the FP rolls one die fewer per point."""
    state.stack.append(CombatChoice(side, "dread-and-despair"))


def _dread_options(state: WotrState, frame: CombatChoice) -> tuple:
    most = nazgul_leadership(state, battle_of(state), round_of(state))
    return tuple(("count", n) for n in range(1, most + 1))


@combat_step("dread-and-despair", _dread_options)
def _dread(state: WotrState, frame: CombatChoice, action) -> None:
    rnd = round_of(state)
    add(rnd, "forfeit", frame.side, action[1])
    add(rnd, "dice_delta", 1 - frame.side, -action[1])


# -- cancelling the other card -----------------------------------------------------------------

def cancel(state: WotrState, rnd: Round, side: int) -> None:
    """The side's Combat card is cancelled: its effects not yet resolved are skipped."""
    rnd.cancelled = with_side(rnd.cancelled, side, True)
    log(state, "combat-card-cancelled", side, rnd.cards[side])


@combat_effect("swarm-of-bats")
def swarm_of_bats(state: WotrState, battle: Battle, rnd: Round, side: int,
                  part: int) -> None:
    """Cancel the FP's Combat card; if it played none, +1 to the Shadow's Leader re-roll."""
    if rnd.cards[1 - side] >= 0:
        cancel(state, rnd, 1 - side)
    else:
        plus(rnd, side, 0, 1)


@combat_effect("daring-defiance", companion_in_battle)
def daring_defiance(state: WotrState, battle: Battle, rnd: Round, side: int,
                    part: int) -> None:
    """Give up the Leadership of every Companion in the battle to cancel the Shadow's card
    (with no Shadow card to cancel, nothing is given up)."""
    if rnd.cards[1 - side] < 0:
        return
    for c in companions_in(state, battle):
        give_up_character(state, rnd, side, c)
    cancel(state, rnd, 1 - side)


__all__ = ["FOREST_REGIONS", "cancel", "companion_in_battle", "in_fellowship_region",
           "in_fp_nation", "in_rohan_or_forest", "nazgul_leading", "own_elite", "plus"]
