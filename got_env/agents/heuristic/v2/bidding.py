"""v2's influence bids (D-06): v1's bid (:func:`..bidding.influence_bid`), scaled by what the
track is worth to this house where it stands, with a little centred noise."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from got_env.engine.decision import Action
from got_env.engine.state import FIEFDOMS, KINGS_COURT

from .. import bidding
from ..choices import closest_bid
from ..view import _View
from .view import _ThreatView

if TYPE_CHECKING:
    from .agent import HeuristicV2Agent

#: The mean of a standard Gumbel draw, taken off where the noise should not bias a bid upward.
EULER_GAMMA = 0.5772


def influence_bid(agent: HeuristicV2Agent, vw: _View, actions: list[Action]) -> Action:
    """D-06: v1's bid (a share of our power per track, a wildling reserve, never more than
    one above the richest rival), with the share scaled by what the track is worth to this
    house where it stands: 1.4x on a track where we stand in the lower half (King's Court:
    where we have no more than one star; they limit our special orders), 1.2x on Fiefdoms
    when our areas are threatened (its ties decide our defences), and a little centred noise
    (``temperature``)."""
    base = bidding.influence_bid(agent, vw, actions)
    track = agent._bid_track
    pos = vw.position(track, 0)
    scale = 1.0
    if track == KINGS_COURT:
        stars = vw.t.stars[vw.n_players][min(pos, vw.n_players - 1)]
        scale = 1.4 if stars <= 1 else 1.0
    elif pos >= vw.n_players / 2:
        scale = 1.4
    if track == FIEFDOMS and isinstance(vw, _ThreatView):
        held = vw.held()
        if any(vw.threats()[a] > held[a] for a in np.flatnonzero(vw.control == 0)):
            scale *= 1.2
    if base[0] != "bid" or (scale == 1.0 and agent.temperature <= 0):
        return base
    power = float(vw.power[0])
    richest = max((float(vw.power[r]) for r in vw.rivals), default=0.0)
    want = base[1] * scale + agent._noise(1.0) - agent.temperature * EULER_GAMMA
    bid = int(max(0, min(round(want), richest + 1, power)))
    return closest_bid(actions, bid)
