"""Baratheon cards with text: Stannis, Renly, Ser Davos, Salladhor Saan, Patchface (facts §7;
D-42, D-46)."""

from __future__ import annotations

from ..board import unused_units
from ..cards import Ability, combat_frame, register
from ..combat import given_support, supporters
from ..decision import DONE, Action, Decision, DecisionKind
from ..flow import on_action, pop, step
from ..frames import CombatFrame
from ..state import FOOTMAN, IRON_THRONE, KNIGHT, SHIP, CardPlace, GameState
from .base import ctx, other, step_name


def stannis_baratheon(state: GameState, combat: CombatFrame, owner: str, side: str) -> int:
    """Static: +1 if the opponent is higher (nearer position 1) on the Iron Throne track."""
    if side != owner:
        return 0
    me, opp = combat[owner], combat[other(owner)]
    higher = state.track_position(IRON_THRONE, opp) < state.track_position(IRON_THRONE, me)
    return 1 if higher else 0


def ser_davos_seaworth(state: GameState, combat: CombatFrame, owner: str, side: str) -> int:
    """Static: +1 strength and one sword while the owner's Stannis Baratheon is discarded."""
    if side != owner:
        return 0
    stannis = state.ruleset.house_card("stannis-baratheon")
    return 1 if state.card_place[stannis] == CardPlace.DISCARD else 0


def salladhor_saan(state: GameState, combat: CombatFrame, owner: str, side: str, house: int,
                   unit_type: int, value: int) -> int:
    """Static: while Salladhor's side is supported, every non-Baratheon Ship gives 0, on both
    sides, attacking, defending or supporting: the value is set to 0, whatever an earlier card
    made it (Victarion's 2 when Greyjoy sits higher on the Iron Throne, R15.3.4)."""
    if unit_type == SHIP and house != combat[owner] and supporters(state, combat, owner):
        return 0
    return value


RENLY = step_name("renly-baratheon")


def renly_targets(state: GameState, combat: CombatFrame, side: str) -> list[int]:
    """Areas with a Footman of Renly's house that fought for him: his attacking Footmen (waiting
    in the start area), his defending Footmen, his Footmen in areas whose Support order still
    gives him support."""
    h = combat[side]
    out = []
    if side == "attacker" and combat.units[FOOTMAN] > 0:
        out.append(combat.origin)
    if side == "defender" and state.units[combat.area, h, FOOTMAN] > 0:
        out.append(combat.area)
    out += [a for a in given_support(state, combat, side).get(h, [])
            if state.units[a, h, FOOTMAN] > 0]
    return out


@step(RENLY)
def run_renly(state: GameState, frame: dict) -> Decision | None:
    """After the winner: Renly won, so his player may turn one such Footman into an unused
    Knight (D-42)."""
    combat = combat_frame(state)
    side = frame["side"]
    if combat.winner != side or unused_units(state, combat[side], KNIGHT) <= 0:
        pop(state)
        return None
    options = tuple(("unit", a, FOOTMAN) for a in sorted(renly_targets(state, combat, side)))
    return Decision(combat[side], DecisionKind.RENLY_UPGRADE, options + (DONE,), ctx(combat))


@on_action(RENLY)
def act_renly(state: GameState, frame: dict, action: Action) -> None:
    combat = combat_frame(state)
    pop(state)
    if action == DONE:
        return
    _, area, _ = action
    h = combat[frame["side"]]
    if frame["side"] == "attacker" and area == combat.origin:
        combat.units[FOOTMAN] -= 1  # a waiting attacker: it attacks on as a Knight
        combat.units[KNIGHT] += 1
    standing = state.units[area, h, FOOTMAN] > state.routed[area, h, FOOTMAN]
    state.units[area, h, FOOTMAN] -= 1
    state.units[area, h, KNIGHT] += 1
    if not standing:  # only routed Footmen there: the Knight is routed too
        state.routed[area, h, FOOTMAN] -= 1
        state.routed[area, h, KNIGHT] += 1


PATCHFACE = step_name("patchface")


@step(PATCHFACE)
def run_patchface(state: GameState, frame: dict) -> Decision | None:
    """After combat: Patchface's player looks at the opponent's hand and may discard one card of
    it (D-46)."""
    combat = combat_frame(state)
    hand = state.hand(combat[other(frame["side"])])
    if not hand:
        pop(state)
        return None
    return Decision(combat[frame["side"]], DecisionKind.PATCHFACE,
                    tuple(("card", c) for c in hand) + (DONE,), ctx(combat))


@on_action(PATCHFACE)
def act_patchface(state: GameState, frame: dict, action: Action) -> None:
    combat = combat_frame(state)
    pop(state)
    if action == DONE:
        return
    opp = combat[other(frame["side"])]
    card = action[1]
    state.card_place[card] = CardPlace.DISCARD
    if not state.hand(opp):  # emptied: every other discarded card comes back (facts §7)
        for c in state.discards(opp):
            if c != card:
                state.card_place[c] = CardPlace.HAND


register(Ability("stannis-baratheon", strength=stannis_baratheon))
register(Ability("renly-baratheon", after_winner=RENLY))
register(Ability("ser-davos-seaworth", strength=ser_davos_seaworth, swords=ser_davos_seaworth))
register(Ability("salladhor-saan", unit_value=salladhor_saan))
register(Ability("patchface", after_combat=PATCHFACE))
