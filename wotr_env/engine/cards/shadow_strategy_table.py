"""Shadow Strategy cards played on the table (facts §6.5 #3, #5); their discards through
:mod:`.table`.

*Denethor's Folly*: while a Shadow Army besieges Minas Tirith; on play one Free Peoples Leader
there is eliminated (the Shadow, who plays it, picks which nation's); while it lies on the table
the Free Peoples play no Combat card in a battle at Minas Tirith
(``battle.combat_cards.PLAY_BANS``). It goes when the siege ends (its condition lapses), or when
the Free Peoples spend a Will of the West die on it, or any die while Gandalf (the Grey or the
White) or Aragorn is in Minas Tirith.

*Threats and Promises*: while it lies on the table a Muster die may not advance a Passive Free
Peoples nation (``politics.DIPLOMACY_LIMITS``); it goes as soon as a Free Peoples nation
advances because of an attack or of a Companion's ability (``politics.ADVANCE_HOOKS``: causes
"attack", "companion").
"""

from __future__ import annotations

from ..abilities_dice import ADVANCE_HOOKS as COMPANION_ADVANCE_HOOKS
from ..battle.combat_cards import PLAY_BANS
from ..battle.sequence import Battle
from ..companions import besieged_by
from ..decision import WILL, Action
from ..events import event
from ..politics import DIPLOMACY_LIMITS
from ..regions import lone_leaders, remove_figures
from ..state import FREE_PEOPLES, LEADER, SHADOW, WotrState
from .common import Choose, choice_step, region
from .table import discard_when, discard_when_lapsed, discard_with_die, fire, in_force

DENETHORS_FOLLY = "sh-strat-03-denethors-folly"
THREATS_AND_PROMISES = "sh-strat-05-threats-and-promises"
FOLLY_BREAKERS = ("gandalf-the-grey", "gandalf-the-white", "aragorn")
FP_NATIONS = 5  # nations 0-4 are the Free Peoples'



def minas_tirith_besieged(state: WotrState, side: int = SHADOW) -> bool:
    """A Shadow Army besieges Minas Tirith (facts §6.5 #3's condition)."""
    return besieged_by(state, region(state, "minas-tirith"), SHADOW)


def _mt_leaders(state: WotrState) -> list[int]:
    """Free Peoples nations with a Leader in Minas Tirith's box."""
    mt = region(state, "minas-tirith")
    return [n for n in range(FP_NATIONS) if state.box[mt, n, LEADER] > 0]


@event(DENETHORS_FOLLY, minas_tirith_besieged)
def denethors_folly(state: WotrState, side: int, card: int) -> None:
    state.stack.append(Choose(side, "denethors-folly"))


@choice_step("denethors-folly",
             lambda state, frame: tuple(("nation", n) for n in _mt_leaders(state)))
def _folly_leader(state: WotrState, frame: Choose, action: Action) -> None:
    mt = region(state, "minas-tirith")
    remove_figures(state, mt, action[1], LEADER, 1, box=True)
    lone_leaders(state, mt)


def _no_card_at_minas_tirith(state: WotrState, battle: Battle, side: int) -> bool:
    return side == FREE_PEOPLES and battle.dst == region(state, "minas-tirith") \
        and in_force(state, DENETHORS_FOLLY)


def _breaks_the_folly(state: WotrState, face: int) -> bool:
    """A Will of the West die; any die with Gandalf or Aragorn in Minas Tirith."""
    cards, mt = state.ruleset.cards, region(state, "minas-tirith")
    return face == WILL or any(state.char_at[cards.character(c)] == mt for c in FOLLY_BREAKERS)


PLAY_BANS.append(_no_card_at_minas_tirith)
discard_when_lapsed(DENETHORS_FOLLY, minas_tirith_besieged)
discard_with_die(DENETHORS_FOLLY, FREE_PEOPLES, _breaks_the_folly)


@event(THREATS_AND_PROMISES)
def threats_and_promises(state: WotrState, side: int, card: int) -> None:
    """On the table (``play_card``); its rule is the diplomacy limit below."""


def _no_passive_diplomacy(state: WotrState, side: int, nation: int) -> bool:
    return not (side == FREE_PEOPLES and in_force(state, THREATS_AND_PROMISES)
                and not state.active[nation])


DIPLOMACY_LIMITS.append(_no_passive_diplomacy)
discard_when("advanced", THREATS_AND_PROMISES,
             lambda state, nation, cause: nation < FP_NATIONS and cause in ("attack", "companion"))
# The Companions' die ability (``abilities_dice``) reports its advances through its own hook.
COMPANION_ADVANCE_HOOKS.append(lambda state, nation: fire(state, "advanced", nation, "companion"))


__all__ = ["DENETHORS_FOLLY", "THREATS_AND_PROMISES", "minas_tirith_besieged"]
