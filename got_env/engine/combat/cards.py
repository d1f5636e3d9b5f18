"""House-card abilities: one table keyed by card id (STYLE.md habit 6).

Every card with text (``ability`` not null in ``data/2e/house_cards.yaml``) has one
:class:`Ability` in :data:`ABILITIES`, registered by ``got_env.engine.abilities`` (one module per
house) when the engine is imported; a card without text has none (tests/test_card_registry.py).
The combat (got_env.engine.combat) consults the abilities of the two *revealed* cards through the
named hooks of the record and nothing else, at fixed moments (R15.3.3-R15.3.4, facts §7 timing
words):

* ``cancel``: a step pushed right after the reveal, before every other ability (Tyrion).
* ``reveal``: a step pushed after the cancel abilities, in Iron Throne order (Mace, Doran, ...).
* ``strength`` / ``swords`` / ``fortifications``: static modifiers
  ``fn(state, combat, owner_side, side) -> int``, asked for *both* sides while strengths and icons
  are worked out; the result is added to ``side``'s card value (Balon lowers the opponent's,
  Stannis raises his own).
* ``unit_value``: ``fn(state, combat, owner_side, side, house, unit_type, value) -> int``, the
  value one of ``house``'s units of ``unit_type`` now has when it adds strength to ``side``
  (attacking, defending or supporting; routed units stay 0), given the ``value`` it has so far
  (Kevan and Victarion set 2, Salladhor 0; anything else is returned unchanged).

Static hooks of the two cards are applied in Iron Throne order of their owners, each on the
result of the one before (R15.3.4 (2); :func:`.strength.revealed_abilities`): two ``unit_value``
hooks setting the same unit's value leave the later one's value (Salladhor against
Victarion). The additive modifiers give the same sum in either order.
* ``no_casualties``: the owner's units cannot be casualties of swords, of card text (Mace) or of
  Tides of Battle skulls (The Blackfish; :func:`.strength.immune_to_casualties`).
* ``after_winner``: a step pushed once the winner is known ("if you win/lose").
* ``after_retreat``: a step pushed once casualties and the retreat are done, before the cleanup
  puts the cards away (1e spec 9 reading: the 1st edition's "if you win" cards).
* ``after_combat``: a step pushed after the combat cleanup (Patchface, Loras).

Three more hooks serve the 1st edition's cards (got_env/engine/abilities/first_edition.py):

* ``fighting_unit_value`` / ``supporting_unit_value``: as ``unit_value``, but asked only for the
  side's own attacking or defending units (Robb, Vargo, Victarion: "attacking knights led by
  him") or only for units in supporting areas (Salladhor: "supporting ships count 0").
* ``cancels_opponent``: the opponent card's ability has no effect at all (Queen of Thorns);
  :func:`got_env.engine.combat.strength.side_ability` answers which abilities still act.

A card's ``ability`` id (house_cards.yaml) is looked up by :func:`ability_named` in
:data:`ABILITIES` (the 2nd edition's texts, keyed by their card ids; the 1st-edition cards that do
exactly what a 2nd-edition card does share its id) and then in :data:`FIRST_EDITION_ABILITIES`
(the 1st edition's own texts, ids ending in ``-1e``).

A step hook holds the step's frame class (a :class:`~got_env.engine.abilities.base.CardStep`:
``run`` and ``act`` of its own), which the combat pushes with the ``side`` of the card; the
step finds the combat as the innermost one on the stack
(:func:`got_env.engine.combat.frame.combat_frame`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..frames import GotFrame
from ..state import GameState
from .stages import Side

if TYPE_CHECKING:  # (frame.py, which reads these hooks through strength.py, declares the frame)
    from .frame import CombatFrame

#: The frame class of a card's step (an ``abilities.base.CardStep``, declared by the abilities,
#: which sit above the combat).
Step = type[GotFrame]

# fn(state, combat frame, side of the card's owner, side whose value is worked out) -> int
Modifier = Callable[[GameState, "CombatFrame", Side, Side], int]
# fn(state, combat frame, owner side, side given strength, unit's house, unit type, value so far)
#   -> the unit's value
UnitValue = Callable[[GameState, "CombatFrame", Side, Side, int, int, int], int]


@dataclass(frozen=True)
class Ability:
    """The hooks of one card's text; a hook left None does nothing. ``card`` is the ability's id
    (the card's ``ability`` in house_cards.yaml)."""

    card: str
    cancel: Step | None = None
    reveal: Step | None = None
    strength: Modifier | None = None
    swords: Modifier | None = None
    fortifications: Modifier | None = None
    unit_value: UnitValue | None = None
    no_casualties: bool = False
    after_winner: Step | None = None
    after_combat: Step | None = None
    after_retreat: Step | None = None
    fighting_unit_value: UnitValue | None = None
    supporting_unit_value: UnitValue | None = None
    cancels_opponent: bool = False


ABILITIES: dict[str, Ability] = {}
FIRST_EDITION_ABILITIES: dict[str, Ability] = {}

STEP_HOOKS = ("cancel", "reveal", "after_winner", "after_combat", "after_retreat")


def register(ability: Ability, table: dict[str, Ability] | None = None) -> Ability:
    """Enter ``ability`` in ``table`` (default :data:`ABILITIES`) under its id; an id is
    registered once across both tables."""
    if ability.card in ABILITIES or ability.card in FIRST_EDITION_ABILITIES:
        raise ValueError(f"ability of {ability.card!r} registered twice")
    (ABILITIES if table is None else table)[ability.card] = ability
    return ability


def ability_named(name: str | None) -> Ability | None:
    """The registered ability of a card's ``ability`` id (None: a plain card, or none there)."""
    if name is None:
        return None
    return ABILITIES.get(name) or FIRST_EDITION_ABILITIES.get(name)
