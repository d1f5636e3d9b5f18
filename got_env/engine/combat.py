"""Combat (rules spec §15, §17, R18.8; D-30 to D-32, D-40, D-43 to D-45, D-47).

One combat is one frame on the stack, pushed by a March, that walks the rulebook's steps:
support -> refusals -> house cards -> reveal (abilities) -> Valyrian Steel Blade -> winner ->
casualties -> retreat -> cleanup. The attacking units stay in the March's start area on the board
(``origin``) until the combat decides: they enter the embattled area if the attacker wins, and are
routed where they stand if he loses (they "retreat to the area they marched from").

Readings recorded here:
* Support (R15.1.1, R15.1.6; DECISIONS Open points 1-3): one declaration (D-30) per Support
  order next to the embattled area, houses in turn order and one house's orders in area order;
  the combatants are asked too (R15.1.3 "may"). Each order's support goes to one side or to
  nobody, on its own: a house may back one side from one area and stay out with another (a third
  house may even back both sides). A combatant may refuse each other house's support (D-31, all
  of that house's orders given to it) before the cards are chosen.
* Casualties beyond the loser's non-routed units are ignored (AMBIG-18).
* AMBIG-12: a retreat that breaks supply (the attacker's, too) first destroys units of the
  retreating house's choice (D-45) until the position fits.
* §15.6 6.3 item 5 with several legal areas that all break supply: the loser must pick one that
  needs the fewest units destroyed (FAQ reading, as S&R), then destroys them (D-45).
* AMBIG-13: a defender never retreats into a neutral force, an impassable area, an area with an
  enemy power token, or an enemy home area still held by its shield.
* R18.2: ships never retreat into a port that would then hold more than 3 ships; such a port is
  not a legal retreat area (like any other illegal area, it may leave no retreat at all).
* AMBIG-15 (DECISIONS Open point 6): a retreat that gives the defender control of a land area
  captures that area's port as in R18.8 (D-47), once the retreat's supply losses are done; the
  winner's capture is decided in the cleanup.
* R15.3.5 with the errata: discard piles are open at every step; hands are hidden while the cards
  are chosen (the chosen cards stay in this frame until both are revealed).

House-card abilities (cards.py, abilities/) act only through the hooks of their
:class:`~got_env.engine.cards.Ability` record, read here for the two revealed cards: static
modifiers of either side's values (:func:`card_value`) and unit values (:func:`unit_values`),
both applied in Iron Throne order of the cards' owners (R15.3.4 (2)), casualty immunity
(:func:`immune_to_casualties`), and steps pushed at the reveal (cancel effects first), after the
winner, after the retreat and after the cleanup (:func:`_next_ability`, R15.3.4); a card may
cancel the opponent's ability (:func:`side_ability`). Those steps steer the rest of the combat
through these frame keys:

* ``cards[side]``: the side's card; a step may replace it (Tyrion, Aeron) or set None (no card:
  strength 0, no icons, nothing to discard);
* ``retreat_chooser``: who picks the losing defender's retreat area (Robb);
* ``attackers_stay``: a winning attacker's units do not enter the embattled area; they stay,
  standing, where they marched from (Arianne); should that break his supply, he destroys units
  of his choice among them (D-45, as AMBIG-12 for a losing attacker);
* ``card_to_hand``: sides whose played card goes back to hand instead of the discard pile in the
  cleanup (Roose);
* ``march_token`` (the March that started the combat) and ``entered`` (the attacking units that
  moved in at the cleanup), read by after-combat steps (Loras);
* ``won_at_once``: the side that wins whatever the strengths, because a reveal ability removed
  the other side's last unit (1e spec 8.2; 1e Ser Loras sets it and goes on to the result,
  past the Blade).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from . import tides
from .board import (
    destroy_unit,
    land_destinations,
    occupant,
    remove_orphan_order,
    ship_destinations,
    supply_ok,
    tables,
    unused_units,
)
from .cards import Ability, ability_named
from .decision import Action, Decision, DecisionKind, choice
from .flow import on_action, pop, push, step
from .frames import (
    MISSING,
    SIDES,
    CombatFrame,
    CombatStage,
    Side,
    act_by_stage,
    other,
    typed_combat,
)
from .state import FIEFDOMS, LAND, PORT, SHIP, SIEGE_ENGINE, CardPlace, GameState
from .support import Values, support_orders, support_strength, unit_strength

PORT_CAPACITY = 3  # R18.2
ATTACKER, DEFENDER = Side.ATTACKER, Side.DEFENDER
# the answers of the combat's yes/no questions, built once
_SUPPORT_ATTACKER, _SUPPORT_DEFENDER = choice("support-attacker"), choice("support-defender")
_REFUSE, _YES = choice("refuse-support"), choice("yes")


# --- strength and icons ----------------------------------------------------------------------


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
    if given_to is MISSING:
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


# --- the combat frame: one handler per stage -------------------------------------------------

Run = Callable[[GameState, CombatFrame], "Decision | None"]
Act = Callable[[GameState, CombatFrame, Action], None]


@step("combat")
def run_combat(state: GameState, frame: CombatFrame | dict) -> Decision | None:
    """Run the handler of the frame's stage (:data:`_RUN_STAGE`). A March pushes a typed
    :class:`CombatFrame` (flow.push_frame); a scenario's combat built as a dict is first made
    typed in place, and the loop comes back (its caller must not keep acting on the dict)."""
    if type(frame) is dict:
        typed_combat(state.stack)
        return None
    stage = frame.stage
    if stage is MISSING:
        stage = frame.stage = CombatStage.SUPPORT
    return _RUN_STAGE[stage](state, frame)


@on_action("combat")
def act_combat(state: GameState, frame: CombatFrame | dict, action: Action) -> None:
    """Play ``action`` with the handler of the stage that asked (:data:`_ACT_STAGE`)."""
    act_by_stage(_ACT_STAGE, state, frame, action)


def _blade_side(state: GameState, frame: CombatFrame) -> Side | None:
    """The combatant side holding the unused Valyrian Steel Blade, if any (§15.4)."""
    if state.blade_used:
        return None
    return frame.side_of(state.holder(FIEFDOMS))


def _ctx(frame: CombatFrame) -> dict:
    return {"area": frame.area, "attacker": frame.attacker, "defender": frame.defender}


def _ask_support(state: GameState, frame: CombatFrame) -> Decision | None:
    """D-30, once per Support order next to the embattled area (R15.1.1, R15.1.6): houses in
    turn order, one house's orders in area order. frame: ``support_areas`` (house -> its Support
    areas able to support, fixed when the combat starts), ``asked`` (areas asked so far),
    ``support_given`` (area -> the side; an order given to nobody is absent)."""
    if frame.support_given is MISSING:
        frame.support_given = {}
    if frame.asked is MISSING:
        frame.asked = []
    if frame.march_token is MISSING:
        frame.march_token = int(state.orders[frame.origin])
    if frame.support_areas is MISSING:
        frame.support_areas = support_orders(state, frame.area)
    asked = frame.asked
    for h in state.turn_order():
        for a in frame.support_areas.get(h, []):
            if a in asked:
                continue
            asked.append(a)
            options = [choice("nothing")]
            if h != frame.defender:  # never against one's own units (R15.1.4)
                options.insert(0, _SUPPORT_ATTACKER)
            if h != frame.attacker:
                options.insert(len(options) - 1, _SUPPORT_DEFENDER)
            return Decision(h, DecisionKind.DECLARE_SUPPORT, tuple(options),
                            {**_ctx(frame), "support_area": a})
    frame.stage = CombatStage.REFUSE
    frame.refusals = []
    return None


def _act_support(state: GameState, frame: CombatFrame, action: Action) -> None:
    a = frame.asked[-1]
    if action == _SUPPORT_ATTACKER:
        frame.support_given[a] = ATTACKER
    elif action == _SUPPORT_DEFENDER:
        frame.support_given[a] = DEFENDER


def _ask_refusal(state: GameState, frame: CombatFrame) -> Decision | None:
    """D-31: each combatant, for each other house backing it, keeps or refuses that support;
    then the cards are chosen (with a fresh Tides of Battle deck, §24, FAQ)."""
    for side in SIDES:
        house = frame.house(side)
        for supporter in given_support(state, frame, side):
            key = [side, supporter]
            if supporter != house and key not in frame.refusals:
                frame.refusals.append(key)
                return Decision(house, DecisionKind.REFUSE_SUPPORT,
                                (choice("keep-support"), _REFUSE),
                                {**_ctx(frame), "supporter": supporter})
    frame.stage = CombatStage.CARDS
    frame.cards = {}
    if state.options.get("tides_of_battle"):
        frame.tides_deck = tides.fresh_deck(state)  # §24, FAQ: before every card choice
        frame.tides = {}
    return None


def _act_refusal(state: GameState, frame: CombatFrame, action: Action) -> None:
    if action == _REFUSE:  # all of that house's support to this side
        side, supporter = frame.refusals[-1]
        for a in given_support(state, frame, side)[supporter]:
            del frame.support_given[a]


def _ask_cards(state: GameState, frame: CombatFrame) -> Decision | None:
    """Each side chooses its house card in secret; both are then revealed together."""
    cards = frame.cards
    for side in SIDES:
        if side not in cards:
            house = frame.house(side)
            return Decision(house, DecisionKind.HOUSE_CARD,
                            tuple([("card", c) for c in state.hand(house)]), _ctx(frame),
                            secret=True)
    for side in SIDES:
        state.card_place[cards[side]] = CardPlace.CHOSEN
    frame.revealed = True
    frame.stage = CombatStage.REVEAL
    frame.abilities_done = {}
    return None


def _act_card(state: GameState, frame: CombatFrame, action: Action) -> None:
    frame.cards[ATTACKER if ATTACKER not in frame.cards else DEFENDER] = action[1]


def _reveal(state: GameState, frame: CombatFrame) -> None:
    following = CombatStage.TIDES_DRAW if tides.in_use(state, frame) else CombatStage.BLADE
    return _next_ability(state, frame, ("cancel", "reveal"), next_stage=following)


def _draw_tides(state: GameState, frame: CombatFrame) -> Decision | None:
    """§24: each side draws a Tides card; the Blade's holder may draw again (D-39)."""
    for side in SIDES:
        tides.draw(frame, side)
    frame.stage = CombatStage.TIDES_REDRAW
    return _ask_blade_holder(state, frame, DecisionKind.BLADE_REDRAW)


