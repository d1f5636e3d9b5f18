"""The 1st edition's own house-card abilities (1e spec 8.2, 8.5, 9, section A.10; facts agot-1e.md
section 4), registered in :data:`got_env.engine.combat.cards.FIRST_EDITION_ABILITIES` under the
``-1e`` ids of got_env/data/1e/house_cards.yaml. Catelyn Stark and Balon Greyjoy do exactly what
their 2nd-edition cards do and share those ids (stark.py, greyjoy.py: Catelyn doubles her own
Defense order only when Stark defends; Balon sets the opponent card's printed strength to 0, its
abilities and icons stay, C.15).

Readings recorded here (pinned down by tests/test_1e_house_cards.py):

* Timing (1e spec 9 reading): Queen of Thorns' cancel is checked first (it is no step: a
  cancelled card acts in no way, :func:`got_env.engine.combat.strength.side_ability`); the combat
  cards (Salladhor, Brienne, Loras, Vargo, Victarion, Balon, Catelyn, Robb) act at the reveal,
  before the printed strengths are added; the "if you win" cards (Melisandre, Renly, Cersei, Jaime,
  Asha, Luwin) act once casualties and the retreat are done, before the cleanup puts the cards
  away and refills a hand (hook ``after_retreat``). Cersei therefore has her own id
  (``cersei-lannister-1e``) with the 2nd edition's step (any order of the loser; only the two
  orders that leave the board with this march anyway are not offered: the losing attacker's
  March and the losing defender's order in the embattled area, already gone by then).
* Queen of Thorns (1e spec 9, C.15): the opponent's card has no ability at all (no static value,
  no step); its printed strength and icons count. Balon cancelled: the Queen's printed 0 stays
  0. Two Queens cancel each other (neither has an effect).
* Robb, Vargo, Victarion (1e spec 9, C.15, facts 4): only when their house attacks, only its own
  attacking units (hook ``fighting_unit_value``; never supporting ones: not even its own
  supporting units; a marching unit is never routed). They set the value (knight 3, footman 2,
  ship 2).
* Salladhor Saan (facts 4.1, the [HU] reading): ships of any house supporting the opponent's
  side count 0 (hook ``supporting_unit_value``); ships supporting Salladhor's side keep their
  value, fighting ships are not supporting ones; the +1 of a special Support order still counts.
* Brienne of Tarth (1e spec 9): at the reveal, the opponent's Defense order in the embattled area
  is removed (before Catelyn could double it); when Tyrell defends there is none to remove.
* Ser Loras Tyrell (1e spec 8.2, 9, facts 4.1 the [HU] reading): at the reveal one of the
  opponent's standing fighting footmen (an attacking one, waiting in its start area, or a
  defending one) is destroyed; routed footmen cannot be taken (8.3). No decision is asked: the
  footmen are all alike. If the opponent has no unit left in the battle (a routed defender's unit
  still counts: it fights on, 8.4), Tyrell wins at once: no Blade, card strengths ignored, no
  casualties; the battle goes on to the retreat and the cleanup as any won battle.
* Renly Baratheon (1e spec 9, facts 4.1): one of his footmen that fought as attacker or defender,
  never a supporting one, becomes an unused knight (none in stock: nothing to do; a standing one
  before a routed one, as the 2nd edition's D-42; decision D-42 RENLY_UPGRADE).
* Melisandre (1e spec 9, facts 4.1): after a win, with 1 available power token, her player may
  pay it to pick a card of the loser's hand (its played card is not in it), discarded at once
  (decision D-46 PATCHFACE: the same choice). Nothing when the loser has just played its last
  card (its hand is empty: it refills at the cleanup). If the discard empties the loser's hand,
  all its other cards come back to it, the one it played in this battle included (the picked
  card stays discarded: as the 2nd edition's Patchface).
* Maester Luwin (1e spec 9, facts 4.1): after a win his player may take any one card of Stark's
  used pile back into hand (not Luwin himself: he is still in play; decision D-18
  MAMMOTH_RIDERS_RETRIEVE, the same choice). When Luwin was the last card of the hand, nothing
  is asked: all seven cards come back at the cleanup anyway (8.5, C.1).
* Ser Jaime Lannister (1e spec 9): after a win, 2 power tokens from the Power Pool (fewer if the
  Pool holds fewer of Lannister's, AMBIG-21).
* Asha Greyjoy (1e spec 9 reading, facts 4.1 flag): after a win her player may remove one
  Support or Consolidate Power order (special ones included) of *another* house (not only the
  battle opponent; never a Greyjoy order) from a land or sea area really adjacent to the
  embattled area (decision D-41 CERSEI_ORDER: an optional order removal, areas or done).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from boardkit.decision import Decision

from ..board import destroy_unit, gain_power, neighbours, occupant, unused_units
from ..combat.cards import FIRST_EDITION_ABILITIES, Ability, UnitValue, register
from ..combat.frame import CombatFrame, combat_frame
from ..combat.stages import ATTACKER, CombatStage, Side, other
from ..decision import DONE, Action, DecisionKind
from ..state import FOOTMAN, KNIGHT, SHIP, CardPlace, GameState
from .baratheon import RenlyBaratheon
from .base import CardStep, EffectStep, ctx
from .lannister import CerseiLannister

# --- attacking units led by the card: Robb, Vargo, Victarion ---------------------------------


def attacking_value(unit_type: int, value: int) -> UnitValue:
    """A ``fighting_unit_value`` hook: when the card's house attacks, each of its own attacking
    units of ``unit_type`` counts ``value`` instead of its printed strength."""

    def hook(state: GameState, combat: CombatFrame, owner: Side, side: Side, house: int, u: int,
             so_far: int) -> int:
        own = side == owner == ATTACKER and house == combat.house(owner)
        return value if own and u == unit_type else so_far

    return hook


# --- Salladhor Saan ---------------------------------------------------------------------------


def salladhor_saan(state: GameState, combat: CombatFrame, owner: Side, side: Side, house: int,
                   unit_type: int, value: int) -> int:
    """A ``supporting_unit_value`` hook: ships supporting the opponent's side count 0."""
    return 0 if side == other(owner) and unit_type == SHIP else value


