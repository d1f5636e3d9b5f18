"""Free Peoples Strategy cards that strike, attack or move Armies (facts §6.3 #5, #6, #10-#12).

Hits on an Army go through :mod:`.hits` (the owner chooses each casualty; no attack), the
attack through :mod:`.card_battles`, the moves through :mod:`.moves`.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardkit.frames import Frame

from ..battle.attack import attack_targets
from ..battle.forces import battle_of
from ..battle.round import REVEAL_HOOKS, Round, with_side
from ..companions import MOVING_KINDS, besieged_by
from ..decision import Action
from ..events import event
from ..regions import NATIONS_OF, units
from ..state import FREE_PEOPLES, SHADOW, WotrState, log
from .card_battles import battle_card, start_card_battle
from .common import Choose, choice_step, nation, region
from .hits import card_hits
from .moves import MOVE_RULES, CardMove, MoveRule
from .recruit import recruit

SPIRIT_OF_MORDOR = "fp-strat-05-the-spirit-of-mordor"
FARAMIRS_RANGERS = "fp-strat-06-faramirs-rangers"
HELP_UNLOOKED_FOR = "fp-strat-10-help-unlooked-for"
PATHS_OF_THE_WOSES = "fp-strat-11-paths-of-the-woses"
DAY_AND_NIGHT = "fp-strat-12-through-a-day-and-a-night"
RANGERS_REGIONS = ("osgiliath", "north-ithilien", "south-ithilien")


def strike(state: WotrState, region: int, dice: int) -> None:
    """The Free Peoples roll ``dice``; each 5+ is a hit on the Shadow Army there (its field,
    or its box when it is besieged)."""
    rolled = state.chance.roll(FREE_PEOPLES, dice)
    hits = sum(d >= 5 for d in rolled)
    log(state, "card-roll", FREE_PEOPLES, tuple(rolled), hits)
    box = units(state, region, SHADOW) == 0
    card_hits(state, SHADOW, region, hits, box=box)


def shadow_nations_in(state: WotrState, r: int) -> int:
    """How many Shadow nations have units in the region (field and box)."""
    grid = state.army[r, NATIONS_OF[SHADOW], :2] + state.box[r, NATIONS_OF[SHADOW], :2]
    return int((grid.sum(axis=1) > 0).sum())


# -- The Spirit of Mordor (#5) ----------------------------------------------------------------
@event(SPIRIT_OF_MORDOR)
def the_spirit_of_mordor(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Choose(side, "spirit-of-mordor"))


@choice_step("spirit-of-mordor", lambda state, frame: tuple(
    ("region", r) for r in range(len(state.ruleset.board.regions))
    if shadow_nations_in(state, r) >= 2))
def _spirit_target(state: WotrState, frame: Choose, action: Action) -> None:
    strike(state, action[1], 5)


# -- Faramir's Rangers (#6) -------------------------------------------------------------------
@dataclass
class RangersRecruit(Frame):
    """Then, if a Free Peoples Army is in Osgiliath: 1 Gondor unit and 1 Leader there."""

    def run(self, state: WotrState) -> None:
        state.stack.pop()
        osgiliath = region(state, "osgiliath")
        if units(state, osgiliath, FREE_PEOPLES) > 0:
            recruit(state, FREE_PEOPLES, osgiliath, nation(state, "gondor"), ("unit", "leader"))
        return None


@event(FARAMIRS_RANGERS)
def faramirs_rangers(state: WotrState, side: int, card: int) -> None:
    state.stack.append(RangersRecruit())
    state.stack.append(Choose(side, "faramirs-rangers"))


@choice_step("faramirs-rangers", lambda state, frame: tuple(
    ("region", region(state, r)) for r in RANGERS_REGIONS
    if units(state, region(state, r), SHADOW) > 0))
def _rangers_target(state: WotrState, frame: Choose, action: Action) -> None:
    strike(state, action[1], 3)


# -- Help Unlooked For (#10) ------------------------------------------------------------------
def relief_targets(state: WotrState) -> list[Action]:
    """Field battles a Free Peoples Army may start against Shadow besiegers next to it."""
    return [t for t in attack_targets(state, FREE_PEOPLES)
            if t[0] == "edge" and units(state, t[2], FREE_PEOPLES, box=True) > 0]


@event(HELP_UNLOOKED_FOR)
def help_unlooked_for(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Choose(side, "help-unlooked-for"))


@choice_step("help-unlooked-for", lambda state, frame: tuple(relief_targets(state)))
def _help_target(state: WotrState, frame: Choose, action: Action) -> None:
    start_card_battle(state, FREE_PEOPLES, action, HELP_UNLOOKED_FOR)


def _fewer_shadow_dice(state: WotrState, battle: object, rnd: Round) -> None:
    """Each round of the card's battle: the Shadow rolls one die fewer per Free Peoples unit
    in the besieged Stronghold (at least one: ``Round.combat_dice``)."""
    if battle_card(state) != HELP_UNLOOKED_FOR:
        return
    inside = units(state, battle_of(state).dst, FREE_PEOPLES, box=True)
    rnd.dice_delta = with_side(rnd.dice_delta, SHADOW, rnd.dice_delta[SHADOW] - inside)


REVEAL_HOOKS.append(_fewer_shadow_dice)


# -- Paths of the Woses (#11) -----------------------------------------------------------------
def rohan_armies(state: WotrState, side: int) -> list[int]:
    """Rohan regions with a Free Peoples Army, in the field or besieged in the box."""
    board, rohan = state.ruleset.board, nation(state, "rohan")
    return [r for r in range(len(board.regions)) if board.region_nation[r] == rohan
            and (units(state, r, side) or units(state, r, side, box=True))]


def woses_destinations(state: WotrState, frame: CardMove, here: int) -> list[int]:
    """Minas Tirith, or a region next to it if the Shadow controls or besieges it."""
    mt = region(state, "minas-tirith")
    if state.control[mt] == SHADOW or besieged_by(state, mt, SHADOW):
        return [int(r) for r in state.ruleset.board.neighbours[mt]]
    return [mt]


MOVE_RULES[PATHS_OF_THE_WOSES] = MoveRule(
    steps=1, sources=rohan_armies, ends=lambda state, frame, r: True,
    nexts=woses_destinations, from_box=True)


@event(PATHS_OF_THE_WOSES, lambda state, side: bool(state.politics[nation(state, "rohan")] == 0))
def paths_of_the_woses(state: WotrState, side: int, card: int) -> None:
    state.stack.append(CardMove(side, PATHS_OF_THE_WOSES))


# -- Through a Day and a Night (#12) ----------------------------------------------------------
def has_companion(state: WotrState, chars: tuple[int, ...]) -> bool:
    kinds = state.ruleset.cards.characters
    return any(kinds[c].kind in MOVING_KINDS for c in chars)


def armies_with_companion(state: WotrState, side: int = FREE_PEOPLES) -> list[int]:
    """Regions where a Free Peoples Army in the field has a Companion with it."""
    cards = state.ruleset.cards
    return sorted({int(state.char_at[c]) for c, ch in enumerate(cards.characters)
                   if ch.kind in MOVING_KINDS and state.char_at[c] >= 0
                   and not state.char_in_box[c]
                   and units(state, int(state.char_at[c]), FREE_PEOPLES) > 0})


MOVE_RULES[DAY_AND_NIGHT] = MoveRule(
    steps=2, sources=armies_with_companion, ends=lambda state, frame, r: True,
    keeps=has_companion)


@event(DAY_AND_NIGHT, lambda state, side: bool(armies_with_companion(state)))
def through_a_day_and_a_night(state: WotrState, side: int, card: int) -> None:
    state.stack.append(CardMove(side, DAY_AND_NIGHT))


__all__ = ["RANGERS_REGIONS", "armies_with_companion", "relief_targets", "rohan_armies",
           "shadow_nations_in", "strike", "woses_destinations"]