def _ask_blade_holder(state: GameState, frame: CombatFrame, kind: DecisionKind
                      ) -> Decision | None:
    """Ask the Valyrian Steel Blade's holder, if in the combat and the Blade unused, yes or no
    (D-39 redraw, D-40 +1); None when nobody holds it there."""
    side = _blade_side(state, frame)
    if side is None:
        return None
    frame.blade_side = side
    return Decision(frame.house(side), kind, (_YES, choice("no")), _ctx(frame))


def _act_redraw(state: GameState, frame: CombatFrame, action: Action) -> None:
    """D-39 (asked with the stage already TIDES_REDRAW): discard the Tides card and draw again
    (§24 step 2)."""
    if action == _YES:
        tides.draw(frame, frame.blade_side)
        state.blade_used = True


def _show_tides(state: GameState, frame: CombatFrame) -> None:
    frame.tides_revealed = True
    frame.stage = CombatStage.BLADE


def _ask_blade(state: GameState, frame: CombatFrame) -> Decision | None:
    """§15.4: the Blade's holder, in the combat, may add 1 (asked with the stage already
    RESOLVE, whose act plays the answer)."""
    frame.stage = CombatStage.RESOLVE
    return _ask_blade_holder(state, frame, DecisionKind.BLADE_PLUS_ONE)


