"""v2's house cards (D-32 / D-34): the stake of the combat decides how much win chance may be
given up to keep a strong card; v1's rule (:func:`..house_cards.house_card`) otherwise."""

from __future__ import annotations

from typing import TYPE_CHECKING

from got_env.engine.decision import Action

from .. import house_cards
from ..house_cards import CARD_SLACK, card_odds
from ..view import _View
from .view import _ThreatView

if TYPE_CHECKING:
    from .agent import HeuristicV2Agent

#: A combat for an area of at least this stake (a castle counts 3) is "at stake".
AT_STAKE = 2.0
#: What an area with a castle or stronghold is at least worth as a stake.
CASTLE_STAKE = 3.0


def house_card(agent: HeuristicV2Agent, vw: _View, actions: list[Action]) -> Action:
    """D-32 / D-34: v1's chance to win per card; but the stake of the area (our home, a
    castle) decides how much chance may be given up to keep a strong card: the agent's
    ``CARD_SLACK_AT_STAKE`` for a home or castle, v1's elsewhere. Among the cards kept, the
    cheapest, with swords counting when we are likely to win and fortifications when we are
    likely to lose; a little noise (``temperature``) breaks near ties."""
    cards = [a for a in actions if a[0] == "card"]
    if not cards or not isinstance(vw, _ThreatView):
        return house_cards.house_card(agent, vw, actions)
    t = vw.t
    c, _, mine, p = card_odds(vw, cards)
    if p.max() <= 0:
        return house_cards.house_card(agent, vw, actions)
    area = c["area"]
    stake = max(vw.stake(area), CASTLE_STAKE * (t.fort[area] > 0))
    slack = agent.CARD_SLACK_AT_STAKE if stake >= AT_STAKE else CARD_SLACK
    good = [i for i in range(len(cards)) if p[i] >= p.max() - slack - 1e-9]
    likely = p.max() >= 0.5

    def cost(i: int) -> float:
        m = mine[i]
        extra = 0.15 * t.card_swords[m] if likely else 0.15 * t.card_forts[m]
        return t.card_strength[m] - 0.3 * p[i] - extra - agent._noise(0.3)

    return cards[min(good, key=cost)]
