"""Shadow Strategy cards that strike, attack, move Armies or push a nation back (facts §6.5 #1,
#2, #6-#9, #11; *Corsairs of Umbar*, #10, in :mod:`.shadow_strategy_corsairs`).

Hits go through :mod:`.hits`, the attack through :mod:`.card_battles`, the multi-region moves
through :mod:`.moves`.
"""

from __future__ import annotations

import numpy as np

from ..armies import ArmyMove, closed, move_figures
from ..battle.attack import can_attack_from
from ..battle.siege import besieged_side, settle_siege
from ..companions import MOVING_KINDS
from ..decision import DONE, Action
from ..events import event
from ..regions import STRONGHOLD, free, lone_leaders, remove_figures, units
from ..state import ELITE, FREE_PEOPLES, LEADER, OFF_MORDOR, REGULAR, SHADOW, WotrState, log
from .card_battles import NO_FP_CARD_IN_ROUND_1, start_card_battle
from .common import Choose, choice_step, nation, region
from .conditions import all_shadow_at_war, at_war, in_play
from .hits import card_hits
from .moves import MOVE_RULES, CardMove, MoveRule
from .recruit import recruit

RETURN_TO_VALINOR = "sh-strat-01-return-to-valinor"
FIGHTING_URUK_HAI = "sh-strat-02-the-fighting-uruk-hai"
STORMCROW = "sh-strat-06-stormcrow"
SHADOWS_GATHER = "sh-strat-07-shadows-gather"
SHADOW_LENGTHENS = "sh-strat-08-the-shadow-lengthens"
SHADOW_IS_MOVING = "sh-strat-09-the-shadow-is-moving"
RAGE_OF_THE_DUNLENDINGS = "sh-strat-11-rage-of-the-dunlendings"
DUNLAND = ("north-dunland", "south-dunland")
ISENGARD, TOP_STEP, RAGE_MOVES = 5, 3, 4


# -- Return to Valinor (#1) -------------------------------------------------------------------
def elven_strongholds(state: WotrState) -> list[int]:
    board, elves = state.ruleset.board, nation(state, "elves")
    return [r for r in range(len(board.regions))
            if board.region_nation[r] == elves and board.settlement[r] == STRONGHOLD]


def shadow_holds_an_elven_stronghold(state: WotrState, side: int) -> bool:
    """"You control at least one Elven Stronghold", the Shadow playing it (facts §8.3)."""
    return any(state.control[r] == SHADOW for r in elven_strongholds(state))


@event(RETURN_TO_VALINOR, shadow_holds_an_elven_stronghold)
def return_to_valinor(state: WotrState, side: int, card: int) -> None:
    """Each Elven Stronghold not besieged: one die per Elven unit there (at most 5), each 6 a
    hit on that Army; the regions in board order."""
    elves = nation(state, "elves")
    strikes = []
    for r in elven_strongholds(state):
        n = min(5, int(state.army[r, elves, :2].sum()))
        if n == 0 or state.box[r].any():
            continue
        rolled = state.chance.roll(SHADOW, n)
        hits = sum(d == 6 for d in rolled)
        log(state, "card-roll", SHADOW, tuple(rolled), hits)
        strikes.append((r, hits))
    for r, hits in reversed(strikes):
        card_hits(state, FREE_PEOPLES, r, hits)


# -- The Fighting Uruk-hai (#2) ---------------------------------------------------------------
def uruk_hai_targets(state: WotrState) -> list[int]:
    """Strongholds besieged by a Shadow Army with an Isengard unit, which may attack there."""
    board = state.ruleset.board
    return [r for r in range(len(board.regions))
            if board.settlement[r] == STRONGHOLD and units(state, r, FREE_PEOPLES, box=True)
            and state.army[r, ISENGARD, :2].sum() > 0
            and can_attack_from(state, r, SHADOW, False, False) and not closed(state, SHADOW, r)]


@event(FIGHTING_URUK_HAI, lambda state, side: in_play("saruman")(state, side)
       and bool(uruk_hai_targets(state)))
def the_fighting_uruk_hai(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Choose(side, "fighting-uruk-hai"))


@choice_step("fighting-uruk-hai",
             lambda state, frame: tuple(("region", r) for r in uruk_hai_targets(state)))
def _uruk_hai_attack(state: WotrState, frame: Choose, action: Action) -> None:
    start_card_battle(state, SHADOW, action, FIGHTING_URUK_HAI, siege_rounds=3)


NO_FP_CARD_IN_ROUND_1.add(FIGHTING_URUK_HAI)


# -- Stormcrow (#6) ---------------------------------------------------------------------------
def stormcrow_nations(state: WotrState) -> list[int]:
    """Free Peoples nations not At War whose borders hold the Fellowship or a Companion."""
    board, cards = state.ruleset.board, state.ruleset.cards
    where = [int(state.char_at[c]) for c, ch in enumerate(cards.characters)
             if ch.kind in MOVING_KINDS and state.char_at[c] >= 0]
    if state.mordor_step == OFF_MORDOR:
        where.append(state.fellowship_region)
    return sorted({int(board.region_nation[r]) for r in where
                   if 0 <= board.region_nation[r] < 5 and state.politics[board.region_nation[r]]})


@event(STORMCROW, lambda state, side: bool(stormcrow_nations(state)))
def stormcrow(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Choose(side, "stormcrow"))


@choice_step("stormcrow", lambda state, frame: tuple(("nation", n)
                                                     for n in stormcrow_nations(state)))
def _stormcrow_nation(state: WotrState, frame: Choose, action: Action) -> None:
    n = action[1]
    if state.politics[n] < TOP_STEP:
        state.politics[n] += 1
        log(state, "politics", n, int(state.politics[n]))
    state.stack.append(Choose(FREE_PEOPLES, "stormcrow-region", (n,)))


