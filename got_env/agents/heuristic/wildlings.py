"""Wildlings: the bid against an attack (D-08), its ties (D-09) and the choices the wildling
cards ask of the winner or the loser (D-10..D-18; the Horde Descends' muster, D-19, is
:func:`.mustering.muster`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from got_env.data import TRACKS
from got_env.engine.decision import Action, DecisionKind
from got_env.engine.state import FIEFDOMS, IRON_THRONE, KINGS_COURT

from .choices import best_house_for_us, cheapest_unit, choice, closest_bid, strongest_card
from .view import _View

if TYPE_CHECKING:
    from .agent import Handler, HeuristicAgent

K = DecisionKind
#: From this threat on, one more power than our share goes into the wildling bid.
HIGH_THREAT = 8


def wildling_bid(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-08: our fair share of the threat (threat / players, +1 when it is high), within
    our power: nothing at threat 0. Remember everyone's power to read the bids later."""
    agent._wildling_snapshot = (vw.power.copy(), vw.threat)
    threat = vw.threat
    bid = math.ceil(threat / max(vw.n_players, 1)) + (1 if threat >= HIGH_THREAT else 0)
    return closest_bid(actions, int(min(bid, vw.power[0])))


def wildling_tied(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-09: the bids are the power each house lost since our bid. If the Night's Watch won
    the tie is for the reward: take it, else give it to the weakest rival; if it lost the
    tie is for the penalty: give it to the leading rival, never ourselves."""
    houses = [a for a in actions if a[0] == "house"]
    won = True
    if agent._wildling_snapshot is not None:
        before, threat = agent._wildling_snapshot
        won = float((before - vw.power).clip(min=0).sum()) >= threat
    if won:
        return best_house_for_us(vw, actions)
    others = [a for a in houses if vw.rel(a[1]) != 0] or houses
    return max(others, key=lambda a: vw.victory_points(vw.rel(a[1])))


def preemptive_penalty(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-10: units hold castles; track positions can be bought back: drop on the track."""
    return choice("drop-on-track")


def preemptive_track(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-11: if the offered tracks are exactly where we stand highest, it is our own drop:
    lose Fiefdoms or the Iron Throne, keep King's Court; for a rival, take its King's
    Court (its stars) first."""
    tracks = [a[1] for a in actions if a[0] == "track"]
    every = range(len(TRACKS))
    pos = [vw.position(tr, 0) for tr in every]
    ours = sorted(tr for tr in every if pos[tr] == min(pos)) == sorted(tracks)
    prefer = [FIEFDOMS, IRON_THRONE, KINGS_COURT] if ours else \
        [KINGS_COURT, FIEFDOMS, IRON_THRONE]
    return next(("track", tr) for tr in prefer if tr in tracks)


def destroy_units(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-12: the cheapest unit where it matters least."""
    return cheapest_unit(vw, actions)


def crow_upgrade(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-13: upgrade the Footman facing the strongest enemy."""
    units = [a for a in actions if a[0] == "unit"]
    if not units:
        return ("done",)
    threat = vw.threats()
    return max(units, key=lambda a: threat[a[1]])


def crow_replace(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-14: the Knight facing the least danger goes."""
    threat = vw.threats()
    return min(actions, key=lambda a: threat[a[1]] if a[0] == "unit" else 1e9)


def massing_discard(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-15: discard the weakest card."""
    return min(actions, key=lambda a: vw.t.card_strength[a[1]] if a[0] == "card" else 99)


def king_top(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-16: the top of King's Court (stars), then the Iron Throne, where we are not first."""
    for tr in (KINGS_COURT, IRON_THRONE, FIEFDOMS):
        if ("track", tr) in actions and vw.position(tr, 0) > 0:
            return ("track", tr)
    return actions[0]


def king_bottom(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-17: drop where we lose least: the track we are already lower on (Fiefdoms on a
    tie: King's Court stars are worth more)."""
    return max((a for a in actions if a[0] == "track"),
               key=lambda a: (vw.position(a[1], 0), a[1] == FIEFDOMS))


def mammoth_retrieve(agent: HeuristicAgent, vw: _View, actions: list[Action]) -> Action:
    """D-18: take back the strongest discarded card."""
    return strongest_card(vw, actions)


HANDLERS: dict[DecisionKind, Handler] = {
    K.WILDLING_BID: wildling_bid,
    K.WILDLING_TIED_BIDDER: wildling_tied,
    K.PREEMPTIVE_RAID_PENALTY: preemptive_penalty,
    K.PREEMPTIVE_RAID_TRACK: preemptive_track,
    K.WILDLING_DESTROY_UNITS: destroy_units,
    K.CROW_KILLERS_UPGRADE: crow_upgrade,
    K.CROW_KILLERS_REPLACE: crow_replace,
    K.MASSING_DISCARD: massing_discard,
    K.KING_BEYOND_THE_WALL_TOP: king_top,
    K.KING_BEYOND_THE_WALL_BOTTOM: king_bottom,
    K.MAMMOTH_RIDERS_RETRIEVE: mammoth_retrieve,
}
