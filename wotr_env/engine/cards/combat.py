"""What the Combat effects (facts §6.1) share: who is in the battle, Nazgûl Leadership, giving
up Leadership, the round's per-side values, and the WD-16 choice frame.

The effects themselves live by mechanism in the ``combat_*`` siblings (rolls and dice, hits
after the roll, extra attacks, kills and withdrawals); each registers with
:func:`~wotr_env.engine.battle.combat_cards.combat_effect` (``effect(state, battle, rnd, side,
part)``, its play condition ``condition(state, battle, side)``).

**Who is in the battle**: the two forces of :mod:`~wotr_env.engine.battle.forces` (the
attacker's rearguard is not in it). A *Companion* is a Character of kind companion or upgrade
(Aragorn and Gandalf the White are Companions); the Witch-king counts as a Nazgûl for card text
unless a card names him (facts §3.4), so *Nazgûl Leadership* is 1 per Nazgûl figure plus his 2
(none while *The White Rider* cancels it: read from :mod:`~wotr_env.engine.abilities_battle`).
*Words of Power* cancels a Companion's abilities through that module's ``ABILITIES_CANCELLED``
hook (the round's ``abilities_cancelled``).

**Giving up Leadership** (spec §7.6): the figure counts as no Leader for the round. The round
keeps the total given up per side (``forfeit``, which the Leader re-roll subtracts) and, for
Characters, who (``silenced``), so that nobody's Leadership is given up twice. Every Leadership
the Shadow gives up is a Nazgûl's (no Shadow card gives up another), so the Shadow's ``forfeit``
is also what is gone from its Nazgûl Leadership.

**WD-16** (COMBAT_CARD_CHOICE): an effect that needs its owner's choice pushes a
:class:`CombatChoice` naming a step registered with :func:`combat_step`; the round goes on
once it is answered. A step with no option is skipped (a card does what it can, facts §6 card
rules); one with a single option is played without asking.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from boardkit.frames import Frame

from ..abilities_battle import ABILITIES_CANCELLED
from ..abilities_battle import nazgul_leadership as abilities_nazgul_leadership
from ..battle.forces import battle_of, force, force_characters, force_units, leadership, role_of
from ..battle.round import Round as RoundFrame
from ..battle.round import with_side
from ..decision import WD, Action, Decision
from ..state import ELITE, FREE_PEOPLES, LEADER, NAZGUL, REGULAR, SHADOW, WotrState

if TYPE_CHECKING:
    from ..battle.round import Round
    from ..battle.sequence import Battle

COMPANION_KINDS = ("companion", "upgrade")
HOBBITS = ("meriadoc", "peregrin")
WITCH_KING = "witch-king"


# -- who is in the battle ----------------------------------------------------------------------

def figures_of(state: WotrState, battle: Battle, side: int) -> np.ndarray:
    """The side's figures (nations, kinds) fighting in the battle."""
    return force(state, battle, role_of(battle, side))


def characters_of(state: WotrState, battle: Battle, side: int) -> list[int]:
    """The side's Characters fighting in the battle."""
    return force_characters(state, battle, role_of(battle, side))


def units_of(state: WotrState, battle: Battle, side: int) -> int:
    """The side's Regulars and Elites in the battle."""
    return force_units(state, battle, role_of(battle, side))


def elites_of(state: WotrState, battle: Battle, side: int) -> int:
    return int(figures_of(state, battle, side)[:, ELITE].sum())


def hit_room(state: WotrState, battle: Battle, side: int) -> int:
    """The most hits the side's force can absorb: 1 per Regular, 2 per Elite."""
    figures = figures_of(state, battle, side)
    return int(figures[:, REGULAR].sum() + 2 * figures[:, ELITE].sum())


def character_id(state: WotrState, c: int) -> str:
    return state.ruleset.cards.characters[c].id


def companions_in(state: WotrState, battle: Battle) -> list[int]:
    """The Free Peoples' Companions in the battle."""
    kinds = state.ruleset.cards.characters
    return [c for c in characters_of(state, battle, FREE_PEOPLES)
            if kinds[c].kind in COMPANION_KINDS]


def minions_in(state: WotrState, battle: Battle) -> list[int]:
    """The Shadow's Minions in the battle."""
    kinds = state.ruleset.cards.characters
    return [c for c in characters_of(state, battle, SHADOW) if kinds[c].kind == "minion"]


def named_in(state: WotrState, battle: Battle, side: int, *ids: str) -> list[int]:
    """The side's Characters in the battle among those named."""
    return [c for c in characters_of(state, battle, side) if character_id(state, c) in ids]


def fp_leaders(state: WotrState, battle: Battle) -> list[Action]:
    """("unit", nation, LEADER) for each nation with a Free Peoples Leader in the battle."""
    figures = figures_of(state, battle, FREE_PEOPLES)
    return [("unit", int(n), LEADER) for n in np.flatnonzero(figures[:, LEADER])]


def nazgul_figures(state: WotrState, battle: Battle) -> list[Action]:
    """("unit", nation, NAZGUL) for each nation with a Nazgûl figure in the battle."""
    figures = figures_of(state, battle, SHADOW)
    return [("unit", int(n), NAZGUL) for n in np.flatnonzero(figures[:, NAZGUL])]


