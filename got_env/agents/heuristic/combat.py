"""Action phase, the combat around the house cards: the public facts of the fight
(:func:`combat_facts`) and the odds of a card (:func:`p_win`); declaring support (D-30, D-31),
the Valyrian Steel Blade (D-39, D-40), casualties (D-43, D-45), the retreat (D-44) and a port's
ships (D-47). The house cards and their texts are in :mod:`.house_cards`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from got_env.engine.decision import Action, DecisionKind
from got_env.engine.state import FIEFDOMS

from .choices import cheapest_unit, choice
from .view import _View

if TYPE_CHECKING:
    from .agent import Handler, HeuristicAgent

K = DecisionKind


def p_win(diff: float, mine: np.ndarray, theirs: np.ndarray, tie_wins: bool) -> np.ndarray:
    """For each of our card strengths, the chance to win by ``diff`` + ours vs one of theirs
    drawn at random (ties go to the better Fiefdoms position)."""
    if mine.size == 0:
        mine = np.zeros(1)
    if theirs.size == 0:
        theirs = np.zeros(1)
    margin = diff + mine[:, None] - theirs[None, :]
    wins = (margin > 0) | ((margin == 0) & tie_wins)
    return wins.mean(axis=1)


def combat_facts(vw: _View) -> dict[str, Any]:
    """The public facts of the combat in progress: area, origin, sides, strengths before
    cards (units, order bonuses, garrison, declared supports)."""
    t = vw.t
    v = vw.v
    area = int(np.argmax(v["combat_area"]))
    origin = int(np.argmax(v["combat_origin"]))
    att = int(np.argmax(v["combat_sides"][0]))
    dfn = int(np.argmax(v["combat_sides"][1]))
    a_str = vw.attack_strength(v["combat_attackers"], area)
    if vw.order[origin] >= 0 and t.tok_type[vw.order[origin]] == "march":
        a_str += float(t.tok_bonus[vw.order[origin]])
    d_str = vw.defence_strength(area, dfn)
    support = v["combat_support"]  # per Support order area: [attacker, defender]
    for s in np.flatnonzero(support[:, 0]):
        a_str += vw.support_value(int(s), area, True)
    for s in np.flatnonzero(support[:, 1]):
        d_str += vw.support_value(int(s), area, False)
    return {"area": area, "origin": origin, "att": att, "dfn": dfn,
            "strength": {att: a_str, dfn: d_str}}


def opponent(c: dict[str, Any]) -> int:
    """Our opponent's relative slot in the combat ``c`` (:func:`combat_facts`)."""
    return c["dfn"] if c["att"] == 0 else c["att"]


def tie_wins(vw: _View, opp: int) -> bool:
    """Whether we win a tie against ``opp``: we stand higher on Fiefdoms."""
    return vw.position(FIEFDOMS, 0) < vw.position(FIEFDOMS, opp)


def declare_support(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-30: our own side always; in others' fights, the side against the rival with more
    castles (nothing if they are level)."""
    c = combat_facts(vw)
    if c["att"] == 0 and choice("support-attacker") in actions:
        return choice("support-attacker")
    if c["dfn"] == 0 and choice("support-defender") in actions:
        return choice("support-defender")
    va, vd = vw.victory_points(c["att"]), vw.victory_points(c["dfn"])
    if va > vd and choice("support-defender") in actions:
        return choice("support-defender")
    if vd > va and choice("support-attacker") in actions:
        return choice("support-attacker")
    return choice("nothing")


def refuse_support(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-31: support given to our side only adds strength: keep it."""
    return choice("keep-support")


def blade_redraw(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-39: redraw a Tides card that adds no strength."""
    side = 0 if combat_facts(vw)["att"] == 0 else 1
    card = np.flatnonzero(vw.v["combat_tides"][side] > 0)
    weak = card.size and vw.t.rs.tides_cards[int(card[0])].strength == 0
    return choice("yes") if weak else choice("no")


def blade_plus_one(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-40: use the Blade only when its +1 can change who wins (it is spent otherwise)."""
    t = vw.t
    c = combat_facts(vw)
    opp = opponent(c)
    mine, theirs = vw.chosen_card(0), vw.chosen_card(opp)
    a = c["strength"][0] + (t.card_strength[mine] if mine >= 0 else 0)
    b = c["strength"][opp] + (t.card_strength[theirs] if theirs >= 0 else 0)
    tie = tie_wins(vw, opp)
    wins_now = a > b or (a == b and tie)
    wins_then = a + 1 > b or (a + 1 == b and tie)
    return choice("yes") if wins_then and not wins_now else choice("no")


def casualty(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-43 / D-45: the cheapest unit first (a losing defender's Siege Engines die in the
    retreat anyway)."""
    return cheapest_unit(vw, actions)


def retreat(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-44: toward safety: our own areas with our units and castles, away from enemies."""
    t = vw.t
    threat = vw.threats()
    areas = [a for a in actions if a[0] == "area"]

    def score(a: Action) -> float:
        b = a[1]
        return (2.0 * (vw.control[b] == 0) + 1.0 * float(vw.mine[b].sum())
                + 0.5 * t.value[b] - threat[b])

    return max(areas, key=score) if areas else actions[0]


def port_capture(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-47: take as many of the ships as allowed: a fleet for free."""
    return max((a for a in actions if a[0] == "count"), key=lambda a: a[1])


HANDLERS: dict[DecisionKind, Handler] = {
    K.DECLARE_SUPPORT: declare_support,
    K.REFUSE_SUPPORT: refuse_support,
    K.BLADE_REDRAW: blade_redraw,
    K.BLADE_PLUS_ONE: blade_plus_one,
    K.CASUALTY: casualty,
    K.RETREAT_AREA: retreat,
    K.RETREAT_SUPPLY_LOSS: casualty,
    K.PORT_CAPTURE: port_capture,
}
