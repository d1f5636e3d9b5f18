"""A combat's strength and icons (§15.2, §15.5, R15.3.4, R15.3.7): what the two revealed house
cards make of either side's values, the support that still counts, the initial and final
strength. Read by every stage of the combat (got_env.engine.combat), by the card abilities and
by the renderers; it changes nothing.

House-card abilities act here only through the static hooks of their
:class:`~got_env.engine.combat.cards.Ability` record (:func:`card_value`, :func:`unit_values`,
:func:`immune_to_casualties`), applied in Iron Throne order of the cards' owners
(R15.3.4 (2)); a card may cancel the opponent's ability (:func:`side_ability`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..board import occupant
from ..state import GameState
from ..support import Values, support_strength, unit_strength
from . import tides
from .cards import Ability, ability_named
from .stages import ATTACKER, Side, other

if TYPE_CHECKING:  # (frame.py, which runs this module's handlers, declares the frame)
    from .frame import CombatFrame


def printed_ability(state: GameState, card: int | None) -> Ability | None:
    """The ability of a card's text (None: no card, or a plain one)."""
    return ability_named(state.ruleset.house_cards[card].ability) if card is not None else None


def side_ability(state: GameState, frame: CombatFrame, side: str) -> Ability | None:
    """The ability of the side's card, unless the opponent's card cancels it (1e Queen of
    Thorns, 1e spec 9 and C.15: two such cards cancel each other)."""
    cards = frame.cards
    own = printed_ability(state, cards.get(side))
    opp = printed_ability(state, cards.get(other(side)))
    return None if opp is not None and opp.cancels_opponent else own


def revealed_abilities(state: GameState, frame: CombatFrame) -> list[tuple[Side, Ability]]:
    """(owner side, ability) of the revealed cards with text, in Iron Throne order of their
    owners as the track stands now: conflicting static abilities resolve in that order, each on
    the result of the one before (R15.3.4 (2)). Nothing before both cards are revealed (a chosen
    card acts only once it is shown, R15.3.3)."""
    if frame.revealed is not True:
        return []
    out = []
    for h in state.turn_order():
        side = frame.side_of(h)
        ability = side_ability(state, frame, side) if side else None
        if ability is not None:
            out.append((side, ability))
    return out


def card_value(state: GameState, frame: CombatFrame, side: str, what: str) -> int:
    """Printed strength/swords/fortifications of the side's card plus the static modifiers of
    both revealed cards (an ability may change the opponent's value: Balon). No card: 0."""
    card = frame.cards.get(side)
    if card is None:
        return 0
    total = getattr(state.ruleset.house_cards[card], what)
    for owner, ability in revealed_abilities(state, frame):
        fn = getattr(ability, what)
        if fn is not None:
            total += fn(state, frame, owner, side)
    return total


def unit_values(state: GameState, frame: CombatFrame, side: str, house: int,
                supporting: bool = False) -> Values | None:
    """What the revealed cards make of the values of ``house``'s units adding strength to
    ``side``: their ``unit_value`` hooks, and ``supporting_unit_value`` for units in supporting
    areas or ``fighting_unit_value`` for the side's own attacking or defending units, in Iron
    Throne order, each given the value left by the one before (R15.3.4 (2): Victarion's 2 and
    Salladhor's 0 for the same Ship, the later card wins). None when no card changes unit
    values."""
    hooks = []
    for owner, ability in revealed_abilities(state, frame):
        role = ability.supporting_unit_value if supporting else ability.fighting_unit_value
        hooks += [(owner, hook) for hook in (ability.unit_value, role) if hook is not None]
    if not hooks:
        return None

    def values(base: np.ndarray) -> np.ndarray:
        out = base.copy()
        for owner, hook in hooks:
            for u in range(len(out)):
                out[u] = hook(state, frame, owner, side, house, u, int(out[u]))
        return out

    return values


def immune_to_casualties(state: GameState, frame: CombatFrame, side: str) -> bool:
    """Whether ``side``'s units cannot be casualties of swords, card text or Tides skulls
    (a revealed card with ``no_casualties``: The Blackfish)."""
    return any(owner == side and ability.no_casualties
               for owner, ability in revealed_abilities(state, frame))


def defense_bonus(state: GameState, frame: CombatFrame) -> int:
    """§15.2: the bonus of the defender's Defense order in the embattled area, 0 if none."""
    area = frame.area
    if state.orders[area] >= 0 and occupant(state, area) == frame.defender:
        token = state.ruleset.order_tokens[state.orders[area]]
        if token.type == "defense":
            return int(token.bonus)
    return 0


def given_support(state: GameState, frame: CombatFrame, side: str) -> dict[int, list[int]]:
    """house -> its Support areas whose support is declared for ``side`` (``support_given``),
    not refused, and whose order is still on the board (a removed order gives nothing, facts
    §7)."""
    out: dict[int, list[int]] = {}
    given_to = frame.support_given
    if given_to is None:
        return out
    for a, given in sorted(given_to.items()):
        if given == side and state.orders[a] >= 0:
            out.setdefault(occupant(state, a), []).append(a)
    return out


def supporters(state: GameState, frame: CombatFrame, side: str) -> list[int]:
    """Houses whose support still counts for ``side`` (from at least one Support order)."""
    return sorted(given_support(state, frame, side))


def initial_strength(state: GameState, frame: CombatFrame, side: str) -> int:
    """§15.2: units + order modifier + support given to the side + garrison (defender), with the
    revealed cards' unit factors (R15.3.7)."""
    area, origin = frame.area, frame.origin
    rs = state.ruleset
    h = frame.house(side)
    values = unit_values(state, frame, side, h)
    if side == ATTACKER:
        total = unit_strength(state, origin, h, np.array(frame.units), None, area, values)
        total += frame.march_bonus
    else:
        total = unit_strength(state, area, h, state.units[area, h], state.routed[area, h], None,
                              values)
        total += defense_bonus(state, frame)
        if rs.home_of[area] == h:
            total += int(state.garrisons[area])  # R17.2
    for supporter, support_areas in given_support(state, frame, side).items():
        values = unit_values(state, frame, side, supporter, supporting=True)
        for a in support_areas:
            total += support_strength(state, a, area, side == ATTACKER, values)
    return total


def final_strength(state: GameState, frame: CombatFrame, side: str) -> int:
    """§15.5: initial strength + house card (with abilities) + 1 for the Blade."""
    blade = 1 if frame.blade == side else 0
    return (initial_strength(state, frame, side) + card_value(state, frame, side, "strength")
            + blade + tides.value(state, frame, side, "strength"))


# --- what every combat decision shows --------------------------------------------------------


def _ctx(frame: CombatFrame) -> dict:
    """The context of a combat decision: where, and who fights (each stage adds its own)."""
    return {"area": frame.area, "attacker": frame.attacker, "defender": frame.defender}