def nazgul_in(state: WotrState, battle: Battle) -> bool:
    """A Nazgûl in the battle (the Witch-king counts, facts §3.4)."""
    return bool(nazgul_figures(state, battle) or named_in(state, battle, SHADOW, WITCH_KING))


def nazgul_leadership(state: WotrState, battle: Battle, rnd: Round | None = None) -> int:
    """The Shadow's Nazgûl Leadership in the battle (1 a Nazgûl, the Witch-king his card's
    value; none under *The White Rider*: :mod:`~wotr_env.engine.abilities_battle`), less what
    the Shadow has given up this round."""
    total = abilities_nazgul_leadership(state, battle, SHADOW)
    return max(0, total - (rnd.forfeit[SHADOW] if rnd is not None else 0))


def abilities_cancelled_now(state: WotrState, character: int) -> bool:
    """The Character's abilities are cancelled by a Combat card in the round being fought
    (*Words of Power*): the hook :data:`~wotr_env.engine.abilities_battle.ABILITIES_CANCELLED`
    reads it."""
    return any(isinstance(f, RoundFrame) and character in f.abilities_cancelled
               for f in state.stack)


ABILITIES_CANCELLED.append(abilities_cancelled_now)


def leadership_left(state: WotrState, battle: Battle, rnd: Round, side: int) -> int:
    """The side's Leadership in the battle less what it has given up this round."""
    return max(0, leadership(state, battle, role_of(battle, side)) - rnd.forfeit[side])


def defending(battle: Battle, side: int) -> bool:
    return battle.side != side


# -- the round's values ------------------------------------------------------------------------

def add(rnd: Round, name: str, side: int, n: int) -> None:
    """Add ``n`` to the side's entry of the round's pair ``name`` (``roll_mod``, ``hits``...)."""
    pair = getattr(rnd, name)
    setattr(rnd, name, with_side(pair, side, pair[side] + n))


def cap_dice(rnd: Round, side: int, most: int) -> None:
    """The side's Combat roll uses at most ``most`` dice."""
    rnd.dice_cap = with_side(rnd.dice_cap, side, min(rnd.dice_cap[side], most))


def give_up_character(state: WotrState, rnd: Round, side: int, c: int) -> int:
    """The Character counts as no Leader this round; the Leadership given up (0 if his was
    given up or cancelled already)."""
    if c in rnd.silenced:
        return 0
    points = int(state.ruleset.cards.character_leadership[c])
    rnd.silenced = (*rnd.silenced, c)
    add(rnd, "forfeit", side, points)
    return points


def turn_misses_into_hits(rnd: Round, side: int, most: int) -> int:
    """Up to ``most`` missed dice of the side's Combat roll become hits (not re-rolled); the
    number turned."""
    misses = len(rnd.rolled[side]) - rnd.roll_hits[side] - rnd.locked[side]
    n = max(0, min(most, misses))
    add(rnd, "roll_hits", side, n)
    add(rnd, "hits", side, n)
    return n


# -- WD-16 -------------------------------------------------------------------------------------

StepOptions = Callable[[WotrState, "CombatChoice"], tuple[Action, ...]]
StepThen = Callable[[WotrState, "CombatChoice", Action], None]
COMBAT_STEPS: dict[str, tuple[StepOptions, StepThen]] = {}


def combat_step(name: str, options: StepOptions) -> Callable[[StepThen], StepThen]:
    """Register the WD-16 step ``name``: ``options(state, frame)`` lists its options when it is
    asked, ``then(state, frame, action)`` plays the one chosen (decorator on ``then``)."""

    def register(then: StepThen) -> StepThen:
        if name in COMBAT_STEPS:
            raise ValueError(f"combat choice {name!r} registered twice")
        COMBAT_STEPS[name] = (options, then)
        return then

    return register


@dataclass
class CombatChoice(Frame):
    """WD-16: ``side`` chooses for a Combat effect (or a battle ability); ``step`` names the
    registered choice, ``data`` its locals (immutable)."""

    side: int
    step: str
    data: tuple[Any, ...] = ()

    def run(self, state: WotrState) -> Decision | None:
        options = COMBAT_STEPS[self.step][0](state, self)
        if not options:
            state.stack.pop()
            return None
        battle = battle_of(state)
        return Decision(self.side, WD.COMBAT_CARD_CHOICE, tuple(options),
                        context={"step": self.step, "battle": (battle.src, battle.dst),
                                 "round": battle.round})

    def act(self, state: WotrState, action: Action) -> None:
        state.stack.pop()
        COMBAT_STEPS[self.step][1](state, self, action)


__all__ = ["COMBAT_STEPS", "COMPANION_KINDS", "HOBBITS", "WITCH_KING", "CombatChoice", "add",
           "abilities_cancelled_now", "cap_dice", "character_id", "characters_of", "combat_step",
           "companions_in", "defending", "elites_of", "figures_of", "fp_leaders",
           "give_up_character", "hit_room", "leadership_left", "minions_in", "named_in",
           "nazgul_figures", "nazgul_in", "nazgul_leadership", "turn_misses_into_hits",
           "units_of"]
