"""Clash of Kings: bidding on the influence tracks (§9.2, §9.3; DECISIONS D-06, D-07).

Step ``clash_of_kings`` (pushed by Clash of Kings and Dark Wings, Dark Words). For each track in
the order Iron Throne, Fiefdoms, King's Court (§9.2 step 2):

1. every house bids secretly, 0 to its available power (D-06). Houses are asked in turn order; a
   committed bid stays in this step's frame, never in the observable state, until all have bid;
2. the bids are revealed: higher bids take higher positions; a group of tied houses is placed by
   the Iron Throne holder, one house at a time, in the highest free position (D-07). On the Iron
   Throne track that is the holder *before* this bid, on the other two the new one (§9.2
   tie-break subtlety), which falls out of writing each track only once it is complete;
3. every bid goes to the Power Pool, whatever the result (§9.2 step 3.5);
4. the new order is written to ``state.tracks``; dominance tokens follow position 1 (§9.3).

Reading recorded here: the old positions stay on the track while it is bid on (the rules take
them off, §9.2 step 1); nothing reads a track during its own bidding except the Iron Throne tie
rule, which wants the old holder.

Frame locals (:class:`BiddingFrame`): ``track`` (0-2, 3 when done), ``bids`` (per house, -1
until it has bid), ``placed`` (houses ranked so far on this track, position 1 first).
"""

from __future__ import annotations

from typing import ClassVar

from ..data import TRACKS
from .decision import Action, Decision, DecisionKind
from .flow import pop, step
from .frames import MISSING, Frame, _Missing, frame_class
from .state import IRON_THRONE, GameState


@frame_class
class BiddingFrame(Frame):
    """The Clash of Kings' locals (all set on its first run, none given by whoever pushes it):
    the ``track`` bid on (0-2, 3 when done), the ``bids`` (per house, -1 until it has bid; the
    determinization re-samples them in place), the houses ``placed`` so far, position 1 first."""

    step: ClassVar[str] = "clash_of_kings"

    track: int | _Missing = MISSING
    bids: list[int] | _Missing = MISSING
    placed: list[int] | _Missing = MISSING


def _waiting(state: GameState, frame: BiddingFrame) -> list[int]:
    """Houses that have not bid yet on this track, in turn order."""
    bids = frame.bids
    return [h for h in state.turn_order() if bids[h] < 0]


def _tie_group(state: GameState, frame: BiddingFrame) -> list[int]:
    """The unplaced houses with the highest bid, in turn order (empty once all are placed)."""
    bids, placed = frame.bids, frame.placed
    rest = [h for h in state.turn_order() if h not in placed]
    top = max((bids[h] for h in rest), default=-1)
    return [h for h in rest if bids[h] == top]


def _next_track(state: GameState, frame: BiddingFrame, track: int) -> None:
    """Start bidding on ``track``: nobody has bid, nobody is placed."""
    frame.track = track
    frame.bids = [-1] * state.ruleset.num_houses
    frame.placed = []


def _finish_track(state: GameState, frame: BiddingFrame) -> None:
    """§9.2 steps 3.5-3.6: bids to the Power Pool, the new order on the track."""
    t, placed = frame.track, frame.placed
    for h in placed:
        state.power[h] -= frame.bids[h]
    state.tracks[t, : len(placed)] = placed
    _next_track(state, frame, t + 1)


def act_bidding(state: GameState, frame: BiddingFrame, action: Action) -> None:
    """A secret bid (D-06) or the placement of one tied house (D-07)."""
    if action[0] == "bid":
        frame.bids[_waiting(state, frame)[0]] = action[1]
    else:
        frame.placed.append(action[1])


@step("clash_of_kings", act=act_bidding)
def run_bidding(state: GameState, frame: BiddingFrame) -> Decision | None:
    """§9.2: the next bid, the next tie to break, or the next track.."""
    if frame.track is MISSING:
        _next_track(state, frame, 0)
    t = frame.track
    if t >= len(TRACKS):
        pop(state)
        return None
    waiting = _waiting(state, frame)
    if waiting:
        h = waiting[0]
        return Decision(player=h, kind=DecisionKind.INFLUENCE_BID,
                        options=tuple([("bid", n) for n in range(int(state.power[h]) + 1)]),
                        context={"track": t}, secret=True)
    group = _tie_group(state, frame)
    if not group:
        _finish_track(state, frame)
        return None
    if len(group) == 1:
        frame.placed.append(group[0])
        return None
    return Decision(player=state.holder(IRON_THRONE), kind=DecisionKind.RANK_TIED_BIDDERS,
                    options=tuple([("house", h) for h in group]),
                    context={"track": t, "position": len(frame.placed) + 1,
                             "bids": {h: frame.bids[h] for h in group}})