def _act_blade(state: GameState, frame: CombatFrame, action: Action) -> None:
    if action == _YES:
        frame.blade = frame.blade_side
        state.blade_used = True


def _resolve(state: GameState, frame: CombatFrame) -> None:
    _decide_winner(state, frame)
    frame.stage = CombatStage.AFTER_WINNER
    frame.abilities_done = {}


def _after_winner(state: GameState, frame: CombatFrame) -> None:
    return _next_ability(state, frame, ("after_winner",), next_stage=CombatStage.CASUALTIES)


def _run_cleanup(state: GameState, frame: CombatFrame) -> None:
    if _push_next_ability(state, frame, ("after_retreat",)):
        return None
    _cleanup(state, frame)
    frame.stage = CombatStage.STAY_LOSSES
    return None


def _after_combat(state: GameState, frame: CombatFrame) -> None:
    return _next_ability(state, frame, ("after_combat",), next_stage=CombatStage.END)


def _end(state: GameState, frame: CombatFrame) -> None:
    pop(state)


def _next_ability(state: GameState, frame: CombatFrame, timings: tuple[str, ...],
                  next_stage: CombatStage) -> None:
    """Push the next ability step of the given timings: cancel effects first, then the others,
    each in Iron Throne order (R15.3.4); with none left, go on to ``next_stage``."""
    if not _push_next_ability(state, frame, timings):
        frame.stage = next_stage
    return None


