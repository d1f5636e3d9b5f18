"""Bidding on the influence tracks (a Clash of Kings, D-06) and placing tied bidders (D-07).
The wildling bids are in :mod:`.wildlings`."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from got_env.data import TRACKS
from got_env.engine.decision import Action, DecisionKind
from got_env.engine.state import FIEFDOMS, IRON_THRONE, KINGS_COURT

from .choices import best_house_for_us, closest_bid
from .view import _View

if TYPE_CHECKING:
    from .agent import Handler, HeuristicAgent

K = DecisionKind
#: The share of our power (after the wildling reserve) bid on each track.
TRACK_SHARE = {IRON_THRONE: 0.25, FIEFDOMS: 0.35, KINGS_COURT: 0.6}
#: From this wildling threat on, a reserve of our share of it is kept out of the bids.
RESERVE_FROM_THREAT = 6


def influence_bid(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-06: the tracks are bid Iron Throne, Fiefdoms, King's Court in turn. Bid a share of
    our power by the track's worth (King's Court stars most), keep a reserve against a high
    wildling threat, and never more than one above the richest rival's power."""
    if agent._last_kind in (K.INFLUENCE_BID, K.RANK_TIED_BIDDERS):
        agent._bid_track = min(agent._bid_track + 1, len(TRACKS) - 1)
    else:
        agent._bid_track = 0
    power = float(vw.power[0])
    reserve = math.ceil(vw.threat / max(vw.n_players, 1)) \
        if vw.threat >= RESERVE_FROM_THREAT else 0
    budget = max(0.0, power - reserve)
    want = round(TRACK_SHARE[agent._bid_track] * budget)
    richest = max((float(vw.power[r]) for r in vw.rivals), default=0.0)
    bid = int(min(want, richest + 1, power))
    return closest_bid(actions, bid)


def rank_tied(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-07 (placing a tie): ourselves first; else the rival with the fewest castles (never
    help the leader)."""
    return best_house_for_us(vw, actions)


HANDLERS: dict[DecisionKind, Handler] = {
    K.INFLUENCE_BID: influence_bid,
    K.RANK_TIED_BIDDERS: rank_tied,
}
