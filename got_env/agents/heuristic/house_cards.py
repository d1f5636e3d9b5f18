"""Action phase, the house cards: which card to play (D-32, and its replacement after Tyrion,
D-34), and the choices their texts ask (Tyrion D-33, Aeron D-35, Doran D-36, Mace D-37, Queen of
Thorns D-38, Cersei D-41, Renly D-42, Patchface D-46)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from got_env.engine.decision import Action, DecisionKind

from .choices import choice, strongest_card
from .combat import combat_facts, opponent, p_win, tie_wins
from .view import _View

if TYPE_CHECKING:
    from .agent import Handler, HeuristicAgent

K = DecisionKind
#: How much win chance a card may give up to be cheaper than the best one (v1, every combat).
CARD_SLACK = 0.1
#: Removing an enemy order of each type (Queen of Thorns, Cersei): what hurts us most first.
REMOVAL_PRIORITY = {"march": 3.0, "support": 2.5, "consolidate-power": 2.0, "defense": 1.5,
                    "raid": 1.0}


def card_odds(vw: _View, cards: list[Action]) -> tuple[dict[str, Any], int, np.ndarray,
                                                      np.ndarray]:
    """(combat facts, opponent, our card indices, win chance of each) for the offered
    ``cards``: against a random card of the opponent's visible hand, or against his card
    once it is known (after Tyrion's cancel)."""
    t = vw.t
    c = combat_facts(vw)
    opp = opponent(c)
    diff = c["strength"][0] - c["strength"][opp] if 0 in c["strength"] else 0.0
    chosen = vw.chosen_card(opp)
    theirs = t.card_strength[[chosen]] if chosen >= 0 else t.card_strength[vw.hand(opp)]
    mine = np.array([a[1] for a in cards])
    return c, opp, mine, p_win(diff, t.card_strength[mine], theirs, tie_wins(vw, opp))


def weakest_card(vw: _View, cards: list[Action], mine: np.ndarray) -> Action:
    """The weakest offered card (the one with fewer fortifications on a tie)."""
    t = vw.t
    key = [(t.card_strength[m], -t.card_forts[m]) for m in mine]
    return cards[min(range(len(cards)), key=key.__getitem__)]


def house_card(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-32 / D-34: for each card, the chance to win against a random card of the
    opponent's visible hand. Play the cheapest card that reaches the best chance (strong
    cards are kept when the fight is won anyway); when no card can win, the weakest."""
    cards = [a for a in actions if a[0] == "card"]
    if not cards:
        return actions[0]
    t = vw.t
    _, _, mine, p = card_odds(vw, cards)
    if p.max() <= 0:
        return weakest_card(vw, cards, mine)
    good = [i for i in range(len(cards)) if p[i] >= p.max() - CARD_SLACK]
    i = min(good, key=lambda i: (t.card_strength[mine[i]] - 0.3 * p[i]
                                 - 0.1 * t.card_swords[mine[i]]))
    return cards[i]


def tyrion(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-33: cancel the opponent's card when it is stronger than what he holds on average
    (he must replace it with a weaker one)."""
    opp = opponent(combat_facts(vw))
    card = vw.chosen_card(opp)
    rest = [x for x in vw.hand(opp) if x != card]
    if card >= 0 and rest and vw.t.card_strength[card] > vw.t.card_strength[rest].mean():
        return choice("yes")
    return choice("no")


def aeron(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-35: swap only if another card turns a loss into a likely win (it costs 2 power)."""
    c = combat_facts(vw)
    opp = opponent(c)
    t = vw.t
    mine = vw.chosen_card(0)
    theirs = vw.chosen_card(opp)
    if mine < 0 or theirs < 0:
        return ("done",)
    diff = c["strength"][0] - c["strength"][opp] - t.card_strength[theirs]
    tie = tie_wins(vw, opp)
    now = p_win(diff, t.card_strength[[mine]], np.zeros(1), tie)[0]
    cards = [a for a in actions if a[0] == "card"]
    for a in sorted(cards, key=lambda a: t.card_strength[a[1]]):
        if now < 1 and p_win(diff, t.card_strength[[a[1]]], np.zeros(1), tie)[0] >= 1:
            return a
    return ("done",)


def doran(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-36: send the opponent to the bottom of the track where he stands highest (King's
    Court first on a tie: his stars)."""
    opp = opponent(combat_facts(vw))
    tracks = [a for a in actions if a[0] == "track"]
    return min(tracks, key=lambda a: (vw.position(a[1], opp), -a[1]))


def mace(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-37: any enemy Footman (they are all alike)."""
    return actions[0]


def order_removal(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-38 / D-41: remove the enemy order that hurts us most (:data:`REMOVAL_PRIORITY`),
    next to our areas first, the special one first."""
    t = vw.t
    targets = [a for a in actions if a[0] == "area"]
    if not targets:
        return ("done",)
    near_us = t.adj[:, vw.occupant == 0].any(axis=1)

    def score(a: Action) -> float:
        tok = vw.order[a[1]]
        if tok < 0:
            return 0.0
        return REMOVAL_PRIORITY[t.tok_type[tok]] + 1.0 * near_us[a[1]] + 0.5 * t.tok_special[tok]

    return max(targets, key=score)


def renly(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-42: a Knight is worth more than a Footman: upgrade."""
    units = [a for a in actions if a[0] == "unit"]
    return units[0] if units else ("done",)


def patchface(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-46: discard the opponent's strongest card."""
    return strongest_card(vw, actions)


HANDLERS: dict[DecisionKind, Handler] = {
    K.HOUSE_CARD: house_card,
    K.TYRION_CANCEL: tyrion,
    K.REPLACEMENT_CARD: house_card,
    K.AERON_SWAP: aeron,
    K.DORAN_TRACK: doran,
    K.MACE_FOOTMAN: mace,
    K.QUEEN_OF_THORNS_ORDER: order_removal,
    K.CERSEI_ORDER: order_removal,
    K.RENLY_UPGRADE: renly,
    K.PATCHFACE: patchface,
}