def _push_next_ability(state: GameState, frame: CombatFrame, timings: tuple[str, ...]) -> bool:
    """Push the next not yet pushed ability step of the given timings; False if none is left.
    A cancelled ability (:func:`side_ability`) has no step."""
    order = state.turn_order()
    done = frame.abilities_done
    for timing in timings:
        for h in order:
            side = frame.side_of(h)
            card = frame.cards.get(side) if side else None
            if card is None:
                continue
            ability = side_ability(state, frame, side)
            step_name = getattr(ability, timing, None) if ability else None
            key = (timing, side, card)
            if step_name and key not in done:
                done[key] = None
                push(state, step_name, side=side)
                return True
    return False


def _decide_winner(state: GameState, frame: CombatFrame) -> None:
    """§15.6 6.1: higher final strength wins; a tie goes to the higher on Fiefdoms. A side an
    ability made win at once (``won_at_once``, 1e spec 8.2: the other side lost its last unit)
    wins whatever the strengths."""
    att = final_strength(state, frame, ATTACKER)
    dfn = final_strength(state, frame, DEFENDER)
    frame.strength = {ATTACKER: att, DEFENDER: dfn}
    if frame.won_at_once is not MISSING:
        winner = Side(frame.won_at_once)
    elif att != dfn:
        winner = ATTACKER if att > dfn else DEFENDER
    else:
        pos = {s: state.track_position(FIEFDOMS, frame.house(s)) for s in SIDES}
        winner = min(SIDES, key=lambda s: pos[s])
    loser = winner.other
    frame.winner, frame.loser = winner, loser
    swords = card_value(state, frame, winner, "swords") + tides.value(state, frame, winner,
                                                                        "swords")
    forts = card_value(state, frame, loser, "fortifications") + tides.value(state, frame, loser,
                                                                           "fortifications")
    # §15.6 6.2; §24 step 5: each skull costs the opponent one more, whoever won.
    due = {loser: max(0, swords - forts) + tides.value(state, frame, winner, "skulls"),
           winner: tides.value(state, frame, loser, "skulls")}
    frame.casualties = [[side, 0 if immune_to_casualties(state, frame, side) else due[side]]
                        for side in (loser, winner)]


def combat_units(state: GameState, frame: CombatFrame, side: str) -> tuple[int, np.ndarray]:
    """(area where they stand, int[unit type]) of a side's non-routed units in the combat: the
    attackers still wait in the March's area; the defenders stand in the embattled area."""
    if side == ATTACKER:
        return frame.origin, np.array(frame.units)
    area, house = frame.area, frame.defender
    return area, state.units[area, house] - state.routed[area, house]


def _casualty(state: GameState, frame: CombatFrame) -> Decision | None:
    """D-43: one casualty at a time, the loser's first (swords, then the winner's skulls), then
    the winner's (the loser's skulls); the victim picks among his non-routed units in the combat.
    Casualties beyond those units are ignored (AMBIG-18)."""
    for side, left in frame.casualties:
        area, standing = combat_units(state, frame, side)
        if left > 0 and standing.any():
            return Decision(frame.house(side), DecisionKind.CASUALTY,
                            tuple(("unit", area, u) for u in range(4) if standing[u] > 0),
                            {**_ctx(frame), "left": left})
    frame.stage = CombatStage.RETREAT
    return None