def _holding(state: WotrState, n: int) -> list[tuple[int, bool]]:
    """(region, in the box) where nation ``n`` has a Regular, an Elite or a Leader."""
    return [(int(r), box) for box, grid in ((False, state.army), (True, state.box))
            for r in np.flatnonzero(grid[:, n, :3].sum(axis=1))]


@choice_step("stormcrow-region", lambda state, frame: tuple(
    ("region", r) for r, _ in _holding(state, frame.data[0])))
def _stormcrow_region(state: WotrState, frame: Choose, action: Action) -> None:
    state.stack.append(Choose(FREE_PEOPLES, "stormcrow-figure", (frame.data[0], action[1])))


def _figures_there(state: WotrState, frame: Choose) -> tuple[Action, ...]:
    n, r = frame.data
    grid = state.box if state.box[r, n, :3].any() else state.army
    return tuple(("figure", k) for k in (REGULAR, ELITE, LEADER) if grid[r, n, k] > 0)


@choice_step("stormcrow-figure", _figures_there)
def _stormcrow_figure(state: WotrState, frame: Choose, action: Action) -> None:
    """The figure is eliminated; a Leader left alone goes too; a siege settles as after a
    card's hits (:mod:`.hits`): a box left without units falls, besiegers gone lift it."""
    n, r = frame.data
    box = bool(state.box[r, n, :3].any())
    remove_figures(state, r, n, action[1], 1, box)
    log(state, "eliminated", FREE_PEOPLES, r, n, action[1])
    lone_leaders(state, r)
    inside = besieged_side(state, r)
    if inside is not None:
        settle_siege(state, r, inside)


# -- Shadows Gather (#7), The Shadow Lengthens (#8), The Shadow is Moving (#9) ---------------
def shadow_armies(state: WotrState, side: int) -> list[int]:
    return [int(r) for r in np.flatnonzero(state.army[:, 5:, :2].sum(axis=(1, 2)))]


def joins_another_army(state: WotrState, frame: CardMove, r: int) -> bool:
    """The path ends where another Shadow Army stands in the field (not besieged; the moving
    Army is still in its region while its path is chosen)."""
    return units(state, r, SHADOW) > 0


MOVE_RULES[SHADOWS_GATHER] = MoveRule(steps=3, sources=shadow_armies, ends=joins_another_army)
MOVE_RULES[SHADOW_LENGTHENS] = MoveRule(steps=2, sources=shadow_armies, ends=joins_another_army)


@event(SHADOWS_GATHER)
def shadows_gather(state: WotrState, side: int, card: int) -> None:
    state.stack.append(CardMove(side, SHADOWS_GATHER))


@event(SHADOW_LENGTHENS)
def the_shadow_lengthens(state: WotrState, side: int, card: int) -> None:
    state.stack.append(CardMove(side, SHADOW_LENGTHENS, moves_left=2))


@event(SHADOW_IS_MOVING, all_shadow_at_war)
def the_shadow_is_moving(state: WotrState, side: int, card: int) -> None:
    """Up to four different Armies one region each: an Army die's move, four times."""
    state.stack.append(ArmyMove(side, 4, False))


# -- Rage of the Dunlendings (#11) ------------------------------------------------------------
def rage_regions(state: WotrState) -> list[int]:
    """Free regions next to North or South Dunland."""
    board = state.ruleset.board
    near = {int(n) for d in DUNLAND for n in board.neighbours[region(state, d)]}
    return sorted(r for r in near if free(state, r, SHADOW))


@event(RAGE_OF_THE_DUNLENDINGS, at_war("isengard"))
def rage_of_the_dunlendings(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Choose(side, "rage-of-the-dunlendings"))


@choice_step("rage-of-the-dunlendings",
             lambda state, frame: tuple(("region", r) for r in rage_regions(state)))
def _rage_region(state: WotrState, frame: Choose, action: Action) -> None:
    state.stack.append(Choose(SHADOW, "rage-move", (action[1], 0)))
    recruit(state, SHADOW, action[1], ISENGARD, ("regular", "regular"))


def _rage_sources(state: WotrState, frame: Choose) -> tuple[Action, ...]:
    """DONE, or a Dunland region to move an Isengard unit in from (up to 4 units, within the
    stacking limit)."""
    to, moved = frame.data
    if moved >= RAGE_MOVES or units(state, to, SHADOW) >= 10 or closed(state, SHADOW, to) \
            or not free(state, to, SHADOW):
        return ()
    return (DONE, *(("region", r) for r in (region(state, d) for d in DUNLAND)
                    if r != to and state.army[r, ISENGARD, :2].sum() > 0))


@choice_step("rage-move", _rage_sources)
def _rage_source(state: WotrState, frame: Choose, action: Action) -> None:
    if action != DONE:
        state.stack.append(Choose(SHADOW, "rage-figure", (*frame.data, action[1])))


@choice_step("rage-figure", lambda state, frame: tuple(
    ("figure", k) for k in (REGULAR, ELITE) if state.army[frame.data[2], ISENGARD, k] > 0))
def _rage_move(state: WotrState, frame: Choose, action: Action) -> None:
    to, moved, src = frame.data
    figs = np.zeros(state.army.shape[1:], np.int16)
    figs[ISENGARD, action[1]] = 1
    move_figures(state, SHADOW, src, to, figs, ())
    state.stack.append(Choose(SHADOW, "rage-move", (to, moved + 1)))


__all__ = ["elven_strongholds", "rage_regions", "shadow_armies", "stormcrow_nations",
           "uruk_hai_targets"]