# --- Brienne of Tarth, Ser Loras Tyrell (at the reveal) ---------------------------------------


@dataclass(slots=True)
class BrienneOfTarth(EffectStep):
    """At the reveal: the opponent's Defense order in the embattled area is removed."""

    step: ClassVar[str] = "card:brienne-of-tarth-1e"

    def effect(self, state: GameState, combat: CombatFrame, side: Side) -> None:
        area = combat.area
        token = int(state.orders[area])
        if token >= 0 and occupant(state, area) == combat.house(other(side)) \
                and state.ruleset.order_tokens[token].type == "defense":
            state.orders[area] = -1


def fighting_units_left(state: GameState, combat: CombatFrame, side: Side) -> int:
    """Units of ``side`` still in the battle, routed ones included (attackers wait in their start
    area, ``units``; defenders stand in the embattled area)."""
    if side == ATTACKER:
        return int(sum(combat.units))
    return int(state.units[combat.area, combat.defender].sum())


@dataclass(slots=True)
class SerLorasTyrell1e(EffectStep):
    """At the reveal: one standing footman of the opponent's fighting units is destroyed; if it
    was the opponent's last unit in the battle, Loras's side wins at once (1e spec 8.2)."""

    step: ClassVar[str] = "card:ser-loras-tyrell-1e"

    def effect(self, state: GameState, combat: CombatFrame, side: Side) -> None:
        opp = other(side)
        h = combat.house(opp)
        if opp == ATTACKER:
            if combat.units[FOOTMAN] <= 0:
                return
            combat.units[FOOTMAN] -= 1
            destroy_unit(state, combat.origin, h, FOOTMAN, routed=False)
        else:
            area = combat.area
            if state.units[area, h, FOOTMAN] - state.routed[area, h, FOOTMAN] <= 0:
                return
            destroy_unit(state, area, h, FOOTMAN, routed=False)
        if fighting_units_left(state, combat, opp) == 0:
            combat.won_at_once = side
            combat.stage = CombatStage.RESOLVE  # the battle ends: no further reveal step, no Blade


# --- if the card's side wins ------------------------------------------------------------------


def won(combat: CombatFrame, side: Side) -> bool:
    return combat.winner == side


@dataclass(slots=True)
class JaimeLannister1e(EffectStep):
    """After a win: 2 power tokens from the Power Pool."""

    step: ClassVar[str] = "card:jaime-lannister-1e"

    def effect(self, state: GameState, combat: CombatFrame, side: Side) -> None:
        if won(combat, side):
            gain_power(state, combat.house(side), 2)


def renly_targets(state: GameState, combat: CombatFrame, side: Side) -> list[int]:
    """The area holding footmen of Renly's house that fought as attacker (waiting in the start
    area) or defender; supporting footmen do not count."""
    if side == ATTACKER:
        return [combat.origin] if combat.units[FOOTMAN] > 0 else []
    area = combat.area
    return [area] if state.units[area, combat.house(side), FOOTMAN] > 0 else []


@dataclass(slots=True)
class RenlyBaratheon1e(RenlyBaratheon):
    """After a win: Renly's player may turn one such footman into an unused knight (D-42; the
    same upgrade as the 2nd edition's Renly)."""

    step: ClassVar[str] = "card:renly-baratheon-1e"

    def run(self, state: GameState) -> Decision | None:
        combat = combat_frame(state)
        side = self.side
        targets = renly_targets(state, combat, side)
        if not won(combat, side) or not targets \
                or unused_units(state, combat.house(side), KNIGHT) <= 0:
            state.stack.pop()
            return None
        options = tuple(("unit", a, FOOTMAN) for a in targets)
        return Decision(combat.house(side), DecisionKind.RENLY_UPGRADE, options + (DONE,),
                        context=ctx(combat))


