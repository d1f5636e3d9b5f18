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

from dataclasses import dataclass
from typing import ClassVar

from boardkit.decision import Decision

from ..data import TRACKS
from .decision import Action, DecisionKind
from .frames import GotFrame
from .state import IRON_THRONE, GameState


@dataclass(slots=True)
class BiddingFrame(GotFrame):
    """The Clash of Kings (all set on its first run, none given by whoever pushes it): the
    ``track`` bid on (0-2, 3 when done), the ``bids`` (per house, -1 until it has bid; the
    determinization re-samples them in place), the houses ``placed`` so far, position 1 first."""

    step: ClassVar[str] = "clash_of_kings"
    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"track", "bids", "placed"})

    track: int | None = None
    bids: list[int] | None = None
    placed: list[int] | None = None

    def run(self, state: GameState) -> Decision | None:
        """§9.2: the next bid, the next tie to break, or the next track."""
        if self.track is None:
            self._next_track(state, 0)
        t = self.track
        if t >= len(TRACKS):
            state.stack.pop()
            return None
        waiting = self._waiting(state)
        if waiting:
            h = waiting[0]
            return Decision(player=h, kind=DecisionKind.INFLUENCE_BID,
                            options=tuple([("bid", n) for n in range(int(state.power[h]) + 1)]),
                            context={"track": t}, secret=True)
        group = self._tie_group(state)
        if not group:
            self._finish_track(state)
            return None
        if len(group) == 1:
            self.placed.append(group[0])
            return None
        return Decision(player=state.holder(IRON_THRONE), kind=DecisionKind.RANK_TIED_BIDDERS,
                        options=tuple([("house", h) for h in group]),
                        context={"track": t, "position": len(self.placed) + 1,
                                 "bids": {h: self.bids[h] for h in group}})

    def act(self, state: GameState, action: Action) -> None:
        """A secret bid (D-06) or the placement of one tied house (D-07)."""
        if action[0] == "bid":
            self.bids[self._waiting(state)[0]] = action[1]
        else:
            self.placed.append(action[1])

    def _waiting(self, state: GameState) -> list[int]:
        """Houses that have not bid yet on this track, in turn order."""
        bids = self.bids
        return [h for h in state.turn_order() if bids[h] < 0]

    def _tie_group(self, state: GameState) -> list[int]:
        """The unplaced houses with the highest bid, in turn order (empty once all are
        placed)."""
        bids, placed = self.bids, self.placed
        rest = [h for h in state.turn_order() if h not in placed]
        top = max((bids[h] for h in rest), default=-1)
        return [h for h in rest if bids[h] == top]

    def _next_track(self, state: GameState, track: int) -> None:
        """Start bidding on ``track``: nobody has bid, nobody is placed."""
        self.track = track
        self.bids = [-1] * state.ruleset.num_houses
        self.placed = []

    def _finish_track(self, state: GameState) -> None:
        """§9.2 steps 3.5-3.6: bids to the Power Pool, the new order on the track."""
        t, placed = self.track, self.placed
        for h in placed:
            state.power[h] -= self.bids[h]
        state.tracks[t, : len(placed)] = placed
        self._next_track(state, t + 1)