def _act_casualty(state: GameState, frame: CombatFrame, action: Action) -> None:
    _, area, u = action
    entry = next(e for e in frame.casualties
                 if e[1] > 0 and combat_units(state, frame, e[0])[1].any())
    if entry[0] == ATTACKER:
        frame.units[u] -= 1
    destroy_unit(state, area, frame.house(entry[0]), u, routed=False)
    entry[1] -= 1


def retreat_areas(state: GameState, frame: CombatFrame) -> list[int]:
    """Legal retreat areas of the losing defender's units now in the embattled area (§15.6 6.3,
    R13.2.4, R18.2, AMBIG-13); supply is checked by the caller (item 5)."""
    area, h = frame.area, frame.defender
    rs = state.ruleset
    ships = rs.kind[area] != LAND
    candidates = ship_destinations(state, h, area) if ships else land_destinations(state, h, area)
    moving = int(state.units[area, h].sum())
    ctrl = state.control()
    out = []
    for a in sorted(candidates):
        if a == frame.origin or state.neutral_forces[a] > 0:
            continue
        occ = occupant(state, a)
        if occ not in (-1, h):
            continue
        if rs.kind[a] == PORT and int(state.units[a, h].sum()) + moving > PORT_CAPACITY:
            continue  # R18.2: at most 3 ships in a port
        if occ == -1 and ctrl[a] not in (-1, h):
            continue  # enemy power token or enemy home shield
        if rs.home_of[a] >= 0 and rs.home_of[a] != h and state.garrisons[a] > 0:
            continue  # an enemy garrison: entering would be an attack
        out.append(a)
    return out


def _retreat(state: GameState, frame: CombatFrame) -> Decision | None:
    """§15.6 6.3: the loser's survivors retreat; siege engines and routed units are destroyed."""
    loser = frame.loser
    h = frame.house(loser)
    if loser == ATTACKER:
        units = np.array(frame.units)
        if units[SIEGE_ENGINE]:
            for _ in range(units[SIEGE_ENGINE]):
                destroy_unit(state, frame.origin, h, SIEGE_ENGINE, routed=False)
            frame.units[SIEGE_ENGINE] = 0
        frame.retreat_to = frame.origin
        frame.stage = CombatStage.RETREAT_MOVE
        _move_retreat(state, frame)
        return None
    area = frame.area
    for u in range(4):  # routed units and siege engines cannot retreat
        n = int(state.routed[area, h, u]) if u != SIEGE_ENGINE else int(state.units[area, h, u])
        for _ in range(n):
            destroy_unit(state, area, h, u, routed=u != SIEGE_ENGINE or None)
    if not state.units[area, h].any():
        frame.stage = CombatStage.CLEANUP
        return None
    options = retreat_areas(state, frame)
    moving = int(state.units[area, h].sum())
    losses = {a: retreat_losses(state, h, area, a, moving) for a in options}
    # item 5: an area that breaks supply only if none fits, and then one with the fewest losses
    options = [a for a in options if losses[a] == min(losses.values())]
    if not options:  # no legal retreat: all are destroyed
        for u in range(4):
            for _ in range(int(state.units[area, h, u])):
                destroy_unit(state, area, h, u)
        frame.stage = CombatStage.CLEANUP
        return None
    chooser = h if frame.retreat_chooser is MISSING else frame.retreat_chooser
    return Decision(chooser, DecisionKind.RETREAT_AREA, tuple(("area", a) for a in options),
                    _ctx(frame))


def _act_retreat(state: GameState, frame: CombatFrame, action: Action) -> None:
    frame.retreat_to = action[1]
    frame.stage = CombatStage.RETREAT_MOVE
    _move_retreat(state, frame)


def retreat_losses(state: GameState, house: int, area: int, dest: int, moving: int) -> int:
    """How many of the ``moving`` units retreating from ``area`` to ``dest`` must be destroyed
    for the house to fit its supply limits there (§15.6 6.3 item 5, AMBIG-12)."""
    for k in range(moving + 1):
        if supply_ok(state, house, {area: -moving, dest: moving - k}):
            return k
    return moving