@dataclass(slots=True)
class Melisandre1e(CardStep):
    """After a win, with 1 available power: pick a card of the loser's hand to discard (D-46),
    or not. Nothing if the loser has just played its last card (1e spec 9)."""

    step: ClassVar[str] = "card:melisandre-1e"

    def run(self, state: GameState) -> Decision | None:
        combat = combat_frame(state)
        side = self.side
        hand = state.hand(combat.house(other(side)))
        if not won(combat, side) or state.power[combat.house(side)] < 1 or not hand:
            state.stack.pop()
            return None
        return Decision(combat.house(side), DecisionKind.PATCHFACE,
                        tuple(("card", c) for c in hand) + (DONE,), context=ctx(combat))

    def act(self, state: GameState, action: Action) -> None:
        """Pay 1 power to the Power Pool; the loser discards the card. An emptied hand takes its
        other cards back, the one played in this battle included (it goes to hand at the
        cleanup)."""
        combat = combat_frame(state)
        state.stack.pop()
        if action == DONE:
            return
        side, loser = self.side, other(self.side)
        state.power[combat.house(side)] -= 1
        card = action[1]
        state.card_place[card] = CardPlace.DISCARD
        if not state.hand(combat.house(loser)):
            for c in state.discards(combat.house(loser)):
                if c != card:
                    state.card_place[c] = CardPlace.HAND
            if combat.card_to_hand is None:
                combat.card_to_hand = []
            combat.card_to_hand.append(loser)


@dataclass(slots=True)
class MaesterLuwin1e(CardStep):
    """After a win: take one used card back into hand (D-18), or not. Not asked when Luwin was
    the last card of the hand (all seven come back at the cleanup, 1e spec 8.5)."""

    step: ClassVar[str] = "card:maester-luwin-1e"

    def run(self, state: GameState) -> Decision | None:
        combat = combat_frame(state)
        side = self.side
        h = combat.house(side)
        used = state.discards(h)
        if not won(combat, side) or not used or not state.hand(h):
            state.stack.pop()
            return None
        return Decision(h, DecisionKind.MAMMOTH_RIDERS_RETRIEVE,
                        tuple(("card", c) for c in used) + (DONE,), context=ctx(combat))

    def act(self, state: GameState, action: Action) -> None:
        state.stack.pop()
        if action != DONE:
            state.card_place[action[1]] = CardPlace.HAND


ASHA_ORDER_TYPES = ("support", "consolidate-power")


def asha_targets(state: GameState, combat: CombatFrame, side: Side) -> list[int]:
    """Areas next to the embattled area with another house's Support or Consolidate Power
    order."""
    own = combat.house(side)
    out = []
    for a in neighbours(state, combat.area):
        token = int(state.orders[a])
        if token >= 0 and occupant(state, int(a)) != own \
                and state.ruleset.order_tokens[token].type in ASHA_ORDER_TYPES:
            out.append(int(a))
    return out


@dataclass(slots=True)
class AshaGreyjoy1e(CardStep):
    """After a win: Asha's player may remove one such order (D-41)."""

    step: ClassVar[str] = "card:asha-greyjoy-1e"

    def run(self, state: GameState) -> Decision | None:
        combat = combat_frame(state)
        side = self.side
        targets = asha_targets(state, combat, side)
        if not won(combat, side) or not targets:
            state.stack.pop()
            return None
        return Decision(combat.house(side), DecisionKind.CERSEI_ORDER,
                        tuple(("area", a) for a in targets) + (DONE,), context=ctx(combat))

    def act(self, state: GameState, action: Action) -> None:
        state.stack.pop()
        if action != DONE:
            state.orders[action[1]] = -1  # back to its owner


# --- the table --------------------------------------------------------------------------------

for _ability in (
    Ability("robb-stark-1e", fighting_unit_value=attacking_value(KNIGHT, 3)),
    Ability("maester-luwin-1e", after_retreat=MaesterLuwin1e),
    Ability("jaime-lannister-1e", after_retreat=JaimeLannister1e),
    Ability("vargo-hoat-1e", fighting_unit_value=attacking_value(FOOTMAN, 2)),
    Ability("cersei-lannister-1e", after_retreat=CerseiLannister),
    Ability("renly-baratheon-1e", after_retreat=RenlyBaratheon1e),
    Ability("salladhor-saan-1e", supporting_unit_value=salladhor_saan),
    Ability("melisandre-1e", after_retreat=Melisandre1e),
    Ability("asha-greyjoy-1e", after_retreat=AshaGreyjoy1e),
    Ability("victarion-greyjoy-1e", fighting_unit_value=attacking_value(SHIP, 2)),
    Ability("ser-loras-tyrell-1e", reveal=SerLorasTyrell1e),
    Ability("brienne-of-tarth-1e", reveal=BrienneOfTarth),
    Ability("queen-of-thorns-1e", cancels_opponent=True),
):
    register(_ability, FIRST_EDITION_ABILITIES)
