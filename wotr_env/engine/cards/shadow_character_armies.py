"""The Shadow Character cards that strike Free Peoples Armies (facts §6.4 #19, #20).

*Dreadful Spells* rolls one die per Nazgûl of a Shadow Army (the Witch-king counts as one for
card text, facts §3.4) against a Free Peoples Army in or next to its region, a besieged garrison
included; its hits are taken as a card's (:mod:`.hits`) and it is no attack. *Grond* sends the
Witch-king's besieging Army against the Stronghold in a siege battle of three rounds
(:func:`.card_battles.start_card_battle`), the Free Peoples barred from Combat cards in round 1
unless a Companion fights (:data:`.card_battles.NO_FP_CARD_IN_ROUND_1`).
"""

from __future__ import annotations

from ..battle.attack import can_attack_from
from ..companions import besieged_by
from ..decision import Action
from ..events import event
from ..regions import units
from ..state import FREE_PEOPLES, NAZGUL, SHADOW, WotrState, log
from .card_battles import NO_FP_CARD_IN_ROUND_1, start_card_battle
from .common import SAURON, Choose, choice_step, witch_king
from .hits import card_hits


def nazgul_count(state: WotrState, region: int, box: bool) -> int:
    """Nazgûl with the Shadow Army in the region's field (or box); the Witch-king counts as
    one for card text (facts §3.4)."""
    grid = state.box if box else state.army
    wk = witch_king(state)
    with_wk = state.char_at[wk] == region and bool(state.char_in_box[wk]) == box
    return int(grid[region, SAURON, NAZGUL]) + int(with_wk)


def spell_sources(state: WotrState) -> dict[int, list[int]]:
    """Regions of a Shadow Army with Nazgûl -> the regions of Free Peoples Armies in or next
    to it (a besieged garrison included: facts §6.4 #19)."""
    board = state.ruleset.board
    out: dict[int, list[int]] = {}
    for s in range(len(board.regions)):
        box = units(state, s, SHADOW, box=True) > 0
        if not (units(state, s, SHADOW, box=box) and nazgul_count(state, s, box)):
            continue
        near = [s, *(int(n) for n in board.neighbours[s])]
        targets = [t for t in near
                   if units(state, t, FREE_PEOPLES) or units(state, t, FREE_PEOPLES, box=True)]
        if targets:
            out[s] = targets
    return out


@event("sh-char-19-dreadful-spells", lambda state, side: bool(spell_sources(state)))
def dreadful_spells(state: WotrState, side: int, card: int) -> None:
    """One die per Nazgûl of the chosen Shadow Army (at most 5), each 5+ a hit on the chosen
    Free Peoples Army in or next to its region; not an attack."""
    state.stack.append(Choose(SHADOW, "dreadful-spells"))


@choice_step("dreadful-spells", lambda state, frame: (
    tuple(("region", s) for s in spell_sources(state)) if not frame.data
    else tuple(("region", t) for t in spell_sources(state).get(frame.data[0], ()))))
def _dreadful_spells(state: WotrState, frame: Choose, action: Action) -> None:
    if not frame.data:
        state.stack.append(Choose(SHADOW, "dreadful-spells", (action[1],)))
        return
    source, target = frame.data[0], action[1]
    n = nazgul_count(state, source, units(state, source, SHADOW, box=True) > 0)
    rolled = state.chance.roll(SHADOW, min(5, n))
    log(state, "dreadful-spells", source, target, tuple(rolled))
    card_hits(state, FREE_PEOPLES, target, sum(d >= 5 for d in rolled),
              box=units(state, target, FREE_PEOPLES) == 0)


def grond_region(state: WotrState) -> int:
    """The region where the Witch-king stands with a Shadow Army besieging a Stronghold that
    can attack it (-1 if none)."""
    wk = witch_king(state)
    r = int(state.char_at[wk])
    if r < 0 or state.char_in_box[wk] or not besieged_by(state, r, SHADOW):
        return -1
    return r if can_attack_from(state, r, SHADOW, False, False) else -1


GROND = "sh-char-20-grond-hammer-of-the-underworld"


@event(GROND, lambda state, side: grond_region(state) >= 0)
def grond(state: WotrState, side: int, card: int) -> None:
    """The Witch-king's Army attacks the Stronghold it besieges: 3 rounds, and no Free Peoples
    Combat card in round 1 without a Companion in the battle."""
    start_card_battle(state, SHADOW, ("region", grond_region(state)), GROND, siege_rounds=3)


NO_FP_CARD_IN_ROUND_1.add(GROND)