def _move_retreat(state: GameState, frame: CombatFrame) -> None:
    """Put the retreating units in their area, routed; supply losses come next (AMBIG-12)."""
    from .marches import move_unit

    loser = frame.loser
    h = frame.house(loser)
    dest = frame.retreat_to
    if loser == ATTACKER:
        units = np.array(frame.units)  # already standing in the origin area
        state.routed[dest, h] += units.astype(np.int8)
        frame.units = [0, 0, 0, 0]
        frame.retreated = units.tolist()
    else:
        area = frame.area
        frame.control_before_retreat = state.control().tolist()
        moving = state.units[area, h].copy()
        for u in range(4):
            if moving[u]:
                move_unit(state, area, dest, h, u, n=int(moving[u]))
        state.routed[dest, h] += moving
        frame.retreated = moving.tolist()
    remove_orphan_order(state, frame.area)
    frame.stage = CombatStage.RETREAT_LOSSES


def _retreat_losses(state: GameState, frame: CombatFrame) -> Decision | None:
    """D-45: while the retreat breaks supply, the retreating house destroys retreated units.
    Then a port whose land area the retreat gave to the defender is captured (R18.8, AMBIG-15)."""
    h = frame.house(frame.loser)
    dest = frame.retreat_to
    if supply_ok(state, h) or not any(frame.retreated):
        frame.stage = CombatStage.CLEANUP
        before, frame.control_before_retreat = frame.control_before_retreat, MISSING
        if before is not MISSING:
            capture_ports_after_control_change(state, np.array(before))
        return None
    return Decision(h, DecisionKind.RETREAT_SUPPLY_LOSS,
                    tuple(("unit", dest, u) for u in range(4) if frame.retreated[u] > 0),
                    _ctx(frame))


def _act_retreat_loss(state: GameState, frame: CombatFrame, action: Action) -> None:
    _, area, u = action
    destroy_unit(state, area, frame.house(frame.loser), u, routed=True)
    frame.retreated[u] -= 1


def _cleanup(state: GameState, frame: CombatFrame) -> None:
    """§15.6 6.4, R17.4, R15.3.6, R18.8: the winner takes or keeps the area; cards discarded."""
    from .marches import move_unit

    area, att, dfn = frame.area, frame.attacker, frame.defender
    rs = state.ruleset
    if frame.winner == ATTACKER:
        before = state.control()
        if state.orders[area] >= 0 and occupant(state, area) != att:
            state.orders[area] = -1
        if state.power_tokens[area] == dfn:
            state.power_tokens[area] = -1
        if rs.home_of[area] == dfn:
            state.garrisons[area] = 0  # R17.4
        stay = frame.attackers_stay is True
        units = [0, 0, 0, 0] if stay else frame.units
        if stay:
            frame.stayed = list(frame.units)
        for u in range(4):
            if units[u]:
                move_unit(state, frame.origin, area, att, u, n=int(units[u]))
        frame.entered = list(units)
        frame.units = [0, 0, 0, 0]  # no attacker is waiting any more: in, or staying home
        capture_ports_after_control_change(state, before)
    to_hand = () if frame.card_to_hand is MISSING else frame.card_to_hand
    for side in SIDES:
        card = frame.cards[side]
        if card is None:
            continue
        if side in to_hand:
            state.card_place[card] = CardPlace.HAND
        else:
            discard_after_combat(state, frame.house(side), card)
    for a in (area, frame.origin):
        remove_orphan_order(state, a)


def _stay_losses(state: GameState, frame: CombatFrame) -> Decision | None:
    """AMBIG-12 for winning attackers kept out of the embattled area (``attackers_stay``): back
    for good in their start area they may break supply; the attacker destroys units of his
    choice among them (D-45) until the position fits."""
    stayed, h = frame.stayed, frame.attacker
    if stayed is MISSING or not any(stayed) or supply_ok(state, h):
        frame.stage = CombatStage.AFTER_COMBAT
        frame.abilities_done = {}
        return None
    return Decision(h, DecisionKind.RETREAT_SUPPLY_LOSS,
                    tuple(("unit", frame.origin, u) for u in range(4) if stayed[u] > 0),
                    _ctx(frame))


def _act_stay_loss(state: GameState, frame: CombatFrame, action: Action) -> None:
    _, area, u = action
    destroy_unit(state, area, frame.attacker, u, routed=False)
    frame.stayed[u] -= 1


#: What runs at each stage (the combat's program, in rulebook order; RETREAT_MOVE is passed
#: through within one handler and never run).
_RUN_STAGE: dict[CombatStage, Run] = {
    CombatStage.SUPPORT: _ask_support,
    CombatStage.REFUSE: _ask_refusal,
    CombatStage.CARDS: _ask_cards,
    CombatStage.REVEAL: _reveal,
    CombatStage.TIDES_DRAW: _draw_tides,
    CombatStage.TIDES_REDRAW: _show_tides,
    CombatStage.BLADE: _ask_blade,
    CombatStage.RESOLVE: _resolve,
    CombatStage.AFTER_WINNER: _after_winner,
    CombatStage.CASUALTIES: _casualty,
    CombatStage.RETREAT: _retreat,
    CombatStage.RETREAT_LOSSES: _retreat_losses,
    CombatStage.CLEANUP: _run_cleanup,
    CombatStage.STAY_LOSSES: _stay_losses,
    CombatStage.AFTER_COMBAT: _after_combat,
    CombatStage.END: _end,
}
#: Who plays the answer to a stage's decision (the stage the frame is in when it is asked).
_ACT_STAGE: dict[CombatStage, Act] = {
    CombatStage.SUPPORT: _act_support,
    CombatStage.REFUSE: _act_refusal,
    CombatStage.CARDS: _act_card,
    CombatStage.TIDES_REDRAW: _act_redraw,
    CombatStage.RESOLVE: _act_blade,
    CombatStage.CASUALTIES: _act_casualty,
    CombatStage.RETREAT: _act_retreat,
    CombatStage.RETREAT_LOSSES: _act_retreat_loss,
    CombatStage.STAY_LOSSES: _act_stay_loss,
}


def discard_after_combat(state: GameState, house: int, card: int) -> None:
    """R15.3.6: the played card goes to the discard pile; a house that has just played its last
    card takes the other six back, and that card stays discarded (``last_house_card``
    "stays-discarded") or comes back too (``"returns"``, 1e spec 8.5, reading C.1: all seven
    are in hand again; this cleanup comes after every ability but Patchface's and Loras's,
    which the 1st edition does not have)."""
    state.card_place[card] = CardPlace.DISCARD
    if not state.hand(house):
        returns = state.ruleset.rules.last_house_card == "returns"
        for c in state.discards(house):
            if c != card or returns:
                state.card_place[c] = CardPlace.HAND


# --- ports (R18.8, AMBIG-15) -----------------------------------------------------------------


def capture_ports_after_control_change(state: GameState, before: np.ndarray | list[int]) -> None:
    """When the land area of a port passes to another house, that house may replace the old
    owner's ships in the port with its own (D-47); ships not replaced are removed. If nobody
    controls the land area, the ships stay (AMBIG-15). ``before``: control per area then."""
    after = state.control_list()
    occupants = state.occupants()
    for port, land in tables(state.ruleset).ports:
        new = after[land]
        if new < 0 or new == before[land]:
            continue
        old = occupants[port]
        if old >= 0 and old != new:
            push(state, "port_capture", port=port, house=new, old=old)


@step("port_capture")
def run_port_capture(state: GameState, frame: dict) -> Decision | None:
    port, h, old = frame["port"], frame["house"], frame["old"]
    ships = int(state.units[port, old, SHIP])
    n = 0
    while n < min(ships, unused_units(state, h, SHIP)) and \
            supply_ok(state, h, {port: n + 1}):
        n += 1
    return Decision(h, DecisionKind.PORT_CAPTURE, tuple(("count", k) for k in range(n + 1)),
                    {"port": port, "ships": ships})


@on_action("port_capture")
def act_port_capture(state: GameState, frame: dict, action: Action) -> None:
    port, h, old = frame["port"], frame["house"], frame["old"]
    state.units[port, old, SHIP] = 0
    state.routed[port, old, SHIP] = 0
    state.units[port, h, SHIP] = action[1]
    state.orders[port] = -1  # the old owner's order goes back to him
    pop(state)


from . import abilities  # noqa: E402,F401  (registers every card's Ability and its steps)
